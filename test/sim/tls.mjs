// @ts-check
// A throwaway self-signed certificate for 127.0.0.1, for tests that need the simulator (or a
// proxy) to speak https. Made with the `openssl` command at first use and kept for the process;
// null when openssl is not installed (tests then skip what needs it). No key is stored in git.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** @type {{ key: string, cert: string } | null | undefined} */
let made;

/** @returns {{ key: string, cert: string } | null} */
export function selfSignedCert() {
  if (made !== undefined) return made;
  const dir = mkdtempSync(join(tmpdir(), "deepcode-sim-tls-"));
  try {
    const r = spawnSync("openssl", [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
      "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
      "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"),
    ], { stdio: "ignore" });
    made = r.status === 0 ? { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") } : null;
  } catch {
    made = null; // openssl missing or unusable: callers skip the https cases
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return made;
}
