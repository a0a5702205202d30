// Paths in a Seatbelt profile stay strings (mods/sandbox/seatbelt.ts sbplString): a folder named
// to close the string and add a rule — `") (allow default) ("`, a backslash before the quote, a
// newline and a comment — is read back as exactly that name, and the profile grants nothing more.
import { afterEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { sbplString, seatbeltProfile } from "../../mods/sandbox/seatbelt.js";
import { decide, readSbpl, rulesOf, stringsOf } from "./sbpl.js";
import { planFixture, type PlanFixture } from "./plan-fixture.js";

const CRAFTED = [
  'evil") (allow default) ("',
  'back\\") (allow file-write* (subpath "/")) ;',
  "trailing-backslash\\",
  'line\n(allow default)\n; "',
  "semi;colon #\"regex\" |bar| 'q",
  "quote\"\\\"\\\\\"",
];

describe("an SBPL string", () => {
  it.each(CRAFTED)("reads back as exactly the text it was made from: %j", (s) => {
    const forms = readSbpl(`(literal ${sbplString(s)})`);
    expect(forms).toEqual([["literal", { str: s }]]);
  });
});

describe("a profile for a workspace with a crafted name", () => {
  let fx: PlanFixture | undefined;
  afterEach(() => fx?.cleanup());

  it.each(CRAFTED)("keeps the name a string and grants nothing beyond the plan: %j", (name) => {
    fx = planFixture(name);
    const plan = fx.plan();
    const text = seatbeltProfile(plan);
    const forms = readSbpl(text);
    const rules = rulesOf(forms);
    // The crafted workspace is one string, exactly, wherever it is named.
    const strings = forms.flatMap(stringsOf);
    expect(strings).toContain(fx.root);
    // (A name with a slash is two folders: the first is named too, on the way to the workspace.)
    const root = fx.root;
    for (const s of strings.filter((x) => x.includes("(allow"))) expect(s.startsWith(root) || root.startsWith(`${s}/`), s).toBe(true);
    // Nothing the name spells became a rule.
    expect(rules.filter((r) => r.ops.includes("default")).map((r) => r.action)).toEqual(["deny"]);
    expect(rules.some((r) => r.action === "allow" && r.filters.length === 0 && r.ops.some((o) => o.startsWith("file")))).toBe(false);
    // Judged by effect: the workspace is writable, its secret hidden, everything else not.
    expect(decide(rules, "file-write-data", join(fx.root, "a.txt"))).toBe("allow");
    expect(decide(rules, "file-read-data", join(fx.root, ".env"))).toBe("deny");
    expect(decide(rules, "file-write-data", join(fx.root, ".mcp.json"))).toBe("deny");
    for (const p of ["/etc/passwd-new", join(fx.home, "other", "x"), "/", "/x"]) expect(decide(rules, "file-write-data", p), p).toBe("deny");
    expect(decide(rules, "file-read-data", join(fx.home, ".ssh", "id_ed25519"))).toBe("deny");
  });
});
