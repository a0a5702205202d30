// A hook's `if` (Claude Code's permission-rule condition) and the `permission_mode` a hook reads,
// through the real CLI. Run `npx tsc -p tsconfig.json` first (the CLI runs from dist/).
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { call, cliRig, type CliRig } from "../e2e/helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** What a hook logged, one JSON object a line. */
function logOf(file: string): Array<Record<string, unknown>> {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
}

const LOG = (file: string): string => `jq -c '{cmd: .tool_input.command, mode: .permission_mode, event: .hook_event_name}' >> ${file}`;

describe("a hook's if", () => {
  it("runs a Bash hook only for the calls its rule matches (a git commit, also inside a compound command)", async () => {
    const hooks = {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", if: "Bash(git commit *)", command: LOG("commit.log") }, { type: "command", command: LOG("all.log") }] }],
      PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", if: "Bash(git status:*)", command: LOG("status.log") }] }],
    };
    rig = await cliRig(
      {
        replies: [
          call("Bash", { command: "git status" }),
          call("Bash", { command: "git log --oneline" }),
          call("Bash", { command: "git add a.txt && git commit -m wip" }),
          call("Bash", { command: "echo 'git commit -m not-a-commit'" }),
          { content: "done" },
        ],
      },
      { ".deepcode/settings.json": JSON.stringify({ hooks, permissions: { allow: ["Bash(git status:*)", "Bash(git log:*)", "Bash(echo:*)"] } }) },
    );
    const r = await rig.run(["-p", "commit it", "--trust-project"]);
    expect(r.code).toBe(0);
    const root = rig.env.root;
    expect(logOf(join(root, "all.log")).map((l) => l.cmd)).toEqual(["git status", "git log --oneline", "git add a.txt && git commit -m wip", "echo 'git commit -m not-a-commit'"]);
    // Only the commit: not the other git commands, nor a quoted mention of one.
    expect(logOf(join(root, "commit.log")).map((l) => l.cmd)).toEqual(["git add a.txt && git commit -m wip"]);
    expect(logOf(join(root, "status.log"))).toEqual([{ cmd: "git status", mode: "default", event: "PostToolUse" }]);
  });

  it("written on the entry instead of the command is named at start", async () => {
    const hooks = { PreToolUse: [{ matcher: "Bash", if: "Bash(git *)", hooks: [{ type: "command", command: "true" }] }] };
    rig = await cliRig({ default: { content: "ok" } }, { ".deepcode/settings.json": JSON.stringify({ hooks }) });
    const r = await rig.run(["-p", "hi", "--trust-project"]);
    expect(r.stderr).toMatch(/hooks\.PreToolUse\[0\]: 'if' belongs on each command/);
  });

  it("on an event without a tool call never runs the command, and says so at start", async () => {
    const hooks = { UserPromptSubmit: [{ hooks: [{ type: "command", if: "Bash(git *)", command: "touch prompt-hook-ran" }] }] };
    rig = await cliRig({ default: { content: "ok" } }, { ".deepcode/settings.json": JSON.stringify({ hooks }) });
    const r = await rig.run(["-p", "hi", "--trust-project"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(rig.env.root, "prompt-hook-ran"))).toBe(false);
    expect(r.stderr).toMatch(/'if' is tested only on tool events/);
  });

  it("that deepcode cannot read denies the PreToolUse calls it would have seen (fail closed)", async () => {
    const hooks = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", if: "Bash(git commit", command: "exit 0" }] }] };
    rig = await cliRig({ replies: [call("Bash", { command: "echo hi" }), { content: "done" }] }, { ".deepcode/settings.json": JSON.stringify({ hooks, permissions: { allow: ["Bash(echo:*)"] } }) });
    const r = await rig.run(["-p", "go", "--trust-project"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/is not a permission rule/);
    expect(JSON.stringify(rig.sim.requests.map((q) => q.body))).toMatch(/cannot run as configured/);
  });
});

describe("a hook's permission_mode", () => {
  it("is acceptEdits under --permission-mode acceptEdits and plan in plan mode", async () => {
    const hooks = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: LOG("mode.log") }] }] };
    const files = { ".deepcode/settings.json": JSON.stringify({ hooks, permissions: { allow: ["Bash(git status:*)"] } }) };
    rig = await cliRig({ replies: [call("Bash", { command: "git status" }), { content: "done" }, call("Bash", { command: "git status" }), { content: "1. look" }] }, files);
    expect((await rig.run(["-p", "look", "--trust-project", "--permission-mode", "acceptEdits"])).code).toBe(0);
    expect((await rig.run(["-p", "plan it", "--trust-project", "--permission-mode", "plan"])).code).toBe(0);
    expect(logOf(join(rig.env.root, "mode.log")).map((l) => l.mode)).toEqual(["acceptEdits", "plan"]);
  });
});
