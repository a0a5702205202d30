import { describe, expect, it } from "vitest";
import type { Usage } from "../../src/contract/wire.js";
import { estimateTurn, knownInputs, toCostEstimates, type TierEstimate } from "../../src/core/estimate/turn.js";
import { loadPriceTable } from "../../src/core/cost/prices.js";
import { formatEstimateLine } from "../../src/core/cost/report.js";
import { estimateTokens } from "../../src/core/tokens.js";
import { DEFAULT_TIERS, resolveTiers, tierRequest, type TierProfiles } from "../../src/core/cost/tiers.js";
import { at } from "./fixtures.js";

const table = loadPriceTable();
const tiers = resolveTiers();
const OFF_PEAK = at("2026-11-30T12:00:00Z"); // Monday, off-peak
const PEAK = at("2026-11-30T02:00:00Z");

const last = (prompt: number, completion: number, reasoning = 0): Usage => ({
  prompt_tokens: prompt,
  prompt_cache_hit_tokens: prompt,
  prompt_cache_miss_tokens: 0,
  completion_tokens: completion,
  reasoning_tokens: reasoning,
});

function priced(e: TierEstimate): Exclude<TierEstimate, { error: string }> {
  if (e.error !== undefined) throw new Error(e.error);
  return e;
}

describe("the estimate starts from what is known exactly", () => {
  it("takes the context as the last prompt plus its reply plus the new input, and the cached part as the first two floored to 64", () => {
    const k = knownInputs({ prompt: "Fix the typo in the README", lastUsage: last(20_000, 1_000, 400) });
    // With tools on, the whole reply (reasoning included) goes back: 20,000 + 1,000 = 21,000.
    // 21,000 / 64 = 328.1 → 328 × 64 = 20,992 cached.
    expect(k.newTokens).toBe(estimateTokens("Fix the typo in the README"));
    expect(k.contextTokens).toBe(21_000 + k.newTokens);
    expect(k.cachedTokens).toBe(20_992);
  });

  it("leaves the reasoning out of the re-sent reply when tools are off", () => {
    // 20,000 + (1,000 − 400) = 20,600; 20,600 / 64 = 321.9 → 321 × 64 = 20,544
    const k = knownInputs({ prompt: "", lastUsage: last(20_000, 1_000, 400), agentic: false });
    expect(k.contextTokens).toBe(20_600);
    expect(k.cachedTokens).toBe(20_544);
  });

  it("uses the reply size the caller measured when it gives one", () => {
    // 20,000 + 750 = 20,750; 20,750 / 64 = 324.2 → 324 × 64 = 20,736
    const k = knownInputs({ prompt: "", lastUsage: last(20_000, 1_000, 400), lastReplyTokens: 750 });
    expect(k).toEqual({ contextTokens: 20_750, cachedTokens: 20_736, newTokens: 0 });
  });

  it("counts @-mention contents as new input, scaled by the calibration ratio", () => {
    const file = "export const answer = 42;\n".repeat(40);
    const k = knownInputs({ prompt: "explain @src/a.ts", attachments: [file], tokenRatio: 1.2, lastUsage: last(1_000, 0) });
    expect(k.newTokens).toBe(estimateTokens("explain @src/a.ts", 1.2) + estimateTokens(file, 1.2));
  });

  it("on a session's first turn, counts the prefix as cached only when an earlier session left it there", () => {
    // 5,000 / 64 = 78.1 → 78 × 64 = 4,992
    expect(knownInputs({ prompt: "", prefixTokens: 5_000, prefixCached: true })).toEqual({ contextTokens: 5_000, cachedTokens: 4_992, newTokens: 0 });
    expect(knownInputs({ prompt: "", prefixTokens: 5_000 }).cachedTokens).toBe(0);
  });
});

describe("each tier gets a low–high range from the predicted rounds and output", () => {
  it("prices a one-round question without tools from the exact context and the predicted output", () => {
    // Context 9,984 + 16 = 10,000 tokens, 9,984 cached (156 × 64). Question on chat-fast predicts
    // 60–800 output tokens in one round. Flash off-peak: hit 0.003, miss 0.15, output 0.60.
    // low:  9,984×0.003 + 16×0.15 +  60×0.60 = 29.952 + 2.4 + 36  =  68.352 → $0.000068352
    // high: 9,984×0.003 + 16×0.15 + 800×0.60 = 29.952 + 2.4 + 480 = 512.352 → $0.000512352
    const e = estimateTurn({ prompt: "", taskClass: "question", agentic: false, lastUsage: last(9_984, 16) }, tiers, table, OFF_PEAK);
    const fast = priced(e.tiers[0]!);
    expect(fast.tier).toBe("chat-fast");
    expect(fast.low).toEqual({ rounds: 1, hit: 9_984, miss: 16, output: 60 });
    expect(fast.lowUsd).toBeCloseTo(0.000068352, 12);
    expect(fast.highUsd).toBeCloseTo(0.000512352, 12);
    // CNY low: 9,984×0.02 + 16×1 + 60×4 = 199.68 + 16 + 240 = 455.68 → ¥0.00045568
    expect(fast.lowCny).toBeCloseTo(0.00045568, 12);
  });

  it("re-sends the context each extra round, mostly cached, plus the last output and tool results", () => {
    // Routine with tools: low case 2 units × 2 = 4 rounds, 80 output and 400 tool tokens per
    // round (chat-fast). Start: context 10,000, cached 9,984.
    //   round 1: hit  9,984  miss  16  → next cached floor64(10,000 + 80) = 10,048, context 10,480
    //   round 2: hit 10,048  miss 432  → next cached floor64(10,480 + 80) = 10,560, context 10,960
    //   round 3: hit 10,560  miss 400  → next cached floor64(10,960 + 80) = 11,008, context 11,440
    //   round 4: hit 11,008  miss 432
    // hit 41,600, miss 1,280, output 320:
    //   41,600×0.003 + 1,280×0.15 + 320×0.60 = 124.8 + 192 + 192 = 508.8 → $0.0005088
    const e = estimateTurn({ prompt: "", taskClass: "routine", lastUsage: last(9_984, 16) }, tiers, table, OFF_PEAK);
    const fast = priced(e.tiers[0]!);
    expect(fast.low).toEqual({ rounds: 4, hit: 41_600, miss: 1_280, output: 320 });
    expect(fast.lowUsd).toBeCloseTo(0.0005088, 12);
    expect(fast.high.rounds).toBe(12); // 4 units × 3
  });

  it("lets a question with tools be answered in a single round at best", () => {
    const e = estimateTurn({ prompt: "", taskClass: "question", lastUsage: last(9_984, 16) }, tiers, table, OFF_PEAK);
    expect(priced(e.tiers[0]!).low.rounds).toBe(1);
    expect(priced(e.tiers[0]!).high.rounds).toBe(6); // 2 units × 3
  });

  it("gives every tier a range whose high end is above its low end, dearer tiers costing more", () => {
    const e = estimateTurn({ prompt: "Refactor all providers to share the retry helper", lastUsage: last(30_000, 2_000) }, tiers, table, OFF_PEAK);
    expect(e.taskClass).toBe("refactor");
    const ranges = e.tiers.map(priced);
    expect(ranges.map((t) => t.tier)).toEqual(["chat-fast", "chat-full", "reasoner-budget", "reasoner"]);
    for (const t of ranges) expect(t.highUsd).toBeGreaterThan(t.lowUsd);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]!.highUsd).toBeGreaterThan(ranges[i - 1]!.highUsd);
  });

  it("doubles the flash range at peak hours, when every flash price doubles", () => {
    const input = { prompt: "", taskClass: "routine" as const, lastUsage: last(9_984, 16) };
    const off = priced(estimateTurn(input, tiers, table, OFF_PEAK).tiers[1]!);
    const peak = priced(estimateTurn(input, tiers, table, PEAK).tiers[1]!);
    expect(peak.peak).toBe(true);
    expect(peak.lowUsd).toBeCloseTo(off.lowUsd * 2, 12);
    expect(peak.highUsd).toBeCloseTo(off.highUsd * 2, 12);
  });

  it("marks a tier mapped to a model without a price instead of estimating it as free", () => {
    const mapped: TierProfiles = resolveTiers({ reasoner: { model: "mystery-model" } });
    const e = estimateTurn({ prompt: "design a plugin system" }, mapped, table, OFF_PEAK);
    expect(e.tiers[3]).toEqual({ tier: "reasoner", model: "mystery-model", error: expect.stringContaining('no price for model "mystery-model"') });
    expect(toCostEstimates(e).map((c) => c.tier)).toEqual(["chat-fast", "chat-full", "reasoner-budget"]);
  });
});

describe("the recommended tier follows the task class and the budget", () => {
  const rec = (prompt: string, budget?: "ok" | "downgrade" | "exhausted"): string =>
    estimateTurn({ prompt, lastUsage: last(10_000, 500), budget }, tiers, table, OFF_PEAK).recommended;

  it("recommends chat-fast for a question, chat-full for a routine edit, reasoner-budget for a refactor and reasoner for architecture", () => {
    expect(rec("where is the retry logic?")).toBe("chat-fast");
    expect(rec("fix the typo in the help text")).toBe("chat-full");
    expect(rec("refactor every provider to use the shared retry helper")).toBe("reasoner-budget");
    expect(rec("redesign the provider layer so the engine does not care which protocol it talks")).toBe("reasoner");
  });

  it("downgrades to chat-fast when a budget is at 80% and says why", () => {
    const e = estimateTurn({ prompt: "redesign the provider layer", lastUsage: last(10_000, 500), budget: "downgrade" }, tiers, table, OFF_PEAK);
    expect(e.recommended).toBe("chat-fast");
    expect(formatEstimateLine(e, "USD")).toMatch(/^architecture → chat-fast \$[\d.]+–[\d.]+ \(budget at 80%: downgraded\) · 1 chat-fast /);
  });
});

describe("tiers are profiles settings can remap", () => {
  it("maps each default tier to its model, thinking mode and effort on the wire", () => {
    expect(tierRequest(DEFAULT_TIERS["chat-fast"])).toEqual({ model: "deepseek-flash", thinking: { type: "disabled" }, max_tokens: 8192 });
    expect(tierRequest(DEFAULT_TIERS["chat-full"])).toMatchObject({ model: "deepseek-flash", thinking: { type: "enabled" } });
    expect(tierRequest(DEFAULT_TIERS["reasoner-budget"])).toMatchObject({ model: "deepseek-v4-pro", reasoning_effort: "high" });
    expect(tierRequest(DEFAULT_TIERS.reasoner)).toMatchObject({ model: "deepseek-v4-pro", reasoning_effort: "max" });
  });

  it("changes only the fields settings give, and names a bad key", () => {
    const t = resolveTiers({ "chat-full": { maxTokens: 16_000 } });
    expect(t["chat-full"]).toEqual({ model: "deepseek-flash", thinking: true, maxTokens: 16_000 });
    expect(DEFAULT_TIERS["chat-full"].maxTokens).toBe(32_768);
    expect(() => resolveTiers({ turbo: {} })).toThrow(/tiers\["turbo"\]: unknown tier/);
    expect(() => resolveTiers({ reasoner: { effort: "extreme" } })).toThrow(/tiers\["reasoner"\]\.effort: expected "low", "high", "max"/);
  });
});
