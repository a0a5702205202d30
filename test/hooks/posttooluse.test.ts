// PostToolUse hooks on tool.result: the tool has run; a hook can only tell the model something
// (decision block + reason, additionalContext, or stderr with exit 2). A failing PostToolUse hook
// is reported to the person and changes nothing.
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { toolResults } from "../permissions-e2e/helpers.js";
import { hooksFor, openSession, type Session } from "./helpers.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** The model writes `a.txt` (allowed by settings); returns what it was told. */
async function write(hooks: object): Promise<string> {
  s = await openSession({
    script: { replies: [{ tool_calls: [{ id: "call_w", name: "Write", arguments: { file_path: "a.txt", content: "hello\n" } }] }, { content: "done" }] },
    project: { permissions: { allow: ["Write"] }, hooks },
  });
  await s.turn("write a.txt");
  expect(readFileSync(join(s.box.root, "a.txt"), "utf8")).toBe("hello\n");
  return toolResults(s.sim).get("call_w") ?? "";
}

const json = (v: unknown): string => `echo '${JSON.stringify(v)}'`;

describe("a PostToolUse hook", () => {
  it("adds its reason after the tool's output when it answers decision block", async () => {
    const told = await write(hooksFor("PostToolUse", json({ decision: "block", reason: "a.txt must end with a blank line" }), "Write|Edit"));
    expect(told).toMatch(/\n\n\[hook\] a\.txt must end with a blank line$/);
  });

  it("adds its stderr after the tool's output when it exits 2", async () => {
    const told = await write(hooksFor("PostToolUse", "echo 'lint: 1 problem' >&2; exit 2", "Write"));
    expect(told).toMatch(/\[hook\] lint: 1 problem$/);
  });

  it("adds its additionalContext", async () => {
    const told = await write(hooksFor("PostToolUse", json({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "formatted with prettier" } }), "Write"));
    expect(told).toMatch(/\[hook\] formatted with prettier$/);
  });

  it("changes nothing when it fails, but the person is told", async () => {
    const told = await write(hooksFor("PostToolUse", "exit 3", "Write"));
    expect(told).not.toMatch(/\[hook\]/);
    expect(s!.warnings.join("\n")).toMatch(/PostToolUse hook `exit 3` exited with status 3/);
  });

  it("gets the tool's name, input and response on stdin", async () => {
    const out = "post-stdin.json";
    await write(hooksFor("PostToolUse", `cat > ./${out}`, "Write"));
    const input = JSON.parse(readFileSync(join(s!.box.root, out), "utf8")) as Record<string, unknown>;
    expect(input).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: "a.txt", content: "hello\n" },
      tool_response: { success: true, is_error: false, filePath: "a.txt" },
      tool_use_id: "call_w",
      session_id: s!.engine.sessionId,
    });
  });
});
