import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionRules } from "../../src/cli/permissions/index.js";
import { describeRules, formatRules } from "../../src/cli/settings/index.js";
import { settingsFixture, type SettingsFixture } from "./helpers.js";

let fx: SettingsFixture;
beforeEach(() => {
  fx = settingsFixture();
});
afterEach(() => fx.cleanup());

describe("/permissions lists every rule with the layer it came from", () => {
  it("lists settings rules in layer order, then the session's, and flags the ignored ones", () => {
    fx.put(fx.files.user, { permissions: { allow: ["Bash(ls:*)", "Glob(git:*)"] } });
    fx.put(fx.files.managed, { permissions: { deny: ["Bash(curl:*)"] } });
    const session = new SessionRules();
    session.add("Bash(npm test:*)");
    const list = describeRules(fx.load(), session.rules());
    expect(list.map((r) => [r.kind, r.text, r.layer, r.file])).toEqual([
      ["allow", "Bash(ls:*)", "user", fx.files.user],
      ["allow", "Glob(git:*)", "user", fx.files.user],
      ["deny", "Bash(curl:*)", "managed", fx.files.managed],
      ["allow", "Bash(npm test:*)", "session", undefined],
    ]);
    expect(list[1].ignored).toMatch(/Glob takes no specifier/);
    expect(list[0].ignored).toBeUndefined();
  });

  it("prints them grouped deny, ask, allow, with file and line", () => {
    fx.put(fx.files.project, { permissions: { deny: ["Bash(rm:*)"], allow: ["Read"] } });
    const loaded = fx.load();
    const text = formatRules(describeRules(loaded), loaded);
    expect(text.indexOf("deny (1)")).toBeLessThan(text.indexOf("ask (0)"));
    expect(text.indexOf("ask (0)")).toBeLessThan(text.indexOf("allow (1)"));
    expect(text).toMatch(new RegExp(`Bash\\(rm:\\*\\)\\s+project\\s+${fx.files.project.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:\\d+`));
  });

  it("says so at the top when the managed policy is broken", () => {
    fx.put(fx.files.managed, "{");
    const loaded = fx.load();
    expect(formatRules(describeRules(loaded), loaded)).toMatch(/^MANAGED POLICY BROKEN/);
  });
});

describe("the settings hand the gate what it needs", () => {
  it("compiles the rules, collects the extra fence folders and reports a broken policy", async () => {
    const { permissionSetup } = await import("../../src/cli/permissions/index.js");
    fx.put(fx.files.user, { permissions: { allow: ["Bash(ls:*)", "Glob(x:*)"], additionalDirectories: ["../shared"] } });
    fx.put(fx.files.project, { permissions: { additionalDirectories: ["/opt/data"] } });
    const setup = permissionSetup(fx.load());
    expect(setup.rules.map((r) => r.text)).toEqual(["Bash(ls:*)"]);
    expect(setup.warnings).toHaveLength(1);
    expect(setup.additionalDirectories).toEqual(["../shared", "/opt/data"]);
    expect(setup.managedBroken).toBe(false);
    fx.put(fx.files.managed, "{");
    expect(permissionSetup(fx.load()).managedBroken).toBe(true);
  });
});
