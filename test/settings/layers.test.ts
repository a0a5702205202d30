import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/contract/index.js";
import { settingsFixture, type SettingsFixture } from "./helpers.js";

let fx: SettingsFixture;
beforeEach(() => {
  fx = settingsFixture();
});
afterEach(() => fx.cleanup());

describe("five settings layers, low to high: user → project → local → flag → managed", () => {
  it("reads every layer and says which files are present", () => {
    fx.put(fx.files.user, { model: "user-model" });
    fx.put(fx.files.local, { model: "local-model" });
    const s = fx.load();
    expect(s.layers.map((l) => [l.name, l.present])).toEqual([
      ["user", true],
      ["project", false],
      ["local", true],
    ]);
    expect(s.layers[0].file).toBe(fx.files.user);
    expect(s.managed.state).toBe("absent");
  });

  it("lets a later layer win a key", () => {
    fx.put(fx.files.user, { model: "u", theme: "dark" });
    fx.put(fx.files.project, { model: "p" });
    fx.put(fx.files.local, { model: "l" });
    fx.put(fx.files.flag, { model: "f" });
    expect(fx.load(true).merged).toMatchObject({ model: "f", theme: "dark" });
    fx.put(fx.files.managed, { model: "m" });
    expect(fx.load(true).merged.model).toBe("m");
  });

  it("merges objects one level deep", () => {
    fx.put(fx.files.user, { env: { A: "1", B: "1" }, budget: { daily: 5, monthly: 50 } });
    fx.put(fx.files.project, { env: { B: "2" }, budget: { daily: 2 } });
    expect(fx.load().merged).toMatchObject({ env: { A: "1", B: "2" }, budget: { daily: 2, monthly: 50 } });
  });

  it("accumulates permission rules across layers, each remembering its layer, file and line", () => {
    fx.put(fx.files.user, '{\n  "permissions": {\n    "allow": ["Bash(ls:*)"],\n    "deny": ["Bash(rm:*)"]\n  }\n}');
    fx.put(fx.files.project, { permissions: { allow: ["Edit(src/**)"], ask: ["Bash(git push:*)"] } });
    fx.put(fx.files.managed, { permissions: { deny: ["Bash(curl:*)"] } });
    const s = fx.load();
    expect(s.rules.map((r) => [r.kind, r.text, r.layer])).toEqual([
      ["allow", "Bash(ls:*)", "user"],
      ["deny", "Bash(rm:*)", "user"],
      ["allow", "Edit(src/**)", "project"],
      ["ask", "Bash(git push:*)", "project"],
      ["deny", "Bash(curl:*)", "managed"],
    ]);
    expect(s.rules[0]).toMatchObject({ file: fx.files.user, line: 3, column: 15 });
    expect(s.merged.permissions).toMatchObject({ allow: ["Bash(ls:*)", "Edit(src/**)"], deny: ["Bash(rm:*)", "Bash(curl:*)"], ask: ["Bash(git push:*)"] });
  });

  it("accumulates additionalDirectories and hooks across layers", () => {
    const hook = (cmd: string) => ({ matcher: "Bash", hooks: [{ type: "command", command: cmd }] });
    fx.put(fx.files.user, { permissions: { additionalDirectories: ["../shared"] }, hooks: { PreToolUse: [hook("a")] } });
    fx.put(fx.files.project, { permissions: { additionalDirectories: ["/opt/data"] }, hooks: { PreToolUse: [hook("b")], Stop: [hook("c")] } });
    const m = fx.load().merged;
    expect(m.permissions).toMatchObject({ additionalDirectories: ["../shared", "/opt/data"] });
    expect(m.hooks).toEqual({ PreToolUse: [hook("a"), hook("b")], Stop: [hook("c")] });
  });

  it("keeps only the managed policy's hooks when it sets allowManagedHooksOnly", () => {
    const hook = (cmd: string) => ({ hooks: [{ type: "command", command: cmd }] });
    fx.put(fx.files.user, { hooks: { Stop: [hook("user")] } });
    fx.put(fx.files.managed, { allowManagedHooksOnly: true, hooks: { Stop: [hook("admin")] } });
    expect(fx.load().merged.hooks).toEqual({ Stop: [hook("admin")] });
  });

  it("ignores allowManagedHooksOnly outside the managed policy, with a warning", () => {
    fx.put(fx.files.project, { allowManagedHooksOnly: true });
    const s = fx.load();
    expect(s.merged.allowManagedHooksOnly).toBeUndefined();
    expect(s.warnings.join("\n")).toMatch(/only honoured in the managed policy/);
  });

  it("treats an empty file as empty settings", () => {
    fx.put(fx.files.project, "  \n");
    const s = fx.load();
    expect(s.layers[1]).toMatchObject({ present: true, settings: {} });
  });

  it("refuses to start when the --settings file does not exist", () => {
    expect(() => fx.load(true)).toThrow(ConfigError);
    expect(() => fx.load(true)).toThrow(/flag-settings\.json: settings file not found/);
  });
});
