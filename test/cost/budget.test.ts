import { describe, expect, it } from "vitest";
import { budgetState } from "../../src/core/cost/budget.js";

describe("budgets downgrade at 80% and refuse at 100%", () => {
  it("is ok below 80% of the daily budget, with nothing to say", () => {
    const s = budgetState({ spentToday: 3.95, spentMonth: 10 }, { daily: 5 });
    expect(s.state).toBe("ok");
    expect(s.message).toBe("");
  });

  it("downgrades at exactly 80% and says which budget and how much is left", () => {
    // $4.00 of $5.00 = 80%, $1.00 left
    const s = budgetState({ spentToday: 4, spentMonth: 10 }, { daily: 5 });
    expect(s).toMatchObject({ state: "downgrade", which: "daily", left: 1 });
    expect(s.message).toBe("daily budget 80% used: $1.00 of $5.00 left today; switching to chat-fast");
  });

  it("counts a sum of small costs that reaches 80% as 80%, despite float rounding", () => {
    // 0.1 + 0.7 is 0.7999999999999999 in floating point
    expect(budgetState({ spentToday: 0.1 + 0.7, spentMonth: 0.8 }, { daily: 1 }).state).toBe("downgrade");
    expect(budgetState({ spentToday: 0.1 + 0.2, spentMonth: 0.3 }, { daily: 0.3 }).state).toBe("exhausted");
  });

  it("is exhausted at 100% and says new turns are refused", () => {
    const s = budgetState({ spentToday: 5, spentMonth: 10 }, { daily: 5 });
    expect(s).toMatchObject({ state: "exhausted", which: "daily", left: 0, canRaise: true });
    expect(s.message).toBe("daily budget of $5.00 is spent ($5.00 today); new turns are refused until you raise it for this session");
  });

  it("judges by the fuller of the daily and monthly budgets", () => {
    // daily 1/5 = 20%; monthly 85/100 = 85% → downgrade on the monthly budget, $15.00 left
    const s = budgetState({ spentToday: 1, spentMonth: 85 }, { daily: 5, monthly: 100 });
    expect(s).toMatchObject({ state: "downgrade", which: "monthly", left: 15 });
    expect(s.message).toContain("this month");
  });

  it("speaks the display currency", () => {
    // ¥40 of ¥50 = 80%, ¥10 left
    const s = budgetState({ spentToday: 40, spentMonth: 40 }, { daily: 50, currency: "CNY" });
    expect(s.message).toBe("daily budget 80% used: ¥10.00 of ¥50.00 left today; switching to chat-fast");
  });

  it("lets a session raise lift a user's budget", () => {
    // $5.00 spent of $5.00 + $5.00 raised = 50%
    const s = budgetState({ spentToday: 5, spentMonth: 5 }, { daily: 5, setBy: { daily: "user" } }, { daily: 5 });
    expect(s.state).toBe("ok");
    expect(s.limit).toBe(10);
  });

  it("has nothing to enforce when no budget is set", () => {
    expect(budgetState({ spentToday: 1000, spentMonth: 1000 }, {})).toMatchObject({ state: "ok", canRaise: false });
  });
});

describe("a managed-policy budget cannot be raised by the user", () => {
  it("refuses to raise a budget set by managed policy and says why", () => {
    const s = budgetState({ spentToday: 5, spentMonth: 5 }, { daily: 5, setBy: { daily: "managed" } });
    expect(s).toMatchObject({ state: "exhausted", canRaise: false });
    expect(s.raiseRefused).toBe("the daily budget is set by managed policy and cannot be raised");
    expect(s.message).toContain("set by managed policy");
  });

  it("ignores a session raise on a managed budget", () => {
    const s = budgetState({ spentToday: 5, spentMonth: 5 }, { daily: 5, setBy: { daily: "managed" } }, { daily: 100 });
    expect(s.state).toBe("exhausted");
    expect(s.limit).toBe(5);
  });

  it("refuses to raise any budget when allowRaise is false, naming the layer that said so", () => {
    const byPolicy = budgetState({ spentToday: 5, spentMonth: 5 }, { daily: 5, allowRaise: false, setBy: { daily: "user", allowRaise: "managed" } });
    expect(byPolicy).toMatchObject({ canRaise: false, raiseRefused: "managed policy does not allow raising budgets" });
    const byProject = budgetState({ spentToday: 5, spentMonth: 5 }, { daily: 5, allowRaise: false, setBy: { allowRaise: "project" } });
    expect(byProject.raiseRefused).toBe("raising budgets is switched off (budget.allowRaise: false in project settings)");
  });
});
