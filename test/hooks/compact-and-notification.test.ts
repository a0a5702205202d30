// PreCompact hooks can keep the log uncompacted; Notification hooks hear that a permission
// prompt is waiting, and never answer it.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { bashCall } from "../permissions-e2e/helpers.js";
import { hooksFor, openSession, type Session } from "./helpers.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** The Notification hook runs beside the prompt, so it may finish after the turn: wait for the
 *  file it renames into place when it is done. */
async function waitFor(file: string): Promise<string> {
  const deadline = Date.now() + 120_000; // a limit for a hook that never finishes, not a speed
  while (!existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  return readFileSync(file, "utf8");
}

describe("a PreCompact hook", () => {
  it("blocks /compact when it exits 2, with its stderr as the reason, and gets the trigger and instructions", async () => {
    s = await openSession({ script: { default: { content: "ok" } }, project: { hooks: hooksFor("PreCompact", "cat > ./compact.json; echo 'not now: mid-refactor' >&2; exit 2", "manual") } });
    for (const p of ["one", "two", "three"]) await s.turn(p);
    const r = await s.engine.compact("keep the API notes");
    expect(r.ok).toBe(false);
    expect(r.error).toBe("blocked by a PreCompact hook: not now: mid-refactor");
    expect(JSON.parse(readFileSync(join(s.box.root, "compact.json"), "utf8"))).toMatchObject({
      hook_event_name: "PreCompact",
      trigger: "manual",
      custom_instructions: "keep the API notes",
    });
  });

  it("does not run for an automatic compaction when its matcher says manual", async () => {
    s = await openSession({ script: { default: { content: "ok" } }, project: { hooks: hooksFor("PreCompact", "exit 2", "manual") } });
    await s.turn("one");
    const r = await s.app.chain.dispatch({ type: "context.compact", sessionId: s.engine.sessionId, auto: true });
    expect(r.error ?? "").not.toMatch(/PreCompact/);
  });
});

describe("a Notification hook", () => {
  it("hears that a permission prompt waits, and the person's answer stands", async () => {
    s = await openSession({
      script: { replies: [{ tool_calls: [bashCall("call_1", "touch n.txt")] }, { content: "done" }] },
      project: { hooks: hooksFor("Notification", "cat > ./notified.tmp && mv ./notified.tmp ./notified.json; echo '{\"decision\":\"block\"}'") },
      answer: "allow",
    });
    await s.turn("make n.txt");
    expect(s.asked).toEqual(["Bash"]);
    expect(existsSync(join(s.box.root, "n.txt"))).toBe(true);
    expect(JSON.parse(await waitFor(join(s.box.root, "notified.json")))).toMatchObject({
      hook_event_name: "Notification",
      notification_type: "permission_prompt",
      message: "deepcode needs your permission to use Bash",
    });
  });
});
