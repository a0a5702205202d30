import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { compileRules, decide } from "../../src/cli/permissions/index.js";
import { bash, makeWorkspace, rulesOf, type Workspace } from "./helpers.js";

let ws: Workspace;
beforeAll(() => {
  ws = makeWorkspace();
  mkdirSync(join(ws.root, "private"));
});
afterAll(() => ws.cleanup());

describe("a rule that cannot be parsed or cannot apply is ignored with one warning naming where it is", () => {
  const cases: Array<[string, RegExp]> = [
    ["Glob(git:*)", /Glob takes no specifier: Read\(\.\.\.\) rules govern/],
    ["Grep(src/**)", /Grep takes no specifier/],
    ["Foo(bar)", /only Bash, Read, Edit, Write, WebFetch, Task and Skill take a specifier/],
    ["Bash(", /not a rule/],
    ["Bash()", /empty command/],
    ["Bash(:*)", /empty prefix/],
    ["Bash(git *:*)", /mixes a :\* prefix with a \* wildcard/],
    ["Bash(git:* push)", /:\* may only end a rule/],
    ["Bash(ls && rm:*)", /contains shell operators/],
    ["Bash(echo 'open:*)", /cannot read the command: unbalanced single quote/],
    ["Read(~bob/.ssh)", /~user paths are not supported/],
    ["Edit()", /empty path/],
    ["WebFetch(example.com)", /WebFetch\(domain:example.com\)/],
    ["mcp__github__x(y)", /MCP rules take no specifier/],
    ["mcp__*", /needs a server name/],
    ["not a rule!", /not a rule/],
  ];
  for (const [text, problem] of cases) {
    it(`ignores ${text}`, () => {
      const { rules, warnings } = compileRules([{ kind: "deny", text, layer: "project", file: "/p/.deepcode/settings.json", line: 4, column: 7 }]);
      expect(rules).toEqual([]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`/p/.deepcode/settings.json:4:7: deny rule ${JSON.stringify(text)} ignored:`);
      expect(warnings[0]).toMatch(problem);
    });
  }

  it("accepts the forms Claude Code accepts", () => {
    const texts = ["Bash", "Bash(*)", "Bash(npm test)", "Bash(git push:*)", "Bash(ls *)", "Read(~/.ssh/**)", "Edit(src/**)", "Write(//etc/**)", "Read(.env)", "WebFetch(domain:example.com)", "mcp__github", "mcp__github__*", "mcp__github__create_issue", "Glob", "Task"];
    const { rules, warnings } = compileRules(texts.map((text) => ({ kind: "allow" as const, text, layer: "user" as const })));
    expect(warnings).toEqual([]);
    expect(rules.map((r) => r.text)).toEqual(texts);
  });
});

describe("Bash rules match at token boundaries: prefix, exact and wildcard", () => {
  const cases: Array<[rule: string, kind: "allow" | "deny", command: string, decision: string]> = [
    ["Bash(git push:*)", "deny", "git push", "deny"],
    ["Bash(git push:*)", "deny", "git push origin main", "deny"],
    ["Bash(git push:*)", "deny", "git pushup", "ask"],
    ["Bash(git push:*)", "deny", "git push-all", "ask"],
    ["Bash(git push:*)", "deny", "git status", "ask"],
    ["Bash(git push:*)", "deny", "git", "ask"],
    ["Bash(npm test:*)", "allow", "npm test", "allow"],
    ["Bash(npm test:*)", "allow", "npm test -- --watch", "allow"],
    ["Bash(npm test:*)", "allow", "npm testing", "ask"],
    ["Bash(npm test:*)", "allow", "npm tes", "ask"],
    ["Bash(npm test)", "allow", "npm test", "allow"],
    ["Bash(npm test)", "allow", "npm   test", "allow"],
    ["Bash(npm test)", "allow", "npm 'test'", "allow"],
    ["Bash(npm test)", "allow", "npm test --watch", "ask"],
    ["Bash(npm test)", "allow", "npm", "ask"],
    ["Bash(npm test)", "deny", "npm test", "deny"],
    ["Bash(npm test)", "deny", "npm test --watch", "ask"],
    ["Bash(ls *)", "allow", "ls", "allow"],
    ["Bash(ls *)", "allow", "ls -la src", "allow"],
    ["Bash(ls *)", "allow", "lsof", "ask"],
    ["Bash(ls*)", "allow", "lsof", "allow"],
    ["Bash(npm run *)", "allow", "npm run build", "allow"],
    ["Bash(npm run *)", "allow", "npm runx", "ask"],
    ["Bash(git * main)", "allow", "git checkout main", "allow"],
    ["Bash(git * main)", "allow", "git checkout dev", "ask"],
    ["Bash(ls:*)", "allow", "/bin/ls", "allow"],
    ["Bash(ls:*)", "allow", "/usr/local/bin/ls -la", "allow"],
    ["Bash(ls:*)", "allow", "./ls", "ask"],
    ["Bash(ls:*)", "allow", "/tmp/evil/ls", "ask"],
    ["Bash(/opt/tool/run:*)", "allow", "/opt/tool/run x", "allow"],
    ["Bash(/opt/tool/run:*)", "allow", "run x", "ask"],
    ["Bash(rm:*)", "deny", "/home/me/bin/rm x", "deny"],
    ["Bash(git push:*)", "deny", "git $SUB origin", "ask"],
    ["Bash(git push:*)", "deny", "git pu* origin", "ask"],
    ["Bash", "allow", "anything --at all", "allow"],
    ["Bash", "deny", "ls", "deny"],
  ];
  for (const [rule, kind, command, decision] of cases) {
    it(`${kind} ${rule}: ${JSON.stringify(command)} → ${decision}`, () => {
      expect(bash(command, rulesOf({ project: { [kind]: [rule] } }), ws.env)).toBe(decision);
    });
  }
});

describe("path rules are gitignore-style globs anchored at ~, // or the project root", () => {
  const read = (file_path: string, deny: string[]): string =>
    decide({ tool: "Read", input: { file_path }, readOnly: true }, rulesOf({ user: { deny } }), ws.env).decision;
  const edit = (tool: string, file_path: string, allow: string[]): string =>
    decide({ tool, input: { file_path }, readOnly: false }, rulesOf({ user: { allow } }), ws.env).decision;

  it("anchors ~ at the home folder", () => {
    expect(read(join(ws.home, "notes.txt"), ["Read(~/notes.txt)"])).toBe("deny");
    expect(read("~/notes.txt", ["Read(~/notes.txt)"])).toBe("deny");
    expect(read(join(ws.root, "notes.txt"), ["Read(~/notes.txt)"])).toBe("allow");
  });

  it("anchors // at the filesystem root", () => {
    expect(read("/etc/hosts", ["Read(//etc/**)"])).toBe("deny");
    expect(read("/etc2/hosts", ["Read(//etc/**)"])).toBe("allow");
  });

  it("anchors /path and ./path at the project root, not at the filesystem root", () => {
    expect(edit("Edit", "docs/a.md", ["Edit(/docs/**)"])).toBe("allow");
    expect(edit("Edit", "x/docs/a.md", ["Edit(/docs/**)"])).toBe("ask");
    expect(edit("Edit", "docs/a.md", ["Edit(./docs/**)"])).toBe("allow");
  });

  it("anchors a relative path with a slash at the project root", () => {
    expect(edit("Edit", "src/a.ts", ["Edit(src/**)"])).toBe("allow");
    expect(edit("Edit", join(ws.root, "src/deep/b.ts"), ["Edit(src/**)"])).toBe("allow");
    expect(edit("Edit", "lib/a.ts", ["Edit(src/**)"])).toBe("ask");
    expect(edit("Edit", "lib/src/a.ts", ["Edit(src/**)"])).toBe("ask");
  });

  it("lets * match within one segment and ** across segments", () => {
    expect(edit("Edit", "src/a.ts", ["Edit(src/*.ts)"])).toBe("allow");
    expect(edit("Edit", "src/deep/b.ts", ["Edit(src/*.ts)"])).toBe("ask");
    expect(edit("Edit", "src/deep/b.ts", ["Edit(src/**/*.ts)"])).toBe("allow");
  });

  it("matches a name without a slash at any depth below the root", () => {
    expect(edit("Write", "yarn.lock", ["Edit(*.lock)"])).toBe("allow");
    expect(edit("Write", "packages/a/yarn.lock", ["Edit(*.lock)"])).toBe("allow");
    expect(edit("Write", "yarn.lockx", ["Edit(*.lock)"])).toBe("ask");
  });

  it("lets a pattern naming a folder cover everything inside it", () => {
    expect(read(join(ws.root, "private/a/b.txt"), ["Read(private)"])).toBe("deny");
  });

  it("applies Edit rules to Write, MultiEdit and NotebookEdit, and Write rules to Edit", () => {
    expect(edit("Write", "src/a.ts", ["Edit(src/**)"])).toBe("allow");
    expect(edit("MultiEdit", "src/a.ts", ["Edit(src/**)"])).toBe("allow");
    expect(edit("Edit", "src/a.ts", ["Write(src/**)"])).toBe("allow");
    expect(decide({ tool: "NotebookEdit", input: { notebook_path: "src/n.ipynb" }, readOnly: false }, rulesOf({ user: { deny: ["Write(src/**)"] } }), ws.env).decision).toBe("deny");
  });

  it("applies Read rules to the folders Glob and Grep search", () => {
    const rules = rulesOf({ project: { deny: ["Read(private/**)"] } });
    expect(decide({ tool: "Grep", input: { pattern: "x", path: "private" }, readOnly: true }, rules, ws.env).decision).toBe("deny");
    expect(decide({ tool: "Glob", input: { pattern: "**/*", path: join(ws.root, "private") }, readOnly: true }, rules, ws.env).decision).toBe("deny");
    expect(decide({ tool: "Glob", input: { pattern: `${ws.root}/private/*.txt` }, readOnly: true }, rules, ws.env).decision).toBe("deny");
    expect(decide({ tool: "Grep", input: { pattern: "x", path: "src" }, readOnly: true }, rules, ws.env).decision).toBe("allow");
  });
});

describe("MCP and WebFetch rules", () => {
  const call = (tool: string, rules: ReturnType<typeof rulesOf>, readOnly = false, input: Record<string, unknown> = {}): string =>
    decide({ tool, input, readOnly }, rules, ws.env).decision;

  it("lets mcp__server cover every tool of that server and no other", () => {
    const rules = rulesOf({ user: { allow: ["mcp__github"] } });
    expect(call("mcp__github__create_issue", rules)).toBe("allow");
    expect(call("mcp__gitlab__create_issue", rules)).toBe("ask");
  });

  it("treats mcp__server__* like mcp__server, and a full name as that one tool", () => {
    expect(call("mcp__github__x", rulesOf({ user: { allow: ["mcp__github__*"] } }))).toBe("allow");
    const rules = rulesOf({ user: { allow: ["mcp__github"] }, project: { deny: ["mcp__github__delete_repo"] } });
    expect(call("mcp__github__delete_repo", rules)).toBe("deny");
    expect(call("mcp__github__list", rules)).toBe("allow");
  });

  it("matches WebFetch(domain:x) against the host and its subdomains", () => {
    const rules = rulesOf({ user: { deny: ["WebFetch(domain:evil.example)"] } });
    expect(call("WebFetch", rules, true, { url: "https://api.evil.example/x" })).toBe("deny");
    expect(call("WebFetch", rules, true, { url: "https://notevil.example/x" })).toBe("allow");
    expect(call("WebFetch", rules, true, { url: "not a url" })).toBe("ask");
  });
});
