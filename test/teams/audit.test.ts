// An administrator's audit of every permission decision (issue #42, item 4): a managed policy
// denies `Read(.env)`, runs a `PermissionDenied` hook and loads the audit-log plugin. Judged by
// what the administrator's files hold after the model tried the secret, a command the person
// allowed and a harmless read — the settings denial, which no PreToolUse hook sees, included.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { bashCall, toolResults } from "../permissions-e2e/helpers.js";
import { hooksFor, openSession, type Session } from "../hooks/helpers.js";

const AUDIT_PLUGIN = fileURLToPath(new URL("../../plugins/audit-log/index.ts", import.meta.url));

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

type Line = Record<string, unknown>;
const lines = (file: string): Line[] => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Line) : []);

/** The policy an administrator writes: the secret denied, every denial to a hook, every decision
 *  to the audit log (in the policy's own plugins, so a person cannot take it out). */
const policy = {
  permissions: { deny: ["Read(.env)"] },
  hooks: hooksFor("PermissionDenied", "cat >> ./denied.jsonl; echo >> ./denied.jsonl"),
  plugins: [AUDIT_PLUGIN],
  pluginConfig: { "audit-log": { file: "audit.jsonl" } },
};

const script = {
  replies: [
    { tool_calls: [{ id: "call_env", name: "Read", arguments: { file_path: ".env" } }, bashCall("call_touch", "touch made.txt"), { id: "call_a", name: "Read", arguments: { file_path: "a.txt" } }] },
    { content: "done" },
  ],
};

function prepare(box: { root: string }): void {
  writeFileSync(join(box.root, ".env"), "API_TOKEN=hunter2\n");
  writeFileSync(join(box.root, "a.txt"), "hello\n");
}

describe("the managed policy's audit of permission decisions", () => {
  it("runs its PermissionDenied hook for the call its own Read(.env) rule denied, naming the rule, its layer and file", async () => {
    s = await openSession({ script, managed: policy, answer: "allow", prepare });
    await s.turn("look around");
    expect(toolResults(s.sim).get("call_env")).toMatch(/^Permission denied for Read: /);
    const denied = lines(join(s.box.root, "denied.jsonl"));
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ hook_event_name: "PermissionDenied", tool_name: "Read", tool_use_id: "call_env", permission_rule: { rule: "Read(.env)", kind: "deny", layer: "managed" } });
    expect(String((denied[0]!.permission_rule as Line).file)).toMatch(/managed-settings\.json$/);
    expect(String(denied[0]!.reason)).toMatch(/\.env/);
  });

  it("writes one audit line per decision: the denied secret, the command the person allowed, the harmless read", async () => {
    s = await openSession({ script, managed: policy, answer: "allow", prepare });
    await s.turn("look around");
    const decisions = lines(join(s.box.root, "audit.jsonl")).filter((l) => "decision" in l);
    expect(decisions.map((l) => [l.call, l.decision, l.gate])).toEqual([
      ["call_env", "deny", "deny"],
      ["call_touch", "allow", "ask"],
      ["call_a", "allow", "allow"],
    ]);
    expect(decisions[0]!.rule).toMatchObject({ rule: "Read(.env)", layer: "managed" });
    expect(decisions[1]!.answer).toMatchObject({ decision: "allow", by: "test-person" });
    expect(existsSync(join(s.box.root, "made.txt"))).toBe(true);
  });

  it("counts a person's no as a denial: the hook runs for it, and the audit says who answered", async () => {
    s = await openSession({ script, managed: policy, answer: "deny", prepare });
    await s.turn("look around");
    const denied = lines(join(s.box.root, "denied.jsonl"));
    expect(denied.map((d) => [d.tool_use_id, d.decided_by, d.asked])).toEqual([
      ["call_env", "Read(.env) (managed)", false],
      ["call_touch", "test-person", true],
    ]);
    const touch = lines(join(s.box.root, "audit.jsonl")).find((l) => l.call === "call_touch" && "decision" in l);
    expect(touch).toMatchObject({ decision: "deny", gate: "ask", answer: { decision: "deny", by: "test-person" } });
    expect(existsSync(join(s.box.root, "made.txt"))).toBe(false);
  });
});
