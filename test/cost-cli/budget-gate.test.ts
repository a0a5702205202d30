import { afterEach, describe, expect, it } from "vitest";
import { seedRecord, startRig, type Rig } from "./rig.js";


let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("budgets in a running session", () => {
  it("at 80% of the daily budget runs the turn at chat-fast and says so once", async () => {
    rig = await startRig({ settings: { budget: { daily: 1 } }, seed: [seedRecord(0.85)] });
    expect((await rig.turn("design a plugin system for the renderer")).stopReason).toBe("completed");
    expect((await rig.turn("and explain it")).stopReason).toBe("completed");
    for (const chat of rig.chats()) {
      expect(chat.json.model).toBe("deepseek-flash");
      expect(chat.json.thinking).toEqual({ type: "disabled" });
      expect(chat.json.max_tokens).toBe(8192);
    }
    expect((await rig.ledger()).filter((l) => l.session === rig!.engine.sessionId).map((l) => l.tier)).toEqual(["chat-fast", "chat-fast"]);
    const said = rig.streamNotices.filter((m) => m.includes("switching to chat-fast"));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^daily budget 8\d% used: \$0\.1\d\d of \$1\.00 left today; switching to chat-fast$/);
  });

  it("at 100% refuses the turn with budget_exhausted and sends nothing to the API", async () => {
    rig = await startRig({ settings: { budget: { daily: 1 } }, seed: [seedRecord(0.6), seedRecord(0.4)] });
    const done = await rig.turn("hello");
    expect(done.stopReason).toBe("budget_exhausted");
    expect(done.error).toBe("daily budget of $1.00 is spent ($1.00 today); new turns are refused until you raise it for this session");
    expect(rig.chats()).toHaveLength(0);
    expect(rig.cost.budget()).toMatchObject({ state: "exhausted", which: "daily", canRaise: true });
  });

  it("counts each request as it is made: the turn that crosses the cap is the last one", async () => {
    rig = await startRig({ settings: { budget: { daily: 1 } }, seed: [seedRecord(0.999999)] });
    expect((await rig.turn("hello")).stopReason).toBe("completed");
    expect((await rig.turn("hello again")).stopReason).toBe("budget_exhausted");
    expect(rig.chats()).toHaveLength(1);
  });

  it("judges the monthly budget on this month's records and the daily one on today's", async () => {
    const now = new Date(2026, 10, 20, 12, 0, 0); // 20 November 2026, local time
    const seed = [
      seedRecord(0.9, new Date(2026, 9, 31, 12)), // last month: does not count
      seedRecord(0.5, new Date(2026, 10, 3, 12)),
      seedRecord(0.35, new Date(2026, 10, 19, 23, 59)),
      seedRecord(0.05, new Date(2026, 10, 20, 0, 1)),
    ];
    rig = await startRig({ settings: { budget: { daily: 1, monthly: 1 } }, seed, now: () => now });
    expect(rig.cost.budget()).toMatchObject({ state: "downgrade", which: "monthly", spent: expect.closeTo(0.9, 9) });
    rig.notices.length = 0;
    await rig.close();
    rig = await startRig({ settings: { budget: { daily: 0.06 } }, seed, now: () => now });
    expect(rig.cost.budget()).toMatchObject({ state: "downgrade", which: "daily", spent: expect.closeTo(0.05, 9) });
  });

  it("raises a user budget for this session after the confirmation, and the next turn runs", async () => {
    rig = await startRig({ settings: { budget: { daily: 1 } }, seed: [seedRecord(1)] });
    expect((await rig.turn("hello")).stopReason).toBe("budget_exhausted");
    const raised = rig.cost.raiseBudget();
    expect(raised).toEqual({ ok: true, message: "daily budget raised to $2.00 for this session" });
    expect((await rig.turn("hello")).stopReason).toBe("completed");
    expect(rig.cost.budget().limit).toBe(2);
  });

  it("cannot raise a managed budget: raiseBudget says why and turns stay refused, even when the user sets a larger one", async () => {
    rig = await startRig({ settings: { budget: { daily: 50 } }, managed: { budget: { daily: 1 } }, seed: [seedRecord(1)] });
    const raised = rig.cost.raiseBudget();
    expect(raised).toEqual({ ok: false, message: "the daily budget is set by managed policy and cannot be raised" });
    const done = await rig.turn("hello");
    expect(done.stopReason).toBe("budget_exhausted");
    expect(done.error).toContain("set by managed policy");
    expect(rig.chats()).toHaveLength(0);
  });

  it("applies a user budget stricter than the managed one, and that one can be raised", async () => {
    rig = await startRig({ settings: { budget: { daily: 1 } }, managed: { budget: { daily: 10 } }, seed: [seedRecord(1)] });
    expect(rig.cost.budget()).toMatchObject({ state: "exhausted", limit: 1 });
    expect(rig.cost.raiseBudget().ok).toBe(true);
    expect(rig.cost.budget().state).toBe("ok");
    expect((await rig.turn("hello")).stopReason).toBe("completed");
  });

  it("lets managed policy forbid raising the user's own budgets", async () => {
    rig = await startRig({ settings: { budget: { daily: 1, allowRaise: true } }, managed: { budget: { allowRaise: false } }, seed: [seedRecord(1)] });
    expect(rig.cost.raiseBudget()).toEqual({ ok: false, message: "managed policy does not allow raising budgets" });
  });

  it("never raises in -p: the refusal says how to change the budget instead", async () => {
    rig = await startRig({ settings: { budget: { daily: 1 } }, seed: [seedRecord(1)], interactive: false });
    expect(rig.cost.raiseBudget()).toEqual({ ok: false, message: "deepcode -p does not raise budgets; change budget.daily or budget.monthly in settings" });
    const done = await rig.turn("hello");
    expect(done.stopReason).toBe("budget_exhausted");
    expect(done.error).toBe("daily budget of $1.00 is spent ($1.00 today); new turns are refused; deepcode -p does not raise budgets: change budget.daily in settings or wait until tomorrow");
  });

  it("a plugin cannot lift the downgrade: the budget gate wraps every other turn.start hook", async () => {
    rig = await startRig({
      settings: { budget: { daily: 1 } },
      seed: [seedRecord(0.9)],
      before: (app) => {
        app.chain.on("user", "wants-pro", "turn.start", null, async (e, next) => {
          const r = await next(e);
          return { ...(r ?? {}), profile: { model: "deepseek-v4-pro", thinking: "enabled", effort: "max" } };
        });
      },
    });
    await rig.turn("hello");
    expect(rig.chats()[0].json.model).toBe("deepseek-flash");
    expect(rig.app.chain.hooksFor("turn.start")[0]).toEqual({ tier: "prepend", owner: "cost-budget", pattern: "turn.start" });
  });
});
