import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { loadCustomCommands, type CustomCommand } from "../../src/cli/commands/custom.js";
import { tempDirs, writeTree, type Dirs } from "./helpers.js";

let d: Dirs;
beforeEach(() => {
  d = tempDirs();
});
afterEach(() => d.cleanup());

const load = (reserved?: string[]) => loadCustomCommands({ root: d.root, home: d.home, userHome: d.userHome, reserved });
const byName = (list: CustomCommand[], name: string) => list.find((c) => c.name === name);

describe("custom commands are found in four places, and a project command wins over a user one", () => {
  it("finds deepcode's and Claude Code's folders, in the project and in the person's home", () => {
    writeTree(d.root, { ".deepcode/commands/a.md": "Project deepcode A", ".claude/commands/b.md": "Project claude B" });
    writeTree(d.home, { "commands/c.md": "User deepcode C" });
    writeTree(d.userHome, { ".claude/commands/e.md": "User claude E" });
    const { commands, warnings } = load();
    expect(warnings).toEqual([]);
    expect(commands.map((c) => [c.name, c.scope, c.origin])).toEqual([
      ["a", "project", "deepcode"],
      ["b", "project", "claude"],
      ["c", "user", "deepcode"],
      ["e", "user", "claude"],
    ]);
    expect(byName(commands, "a")?.file).toBe(join(d.root, ".deepcode/commands/a.md"));
  });

  it("keeps the person's command on a name clash (the project's is /project:<name>, said naming both files), and deepcode's folder wins over Claude Code's", () => {
    writeTree(d.root, { ".deepcode/commands/review.md": "from project deepcode", ".claude/commands/review.md": "from project claude", ".claude/commands/fix.md": "fix from project claude", ".claude/commands/only.md": "only in the project" });
    writeTree(d.home, { "commands/review.md": "from user deepcode", "commands/fix.md": "fix from user deepcode" });
    writeTree(d.userHome, { ".claude/commands/review.md": "from user claude" });
    const { commands, warnings } = load();
    expect(byName(commands, "review")?.body).toBe("from user deepcode");
    expect(byName(commands, "project:review")?.body).toBe("from project deepcode");
    expect(byName(commands, "fix")?.body).toBe("fix from user deepcode");
    expect(byName(commands, "project:fix")?.body).toBe("fix from project claude");
    expect(byName(commands, "only")?.body).toBe("only in the project");
    expect(commands.filter((c) => c.name === "review")).toHaveLength(1);
    expect(warnings).toContain(`${join(d.root, ".claude/commands/fix.md")}: /fix is your own command (${join(d.home, "commands/fix.md")}), which a project cannot replace; this file is /project:fix`);
  });

  it("namespaces files in sub-folders with colons: git/commit.md is /git:commit", () => {
    writeTree(d.root, { ".deepcode/commands/git/commit.md": "Commit", ".deepcode/commands/git/pr/open.md": "Open a PR" });
    expect(load().commands.map((c) => c.name)).toEqual(["git:commit", "git:pr:open"]);
  });

  it("skips hidden files, non-Markdown files and names a built-in command already has", () => {
    writeTree(d.root, { ".deepcode/commands/.draft.md": "x", ".deepcode/commands/notes.txt": "x", ".deepcode/commands/help.md": "my help" });
    const { commands, warnings } = load(["help", "exit"]);
    expect(commands).toEqual([]);
    expect(warnings).toEqual([`${join(d.root, ".deepcode/commands/help.md")}: /help is a built-in command; this file is skipped`]);
  });

  it("finds nothing, and says nothing, when none of the folders exist", () => {
    expect(load()).toEqual({ commands: [], warnings: [] });
  });
});

describe("the frontmatter of a command file", () => {
  it("reads description, argument-hint, allowed-tools and model", () => {
    writeTree(d.root, {
      ".deepcode/commands/commit.md": [
        "---",
        "description: Create a git commit",
        "argument-hint: [message]",
        "allowed-tools: Bash(git add:*), Bash(git status:*), Bash(git commit:*)",
        "model: deepseek-pro",
        "---",
        "",
        "Commit with message $ARGUMENTS",
      ].join("\n"),
    });
    const [c] = load().commands;
    expect(c).toMatchObject({
      name: "commit",
      description: "Create a git commit",
      argumentHint: "[message]",
      allowedTools: ["Bash(git add:*)", "Bash(git status:*)", "Bash(git commit:*)"],
      model: "deepseek-pro",
      body: "Commit with message $ARGUMENTS",
    });
  });

  it("reads lists written as [a, b] and as '- a' lines, with quoted items", () => {
    writeTree(d.root, {
      ".deepcode/commands/flow.md": '---\nallowed-tools: [Read, "Bash(git log:*)", \'Grep\']\n---\nbody',
      ".deepcode/commands/block.md": "---\nallowed-tools:\n  - Read\n  - \"Bash(npm test:*)\"\n- Glob\n---\nbody",
    });
    const { commands, warnings } = load();
    expect(warnings).toEqual([]);
    expect(byName(commands, "flow")?.allowedTools).toEqual(["Read", "Bash(git log:*)", "Grep"]);
    expect(byName(commands, "block")?.allowedTools).toEqual(["Read", "Bash(npm test:*)", "Glob"]);
  });

  it("unquotes double- and single-quoted strings, escapes included, and drops comments after plain values", () => {
    writeTree(d.root, {
      ".deepcode/commands/q.md": "---\ndescription: \"Say \\\"hi\\\": a test\"\nargument-hint: '<file> [it''s optional]'\nmodel: deepseek-flash # the cheap one\n---\nbody",
    });
    const [c] = load().commands;
    expect(c.description).toBe('Say "hi": a test');
    expect(c.argumentHint).toBe("<file> [it's optional]");
    expect(c.model).toBe("deepseek-flash");
  });

  it("takes the description from the body's first line when the header has none", () => {
    writeTree(d.root, { ".deepcode/commands/plain.md": "\n# Review the staged changes\n\nLook for bugs.", ".deepcode/commands/empty-header.md": "---\n---\nFirst line here\nsecond" });
    const { commands } = load();
    expect(byName(commands, "plain")?.description).toBe("Review the staged changes");
    expect(byName(commands, "empty-header")?.description).toBe("First line here");
  });

  it("warns about a malformed header line with file and line, and still loads the command with the rest", () => {
    const file = join(d.root, ".deepcode/commands/bad.md");
    writeTree(d.root, { ".deepcode/commands/bad.md": '---\ndescription: Fine\nthis line is not yaml\nargument-hint: "never closed\n---\nThe body' });
    const { commands, warnings } = load();
    // A line that is not `key:` after a plain value continues it, as Claude Code reads it.
    expect(warnings).toEqual([`${file}:4: argument-hint: a double-quoted string is not closed`, `${file}:2: description continues on unindented lines; read as one value (indent them to make it plain YAML)`]);
    expect(commands[0]).toMatchObject({ name: "bad", description: "Fine this line is not yaml", body: "The body" });
    expect(commands[0].argumentHint).toBeUndefined();
  });

  it("does not register a file whose header is never closed, and says so on line 1 with the fix", () => {
    const file = join(d.root, ".deepcode/commands/open.md");
    writeTree(d.root, { ".deepcode/commands/open.md": "---\ndescription: x\nDo the thing", ".deepcode/commands/fine.md": "Fine" });
    const { commands, warnings } = load();
    expect(warnings).toEqual([`${file}:1: the frontmatter opened with --- is never closed, so /open is not registered; close the header with a --- line (then /reload)`]);
    expect(commands.map((c) => c.name)).toEqual(["fine"]);
  });

  it("warns about unknown keys in deepcode's folders but not in Claude Code's, and drops Claude model names", () => {
    const ours = join(d.root, ".deepcode/commands/ours.md");
    const theirs = join(d.root, ".claude/commands/theirs.md");
    writeTree(d.root, {
      ".deepcode/commands/ours.md": "---\ndescripton: typo\n---\nbody",
      ".claude/commands/theirs.md": "---\ndisable-model-invocation: true\nmodel: claude-3-5-haiku-20241022\n---\nbody",
    });
    const { commands, warnings } = load();
    expect(warnings).toEqual([
      `${ours}:2: unknown key 'descripton' (known: description, argument-hint, allowed-tools, model); ignored`,
      `${theirs}:3: model 'claude-3-5-haiku-20241022' is a Claude model; ignored (the session's model is used)`,
    ]);
    expect(byName(commands, "theirs")?.model).toBeUndefined();
  });
});

describe("longer frontmatter values", () => {
  it("reads | and > block scalars and a plain value continued on indented lines", () => {
    writeTree(d.root, {
      ".deepcode/commands/folded.md": "---\ndescription: >\n  Review the diff\n  for bugs\nargument-hint: |\n  <pr>\n  [focus]\n---\nbody",
      ".deepcode/commands/plain.md": "---\ndescription: Review the staged\n  changes only\n---\nbody",
    });
    const { commands, warnings } = load();
    expect(warnings).toEqual([]);
    expect(byName(commands, "folded")).toMatchObject({ description: "Review the diff for bugs", argumentHint: "<pr>\n[focus]" });
    expect(byName(commands, "plain")?.description).toBe("Review the staged changes only");
  });
});
