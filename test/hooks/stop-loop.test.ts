// A loop a Stop hook keeps (ralph-wiggum's: a state file with max_iterations, the prompt fed
// back with decision "block") runs to its own limit, not to a small fixed number; it ends at
// deepcode's ceiling (100 continuations a turn, named when reached) or when the budget is spent.
import { afterEach, describe, expect, it } from "vitest";
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin, StreamEvent } from "../../src/contract/index.js";
import { startHarness, type Harness } from "../helpers/harness.js";
import { completion, hooksFor, openSession, type Session } from "./helpers.js";

const RALPH_HOOK = fileURLToPath(new URL("./fixtures/ralph/hooks/stop-hook.sh", import.meta.url));

let s: Session | undefined;
let h: Harness | undefined;
afterEach(async () => {
  await s?.close();
  await h?.engine.close("exit");
  await h?.close();
  s = undefined;
  h = undefined;
});

/** The plugin's hook copied into the project, and /ralph-loop's state file as its setup writes it. */
function ralph(root: string, maxIterations: number): void {
  mkdirSync(join(root, "ralph"), { recursive: true });
  copyFileSync(RALPH_HOOK, join(root, "ralph", "stop-hook.sh"));
  mkdirSync(join(root, ".claude"), { recursive: true });
  const state = ["---", "active: true", "iteration: 1", `max_iterations: ${maxIterations}`, "completion_promise: null", "---", "", "Make the tests pass."];
  writeFileSync(join(root, ".claude", "ralph-loop.local.md"), `${state.join("\n")}\n`);
}

const notices = (events: StreamEvent[]) => events.filter((e) => e.type === "notice").map((e) => (e as { message: string }).message).join("\n");

describe("a loop kept by a Stop hook", () => {
  it("runs ralph-loop's --max-iterations 8 to its eighth request, then ends with the state file removed", async () => {
    s = await openSession({
      script: { default: { content: "worked on it" } },
      prepare: (box) => ralph(box.root, 8),
      project: { hooks: hooksFor("Stop", "sh ./ralph/stop-hook.sh") },
    });
    const end = completion(await s.turn("/ralph-loop Make the tests pass. --max-iterations 8"));
    expect(end.stopReason).toBe("completed");
    expect(s.sim.requests, s.warnings.join("\n")).toHaveLength(8);
    expect(JSON.stringify(s.sim.requests[7].json.messages)).toContain("Make the tests pass.");
    expect(existsSync(join(s.box.root, ".claude", "ralph-loop.local.md"))).toBe(false);
  });

  it("ends a loop with no limit of its own at deepcode's ceiling of 100 continuations, and says so", async () => {
    // A hook that always asks for more, in process (100 runs of a shell hook would take minutes).
    const always: Plugin = { id: "always-more", description: "asks every turn to go on", register(api) {
        api.on("turn.complete", async (_e, next) => {
          await next();
          return { continueWith: "keep going" };
        });
      },
    };
    h = await startHarness({ script: { default: { content: "again" } }, mods: [always] });
    const events = await h.turn("loop for ever");
    expect(completion(events).stopReason).toBe("completed");
    expect(h.sim.requests).toHaveLength(101);
    expect(notices(events)).toMatch(/the turn ends here \(deepcode's ceiling: 100 continuations a turn\)/);
  });

  it("stops the loop once the budget is spent, as it would refuse a new turn", async () => {
    s = await openSession({
      script: { default: { content: "worked on it" } },
      prepare: (box) => ralph(box.root, 8),
      user: { budget: { daily: 0.0000001 } },
      project: { hooks: hooksFor("Stop", "sh ./ralph/stop-hook.sh") },
    });
    const end = completion(await s.turn("go"));
    expect(end.stopReason).toBe("completed");
    expect(s.sim.requests).toHaveLength(1);
    expect(s.app.cost?.takeNotices().map((n) => n.message).join("\n")).toMatch(/a Stop hook asked to continue the turn; not done: .*budget/i);
  });
});
