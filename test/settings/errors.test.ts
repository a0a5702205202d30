import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/contract/index.js";
import { settingsFixture, type SettingsFixture } from "./helpers.js";

let fx: SettingsFixture;
beforeEach(() => {
  fx = settingsFixture();
});
afterEach(() => fx.cleanup());

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error("no ConfigError");
}

describe("a malformed settings file stops deepcode with the file, line and column", () => {
  for (const layer of ["user", "project", "local", "flag"] as const) {
    it(`names the ${layer} file`, () => {
      const file = fx.put(fx.files[layer], '{\n  "model": "x",\n  "theme": "dark",\n}\n');
      const err = configError(() => fx.load(true));
      expect(err).toMatchObject({ file, line: 4, column: 1 });
      expect(err.message).toBe(`${file}:4:1: trailing comma before '}'`);
    });
  }

  it("says that comments are not accepted", () => {
    fx.put(fx.files.project, '{\n  // allow the tests\n  "permissions": {}\n}');
    expect(configError(() => fx.load()).message).toMatch(/:2:3: comments are not allowed: settings files are strict JSON \(JSON with comments is not accepted\)/);
  });

  it("refuses settings that are not an object", () => {
    fx.put(fx.files.user, '["Bash"]');
    expect(configError(() => fx.load()).message).toMatch(/settings must be a JSON object/);
  });
});

describe("a key of the wrong type stops deepcode, naming the key", () => {
  const cases: Array<[string, unknown, string, RegExp]> = [
    ["permissions.allow as a string", { permissions: { allow: "Bash" } }, "permissions.allow", /'permissions.allow' must be an array of strings, not the string "Bash"/],
    ["a rule that is not a string", { permissions: { deny: ["Bash(rm:*)", 3] } }, "permissions.deny[1]", /'permissions.deny\[1\]' must be a string, not number 3/],
    ["model as a number", { model: 4 }, "model", /'model' must be a string/],
    ["currency outside its values", { currency: "EUR" }, "currency", /'currency' must be one of "CNY", "USD"/],
    ["budget.daily as a string", { budget: { daily: "5" } }, "budget.daily", /'budget.daily' must be a number/],
    ["sandbox.enabled as a string", { sandbox: { enabled: "yes" } }, "sandbox.enabled", /'sandbox.enabled' must be true or false/],
    ["env values that are not strings", { env: { A: 1 } }, "env.A", /'env.A' must be a string/],
    ["hooks as an array", { hooks: [] }, "hooks", /'hooks' must be an object/],
  ];
  for (const [name, content, key, message] of cases) {
    it(`refuses ${name}`, () => {
      const file = fx.put(fx.files.project, content);
      const err = configError(() => fx.load());
      expect(err.file).toBe(file);
      expect(err.message).toMatch(message);
      expect(err.message).toContain(`'${key}'`);
      expect(err.line).toBeGreaterThan(1);
    });
  }

  it("counts the other type errors in the same file", () => {
    fx.put(fx.files.project, { model: 1, theme: 2, currency: 3 });
    expect(configError(() => fx.load()).message).toMatch(/\(and 2 more type errors\)/);
  });
});

describe("unknown keys are warned about once", () => {
  it("warns once per key, with file and position, and drops the key", () => {
    fx.put(fx.files.user, { modle: "x", permissions: { alow: [] } });
    fx.put(fx.files.project, { modle: "y" });
    const s = fx.load();
    const unknown = s.warnings.filter((w) => w.includes("unknown setting"));
    expect(unknown).toHaveLength(2);
    expect(unknown[0]).toBe(`${fx.files.user}:2:3: unknown setting 'modle' (ignored)`);
    expect(unknown[1]).toMatch(/unknown setting 'permissions.alow'/);
    expect(s.merged.modle).toBeUndefined();
  });

  it("accepts a Claude Code settings file unchanged, noting the keys deepcode does not use", () => {
    fx.put(fx.files.project, {
      $schema: "https://json.schemastore.org/claude-code-settings.json",
      permissions: { allow: ["Bash(npm run lint)"], deny: ["Read(./.env)"], defaultMode: "acceptEdits" },
      env: { FOO: "bar" },
      includeCoAuthoredBy: false,
      hooks: { PostToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: "prettier --write" }] }] },
      sandbox: { enabled: true, network: { allowUnixSockets: ["/var/run/docker.sock"] } },
    });
    const s = fx.load();
    expect(s.rules).toHaveLength(2);
    expect(s.warnings.filter((w) => w.includes("Claude Code setting deepcode does not use"))).toHaveLength(2);
    expect(s.warnings.some((w) => w.includes("unknown"))).toBe(false);
  });

  it("warns about a key given twice", () => {
    fx.put(fx.files.user, '{"model": "a", "model": "b"}');
    const s = fx.load();
    expect(s.merged.model).toBe("b");
    expect(s.warnings.join("\n")).toMatch(/'model' appears twice/);
  });
});
