// The estimate for turns the recent ones do not look like (issue 39): a tier no recent turn ran
// at (a planner's, the reasoner picked for one turn) and a prompt that asks for a whole log.
import { describe, expect, it } from "vitest";
import { costOf } from "../../src/core/cost/calc.js";
import { estimateLineVariants } from "../../src/core/cost/report.js";
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

/** A chat-full turn of `rounds` requests, `out` output and `tool` tool-result tokens a round. */
function turn(n: number, start: number, rounds: number, out: number, tool: number, model = "deepseek-flash", tier = "chat-full") {
  const lines = [];
  let prompt = start;
  for (let k = 0; k < rounds; k++) {
    const u = usage(prompt, out);
    lines.push(ledgerRecord({ at: new Date(NOW.getTime() + n * 60_000 + k), project: "/p", session: "s", turn: n, step: k + 1, tier, usage: u, cost: costOf(u, model, NOW), estimate: { tier, lowUsd: 0, highUsd: 1, taskClass: "routine" } }));
    prompt += out + tool;
  }
  return lines;
}

const recent = [...turn(1, 8000, 4, 250, 500), ...turn(2, 9000, 5, 230, 450), ...turn(3, 10_000, 4, 260, 520)];
const base = { prompt: "fix the failing test in the parser", taskClass: "routine" as const, lastUsage: usage(11_000, 250) };

describe("the estimate of turns unlike the recent ones", () => {
  it("prices the reasoner, which no recent turn ran at, from the turns at another tier: a turn like them at the reasoner falls inside, the high end within 3×", () => {
    const shapes = pickShapes(shapesOf(recent, () => true), "routine");
    const r = estimateTurn({ ...base, shapes }, tiers, table, NOW).tiers.find((t) => t.tier === "reasoner")!;
    if (r.error !== undefined) throw new Error(r.error);
    // The same kind of turn, run on the reasoner's model.
    const actual = turn(4, 11_250, 4, 250, 480, tiers.reasoner.model, "reasoner").reduce((a, l) => a + l.usd, 0);
    expect(r.lowUsd).toBeLessThanOrEqual(actual);
    expect(r.highUsd).toBeGreaterThanOrEqual(actual);
    expect(r.highUsd).toBeLessThanOrEqual(3 * actual);
  });

  it("allows for a result at the bound when the prompt asks for the full log, and the estimate line says the high end does", () => {
    const shapes = pickShapes(shapesOf(recent, () => true), "routine");
    const prompt = "run the suite with verbose logging and show me the full log";
    const plain = estimateTurn({ ...base, prompt, shapes }, tiers, table, NOW);
    const large = estimateTurn({ ...base, prompt, shapes, largeResultTokens: 8192 }, tiers, table, NOW);
    const p = plain.tiers.find((t) => t.tier === "chat-full")!;
    const l = large.tiers.find((t) => t.tier === "chat-full")!;
    if (p.error !== undefined || l.error !== undefined) throw new Error("unpriced");
    // A turn like the recent ones whose second round adds a 8k-token log.
    const actual = turn(5, 11_250, 4, 250, 500).reduce((a, r) => a + r.usd, 0) + (costOf({ ...usage(8192, 0), prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 8192 }, "deepseek-flash", NOW).usd) + 2 * costOf({ ...usage(8192, 0), prompt_cache_hit_tokens: 8192, prompt_cache_miss_tokens: 0 }, "deepseek-flash", NOW).usd;
    expect(l.highUsd).toBeGreaterThanOrEqual(actual);
    expect(l.lowUsd).toBe(p.lowUsd);
    expect(estimateLineVariants(large, "USD")[0]).toContain("high end allows a large output");
    // A prompt that asks for nothing large is left as it was.
    const fix = estimateTurn({ ...base, shapes, largeResultTokens: 8192 }, tiers, table, NOW);
    expect(fix.largeOutput).toBeUndefined();
    expect(estimateLineVariants(fix, "USD")[0]).not.toContain("large output");
  });
});
