// An administrator's deny or ask rule that deepcode cannot read must not silently stop denying:
// the managed policy is then broken — every tool call denied, said on every start — exactly as
// for a malformed managed file. Other layers' unreadable rules are dropped with a warning.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decide, permissionSetup } from "../../src/cli/permissions/index.js";
import { settingsFixture, type SettingsFixture } from "../settings/helpers.js";

let f: SettingsFixture;
beforeEach(() => {
  f = settingsFixture();
});
afterEach(() => f.cleanup());

const env = () => ({ root: f.root, home: f.home, cwd: f.root });

describe("an unparseable rule in the managed policy", () => {
  for (const kind of ["deny", "ask"] as const) {
    it(`breaks the policy when it is a ${kind} rule: every call is denied, and the warning names the file and the rule`, () => {
      f.put(f.files.managed, { permissions: { [kind]: ["Bash(curl:*)", "Bash(git push:* --force)"] } });
      f.put(f.files.user, { permissions: { allow: ["Bash", "Read"] } });
      const setup = permissionSetup(f.load());
      expect(setup.managedBroken).toBe(true);
      expect(setup.warnings).toHaveLength(1);
      expect(setup.warnings[0]).toMatch(/^MANAGED POLICY IS BROKEN: /);
      expect(setup.warnings[0]).toContain(`${f.files.managed}:`);
      expect(setup.warnings[0]).toContain(`${kind} rule "Bash(git push:* --force)" cannot be applied (:* may only end a rule`);
      expect(setup.warnings[0]).toMatch(/every tool call is denied until an administrator fixes it$/);
      for (const call of [{ tool: "Read", input: { file_path: "a.txt" }, readOnly: true }, { tool: "Bash", input: { command: "ls" }, readOnly: false }]) {
        const d = decide(call, setup.rules, { ...env(), managedBroken: setup.managedBroken });
        expect(d.decision).toBe("deny");
        expect(d.by).toBe("managed policy");
      }
    });
  }

  it("breaks the policy when it is in a drop-in file, and for a rule that cannot apply to its tool", () => {
    f.put(f.files.managed, {});
    f.put(f.files.dropIn("10-secrets.json"), { permissions: { deny: ["Grep(secrets/**)"] } });
    expect(permissionSetup(f.load()).managedBroken).toBe(true);
  });

  it("only drops an unparseable managed allow rule, with the usual warning (allowing less is not looser)", () => {
    f.put(f.files.managed, { permissions: { allow: ["Bash(git push:* --force)"], deny: ["Bash(curl:*)"] } });
    const setup = permissionSetup(f.load());
    expect(setup.managedBroken).toBe(false);
    expect(setup.warnings).toEqual([expect.stringMatching(/allow rule "Bash\(git push:\* --force\)" ignored/)]);
    expect(setup.rules.map((r) => r.text)).toEqual(["Bash(curl:*)"]);
  });

  it("leaves the policy whole when another layer has an unparseable deny rule (dropped with a warning)", () => {
    f.put(f.files.managed, { permissions: { deny: ["Bash(curl:*)"] } });
    f.put(f.files.project, { permissions: { deny: ["Bash(rm:* -rf)"] } });
    const setup = permissionSetup(f.load());
    expect(setup.managedBroken).toBe(false);
    expect(setup.warnings).toEqual([expect.stringMatching(/deny rule "Bash\(rm:\* -rf\)" ignored/)]);
  });
});
