// Reading hookify rule files as hookify's own authors write them (see the hookify plugin's
// writing-rules skill): a `---` header with name, enabled, event, pattern or conditions, action,
// and a Markdown message. A rule that cannot be read says where (file and line) and why.
import { describe, expect, it } from "vitest";
import { readRule, type Broken, type Rule } from "../../mods/hookify/rules.js";
import { brokenGuards, evaluate } from "../../mods/hookify/match.js";

const rule = (text: string, file = "/p/.claude/hookify.test.local.md"): Rule => {
  const r = readRule(file, text);
  if (r.kind !== "rule") throw new Error(`expected a rule, got: ${r.problem} (line ${r.line})`);
  return r;
};
const broken = (text: string): Broken => {
  const r = readRule("/p/.claude/hookify.bad.local.md", text);
  if (r.kind !== "broken") throw new Error("expected a broken rule");
  return r;
};
const bash = (command: string) => ({ kind: "tool" as const, tool: "Bash", input: { command } });

describe("hookify rule files", () => {
  it("reads a simple rule: the pattern matches the Bash command case-insensitively, anywhere", () => {
    const r = rule("---\nname: block-dangerous-rm\nenabled: true\nevent: bash\npattern: rm\\s+-rf\naction: block\n---\n\n⚠️ **Dangerous rm command detected!**\n");
    expect(r).toMatchObject({ name: "block-dangerous-rm", event: "bash", action: "block", enabled: true, message: "⚠️ **Dangerous rm command detected!**" });
    expect(evaluate([r], bash("cd x && RM  -RF build"))?.action).toBe("block");
    expect(evaluate([r], bash("rm -r build"))).toBeNull();
  });

  it("defaults as hookify does: enabled, event all, action warn; the name from the file when absent", () => {
    const r = rule("---\npattern: console\\.log\\(\n---\nNo console.log.\n", "/p/.claude/hookify.no-console.local.md");
    expect(r).toMatchObject({ name: "no-console", event: "all", action: "warn", enabled: true });
    expect(evaluate([r], { kind: "tool", tool: "Write", input: { file_path: "a.ts", content: "console.log(1)" } })?.action).toBe("warn");
  });

  it("requires every condition to match, each on its field with its operator", () => {
    const r = rule(
      "---\nname: warn-env-file-edits\nenabled: true\nevent: file\nconditions:\n  - field: file_path\n    operator: regex_match\n    pattern: \\.env$\n  - field: new_text\n    operator: contains\n    pattern: API_KEY\n---\n\nYou're adding an API key to a .env file.\n",
    );
    const edit = (file_path: string, new_string: string) => ({ kind: "tool" as const, tool: "Edit", input: { file_path, old_string: "x", new_string } });
    expect(evaluate([r], edit("config/.env", "API_KEY=1"))?.message).toContain("You're adding an API key");
    expect(evaluate([r], edit("config/.env", "PORT=1"))).toBeNull();
    expect(evaluate([r], edit("config/env.ts", "API_KEY=1"))).toBeNull();
    expect(evaluate([r], { kind: "tool", tool: "Write", input: { file_path: ".env", content: "API_KEY=2" } })).not.toBeNull();
  });

  it("reads hookify's inline condition form and every operator", () => {
    const r = rule("---\nevent: bash\nconditions:\n  - field: command, operator: starts_with, pattern: git\n  - field: command\n    operator: not_contains\n    pattern: --dry-run\n  - field: command\n    operator: ends_with\n    pattern: main\n---\nCareful.\n");
    expect(evaluate([r], bash("git push origin main"))).not.toBeNull();
    expect(evaluate([r], bash("git push --dry-run origin main"))).toBeNull();
    expect(evaluate([r], bash("echo git main"))).toBeNull();
  });

  it("translates Python regex syntax: named groups, back-references, \\A and \\Z, a leading (?s)", () => {
    const r = rule("---\nevent: bash\npattern: \\A(?P<cmd>sudo)\\s+(?P=cmd)?\\S+\\Z\n---\nNo sudo.\n");
    expect(evaluate([r], bash("sudo rm"))).not.toBeNull();
    expect(evaluate([r], bash("echo sudo rm"))).toBeNull();
    expect(evaluate([r], bash("sudo rm x"))).toBeNull();
    expect(evaluate([rule("---\nevent: bash\npattern: (?s)begin.end\n---\nx\n")], bash("begin\nend"))).not.toBeNull();
  });

  it("reads quoted patterns as YAML does: backslashes doubled in double quotes, literal in single quotes", () => {
    expect(evaluate([rule('---\nevent: bash\npattern: "rm\\\\s+-rf"\n---\nx\n')], bash("rm  -rf a"))).not.toBeNull();
    expect(evaluate([rule("---\nevent: bash\npattern: 'rm\\s+-rf'\n---\nx\n")], bash("rm  -rf a"))).not.toBeNull();
  });

  it("applies tool_matcher rules to the tools it names", () => {
    const r = rule("---\nevent: all\ntool_matcher: mcp__db__query\naction: block\nconditions:\n  - field: sql\n    operator: regex_match\n    pattern: drop\\s+table\n---\nNo drops.\n");
    expect(evaluate([r], { kind: "tool", tool: "mcp__db__query", input: { sql: "DROP TABLE users" } })?.action).toBe("block");
    expect(evaluate([r], { kind: "tool", tool: "Bash", input: { command: "drop table" } })).toBeNull();
  });

  it("says where a rule cannot be read and why, line by line", () => {
    expect(broken("---\nname: x\nevent: bash\npattern: rm\\s+(-rf\naction: block\n---\nm\n")).toMatchObject({ line: 4, event: "bash", action: "block", problem: expect.stringMatching(/is not a valid regular expression/) });
    expect(broken("---\nname: x\nevent: shell\npattern: rm\n---\nm\n")).toMatchObject({ line: 3, event: null, problem: expect.stringContaining("event must be one of bash, file, stop, prompt, all") });
    expect(broken("---\nname: x\nevent: bash\npattern: rm\naction: deny\n---\nm\n")).toMatchObject({ line: 5, action: null, problem: expect.stringContaining("action must be one of warn, block, ask") });
    expect(broken("---\nevent: bash\nconditions:\n  - field: comand\n    operator: contains\n    pattern: rm\n---\nm\n")).toMatchObject({ line: 4, problem: expect.stringContaining('bash rules have no field "comand"') });
    expect(broken("---\nevent: bash\nconditions:\n  - field: command\n    operator: matches\n    pattern: rm\n---\nm\n")).toMatchObject({ line: 5, problem: expect.stringContaining("operator must be one of") });
    expect(broken("---\nname: x\nevent: bash\naction: block\n---\nm\n")).toMatchObject({ problem: expect.stringContaining("neither pattern nor conditions") });
    expect(broken("---\nname: x\nevent: bash\npattern: rm\nenabled: maybe\n---\nm\n")).toMatchObject({ line: 5, problem: expect.stringContaining("enabled must be true or false") });
    expect(broken("---\nname: x\n  stray\nevent: bash\n---\n")).toMatchObject({ line: 3 });
    expect(broken("name: x\nevent: bash\n")).toMatchObject({ line: 1, problem: "the file does not start with a --- header" });
    expect(broken("---\nname: x\nevent: bash\n")).toMatchObject({ problem: "the --- header is never closed" });
  });

  it("makes the tool calls a broken block rule was meant for ask — only its event's, and not for a warn rule", () => {
    const bad = broken("---\nname: x\nevent: bash\npattern: rm\\s+(-rf\naction: block\n---\nm\n");
    expect(brokenGuards([bad], bash("ls"))).toHaveLength(1);
    expect(brokenGuards([bad], { kind: "tool", tool: "Read", input: { file_path: "a" } })).toHaveLength(0);
    expect(brokenGuards([broken("---\nevent: bash\npattern: (\n---\nm\n")], bash("ls"))).toHaveLength(0); // a warn rule (the default) only goes quiet
    expect(brokenGuards([broken("---\nevent: bash\npattern: (\naction: block\nenabled: false\n---\nm\n")], bash("ls"))).toHaveLength(0);
    const unreadable = broken("---\nevent: shell\npattern: rm\naction: block\n---\nm\n");
    expect(brokenGuards([unreadable], { kind: "tool", tool: "Read", input: {} })).toHaveLength(1); // its event is unknown: every tool call
  });

  it("matches prompt rules against the prompt and stop rules against the transcript", () => {
    const p = rule("---\nevent: prompt\nconditions:\n  - field: user_prompt\n    operator: contains\n    pattern: deploy to production\n---\nChecklist first.\n");
    expect(evaluate([p], { kind: "prompt", text: "please deploy to production now" })?.message).toContain("Checklist first.");
    const s = rule("---\nevent: stop\npattern: npm test\naction: block\n---\nRun the tests before you stop.\n");
    expect(evaluate([s], { kind: "stop", transcript: () => '{"m":"I edited a.ts"}', reason: "completed" })).toBeNull();
    expect(evaluate([s], { kind: "stop", transcript: () => '{"m":"ran npm test"}', reason: "completed" })?.action).toBe("block");
  });

  it("lets block win over ask and warn, combining the messages of the winners under their names", () => {
    const a = rule("---\nname: a\nevent: bash\npattern: rm\naction: warn\n---\nA.\n");
    const b = rule("---\nname: b\nevent: bash\npattern: rm\naction: block\n---\nB.\n");
    const c = rule("---\nname: c\nevent: bash\npattern: -rf\naction: block\n---\nC.\n");
    const v = evaluate([a, b, c], bash("rm -rf x"))!;
    expect(v.action).toBe("block");
    expect(v.message).toBe("**[b]**\nB.\n\n**[c]**\nC.");
  });
});
