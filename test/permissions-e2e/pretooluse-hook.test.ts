// A Claude Code PreToolUse hook in project settings, in a real `deepcode -p`: exit 2 blocks the
// call and the model reads the hook's stderr; an allow from the hook lifts the default ask; a
// settings deny is answered before the hook is even asked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionFolderKey } from "../../src/core/session/folder-key.js";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Simulator } from "../sim/server.mjs";
import { CLI_HOOK_TIMEOUT_MS, bashCall, makeBox, projectSettings, runCli, startSim, toolResults, type Box, type CliRun } from "./helpers.js";

// The hook: logs what it was given, then answers by the command it sees.
const HOOK = `#!/usr/bin/env bash
input=$(cat)
printf '%s\\n' "$input" >> "$LOG"
case "$input" in
  *blocked.txt*) echo "no new files today: ask the user first" >&2; exit 2 ;;
  *hook-allows.txt*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"vetted by the hook"}}' ;;
  *settings-denies.txt*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}' ;;
esac
exit 0
`;

let box: Box;
let sim: Simulator;
let run: CliRun;
let log: string;

beforeAll(async () => {
  box = makeBox();
  // In the project: the hook runs in the sandbox, where nothing outside it is writable (its
  // script beside the project is shown to it read-only, as the folder its command names).
  log = join(box.root, "hook-stdin.jsonl");
  const script = join(box.base, "pre-tool-use.sh");
  writeFileSync(script, HOOK);
  projectSettings(box, {
    permissions: { deny: ["Bash(touch settings-denies.txt)"] },
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `LOG='${log}' bash '${script}'`, timeout: 30 }] }] },
  });
  sim = await startSim({
    replies: [
      { tool_calls: [bashCall("call_blocked", "touch blocked.txt"), bashCall("call_allowed", "touch hook-allows.txt"), bashCall("call_denied", "touch settings-denies.txt")] },
      { content: "done" },
    ],
  });
  run = await runCli({ box, sim, prompt: "make some files" });
}, CLI_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await sim?.close();
  box?.cleanup();
});

const hookInputs = (): Array<Record<string, unknown>> => readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);

describe("a PreToolUse hook from project settings, in a real process", () => {
  it("blocks the call when it exits 2, and the model reads the hook's stderr as the reason", () => {
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    expect(existsSync(join(box.root, "blocked.txt"))).toBe(false);
    expect(toolResults(sim).get("call_blocked")).toBe("Permission denied for Bash: no new files today: ask the user first");
  });

  it("lets a call run when it answers allow, where the default would have asked (and so denied, without a TTY)", () => {
    expect(existsSync(join(box.root, "hook-allows.txt"))).toBe(true);
    expect(toolResults(sim).get("call_allowed")).not.toMatch(/Permission denied/);
  });

  it("cannot allow what a settings rule denies: the gate answers before the hook is asked", () => {
    expect(existsSync(join(box.root, "settings-denies.txt"))).toBe(false);
    expect(toolResults(sim).get("call_denied")).toMatch(/^Permission denied for Bash: .*settings-denies/);
    expect(hookInputs().map((i) => (i.tool_input as { command: string }).command)).toEqual(["touch blocked.txt", "touch hook-allows.txt"]);
  });

  it("gets Claude Code's JSON on stdin: session, transcript path, folder, event, tool and input", () => {
    const [first] = hookInputs();
    expect(first).toMatchObject({
      session_id: run.result?.session_id,
      cwd: box.root,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "touch blocked.txt" },
      tool_use_id: "call_blocked",
    });
    // The session in Claude Code's JSONL format, beside deepcode's own (mods/hooks/transcript.ts).
    expect(first.transcript_path).toBe(join(box.deepcodeHome, "sessions", sessionFolderKey(box.root), "claude-code", `${run.result?.session_id}.jsonl`));
    expect(existsSync(first.transcript_path as string)).toBe(true);
  });
});
