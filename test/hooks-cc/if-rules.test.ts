// The `if` grammar of a hook command (mods/hooks/if.ts): permission-rule syntax, read as Claude
// Code reads it for a hook, erring towards running the hook when a command cannot be cut.
import { describe, expect, it } from "vitest";
import { ifMatches, parseIf, splitCommand, type IfRule } from "../../mods/hooks/if.js";

const root = "/work/proj";
const rule = (text: string): IfRule => {
  const r = parseIf(text);
  if (typeof r === "string") throw new Error(r);
  return r;
};
const bash = (text: string, command: string): boolean => ifMatches(rule(text), ["Bash"], { command }, root);
const file = (text: string, tool: string, file_path: string): boolean => ifMatches(rule(text), [tool], { file_path }, root);

describe("a hook's if rule", () => {
  it("reads Bash patterns: a glob, a :* prefix at a word boundary, an exact command", () => {
    expect(bash("Bash(git commit *)", "git commit -m wip")).toBe(true);
    expect(bash("Bash(git commit *)", "git commit")).toBe(true);
    expect(bash("Bash(git commit *)", "git status")).toBe(false);
    expect(bash("Bash(git commit:*)", "git commit --amend")).toBe(true);
    expect(bash("Bash(git commit:*)", "git commitx")).toBe(false);
    expect(bash("Bash(ls *)", "lsof -i")).toBe(false);
    expect(bash("Bash(ls*)", "lsof -i")).toBe(true);
    expect(bash("Bash(npm test)", "npm test")).toBe(true);
    expect(bash("Bash(npm test)", "npm test -- a")).toBe(false);
    expect(bash("Bash", "anything at all")).toBe(true);
  });

  it("matches any part of a compound command, after VAR=value words, but not text inside quotes", () => {
    expect(bash("Bash(git push *)", "npm test && git push origin main")).toBe(true);
    expect(bash("Bash(git push *)", "FOO=1 BAR='a b' git push")).toBe(true);
    expect(bash("Bash(git push *)", "(cd sub; git push)")).toBe(true);
    expect(bash("Bash(git push *)", "echo 'git push origin' | cat")).toBe(false);
    expect(splitCommand(`a "x && y" && b; c | d\ne`)).toEqual([`a "x && y"`, "b", "c", "d", "e"]);
  });

  it("runs the hook when a command holds a substitution it cannot cut", () => {
    expect(bash("Bash(git push *)", "echo $(date)")).toBe(true);
    expect(bash("Bash(git push *)", "echo `date`")).toBe(true);
  });

  it("reads file patterns: a name at any depth, a path under the root, // absolute", () => {
    expect(file("Edit(*.py)", "Edit", "/work/proj/src/deep/x.py")).toBe(true);
    expect(file("Edit(*.py)", "Edit", "src/x.ts")).toBe(false);
    expect(file("Write(src/**)", "Write", "src/a/b.ts")).toBe(true);
    expect(file("Write(src/**)", "Write", "/work/proj/test/b.ts")).toBe(false);
    expect(file("Read(//etc/*)", "Read", "/etc/passwd")).toBe(true);
    expect(file("Edit(*.py)", "Write", "x.py")).toBe(false); // another tool
  });

  it("knows a tool by its other names, and the agent type of a Task call", () => {
    expect(ifMatches(rule("Agent(explore)"), ["Task", "Agent"], { subagent_type: "explore" }, root)).toBe(true);
    expect(ifMatches(rule("Task(explore)"), ["Task", "Agent"], { subagent_type: "review" }, root)).toBe(false);
    expect(ifMatches(rule("WebFetch(domain:example.com)"), ["WebFetch"], { url: "https://docs.example.com/x" }, root)).toBe(true);
    expect(ifMatches(rule("WebFetch(domain:example.com)"), ["WebFetch"], { url: "https://example.org/" }, root)).toBe(false);
  });

  it("says what is wrong with a rule it cannot read", () => {
    expect(parseIf("Bash(git commit")).toMatch(/not a permission rule/);
    expect(parseIf("")).toMatch(/must be a permission rule/);
    expect(parseIf("Bash()")).toMatch(/empty pattern/);
  });
});
