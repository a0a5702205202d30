// PreToolUse hooks on the permission gate: Claude Code's protocol (exit 2, permissionDecision,
// the legacy decision field, additionalContext), with deepcode's fail-closed differences: a hook
// that fails, hangs, cannot start or prints broken JSON denies the call.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { bashCall, toolResults } from "../permissions-e2e/helpers.js";
import { hooksFor, openSession, type Session, type SessionOptions } from "./helpers.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** One `touch made.txt` from the model, with these hooks (and settings); the person says no. */
async function touch(hooks: object, more: Partial<SessionOptions> = {}): Promise<{ made: boolean; told: string; asked: string[]; warnings: string[] }> {
  s = await openSession({
    script: { replies: [{ tool_calls: [bashCall("call_1", "touch made.txt")] }, { content: "done" }] },
    ...more,
    project: { ...(more.project ?? {}), hooks },
  });
  await s.turn("make a file");
  return { made: existsSync(join(s.box.root, "made.txt")), told: toolResults(s.sim).get("call_1") ?? "", asked: s.asked, warnings: s.warnings };
}

const json = (v: unknown): string => `echo '${JSON.stringify(v)}'`;

describe("a PreToolUse hook that fails denies the call (deepcode's gate fails closed)", () => {
  it("denies when the hook exits with a status other than 0 or 2, and tells the person", async () => {
    const r = await touch(hooksFor("PreToolUse", "echo broken >&2; exit 1", "Bash"));
    expect(r.made).toBe(false);
    expect(r.told).toMatch(/^Permission denied for Bash: the PreToolUse hook `echo broken >&2; exit 1` exited with status 1: broken/);
    expect(r.warnings.join("\n")).toMatch(/PreToolUse hook `echo broken >&2; exit 1` exited with status 1/);
  });

  it("denies when the hook outlives its timeout (the hook's own, in seconds)", async () => {
    const r = await touch(hooksFor("PreToolUse", "sleep 20", "Bash", 1));
    expect(r.made).toBe(false);
    expect(r.told).toMatch(/`sleep 20` timed out after 1 s/);
  });

  it("denies when the hook's command does not exist", async () => {
    const r = await touch(hooksFor("PreToolUse", "/no/such/hook-script", "Bash"));
    expect(r.made).toBe(false);
    expect(r.told).toMatch(/exited with status 127/);
  });

  it("denies when the hook prints something that starts like JSON but is not", async () => {
    const r = await touch(hooksFor("PreToolUse", "echo '{\"permissionDecision\": allow'", "Bash"));
    expect(r.made).toBe(false);
    expect(r.told).toMatch(/printed "\{\\"permissionDecision\\": allow", which is not one JSON object/);
  });

  // Each of these once let the call run: stdout not starting with `{` was read as plain text.
  const unreadable: Array<[string, string]> = [
    ["a JSON array holding a deny", `echo '[${JSON.stringify({ hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "no" } })}]'`],
    ["a log line, then the deny JSON", `echo 'checking the command...'; echo '${JSON.stringify({ hookSpecificOutput: { permissionDecision: "deny" } })}'`],
    ["the deny JSON, then a log line", `echo '${JSON.stringify({ decision: "block", reason: "no" })}'; echo done`],
    ["two JSON objects", `echo '{"decision":"approve"}{"decision":"block"}'`],
    ["plain text", "echo looks fine to me"],
    ["a JSON string", `echo '"deny"'`],
    ["a number", "echo 2"],
    ["null", "echo null"],
  ];
  for (const [what, command] of unreadable) {
    it(`denies when the hook exits 0 printing ${what}, naming the hook and what it printed`, async () => {
      const r = await touch(hooksFor("PreToolUse", command, "Bash"));
      expect(r.made).toBe(false);
      expect(r.told).toMatch(/the PreToolUse hook `echo .*` printed ".*", which is not one JSON object/);
    });
  }

  it("bounds what the reason quotes of a long answer", async () => {
    const r = await touch(hooksFor("PreToolUse", "printf 'x%.0s' $(seq 1 5000)", "Bash"));
    expect(r.made).toBe(false);
    expect(r.told).toMatch(/printed "x{160}…"/);
  });

  it("denies a legacy decision deepcode does not know", async () => {
    const r = await touch(hooksFor("PreToolUse", json({ decision: "deny-ish" }), "Bash"));
    expect(r.made).toBe(false);
    expect(r.told).toMatch(/decision "deny-ish", which deepcode does not know/);
  });

  it("denies when the hook answers a permissionDecision deepcode does not know", async () => {
    const r = await touch(hooksFor("PreToolUse", json({ hookSpecificOutput: { permissionDecision: "maybe" } }), "Bash"));
    expect(r.made).toBe(false);
    expect(r.told).toMatch(/permissionDecision "maybe", which deepcode does not know/);
  });
});

describe("what a PreToolUse hook answers", () => {
  it("denies with the hook's reason on permissionDecision deny, which the model reads", async () => {
    const r = await touch(hooksFor("PreToolUse", json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "touch is banned here" } }), "Bash"));
    expect(r.made).toBe(false);
    expect(r.told).toBe("Permission denied for Bash: touch is banned here");
    expect(r.asked).toEqual([]);
  });

  it("reads Claude Code's legacy decision field: block denies with its reason, approve allows", async () => {
    const blocked = await touch(hooksFor("PreToolUse", json({ decision: "block", reason: "legacy says no" }), "Bash"));
    expect(blocked.made).toBe(false);
    expect(blocked.told).toBe("Permission denied for Bash: legacy says no");
    await s?.close();
    s = undefined;
    const approved = await touch(hooksFor("PreToolUse", json({ decision: "approve" }), "Bash"));
    expect(approved.made).toBe(true);
  });

  it("asks the person on permissionDecision ask, even for a call a rule allows", async () => {
    const r = await touch(hooksFor("PreToolUse", json({ hookSpecificOutput: { permissionDecision: "ask", permissionDecisionReason: "check this one" } }), "Bash"), {
      project: { permissions: { allow: ["Bash(touch:*)"] } },
    });
    expect(r.asked).toEqual(["Bash"]);
    expect(r.made).toBe(false);
  });

  it("lets the call run without a prompt on allow, where deepcode would otherwise have asked", async () => {
    const r = await touch(hooksFor("PreToolUse", json({ hookSpecificOutput: { permissionDecision: "allow" } }), "Bash"));
    expect(r.asked).toEqual([]);
    expect(r.made).toBe(true);
  });

  it("cannot lift an ask rule from settings: the person is still asked", async () => {
    const r = await touch(hooksFor("PreToolUse", json({ hookSpecificOutput: { permissionDecision: "allow" } }), "Bash"), { project: { permissions: { ask: ["Bash(touch:*)"] } } });
    expect(r.asked).toEqual(["Bash"]);
    expect(r.made).toBe(false);
  });

  it("does not apply updatedInput: the call asks instead (the original input would run), and the person is warned", async () => {
    const r = await touch(hooksFor("PreToolUse", json({ hookSpecificOutput: { permissionDecision: "allow", updatedInput: { command: "touch other.txt" } } }), "Bash"));
    expect(r.asked).toEqual(["Bash"]);
    expect(r.made).toBe(false);
    expect(existsSync(join(s!.box.root, "other.txt"))).toBe(false);
    expect(r.warnings.join("\n")).toMatch(/returned updatedInput: deepcode does not change a call's input/);
  });

  it("adds its additionalContext after the tool's output, where the model reads it", async () => {
    const r = await touch(hooksFor("PreToolUse", json({ hookSpecificOutput: { permissionDecision: "allow", additionalContext: "remember to git add it" } }), "Bash"));
    expect(r.made).toBe(true);
    expect(r.told).toMatch(/\[hook\] remember to git add it$/);
  });

  it("shows a systemMessage to the person, not the model", async () => {
    const r = await touch(hooksFor("PreToolUse", json({ systemMessage: "audit: touch seen" }), "Bash"), { answer: "allow" });
    expect(r.warnings).toContain("hooks: audit: touch seen");
    expect(r.told).not.toMatch(/audit/);
  });
});

describe("where a PreToolUse hook runs", () => {
  it("runs in the project root, with CLAUDE_PROJECT_DIR and DEEPCODE_PROJECT_DIR set to it, and without the API key", async () => {
    const out = "hook-env.txt";
    const r = await touch(hooksFor("PreToolUse", `{ pwd; echo "$CLAUDE_PROJECT_DIR"; echo "$DEEPCODE_PROJECT_DIR"; echo "key=\${DEEPSEEK_API_KEY:-none}"; } > ./${out}`, "Bash"), { answer: "allow" });
    expect(r.made).toBe(true);
    const root = s!.box.root;
    expect(readFileSync(join(root, out), "utf8")).toBe(`${root}\n${root}\n${root}\nkey=none\n`);
  });

  it("does not run for tools its matcher does not name", async () => {
    const r = await touch(hooksFor("PreToolUse", "exit 2", "Edit|Write"), { answer: "allow" });
    expect(r.made).toBe(true);
  });
});
