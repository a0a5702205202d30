// The estimate around plan mode: a planned turn's line is planner + executor, and after the
// planner ran, the executor's tier is not charged for a cache it still has (the server caches
// per model: the executor's last request is still there).
import { describe, expect, it } from "vitest";
import { DEFAULT_TIERS, estimateTurn, floorToCacheUnit, loadPriceTable, type TierProfiles } from "../../src/core/cost/index.js";
import { computeEstimate } from "../../src/core/estimate/session.js";
import { plannedEstimateLine } from "../../src/cli/repl/plan-route.js";
import type { Ledger } from "../../src/core/context/context.js";

const tiers = structuredClone(DEFAULT_TIERS) as TierProfiles;
const table = loadPriceTable();
const now = new Date("2026-11-29T12:00:00Z");
const usage = { prompt_tokens: 10_000, completion_tokens: 200, prompt_cache_hit_tokens: 9_000, prompt_cache_miss_tokens: 1_000, reasoning_tokens: 50 };
const ledger = { lastPromptTokens: 10_000, nextPromptTokens: 10_300, zones: { system: 1_000, tools: 3_000, log: 6_000, tail: 300 } } as Ledger;
const prompt = "carry out the plan";

const low = (e: ReturnType<typeof computeEstimate>, i: number): number => {
  const t = e.tiers[i];
  if (t.error !== undefined) throw new Error(t.error);
  return t.lowUsd;
};

describe("the estimate with a planner in the session", () => {
  it("charges the executor's tier nothing for a switch back after the planner ran, when its own cache holds", () => {
    const last = { usage, model: "deepseek-v4-pro", thinking: true };
    const plain = estimateTurn({ prompt, lastUsage: usage, lastReplyTokens: 200, agentic: true }, tiers, table, now);
    const cold = computeEstimate({ prompt, ledger, messages: [], last, budget: "ok" }, tiers, table, now);
    const warm = computeEstimate({ prompt, ledger, messages: [], last, cachedBy: { "deepseek-flash": floorToCacheUnit(10_200) }, budget: "ok" }, tiers, table, now);
    const chatFull = 1;
    expect(low(cold, chatFull)).toBeGreaterThan(low(plain, chatFull));
    expect(low(warm, chatFull)).toBeCloseTo(low(plain, chatFull), 10);
    // The planner's own tier (the last request's family) is untouched by it.
    expect(low(warm, 2)).toBe(low(cold, 2));
  });

  it("shows a planned turn as the planner's range plus the executor's, and their sum", () => {
    const e = computeEstimate({ prompt: "design the storage layer", ledger, messages: [], budget: "ok" }, tiers, table, now);
    const line = plannedEstimateLine({ ...e, recommended: "chat-full" }, "reasoner-budget", "USD");
    const m = /^architecture → plan reasoner-budget \$([\d.]+)–([\d.]+) \+ run chat-full \$([\d.]+)–([\d.]+) = \$([\d.]+)–([\d.]+) \(planner \+ executor\)$/.exec(line);
    expect(m).not.toBeNull();
    const [pl, ph, xl, xh, sl, sh] = m!.slice(1).map(Number);
    expect(sl).toBeCloseTo(pl + xl, 2);
    expect(sh).toBeCloseTo(ph + xh, 2);
    expect(plannedEstimateLine({ ...e, recommended: "chat-full" }, undefined, "USD")).toBe("architecture → plan with the planner (no estimate: not a tier) + run chat-full");
  });
});
