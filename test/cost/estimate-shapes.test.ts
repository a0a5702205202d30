// The estimate from recent turns (src/core/estimate/shapes.ts): a turn's shape read from its ledger
// lines, and a range drawn from the shapes that holds a turn like them with a high end a small
// multiple of its cost — where the class tables alone span an order of magnitude.
import { describe, expect, it } from "vitest";
import { costOf } from "../../src/core/cost/calc.js";
import { estimateTurn } from "../../src/core/estimate/turn.js";
import { ledgerRecord } from "../../src/core/cost/ledger.js";
import { loadPriceTable } from "../../src/core/cost/prices.js";
import { pickShapes, shapesOf } from "../../src/core/estimate/shapes.js";
import { resolveTiers } from "../../src/core/cost/tiers.js";
import type { Usage } from "../../src/contract/wire.js";
import { at } from "./fixtures.js";

const table = loadPriceTable();
const tiers = resolveTiers();
const NOW = at("2026-11-30T12:00:00Z");

const usage = (prompt: number, completion: number): Usage => ({ prompt_tokens: prompt, completion_tokens: completion, prompt_cache_hit_tokens: Math.floor(prompt * 0.9), prompt_cache_miss_tokens: prompt - Math.floor(prompt * 0.9), reasoning_tokens: 0 });

/** A turn of `rounds` requests starting at `start` prompt tokens, `out` output and `tool` tool
 *  result tokens a round. */
function turn(session: string, n: number, start: number, rounds: number, out: number, tool: number, agent?: string) {
  const lines = [];
  let prompt = start;
  for (let k = 0; k < rounds; k++) {
    const u = usage(prompt, out);
    lines.push(ledgerRecord({ at: new Date(NOW.getTime() + n * 60_000 + k), project: "/p", session, turn: n, step: k + 1, tier: "chat-full", usage: u, cost: costOf(u, "deepseek-flash", NOW), estimate: { tier: "chat-full", lowUsd: 0, highUsd: 1, taskClass: "routine" }, ...(agent ? { agent: { name: agent, session: "sub" } } : {}) }));
    prompt += out + tool;
  }
  return lines;
}

describe("shapes of recent turns", () => {
  it("reads rounds, output and tool results per round from a turn's ledger lines, its subagents' lines kept apart as its runs", () => {
    const records = [...turn("s", 1, 5000, 3, 200, 400), ...turn("s", 1, 3000, 5, 999, 999, "explore"), ...turn("s", 2, 6000, 1, 150, 0)];
    const run = turn("s", 1, 3000, 5, 999, 999, "explore");
    expect(shapesOf(records, () => true)).toEqual([
      {
        tier: "chat-full", taskClass: "routine", rounds: 3, outputPerRound: 200, toolPerRound: 400,
        runs: [{ model: "deepseek-flash", tier: "chat-full", agent: "explore", rounds: 5, hit: run.reduce((n, r) => n + r.hit, 0), miss: run.reduce((n, r) => n + r.miss, 0), output: 5 * 999, firstMiss: run[0].miss }],
      },
      { tier: "chat-full", taskClass: "routine", rounds: 1, outputPerRound: 150, toolPerRound: 0 },
    ]);
  });

  it("draws the range of the tier they ran at from them: a turn like them falls inside, the high end within 3× of it", () => {
    const records = [...turn("s", 1, 8000, 3, 250, 500), ...turn("s", 2, 9000, 4, 230, 450), ...turn("s", 3, 10_000, 2, 260, 520)];
    const shapes = pickShapes(shapesOf(records, () => true), "routine");
    const base = { prompt: "fix the failing test in the parser", taskClass: "routine" as const, lastUsage: usage(11_000, 250) };
    const drawn = estimateTurn({ ...base, shapes }, tiers, table, NOW).tiers.find((t) => t.tier === "chat-full")!;
    const tables = estimateTurn(base, tiers, table, NOW).tiers.find((t) => t.tier === "chat-full")!;
    if (drawn.error !== undefined || tables.error !== undefined) throw new Error("unpriced");
    // What a turn of 3 rounds like the others costs now, priced as the ledger would.
    const actual = turn("s", 4, 11_250, 3, 240, 480).reduce((a, r) => a + r.usd, 0);
    expect(drawn.lowUsd).toBeLessThanOrEqual(actual);
    expect(drawn.highUsd).toBeGreaterThanOrEqual(actual);
    expect(drawn.highUsd).toBeLessThanOrEqual(3 * actual);
    expect(tables.highUsd / tables.lowUsd).toBeGreaterThan(5); // the tables alone: far wider
  });

  it("keeps the class tables with fewer than three shapes, none of the prompt's class", () => {
    const shapes = shapesOf([...turn("s", 1, 8000, 3, 250, 500)], () => true); // a routine turn
    const base = { prompt: "what does it do?", taskClass: "question" as const, lastUsage: usage(9000, 250) };
    expect(estimateTurn({ ...base, shapes }, tiers, table, NOW).tiers[1]).toEqual(estimateTurn(base, tiers, table, NOW).tiers[1]);
  });

  it("draws the range from one or two shapes of the prompt's class, widened 0.5×–2×: the second turn of a kind is no longer priced by the tables", () => {
    const shapes = shapesOf([...turn("s", 1, 8000, 3, 250, 500)], () => true);
    const base = { prompt: "fix it", taskClass: "routine" as const, lastUsage: usage(9000, 250) };
    const drawn = estimateTurn({ ...base, shapes }, tiers, table, NOW).tiers.find((t) => t.tier === "chat-full")!;
    const tables = estimateTurn(base, tiers, table, NOW).tiers.find((t) => t.tier === "chat-full")!;
    if (drawn.error !== undefined || tables.error !== undefined) throw new Error("unpriced");
    expect(drawn.highUsd / drawn.lowUsd).toBeCloseTo(4, 5); // one shape: its cost × 0.5 … × 2
    const actual = turn("s", 2, 9250, 3, 240, 480).reduce((a, r) => a + r.usd, 0);
    expect(drawn.lowUsd).toBeLessThanOrEqual(actual);
    expect(drawn.highUsd).toBeGreaterThanOrEqual(actual);
    expect(drawn.highUsd).toBeLessThanOrEqual(3 * actual);
    expect(tables.highUsd).toBeGreaterThan(3 * actual); // the old rule: the tables until three
  });
});
