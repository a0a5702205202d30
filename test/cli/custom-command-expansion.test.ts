import { describe, expect, it } from "vitest";
import { engineRunner, expandCommand, splitArgs, type CommandRunner } from "../../src/cli/commands/custom.js";

const noRun: CommandRunner = async () => {
  throw new Error("no command should run");
};
const body = (text: string) => ({ body: text });

describe("arguments are substituted into the command's body", () => {
  it("puts the whole argument string where $ARGUMENTS stands", async () => {
    const r = await expandCommand(body("Fix issue $ARGUMENTS now. Again: $ARGUMENTS"), "  #123 in the parser ", noRun);
    expect(r.prompt).toBe("Fix issue #123 in the parser now. Again: #123 in the parser");
  });

  it("puts each argument where $1…$N stand, quoted arguments kept whole, missing ones empty", async () => {
    const r = await expandCommand(body("Review PR #$1 with priority $2 and assign to $3. [$4]"), `456 "high priority" 'alice b'`, noRun);
    expect(r.prompt).toBe("Review PR #456 with priority high priority and assign to alice b. []");
  });

  it("reads $10 as the tenth argument, not the first followed by a zero", async () => {
    const r = await expandCommand(body("$1-$10"), "a b c d e f g h i j", noRun);
    expect(r.prompt).toBe("a-j");
  });

  it("appends the arguments on a last line when the body uses no placeholder, so they are never lost", async () => {
    expect((await expandCommand(body("Explain this code."), "src/a.ts", noRun)).prompt).toBe("Explain this code.\n\nARGUMENTS: src/a.ts");
    expect((await expandCommand(body("Explain this code."), "", noRun)).prompt).toBe("Explain this code.");
  });

  it("leaves @path mentions in place for the mention expander", async () => {
    const r = await expandCommand(body("Compare @src/a.ts with @$1"), "src/b.ts", noRun);
    expect(r.prompt).toBe("Compare @src/a.ts with @src/b.ts");
  });

  it("passes allowed-tools and model through", async () => {
    const r = await expandCommand({ body: "x", allowedTools: ["Bash(git status:*)"], model: "deepseek-pro" }, "", noRun);
    expect(r).toEqual({ prompt: "x", allowedTools: ["Bash(git status:*)"], model: "deepseek-pro" });
  });
});

describe("splitting arguments like a shell", () => {
  it("respects double quotes, single quotes and backslashes", () => {
    expect(splitArgs(`one "two three" 'four "five"' six\\ seven "a \\"q\\""`)).toEqual(["one", "two three", 'four "five"', "six seven", 'a "q"']);
  });

  it("keeps an empty quoted argument and runs an unclosed quote to the end", () => {
    expect(splitArgs(`a "" b "c d`)).toEqual(["a", "", "b", "c d"]);
  });
});

describe("!`cmd` in a body runs through the runner and is replaced by its output", () => {
  it("runs each command in order and puts its output where it stood", async () => {
    const ran: string[] = [];
    const run: CommandRunner = async (command) => {
      ran.push(command);
      return { ok: true, output: command === "git branch --show-current" ? "main\n" : " M src/a.ts\n" };
    };
    const r = await expandCommand(body("## Context\n- Branch: !`git branch --show-current`\n- Status:\n!`git status --short`\n\nWrite the commit."), "", run);
    expect(ran).toEqual(["git branch --show-current", "git status --short"]);
    expect(r.prompt).toBe("## Context\n- Branch: main\n- Status:\n M src/a.ts\n\nWrite the commit.");
  });

  it("shows a denied command as denied, with what the gate said", async () => {
    const run: CommandRunner = async () => ({ ok: false, output: "Permission denied for Bash: matches deny rule Bash(rm:*)" });
    const r = await expandCommand(body("Before:\n!`rm -rf build`\nAfter."), "", run);
    expect(r.prompt).toBe("Before:\n[command `rm -rf build` did not succeed]\nPermission denied for Bash: matches deny rule Bash(rm:*)\nAfter.");
  });

  it("shows a failing command as failed, and a runner that throws the same way", async () => {
    const failed = await expandCommand(body("!`npm test`"), "", async () => ({ ok: false, output: "1 failed\n[exit code 1]" }));
    expect(failed.prompt).toBe("[command `npm test` did not succeed]\n1 failed\n[exit code 1]");
    const thrown = await expandCommand(body("!`npm test`"), "", async () => {
      throw new Error("no session to run it in");
    });
    expect(thrown.prompt).toBe("[command `npm test` did not succeed]\nno session to run it in");
  });

  it("substitutes arguments inside a command, but never runs a !`cmd` that came in the arguments", async () => {
    const ran: string[] = [];
    const run: CommandRunner = async (c) => {
      ran.push(c);
      return { ok: true, output: "log" };
    };
    const r = await expandCommand(body("!`git log -n $1`\nTopic: $2"), "3 '!`curl evil`'", run);
    expect(ran).toEqual(["git log -n 3"]);
    expect(r.prompt).toBe("log\nTopic: !`curl evil`");
  });

  it("does not treat an inline code span or a ! inside a word as a command", async () => {
    const r = await expandCommand(body("Use `git status` here, and wow!`not a command`"), "", noRun);
    expect(r.prompt).toBe("Use `git status` here, and wow!`not a command`");
  });
});

describe("the engine runner", () => {
  it("runs Bash through the engine's runTool and reads an error result as not ok", async () => {
    const calls: Array<[string, unknown]> = [];
    const engine = {
      runTool: async (tool: string, input: { command: string }) => {
        calls.push([tool, input]);
        return { output: { content: "Permission denied for Bash: the user said no", isError: true } };
      },
    };
    expect(await engineRunner(engine)("git push")).toEqual({ ok: false, output: "Permission denied for Bash: the user said no" });
    expect(calls).toEqual([["Bash", { command: "git push" }]]);
  });
});
