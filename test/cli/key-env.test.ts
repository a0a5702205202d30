// The API key out of deepcode's own environment (src/cli/key-env.ts): taken into the module,
// deleted from process.env, wiped from the start-up environment /proc shows. Run in a child
// process of its own: sealing changes the process it runs in.
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { KEY_ENV_NAMES, keyEnvWarning } from "../../src/cli/key-env.js";
import { ENDPOINTS } from "../../src/providers/index.js";
import { keyEnvCheck } from "../../src/cli/doctor.js";
import { REPO } from "../permissions-e2e/helpers.js";

function child(code: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ["--input-type=module", "-e", code], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    c.stdout.on("data", (b: Buffer) => (out += b.toString("utf8")));
    c.on("error", reject);
    c.on("close", () => resolve(out));
  });
}

describe("sealing the API key variables", () => {
  it("seals every variable an endpoint reads its key from", () => {
    for (const e of ENDPOINTS) expect(KEY_ENV_NAMES).toContain(e.keyEnv);
  });

  it.skipIf(process.platform !== "linux")("keeps the key for deepcode, removes it from process.env and from /proc/self/environ, and leaves other variables alone", async () => {
    const mod = join(REPO, "dist", "src", "cli", "key-env.js");
    const out = await child(
      `import { readFileSync } from "node:fs";
       const { sealKeyEnv, sealedKey, keyFromEnv } = await import(${JSON.stringify(mod)});
       const state = sealKeyEnv();
       const environ = readFileSync("/proc/self/environ", "latin1");
       console.log(JSON.stringify({ state, kept: sealedKey("DEEPSEEK_API_KEY"), viaEnv: keyFromEnv(process.env, "DEEPSEEK_API_KEY"), inEnv: "DEEPSEEK_API_KEY" in process.env,
         leaked: environ.includes("sk-seal-test-123456"), other: environ.includes("OTHER=still-here"), copy: environ.includes("COPY=") && !environ.includes("COPY=sk-seal") }));`,
      { DEEPSEEK_API_KEY: "sk-seal-test-123456", OTHER: "still-here", COPY: "sk-seal-test-123456" },
    );
    expect(JSON.parse(out)).toEqual({ state: { state: "scrubbed", names: ["DEEPSEEK_API_KEY"] }, kept: "sk-seal-test-123456", viaEnv: "sk-seal-test-123456", inEnv: false, leaked: false, other: true, copy: true });
  });

  it("says loudly when the key could not be wiped, and doctor reports it with the fix", () => {
    const s = { state: "exposed" as const, names: ["DEEPSEEK_API_KEY"], why: "on darwin deepcode cannot change the environment it was started with" };
    expect(keyEnvWarning(s)).toMatch(/^WARNING: DEEPSEEK_API_KEY stays readable in deepcode's process environment \(on darwin .*\), so a command run without the sandbox can print it \(ps eww\)\. Store the key with `deepcode setup`/);
    expect(keyEnvCheck(s, "darwin")).toMatchObject({ id: "key-env", status: "warn", fix: "store the key with `deepcode setup` and unset the variable" });
    expect(keyEnvCheck({ state: "scrubbed", names: ["DEEPSEEK_API_KEY"] }, "linux", "1")).toMatchObject({ status: "ok", detail: "DEEPSEEK_API_KEY removed: commands cannot read it (ps eww, /proc/<pid>/environ)" });
    expect(keyEnvCheck({ state: "scrubbed", names: ["DEEPSEEK_API_KEY"] }, "linux", "0").detail).toMatch(/could still read deepcode's memory with a debugger \(Yama ptrace_scope is 0\)/);
  });
});
