// `deepcode sandbox` and `deepcode sandbox --profile` through the real CLI (the sandbox mod's
// subcommand): the Seatbelt profile a Mac would use for this project, printed, not run; and
// the one line saying what contains commands here. Needs `npx tsc -p tsconfig.json` first.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN } from "../helpers/cli-env.js";
import { decide, readSbpl, rulesOf } from "../sandbox/sbpl.js";

let base: string;
let root: string;
let home: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-sbcli-")));
  home = join(base, "home");
  root = join(home, "proj");
  mkdirSync(root, { recursive: true });
  mkdirSync(join(home, ".deepcode"));
  writeFileSync(join(root, ".env"), "TOKEN=x\n");
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: root,
      env: { HOME: home, DEEPCODE_HOME: join(home, ".deepcode"), PATH: process.env.PATH ?? "/usr/bin:/bin", NO_COLOR: "1", DEEPSEEK_API_KEY: "sk-test-cli", DEEPSEEK_BASE_URL: "http://127.0.0.1:9" },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 60_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("deepcode sandbox --profile", () => {
  it("prints a Seatbelt profile that starts from nothing and grants the project, and creates nothing", async () => {
    const r = await cli(["sandbox", "--profile"]);
    expect(r.code, r.stderr).toBe(0);
    const forms = readSbpl(r.stdout);
    expect(forms.slice(0, 2)).toEqual([["version", "1"], ["deny", "default"]]);
    const rules = rulesOf(forms);
    expect(decide(rules, "file-write-data", join(root, "src", "a.ts"))).toBe("allow");
    expect(decide(rules, "file-read-data", join(root, ".env"))).toBe("deny");
    expect(decide(rules, "file-read-data", join(home, ".deepcode", "credentials"))).toBe("deny");
    expect(decide(rules, "file-write-data", join(root, ".deepcode", "settings.json"))).toBe("deny");
    expect(r.stderr).toContain("this profile has not run on a Mac yet");
    expect(existsSync(join(root, ".deepcode"))).toBe(false);
  });

  it("is named in its --help", async () => {
    const r = await cli(["sandbox", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--profile\s+print the macOS Seatbelt profile/);
  });
});

describe("deepcode sandbox", () => {
  it("says in one line what contains Bash commands here, or what protects you without it", async () => {
    const r = await cli(["sandbox"]);
    expect(r.code, r.stderr).toBe(0);
    const line = r.stdout.trim();
    expect(line.split("\n")).toHaveLength(1);
    expect(line).toMatch(/^Bash sandbox: (bubblewrap .*runs? without a question|not active .*permission gate decides)/);
  });
});
