// The estimate of turns that start subagents (src/core/estimate/delegation.ts): how many runs a
// prompt and the session's earlier turns suggest, and what each run costs — drawn from the runs
// earlier turns started (their ledger lines), at the price of the model each ran on.
import { describe, expect, it } from "vitest";
import { costOf } from "../../src/core/cost/calc.js";
import { delegationOf, planDelegation, runsNamed } from "../../src/core/estimate/delegation.js";
import { estimateTurn, type TierEstimate } from "../../src/core/estimate/turn.js";
import { ledgerRecord, type LedgerRecord } from "../../src/core/cost/ledger.js";
import { loadPriceTable } from "../../src/core/cost/prices.js";
import { pickShapes, shapesOf } from "../../src/core/estimate/shapes.js";
import { resolveTiers } from "../../src/core/cost/tiers.js";
import type { Usage } from "../../src/contract/wire.js";
import { at } from "./fixtures.js";

const table = loadPriceTable();
const tiers = resolveTiers();
const NOW = at("2026-11-30T12:00:00Z");

const usage = (prompt: number, completion: number, hitShare = 0.98): Usage => ({ prompt_tokens: prompt, completion_tokens: completion, prompt_cache_hit_tokens: Math.floor(prompt * hitShare), prompt_cache_miss_tokens: prompt - Math.floor(prompt * hitShare), reasoning_tokens: 0 });

let clock = 0;
/** The ledger lines of a main turn of `rounds` requests and of each subagent run it started
 *  (`runs`: rounds of each; an explore run at chat-fast on flash, 2 000 prompt tokens a round). */
function turn(n: number, o: { start: number; rounds: number; out: number; tool: number; runs?: number[]; taskClass?: string; runTier?: string; runModel?: string; asked?: [number, number] }): LedgerRecord[] {
  const lines: LedgerRecord[] = [];
  const estimate = { tier: "chat-full", lowUsd: 0, highUsd: 1, taskClass: o.taskClass ?? "routine", ...(o.asked ? { subagents: o.asked } : {}) };
  let prompt = o.start;
  for (let k = 0; k < o.rounds; k++) {
    const u = usage(prompt, o.out);
    lines.push(ledgerRecord({ at: new Date(NOW.getTime() + ++clock * 1000), project: "/p", session: "s", turn: n, step: k + 1, tier: "chat-full", usage: u, cost: costOf(u, "deepseek-flash", NOW), estimate }));
    prompt += o.out + o.tool;
    if (k === 0) {
      for (const [i, rounds] of (o.runs ?? []).entries()) {
        let p = 2000;
        for (let j = 0; j < rounds; j++) {
          const v = usage(p, 120, 0.8);
          const model = o.runModel ?? "deepseek-flash";
          lines.push(ledgerRecord({ at: new Date(NOW.getTime() + ++clock * 1000), project: "/p", session: "s", turn: n, step: j + 1, tier: o.runTier ?? "chat-fast", usage: v, cost: costOf(v, model, NOW), estimate, agent: { name: "explore", session: `sub-${n}-${i}` } }));
          p += 120 + 900;
        }
      }
    }
  }
  return lines;
}

const tierOf = (ts: TierEstimate[], name: string) => {
  const t = ts.find((x) => x.tier === name);
  if (!t || t.error !== undefined) throw new Error(`${name} unpriced`);
  return t;
};
const cost = (lines: LedgerRecord[]) => lines.reduce((a, r) => a + r.usd, 0);

describe("how many subagent runs a turn starts", () => {
  it("takes the number a delegating prompt names", () => {
    expect(runsNamed("Use two subagents in parallel: check money and dates")).toBe(2);
    expect(runsNamed("use 3 explore agents, one per module, in parallel")).toBe(3);
    expect(runsNamed("Have a subagent look at the parser")).toBe(1);
    expect(runsNamed("Delegate this to subagents: money and dates")).toBeUndefined();
    expect(runsNamed("add two tasks to the todo list")).toBeUndefined(); // no delegation asked
    expect(delegationOf("Use three subagents for this", { hasTask: true })).toEqual([3, 3]);
    expect(delegationOf("Use three subagents for this", { hasTask: false })).toEqual([0, 0]);
  });

  it("narrows an unnamed ask to what three or more earlier delegating turns started", () => {
    const records = [1, 2, 3].flatMap((n) => turn(n, { start: 8000 + n * 1000, rounds: 2, out: 300, tool: 200, runs: n === 2 ? [2, 2, 2] : [2, 2] }));
    expect(planDelegation([1, 3], shapesOf(records, () => true)).runs).toEqual([2, 3]);
    // One earlier delegating turn is not enough to narrow: at least one, at most three.
    expect(planDelegation([1, 3], shapesOf(turn(1, { start: 8000, rounds: 2, out: 300, tool: 200, runs: [2] }), () => true)).runs).toEqual([1, 3]);
  });

  it("expects none on a turn that does not ask, when most recent turns here started none", () => {
    const records = [
      ...turn(1, { start: 8000, rounds: 4, out: 250, tool: 500 }),
      ...turn(2, { start: 10_000, rounds: 2, out: 300, tool: 200, runs: [3, 3] }),
      ...turn(3, { start: 12_000, rounds: 5, out: 250, tool: 500 }),
      ...turn(4, { start: 14_000, rounds: 4, out: 250, tool: 500 }),
    ];
    const shapes = pickShapes(shapesOf(records, () => true), "routine");
    // What the engine passes for a session that delegated before: up to as many as then.
    const e = estimateTurn({ prompt: "fix the parser's error message", taskClass: "routine", lastUsage: usage(16_000, 250), delegation: { runs: [0, 2], prefixTokens: 3000 }, shapes }, tiers, table, NOW);
    expect(e.subagents).toBeUndefined();
    const full = tierOf(e.tiers, "chat-full");
    const actual = cost(turn(5, { start: 16_250, rounds: 4, out: 250, tool: 500 }));
    expect(full.lowUsd).toBeLessThanOrEqual(actual);
    expect(full.highUsd).toBeGreaterThanOrEqual(actual);
    expect(full.highUsd).toBeLessThanOrEqual(3 * actual);
  });
});

describe("what the runs cost", () => {
  const earlier = [
    ...turn(1, { start: 8000, rounds: 4, out: 250, tool: 500 }),
    ...turn(2, { start: 10_000, rounds: 2, out: 300, tool: 200, runs: [2] }),
    ...turn(3, { start: 12_000, rounds: 4, out: 250, tool: 500 }),
    ...turn(4, { start: 14_000, rounds: 2, out: 300, tool: 200, runs: [2, 3] }),
  ];

  it("prices a delegating turn from the earlier runs and delegating turns: a turn like them falls inside, the high end within 3× (the tables' range is far wider)", () => {
    const shapes = pickShapes(shapesOf(earlier, () => true), "question");
    const base = { prompt: "Use two subagents: check money and dates", taskClass: "question" as const, lastUsage: usage(16_000, 300), delegation: { runs: [2, 2] as const, prefixTokens: 3000 } };
    const drawn = tierOf(estimateTurn({ ...base, shapes }, tiers, table, NOW).tiers, "chat-full");
    const tables = tierOf(estimateTurn(base, tiers, table, NOW).tiers, "chat-full");
    const actual = cost(turn(5, { start: 16_300, rounds: 2, out: 300, tool: 200, runs: [2, 3] }));
    expect(drawn.lowUsd).toBeLessThanOrEqual(actual);
    expect(drawn.highUsd).toBeGreaterThanOrEqual(actual);
    expect(drawn.highUsd).toBeLessThanOrEqual(3 * actual);
    expect(tables.highUsd / tables.lowUsd).toBeGreaterThan(2 * (drawn.highUsd / drawn.lowUsd));
    // The rounds shown count the runs' requests too: in the high case one run the dearest
    // earlier run (3 rounds), the other the median one (2), beside the main agent's 2.
    expect(drawn.high.rounds).toBe(2 + 3 + 2);
  });

  it("prices a run at the model it ran on: an explore run (chat-fast, flash) costs the same whatever tier the turn is priced at", () => {
    const shapes = pickShapes(shapesOf(earlier, () => true), "question");
    const base = { prompt: "Use two subagents: check money and dates", taskClass: "question" as const, lastUsage: usage(16_000, 300), delegation: { runs: [2, 2] as const, prefixTokens: 3000 }, shapes };
    const withRuns = estimateTurn(base, tiers, table, NOW).tiers;
    // One run fewer: the main part is the same (drawn from the same delegating turns).
    const without = estimateTurn({ ...base, delegation: { runs: [1, 1], prefixTokens: 3000 } }, tiers, table, NOW).tiers;
    const part = (name: string) => tierOf(withRuns, name).highUsd - tierOf(without, name).highUsd;
    expect(part("chat-full")).toBeGreaterThan(0);
    expect(part("reasoner")).toBeCloseTo(part("chat-full"), 9);
    // A run that inherited the caller's tier (general-purpose) moves with the tier priced.
    const inherit = [...turn(1, { start: 8000, rounds: 2, out: 300, tool: 200, runs: [2], runTier: "chat-full" })];
    const s2 = shapesOf(inherit, () => true);
    const r2 = estimateTurn({ ...base, shapes: s2 }, tiers, table, NOW).tiers;
    const w2 = estimateTurn({ ...base, shapes: s2, delegation: { runs: [1, 1], prefixTokens: 3000 } }, tiers, table, NOW).tiers;
    const part2 = (name: string) => tierOf(r2, name).highUsd - tierOf(w2, name).highUsd;
    expect(part2("reasoner")).toBeGreaterThan(2 * part2("chat-full")); // pro costs more than flash
  });

  it("prices each run with its agent's prefix cached: the first run's cold read of it does not set the high end", () => {
    const cold = turn(2, { start: 10_000, rounds: 2, out: 300, tool: 200, runs: [2] });
    const first = cold.find((r) => r.agent !== undefined)!;
    first.hit = 0; // the first run of its type read its prefix whole
    first.miss = first.prompt;
    const records = [...turn(1, { start: 8000, rounds: 4, out: 250, tool: 500 }), ...cold, ...turn(3, { start: 12_000, rounds: 2, out: 300, tool: 200, runs: [2] })];
    const plan = planDelegation([2, 2], shapesOf(records, () => true));
    const [a, b] = plan.evidence;
    expect(a.miss).toBe(b.miss); // the same run, warm
    expect(a.hit).toBe(b.hit);
  });

  it("draws a delegating turn's main part from the earlier turns whose prompt asked (the ledger's estimate counted runs), not from one that delegated on its own besides its own work", () => {
    const records = [
      ...turn(1, { start: 8000, rounds: 2, out: 300, tool: 200, runs: [2], asked: [1, 3] }),
      ...turn(2, { start: 10_000, rounds: 6, out: 400, tool: 3000, runs: [2], asked: [0, 2] }), // delegated unasked
      ...turn(3, { start: 12_000, rounds: 2, out: 300, tool: 200, runs: [2, 2], asked: [2, 2] }),
    ];
    const shapes = shapesOf(records, () => true);
    expect(shapes.map((s) => s.asked === true)).toEqual([true, false, true]);
    const plan = planDelegation([2, 2], shapes);
    expect(plan.shapes.map((s) => s.rounds)).toEqual([2, 2]);
    const e = tierOf(estimateTurn({ prompt: "use two subagents", taskClass: "question", lastUsage: usage(14_000, 300), delegation: { runs: [2, 2], prefixTokens: 3000 }, shapes }, tiers, table, NOW).tiers, "chat-full");
    const actual = cost(turn(4, { start: 14_300, rounds: 2, out: 300, tool: 200, runs: [2, 2] }));
    expect(e.highUsd).toBeGreaterThanOrEqual(actual);
    expect(e.highUsd).toBeLessThanOrEqual(3 * actual);
  });

  it("keeps the latest delegating turns of any class beside the class's own shapes", () => {
    const records = [
      ...turn(1, { start: 8000, rounds: 2, out: 300, tool: 200, runs: [2], taskClass: "question" }),
      ...[2, 3, 4, 5].flatMap((n) => turn(n, { start: 8000 + n * 1000, rounds: 4, out: 250, tool: 500 })),
    ];
    const picked = pickShapes(shapesOf(records, () => true), "routine");
    expect(picked).toHaveLength(5);
    expect(picked.filter((s) => s.runs)).toHaveLength(1);
  });
});
