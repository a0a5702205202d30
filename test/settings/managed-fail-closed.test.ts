// The managed policy fails closed: anything at the managed path or in managed-settings.d/ that
// deepcode cannot read and apply exactly as written makes the policy broken (deny-all, loudly),
// rather than being skipped — an administrator's mistake must never quietly lift the policy.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { KNOWN_HOOK_EVENTS } from "../../src/cli/settings/strict.js";
import { HOOK_EVENTS } from "../../mods/hooks/config.js";
import { settingsFixture, type SettingsFixture } from "./helpers.js";

let fx: SettingsFixture;
beforeEach(() => {
  fx = settingsFixture();
  mkdirSync(dirname(fx.files.managed), { recursive: true });
});
afterEach(() => fx.cleanup());

const raw = (file: string, text: string): void => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};

function brokenBy(problem: RegExp): void {
  const s = fx.load();
  expect(s.managed.state, s.managed.problem).toBe("broken");
  expect(s.managed.problem).toMatch(problem);
  expect(s.warnings.join("\n")).toMatch(/MANAGED POLICY IS BROKEN: .*every tool call is denied/);
  expect(s.rules.filter((r) => r.layer === "managed")).toEqual([]);
}

describe("a managed policy deepcode cannot apply exactly as written is broken", () => {
  const cases: Array<[string, () => void, RegExp]> = [
    ["a 0-byte managed-settings.json", () => raw(fx.files.managed, ""), /managed-settings\.json: is empty/],
    ["a managed-settings.json of only whitespace", () => raw(fx.files.managed, " \n\t\n"), /is empty/],
    ["a dangling symlink at managed-settings.json", () => symlinkSync(join(fx.managedPath, "..", "gone.json"), fx.files.managed), /is a symlink that leads nowhere/],
    ["a folder at managed-settings.json", () => mkdirSync(fx.files.managed), /is a folder, where a managed settings file was expected/],
    ["a drop-in named 30-deny.JSON", () => fx.put(fx.files.dropIn("30-deny.JSON"), { permissions: { deny: ["Bash"] } }), /30-deny\.JSON: deepcode reads only drop-in files named \*\.json/],
    ["a dotfile drop-in", () => fx.put(fx.files.dropIn(".40-deny.json"), { permissions: { deny: ["Bash"] } }), /\.40-deny\.json: deepcode reads only/],
    ["a drop-in that is not .json", () => raw(fx.files.dropIn("deny.txt"), "{}"), /deny\.txt: deepcode reads only/],
    ["an editor's backup drop-in", () => raw(fx.files.dropIn("10-deny.json~"), "{}"), /10-deny\.json~: deepcode reads only/],
    ["a folder named like a drop-in", () => mkdirSync(fx.files.dropIn("50-deny.json"), { recursive: true }), /50-deny\.json: is a folder/],
    ["a dangling symlink drop-in", () => (mkdirSync(dirname(fx.files.dropIn("x")), { recursive: true }), symlinkSync("/nonexistent/policy.json", fx.files.dropIn("60-deny.json"))), /60-deny\.json: is a symlink that leads nowhere/],
    ["a file where the drop-in folder should be", () => raw(join(dirname(fx.files.managed), "managed-settings.d"), "{}"), /managed-settings\.d: is not a regular file, where a managed drop-in folder was expected|managed-settings\.d: is .*drop-in folder/],
    ["a misspelt key (permisions)", () => fx.put(fx.files.managed, { permisions: { deny: ["Bash"] } }), /unknown setting 'permisions': deepcode cannot apply a managed policy it does not understand/],
    ["an unknown key inside permissions", () => fx.put(fx.files.managed, { permissions: { deny: ["Bash(curl:*)"], denny: ["Bash"] } }), /unknown setting 'permissions\.denny'/],
    ["a key given twice", () => raw(fx.files.managed, '{ "permissions": { "deny": ["Bash(curl:*)"] }, "permissions": { "allow": [] } }'), /'permissions' appears twice/],
    ["defaultMode plan", () => fx.put(fx.files.managed, { permissions: { defaultMode: "plan" } }), /'permissions\.defaultMode'/],
    ["a misspelt hook event (PreTooluse)", () => fx.put(fx.files.managed, { hooks: { PreTooluse: [{ matcher: "Bash", hooks: [{ type: "command", command: "exit 2" }] }] } }), /'hooks\.PreTooluse' is not a hook event/],
    ["a drop-in with a misspelt key", () => (fx.put(fx.files.managed, {}), fx.put(fx.files.dropIn("10-x.json"), { permisions: {} })), /10-x\.json.*unknown setting 'permisions'/],
  ];
  for (const [what, make, problem] of cases) {
    it(`${what}`, () => {
      fx.put(fx.files.user, { permissions: { allow: ["Bash"] } });
      make();
      brokenBy(problem);
    });
  }
});

describe("what the managed layer still accepts", () => {
  it("knows every hook event deepcode runs", () => {
    for (const e of HOOK_EVENTS) expect(KNOWN_HOOK_EVENTS.has(e), e).toBe(true);
  });

  it("no file and no drop-in folder at all: no policy", () => {
    expect(fx.load().managed.state).toBe("absent");
  });

  it("an empty object, and an empty drop-in folder", () => {
    fx.put(fx.files.managed, {});
    mkdirSync(dirname(fx.files.dropIn("x")), { recursive: true });
    expect(fx.load().managed.state).toBe("ok");
  });

  it("Claude Code keys whose ignoring leaves deepcode at least as strict: disableBypassPermissionsMode, sandbox loosenings, helper commands", () => {
    fx.put(fx.files.managed, {
      permissions: { deny: ["Bash(curl:*)"], disableBypassPermissionsMode: "disable", defaultMode: "default" },
      sandbox: { enabled: true, allowUnsandboxedCommands: false, excludedCommands: ["docker"] },
      apiKeyHelper: "/bin/get-key",
      hooks: { PreToolUse: [], SubagentStop: [] },
      cleanupPeriodDays: 30,
      enableAllProjectMcpServers: false,
    });
    const s = fx.load();
    expect(s.managed.state, s.managed.problem).toBe("ok");
    expect(s.rules.map((r) => r.text)).toEqual(["Bash(curl:*)"]);
  });

  it("a symlink to a policy file, and a drop-in that is a symlink to one", () => {
    const real = join(fx.managedPath, "..", "real.json");
    fx.put(real, { permissions: { deny: ["Bash(a:*)"] } });
    symlinkSync(real, fx.files.managed);
    mkdirSync(dirname(fx.files.dropIn("x")), { recursive: true });
    symlinkSync(real, fx.files.dropIn("10-linked.json"));
    const s = fx.load();
    expect(s.managed.state, s.managed.problem).toBe("ok");
    expect(s.managed.files).toHaveLength(2);
  });
});
