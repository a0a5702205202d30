// The estimate across a plan and across processes (issue 39): a plan keeps the class its task got
// at /plan through its go, and a session resumed soon after its last request is estimated with
// its log still cached, as the server keeps it.
import { afterEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { assemble } from "../../src/cli/assemble.js";
import { classifyTask } from "../../src/core/cost/index.js";
import { installCost } from "../../src/core/cost/run/index.js";
import { Engine } from "../../src/core/engine/engine.js";
import { KEY, startRig, type Rig } from "./rig.js";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const TASK = "Fix the off-by-one in src/page.ts where the last item of a page is dropped.";

describe("the estimate of a plan and of a resumed session", () => {
  it("estimates a plan's go with the class its task got at /plan, not with what the go sentence reads as", async () => {
    rig = await startRig();
    const r = rig;
    const atPlan = await r.cost.estimate(TASK, r.engine);
    expect(atPlan.taskClass).toBe("routine");
    const classes: string[] = [];
    const plan = async (args: string): Promise<void> => r.app.commands.get("plan")!.spec.run({
      args, sessionId: r.engine.sessionId, signal: new AbortController().signal, interactive: false, print: () => undefined,
      submit: async (p) => {
        classes.push((await r.cost.estimate(p, r.engine)).taskClass);
        for await (const e of r.engine.submit(p)) void e;
      },
    });
    await plan(TASK); // the planning turn; the plan waits
    await plan("go"); // as typed: /plan go
    classes.shift();
    expect(classes.length).toBe(1); // the go
    expect(classes).toEqual(["routine"]);
    // The next prompt of the person's own is classed by itself again.
    const q = "What does src/page.ts export?";
    expect((await r.cost.estimate(q, r.engine)).taskClass).toBe(classifyTask(q));
  });

  it("takes a resumed session's log as cached when its last request was minutes ago, so the high end is not a cold re-read", async () => {
    rig = await startRig();
    await rig.turn("hello");
    await rig.turn("and now list the files");
    await rig.cost.flush();
    // A new process: a new app and cost engine on the same home, the session resumed.
    const app = await assemble({
      root: rig.root, home: rig.home, managedPath: join(rig.home, "no-policy.json"),
      env: { DEEPSEEK_API_KEY: KEY, DEEPSEEK_BASE_URL: rig.sim.url }, warn: () => undefined,
    });
    const cost = installCost(app, { interactive: true, notify: () => undefined });
    const engine = await Engine.resume(app.engineOptions(), rig.engine.sessionId);
    app.engine = engine;
    try {
      const e = await cost.estimate("thanks, one more question: what is in README.md?", engine);
      const t = e.tiers.find((x) => x.tier === e.recommended)!;
      if (t.error !== undefined) throw new Error(t.error);
      // The log before the prompt is billed as hits in the high case too.
      expect(t.high.hit).toBeGreaterThanOrEqual(e.known.contextTokens - e.known.newTokens - 64);
      expect(e.known.cachedTokens).toBeGreaterThan(0);
    } finally {
      await engine.close("test done");
    }
  });
});
