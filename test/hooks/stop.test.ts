// Stop hooks on turn.complete: `decision: "block"` (or exit 2) with a reason makes the model go
// on with that reason; `stop_hook_active` tells the hook it already did so this turn, and
// `continue: false` wins over a block.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { completion, hooksFor, openSession, type Session } from "./helpers.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

// Blocks the first stop of a turn, lets the second one through (Claude Code's loop guard).
const ONCE = `input=$(cat); printf '%s\\n' "$input" >> ./stop.log
case "$input" in
  *'"stop_hook_active":true'*) exit 0 ;;
  *) echo '{"decision":"block","reason":"the tests have not been run yet"}' ;;
esac`;

describe("a Stop hook", () => {
  it("makes the model go on with the hook's reason, and lets the turn end when it is already active", async () => {
    s = await openSession({ script: { replies: [{ content: "all done" }, { content: "ran the tests: green" }] }, project: { hooks: hooksFor("Stop", ONCE) } });
    const end = completion(await s.turn("fix the bug"));
    expect(end.stopReason).toBe("completed");
    expect(end.text).toContain("ran the tests: green");
    expect(s.sim.requests).toHaveLength(2);
    const second = s.sim.requests[1].json.messages as Array<{ role: string; content: string }>;
    expect(second[second.length - 1]).toMatchObject({ role: "user" });
    expect(second[second.length - 1].content).toContain("the tests have not been run yet");
    const log = readFileSync(join(s.box.root, "stop.log"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(log.map((i) => i.stop_hook_active)).toEqual([false, true]);
    expect(log[0]).toMatchObject({ hook_event_name: "Stop", session_id: s.engine.sessionId });
  });

  it("goes on with the hook's stderr when it exits 2", async () => {
    s = await openSession({
      script: { replies: [{ content: "done" }, { content: "fixed the lint" }] },
      project: { hooks: hooksFor("Stop", `if grep -q '"stop_hook_active":true'; then exit 0; fi; echo 'lint fails in a.ts' >&2; exit 2`) },
    });
    const end = completion(await s.turn("go"));
    expect(end.text).toContain("fixed the lint");
    expect(JSON.stringify(s.sim.requests[1].json.messages)).toContain("lint fails in a.ts");
  });

  it("lets the turn end when the hook says continue: false, whatever else it says", async () => {
    s = await openSession({
      script: { replies: [{ content: "done" }, { content: "should not be asked" }] },
      project: { hooks: hooksFor("Stop", `echo '{"decision":"block","reason":"more","continue":false,"stopReason":"budget reached"}'`) },
    });
    const end = completion(await s.turn("go"));
    expect(end.text).toBe("done");
    expect(s.sim.requests).toHaveLength(1);
  });

  it("does not change the turn when it fails; the person is told", async () => {
    s = await openSession({ script: { replies: [{ content: "done" }] }, project: { hooks: hooksFor("Stop", "exit 1") } });
    expect(completion(await s.turn("go")).text).toBe("done");
    expect(s.warnings.join("\n")).toMatch(/Stop hook `exit 1` exited with status 1/);
  });

  it("does not run when the turn never reached the model (a prompt hook blocked it)", async () => {
    s = await openSession({
      script: { default: { content: "unused" } },
      project: { hooks: { ...hooksFor("UserPromptSubmit", "exit 2"), ...hooksFor("Stop", "touch ./stop-ran") } },
    });
    expect(completion(await s.turn("go")).stopReason).toBe("error");
    expect(existsSync(join(s.box.root, "stop-ran"))).toBe(false);
  });
});
