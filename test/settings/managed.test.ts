import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chmodSync, mkdirSync } from "node:fs";
import { compileRules, decide } from "../../src/cli/permissions/index.js";
import { defaultManagedPath, type LoadedSettings } from "../../src/cli/settings/index.js";
import { settingsFixture, type SettingsFixture } from "./helpers.js";

let fx: SettingsFixture;
beforeEach(() => {
  fx = settingsFixture();
});
afterEach(() => fx.cleanup());

function decideWith(s: LoadedSettings, command: string): string {
  const env = { root: fx.root, home: fx.home, cwd: fx.root, managedBroken: s.managed.state === "broken" };
  return decide({ tool: "Bash", input: { command }, readOnly: false }, compileRules(s.rules).rules, env).decision;
}

describe("the managed policy", () => {
  it("wins with a deny over allows in every other layer", () => {
    for (const f of [fx.files.user, fx.files.project, fx.files.local, fx.files.flag]) fx.put(f, { permissions: { allow: ["Bash(curl:*)"] } });
    fx.put(fx.files.managed, { permissions: { deny: ["Bash(curl:*)"] } });
    const s = fx.load(true);
    expect(s.managed).toMatchObject({ state: "ok", files: [fx.files.managed] });
    expect(decideWith(s, "curl https://x")).toBe("deny");
  });

  it("merges drop-in files after the managed file, in name order", () => {
    fx.put(fx.files.managed, { model: "base", permissions: { deny: ["Bash(a:*)"] } });
    fx.put(fx.files.dropIn("20-late.json"), { model: "late", permissions: { deny: ["Bash(c:*)"] } });
    fx.put(fx.files.dropIn("10-early.json"), { model: "early", permissions: { deny: ["Bash(b:*)"] } });
    const s = fx.load();
    expect(s.managed.files).toEqual([fx.files.managed, fx.files.dropIn("10-early.json"), fx.files.dropIn("20-late.json")]);
    expect(s.merged.model).toBe("late");
    expect(s.rules.map((r) => r.text)).toEqual(["Bash(a:*)", "Bash(b:*)", "Bash(c:*)"]);
  });

  it("reads drop-ins even when the managed file itself is absent", () => {
    fx.put(fx.files.dropIn("policy.json"), { permissions: { deny: ["Bash(curl:*)"] } });
    const s = fx.load();
    expect(s.managed.state).toBe("ok");
    expect(decideWith(s, "curl x")).toBe("deny");
  });

  it("turns a malformed managed file into deny-all, loudly, instead of an exception", () => {
    fx.put(fx.files.user, { permissions: { allow: ["Bash"] } });
    fx.put(fx.files.managed, '{ "permissions": { "deny": ["Bash(curl:*)"], } }');
    const s = fx.load();
    expect(s.managed.state).toBe("broken");
    expect(s.managed.problem).toContain(`${fx.files.managed}:1:46`);
    expect(s.warnings.some((w) => w.startsWith("MANAGED POLICY IS BROKEN") && w.includes(fx.files.managed))).toBe(true);
    expect(decideWith(s, "ls")).toBe("deny");
  });

  it("treats a type error or a broken drop-in the same way", () => {
    fx.put(fx.files.managed, { permissions: { deny: "Bash" } });
    expect(fx.load().managed.state).toBe("broken");
    fx.put(fx.files.managed, { model: "ok" });
    fx.put(fx.files.dropIn("50-x.json"), "{ nope");
    const s = fx.load();
    expect(s.managed.state).toBe("broken");
    expect(s.merged.model).toBeUndefined();
  });

  it("is not moved by anything a user sets: the path is a parameter, never read from the environment", () => {
    fx.put(fx.files.managed, { permissions: { deny: ["Bash(curl:*)"] } });
    const elsewhere = fx.put(`${fx.root}/fake-managed.json`, {});
    const saved = { ...process.env };
    try {
      for (const k of ["DEEPCODE_MANAGED_SETTINGS", "DEEPCODE_MANAGED", "DEEPCODE_POLICY"]) process.env[k] = elsewhere;
      process.env.ProgramData = fx.root;
      const s = fx.load();
      expect(s.managed.files).toEqual([fx.files.managed]);
      expect(decideWith(s, "curl x")).toBe("deny");
      expect(defaultManagedPath("win32")).toBe("C:\\ProgramData\\deepcode\\managed-settings.json");
    } finally {
      process.env = saved;
    }
  });

  it("lives at a fixed path per OS", () => {
    expect(defaultManagedPath("linux")).toBe("/etc/deepcode/managed-settings.json");
    expect(defaultManagedPath("darwin")).toBe("/Library/Application Support/deepcode/managed-settings.json");
    expect(defaultManagedPath("win32")).toBe("C:\\ProgramData\\deepcode\\managed-settings.json");
  });

  it("reads an empty drop-in folder as no drop-ins", () => {
    fx.put(fx.files.managed, {});
    mkdirSync(fx.files.dropIn(""), { recursive: true });
    expect(fx.load().managed).toMatchObject({ state: "ok", files: [fx.files.managed] });
  });

  it.skipIf(process.getuid?.() === 0)("counts an unreadable drop-in folder as broken", () => {
    fx.put(fx.files.managed, {});
    mkdirSync(fx.files.dropIn(""), { recursive: true });
    chmodSync(fx.files.dropIn(""), 0o000);
    try {
      expect(fx.load().managed.state).toBe("broken");
    } finally {
      chmodSync(fx.files.dropIn(""), 0o755);
    }
  });
});
