// Checking a managed policy before it is deployed (issue #42, item 3) and how the doctor judges
// the deployed one (item 8): as an administrator would use them — `deepcode policy check FILE`
// on a policy ported from Claude Code with mistakes in it, and `deepcode doctor` on a policy
// file anyone may rewrite, a symlink, or a broken drop-in.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runPolicy } from "../../src/cli/policy-check.js";
import { settingsChecks } from "../../src/cli/commands/doctor-settings.js";

let dir = "";
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = "";
});

function policyFile(text: string, mode = 0o644): string {
  dir = mkdtempSync(join(tmpdir(), "deepcode-policy-"));
  const file = join(dir, "managed-settings.json");
  writeFileSync(file, text);
  chmodSync(file, mode);
  return file;
}

function check(file: string): { code: number; text: string } {
  let text = "";
  const code = runPolicy(["check", file], (t) => void (text += t));
  return { code, text };
}

const PORTED = `{
  "permissions": {
    "deny": ["Read(.env)", "Bash(git push:"],
    "allow": ["Bash(npm test:*)"]
  },
  "availableModels": "deepseek-chat",
  "cleanupPeriodDays": 30,
  "frobnicate": 1,
  "hooks": { "PermissionRequest": [], "PreTooluse": [] }
}
`;

describe("deepcode policy check", () => {
  it("names every problem with its file and line, not only the first, and exits 1", () => {
    const file = policyFile(PORTED);
    const r = check(file);
    expect(r.code).toBe(1);
    expect(r.text).toContain(`${file}:3:28: error: deny rule "Bash(git push:"`);
    expect(r.text).toContain(`${file}:6:3: error: 'availableModels' must be an array of strings`);
    expect(r.text).toContain(`${file}:8:3: error: unknown setting 'frobnicate'`);
    expect(r.text).toMatch(/:9:\d+: error: 'hooks\.PreTooluse' is not a hook event/);
    expect(r.text).toMatch(/broken: 4 errors, 2 ignored keys, 0 warnings — deepcode would deny every tool call/);
  });

  it("says which keys are ignored and why, and passes a policy deepcode can apply (exit 0)", () => {
    const file = policyFile('{\n  "permissions": { "deny": ["Read(.env)"] },\n  "cleanupPeriodDays": 30,\n  "hooks": { "PermissionRequest": [] }\n}\n');
    const r = check(file);
    expect(r.code).toBe(0);
    expect(r.text).toContain(`${file}:3:3: ignored: 'cleanupPeriodDays' is Claude Code's; deepcode does not apply it`);
    expect(r.text).toMatch(/:4:\d+: ignored: 'hooks\.PermissionRequest' is a Claude Code hook event deepcode does not run/);
    expect(r.text).toMatch(/^ok: 0 errors, 2 ignored keys, 0 warnings$/m);
  });

  it("warns about a policy file every user can rewrite", () => {
    const r = check(policyFile("{}\n", 0o666));
    expect(r.text).toMatch(/warning: is writable by every user \(mode 666\)/);
  });
});

describe("deepcode doctor on the deployed policy", () => {
  const managed = (file: string) => settingsChecks({ root: dir, managedPath: file, env: {} }, join(dir, "home")).find((c) => c.id === "managed")!;

  it("does not call a world-writable policy file fine", () => {
    const file = policyFile('{ "permissions": { "deny": ["Read(.env)"] } }\n', 0o666);
    const c = managed(file);
    expect(c.status).toBe("warn");
    expect(c.detail).toMatch(/is writable by every user/);
  });

  it("does not call a symlinked policy file fine", () => {
    const target = policyFile('{ "permissions": { "deny": ["Read(.env)"] } }\n');
    const link = join(dir, "linked-settings.json");
    symlinkSync(target, link);
    const c = managed(link);
    expect(c.status).toBe("warn");
    expect(c.detail).toMatch(/is a symlink/);
  });

  it("names the drop-in at fault in its fix line, not the main file", () => {
    const file = policyFile("{}\n");
    mkdirSync(join(dir, "managed-settings.d"));
    const dropIn = join(dir, "managed-settings.d", "20-hooks.json");
    writeFileSync(dropIn, "{ nope");
    const c = managed(file);
    expect(c.status).toBe("fail");
    expect(c.fix).toBe(`an administrator must fix ${dropIn} (\`deepcode policy check ${dropIn}\` lists every problem in it)`);
  });
});
