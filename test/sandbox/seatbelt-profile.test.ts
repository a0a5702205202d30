// The Seatbelt profile (mods/sandbox/seatbelt.ts) keeps the plan's promises (issue #36, item 2).
// There is no Mac here: the profile is read back with a small SBPL reader and judged the way
// Seatbelt judges (the last matching rule decides, `(deny default)` otherwise; test/sandbox/sbpl.ts).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { seatbeltEnv, seatbeltProfile } from "../../mods/sandbox/seatbelt.js";
import { bwrapArgs } from "../../mods/sandbox/bwrap.js";
import type { SandboxPlan } from "../../mods/sandbox/plan.js";
import { decide, decidingRule, readSbpl, rulesOf, stringsOf, type Rule } from "./sbpl.js";
import { planFixture, type PlanFixture } from "./plan-fixture.js";

let fx: PlanFixture;
beforeEach(() => {
  fx = planFixture();
});
afterEach(() => fx.cleanup());

function judged(plan: SandboxPlan): { rules: Rule[]; text: string } {
  const text = seatbeltProfile(plan);
  return { rules: rulesOf(readSbpl(text)), text };
}

const READ = "file-read-data";
const WRITE = "file-write-data";
const CREATE = "file-write-create";

describe("a Seatbelt profile rendered from the plan", () => {
  it("starts from nothing: (version 1), then (deny default), and never allows by default", () => {
    const forms = readSbpl(seatbeltProfile(fx.plan()));
    expect(forms[0]).toEqual(["version", "1"]);
    expect(forms[1]).toEqual(["deny", "default"]);
    for (const r of rulesOf(forms).filter((x) => x.action === "allow")) {
      expect(r.ops, JSON.stringify(r)).not.toContain("default");
      // A file or network operation allowed with no filter would be allowed everywhere.
      if (r.ops.some((o) => o.startsWith("file") || o.startsWith("network"))) expect(r.filters.length, JSON.stringify(r)).toBeGreaterThan(0);
    }
  });

  it("grants every read-only path for reading only, and every read-write path for both", () => {
    const plan = fx.plan({ readable: [join(fx.base, "docs")] });
    const { rules } = judged(plan);
    for (const p of [...plan.readOnly, ...plan.system.filter((s) => !s.link).map((s) => s.path)]) {
      expect(decide(rules, READ, join(p, "some-file")), p).toBe("allow");
      expect(decide(rules, WRITE, join(p, "some-file")), p).toBe("deny");
    }
    expect(plan.readWrite).toEqual([fx.root]);
    for (const p of plan.readWrite) {
      expect(decide(rules, READ, join(p, "README.md"))).toBe("allow");
      expect(decide(rules, WRITE, join(p, "src", "new.ts"))).toBe("allow");
    }
  });

  it("shows a system link as the link itself and lets what it leads to be read", () => {
    const plan = fx.plan({ systemDirs: ["/usr", "/bin"] });
    const link = plan.system.find((s) => s.path === "/bin");
    expect(link?.link).toBe("usr/bin"); // this machine's merged /usr, as macOS's /etc -> private/etc
    const { rules } = judged(plan);
    expect(decide(rules, READ, "/bin")).toBe("allow");
    expect(decide(rules, READ, "/usr/bin/env")).toBe("allow");
    expect(decide(rules, WRITE, "/bin")).toBe("deny");
  });

  it("lets a command read and write its private home, which HOME names, and not the person's own home", () => {
    const plan = fx.plan();
    const { rules } = judged(plan);
    const env = seatbeltEnv(plan);
    expect(env.set.HOME).toBe(fx.privateHome);
    expect(env.set.TMPDIR?.startsWith(`${fx.privateHome}/`)).toBe(true);
    expect(env.unset).toContain("SSH_AUTH_SOCK");
    expect(decide(rules, WRITE, join(fx.privateHome, ".cache", "go-build", "x"))).toBe("allow");
    expect(decide(rules, WRITE, join(env.set.TMPDIR as string, "scratch"))).toBe("allow");
    expect(decide(rules, READ, join(fx.home, ".zshrc"))).toBe("deny");
    expect(decide(rules, "file-read-metadata", fx.home)).toBe("allow"); // on the way to the workspace
    expect(decide(rules, READ, fx.home)).toBe("deny"); // …but not listed
  });

  it("allows nothing outside the grants: no other folder is read or written, nothing is written above the workspace", () => {
    const plan = fx.plan();
    const { rules } = judged(plan);
    for (const p of [join(fx.home, ".ssh", "id_ed25519"), join(fx.home, "other-project", "main.go"), join(fx.deepcodeHome, "credentials"), fx.base, "/var/log/system.log", "/private/tmp/x", "/Users/someone/Documents/a.txt", "/"]) {
      expect(decide(rules, READ, p), p).toBe("deny");
      expect(decide(rules, WRITE, p), p).toBe("deny");
      expect(decide(rules, CREATE, p), p).toBe("deny");
    }
    // No write grant is broad: nothing outside the workspace, the private home and its temp folder.
    const writeRules = rules.filter((r) => r.action === "allow" && r.ops.some((o) => o === "file-write*"));
    const writable = writeRules.flatMap((r) => r.filters.flatMap(stringsOf));
    expect(writable.sort()).toEqual([fx.root, fx.privateHome, join(fx.privateHome, ".tmp")].sort());
    expect(writable).not.toContain("/");
  });

  it("denies every hidden path after the allows that cover it, also spelled in another case", () => {
    const plan = fx.plan({ writable: [fx.home] });
    expect(plan.hidden.map((h) => h.path)).toEqual(expect.arrayContaining([join(fx.home, ".ssh"), join(fx.root, ".env"), join(fx.root, "sub", "id_rsa"), "/etc/shadow"]));
    expect(plan.hidden.some((h) => h.why === "git-copy")).toBe(true);
    const { rules } = judged(plan);
    for (const h of plan.hidden) {
      const inner = h.kind === "folder" ? join(h.path, "id_ed25519") : h.path;
      for (const p of [inner, inner.toUpperCase(), h.path]) {
        const r = decidingRule(rules, READ, p);
        expect(r?.action, `${p} (${h.why})`).toBe("deny");
        expect(decide(rules, WRITE, p), p).toBe("deny");
        // After every allow that covers it.
        const covering = rules.filter((x) => x.action === "allow" && x.ops.includes("file-read*") && x.filters.some((f) => decidingRule([{ ...x, filters: [f] }], READ, h.path) !== null));
        for (const a of covering) expect(a.index, `${h.path}: the allow at ${a.index} comes after its deny at ${r?.index}`).toBeLessThan(r?.index ?? -1);
      }
    }
    // Folders granted again inside a hidden one (deepcode's installed plugins) are readable.
    expect(decide(rules, READ, join(fx.deepcodeHome, "plugins", "installed", "p", "x.md"))).toBe("allow");
    expect(decide(rules, READ, join(fx.deepcodeHome, "credentials"))).toBe("deny");
  });

  it("does not let a folder holding a secret be renamed out from under its rule", () => {
    const plan = fx.plan();
    const { rules } = judged(plan);
    expect(decide(rules, "file-write-unlink", join(fx.root, "sub"))).toBe("deny");
    expect(decide(rules, "file-write-unlink", join(fx.root, "README.md"))).toBe("allow");
  });

  it("never lets a protected path be written, whether it exists or not, in any case", () => {
    const plan = fx.plan();
    const { rules } = judged(plan);
    for (const p of [".mcp.json", ".MCP.json", ".claude/settings.json", ".claude/settings.local.json", ".Claude/Settings.Local.JSON", ".claude/commands/x.md", ".claude/hooks/pre.sh", ".git/config", ".git/hooks/pre-commit", ".GIT/HOOKS/pre-commit", ".deepcode/settings.json", ".husky/pre-commit", "lefthook.yml", ".vscode/tasks.json"]) {
      expect(decide(rules, WRITE, join(fx.root, p)), p).toBe("deny");
      expect(decide(rules, CREATE, join(fx.root, p)), p).toBe("deny");
      expect(decide(rules, READ, join(fx.root, p)), p).toBe("allow");
    }
    for (const p of [".claude/notes.md", "src/index.ts", ".git/index", ".git/objects/ab/cdef", "settings.json"]) expect(decide(rules, WRITE, join(fx.root, p)), p).toBe("allow");
    expect(decide(rules, "file-write-unlink", join(fx.root, ".git"))).toBe("deny");
    expect(decide(rules, "file-write-unlink", join(fx.root, ".claude"))).toBe("deny");
  });

  it("in plan mode grants the workspace for reading only, and nothing is written anywhere but the private home", () => {
    const plan = fx.plan({ readOnly: true });
    const { rules } = judged(plan);
    expect(decide(rules, READ, join(fx.root, "README.md"))).toBe("allow");
    expect(decide(rules, WRITE, join(fx.root, "README.md"))).toBe("deny");
    expect(decide(rules, READ, join(fx.root, ".env"))).toBe("deny");
  });
});

describe("the network of a Seatbelt profile", () => {
  const networkRules = (plan: SandboxPlan): Rule[] => rulesOf(readSbpl(seatbeltProfile(plan))).filter((r) => r.ops.some((o) => o.startsWith("network")));

  it("allows no network at all when the plan has none", () => {
    expect(networkRules(fx.plan())).toEqual([]);
  });

  it("allows only the filtering proxy's localhost port when the plan names it", () => {
    const rules = networkRules(fx.plan({ proxyPort: 41234 }));
    expect(rules.map((r) => [r.action, r.ops, r.filters])).toEqual([["allow", ["network-outbound"], [["remote", "ip", { str: "localhost:41234" }]]]]);
  });

  it("allows no network for the proxy when it has no localhost port (Linux's channel)", () => {
    const plan = fx.plan({ channel: [{ fd: 4, path: "/dev/null" }] });
    expect(plan.network).toEqual({ kind: "proxy", port: null });
    expect(networkRules(plan)).toEqual([]);
  });

  it("allows IP networking and the system resolver's socket, and no other unix socket, when the plan allows all", () => {
    const rules = networkRules(fx.plan({ network: true }));
    const texts = rules.map((r) => JSON.stringify([r.ops, r.filters]));
    expect(texts).toContain(JSON.stringify([["network-outbound"], [["remote", "ip", { str: "*:*" }]]]));
    const unix = rules.filter((r) => JSON.stringify(r.filters).includes("unix-socket"));
    expect(unix.map((r) => r.filters.flatMap(stringsOf))).toEqual([["/private/var/run/mDNSResponder"]]);
  });
});

describe("one plan, two renderers", () => {
  it("grants the same paths through bubblewrap and Seatbelt", () => {
    const plan = fx.plan({ writable: [fx.home] });
    const args = bwrapArgs(plan);
    const { rules } = judged(plan);
    const bound = (flag: string): string[] => args.flatMap((a, i) => (a === flag && args[i + 1] === args[i + 2] ? [args[i + 1]] : []));
    for (const p of bound("--ro-bind")) expect(decide(rules, READ, p), p).toBe("allow");
    for (const p of bound("--bind")) expect(decide(rules, WRITE, join(p, "new-file")), p).toBe("allow");
    const hiddenByBwrap = args.flatMap((a, i) => (a === "--ro-bind" && args[i + 1] === plan.standIn ? [args[i + 2]] : a === "--tmpfs" && plan.hidden.some((h) => h.path === args[i + 1]) ? [args[i + 1]] : []));
    expect(hiddenByBwrap.length).toBe(plan.hidden.length);
    for (const p of hiddenByBwrap) expect(decide(rules, READ, p), p).toBe("deny");
  });
});
