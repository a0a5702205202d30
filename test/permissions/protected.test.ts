// Protected project paths: what a change to would loosen the rules or run code later. One list
// in the contract (src/contract/protected.ts), read by the gate and by the sandbox alike.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decide, rememberRule, SessionRules, type Rule } from "../../src/cli/permissions/index.js";
import { HOME_SECRETS, PROTECTED_PROJECT_PATHS, secretLocations } from "../../src/contract/protected.js";
import { sandboxArgs } from "../../mods/sandbox/bwrap.js";
import { bash, makeWorkspace, rulesOf, type Workspace } from "./helpers.js";

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const edit = (file_path: string, rules: Rule[]) => decide({ tool: "Edit", input: { file_path, old_string: "a", new_string: "b" }, readOnly: false }, rules, ws.env);
const write = (file_path: string, rules: Rule[]) => decide({ tool: "Write", input: { file_path, content: "x" }, readOnly: false }, rules, ws.env);

const PROTECTED_FILES = [
  ".deepcode/settings.json",
  ".deepcode/settings.local.json",
  ".deepcode/commands/test.md",
  ".deepcode/skills/deploy/SKILL.md",
  ".deepcode/agents/reviewer.md",
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".claude/commands/x.md",
  ".claude/commands/nested/y.md",
  ".claude/skills/deploy/SKILL.md",
  ".claude/agents/reviewer.md",
  ".claude/hookify.no-rm.local.md",
  ".claude-plugin/plugin.json",
  ".mcp.json",
  ".git/config",
  ".git/hooks/pre-commit",
];

describe("a change to a protected project path asks, even where a rule allows editing", () => {
  it("asks for .deepcode/commands/ and .claude/commands/ after `a` remembered Edit for the session (the reproduction)", () => {
    const session = new SessionRules();
    session.add(rememberRule({ tool: "Edit", input: { file_path: "src/a.ts", old_string: "a", new_string: "b" }, readOnly: false }, ws.env));
    expect(session.rules().map((r) => r.text)).toEqual(["Edit"]);
    expect(edit("src/a.ts", [...session.rules()]).decision).toBe("allow");
    for (const f of [".deepcode/commands/test.md", ".claude/commands/x.md"]) {
      const d = edit(f, [...session.rules()]);
      expect(d.decision, f).toBe("ask");
      expect(d.by).toBe("protected file");
    }
  });

  for (const f of PROTECTED_FILES) {
    it(`asks before writing ${f} under Write, Edit(**), Edit(/**) and Edit(*.*) allows`, () => {
      for (const allow of ["Write", "Edit", "Edit(**)", "Edit(/**)", "Edit(*.*)", "Edit(**/*.md)", "Edit(**/*.json)"]) {
        const d = write(f, rulesOf({ user: { allow: [allow] } }));
        expect(d.decision, `${f} under ${allow}: ${d.reason}`).toBe("ask");
      }
    });
  }

  it("says why, naming the protected path", () => {
    expect(write(".deepcode/commands/test.md", rulesOf({ user: { allow: ["Write"] } })).reason).toMatch(/^\.deepcode\/ holds deepcode's project settings, commands, skills and agents: a change there always asks/);
    expect(write(".claude/settings.local.json", []).reason).toMatch(/^\.claude\/settings\.local\.json holds Claude Code's permission rules/);
  });

  it("lets an allow rule that names the path allow it", () => {
    const cases: Array<[string, string]> = [
      [".deepcode/commands/test.md", "Edit(.deepcode/commands/**)"],
      [".deepcode/commands/test.md", "Edit(.deepcode/**)"],
      [".deepcode/settings.json", "Edit(.deepcode)"],
      [".claude/commands/x.md", "Edit(.claude/**)"],
      [".claude/settings.json", "Edit(.claude/settings.json)"],
      [".mcp.json", "Edit(.mcp.json)"],
      [".git/hooks/pre-commit", "Edit(.git/hooks/*)"],
      [".git/config", `Edit(/${join(ws.root, ".git/config")})`],
    ];
    for (const [f, rule] of cases) expect(write(f, rulesOf({ user: { allow: [rule] } })).decision, `${f} under ${rule}`).toBe("allow");
  });

  it("keeps a deny a deny, whatever allows it", () => {
    const d = write(".deepcode/commands/test.md", rulesOf({ user: { allow: ["Edit(.deepcode/**)"] }, project: { deny: ["Edit(.deepcode/**)"] } }));
    expect(d.decision).toBe("deny");
  });

  it("leaves other files and look-alikes alone", () => {
    const rules = rulesOf({ user: { allow: ["Edit"] } });
    for (const f of ["src/a.ts", "src/.deepcode/notes.md", ".deepcodex/a", ".claude/notes.md", ".claude/agentsx/a.md", ".claude/skills.md", ".git/description", "docs/.mcp.json"]) {
      expect(write(f, rules).decision, f).toBe("allow");
    }
  });

  it("asks before a Bash redirection or file command that writes there", () => {
    const rules = rulesOf({ user: { allow: ["Bash(echo:*)", "Bash(mkdir:*)", "Bash(cp:*)"] } });
    expect(bash("echo x > .claude/commands/x.md", rules, ws.env)).toBe("ask");
    expect(bash("mkdir -p .deepcode && echo '{}' > .deepcode/settings.json", rules, ws.env)).toBe("ask");
    expect(bash("cp evil.md .deepcode/commands/", rules, ws.env)).toBe("ask");
  });

  it("remembers only that path when `a` answers an edit of a protected file", () => {
    const call = { tool: "Edit", input: { file_path: ".deepcode/commands/test.md" }, readOnly: false };
    expect(rememberRule(call, ws.env)).toBe(`Edit(/${join(ws.root, ".deepcode/commands/test.md")})`);
  });
});

describe("the sandbox reads the same lists", () => {
  const args = () => sandboxArgs({ bwrap: "/usr/bin/bwrap", root: ws.root, home: ws.home, deepcodeHome: join(ws.base, "dc-home"), writable: [], network: false, cwd: ws.root });
  const roBinds = (a: string[]): string[] => a.flatMap((x, i) => (x === "--ro-bind" && a[i + 1] === a[i + 2] ? [a[i + 1]] : []));

  it("creates an empty .deepcode/ in a project that has none, and binds it read-only", () => {
    expect(existsSync(join(ws.root, ".deepcode"))).toBe(false);
    const a = args();
    expect(statSync(join(ws.root, ".deepcode")).isDirectory()).toBe(true);
    expect(roBinds(a)).toContain(join(ws.root, ".deepcode"));
  });

  it("binds every protected project path that exists read-only, and creates nothing else", () => {
    for (const f of [".claude/settings.json", ".claude/settings.local.json", ".claude/commands/x.md", ".claude/notes.md", ".mcp.json", ".git/config", ".git/hooks/pre-commit"]) {
      mkdirSync(join(ws.root, f, ".."), { recursive: true });
      writeFileSync(join(ws.root, f), "x");
    }
    const binds = roBinds(args());
    for (const p of [".deepcode", ".claude/settings.json", ".claude/settings.local.json", ".claude/commands", ".mcp.json", ".git/config", ".git/hooks"]) expect(binds, p).toContain(join(ws.root, p));
    expect(binds).not.toContain(join(ws.root, ".claude/notes.md"));
    expect(binds).not.toContain(join(ws.root, ".claude"));
  });

  it("does not create .mcp.json or .claude/ where they are missing", () => {
    args();
    expect(existsSync(join(ws.root, ".mcp.json"))).toBe(false);
    expect(existsSync(join(ws.root, ".claude"))).toBe(false);
  });

  it("shows no home secret of the contract's list nor deepcode's credentials: each is outside every grant, or masked where a grant holds it", () => {
    for (const s of [...HOME_SECRETS, ".deepcode"]) mkdirSync(join(ws.home, s), { recursive: true });
    mkdirSync(join(ws.base, "dc-home"));
    writeFileSync(join(ws.base, "dc-home", "credentials"), "DEEPSEEK_API_KEY=x\n");
    const empty = join(ws.base, "dc-home", "sandbox", "empty");
    for (const writable of [[], [ws.home]]) {
      const a = sandboxArgs({ bwrap: "/usr/bin/bwrap", root: ws.root, home: ws.home, deepcodeHome: join(ws.base, "dc-home"), writable, network: false, cwd: ws.root });
      const grants = a.flatMap((x, i) => ((x === "--bind" || x === "--ro-bind") && a[i + 1] === a[i + 2] ? [a[i + 1]] : []));
      const masked = a.flatMap((x, i) => (x === "--tmpfs" ? [a[i + 1]] : x === "--ro-bind" && a[i + 1] === empty ? [a[i + 2]] : []));
      const within = (p: string, d: string): boolean => p === d || p.startsWith(`${d}/`);
      for (const l of secretLocations(ws.home, join(ws.base, "dc-home"))) {
        expect(!grants.some((g) => within(l.path, g)) || masked.includes(l.path), `${l.path} with writable ${JSON.stringify(writable)}`).toBe(true);
      }
      if (writable.length > 0) expect(masked).toContain(join(ws.home, ".ssh")); // the home granted: its secrets masked
    }
  });

  it("is the gate's list: every entry of the contract's protected paths asks at the gate", () => {
    for (const e of PROTECTED_PROJECT_PATHS) {
      const f = e.names ? [e.path, e.example].filter((x) => x).join("/") : e.tree ? `${e.path}/x` : e.path;
      expect(write(f, rulesOf({ user: { allow: ["Write"] } })).decision, f).toBe("ask");
    }
  });
});
