import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_TIERS, estimateTokens, estimateTurn, floorToCacheUnit, loadPriceTable, priceFor, type TierProfiles } from "../../src/core/cost/index.js";
import { computeEstimate } from "../../src/core/estimate/session.js";
import type { Ledger } from "../../src/core/context/context.js";
import type { ChatMessage } from "../../src/contract/index.js";
import { seedRecord, startRig, type Rig } from "./rig.js";


let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("the pre-turn estimate's inputs", () => {
  it("after a response, takes the context size and its cached part from the exact usage figures", async () => {
    rig = await startRig();
    await rig.turn("hello");
    const ledger = rig.engine.ledger();
    const usage = rig.chats()[0].usage!;
    expect(ledger.lastPromptTokens).toBe(usage.prompt_tokens);

    const prompt = "fix the null check in src/loop.ts";
    const e = await rig.cost.estimate(prompt, rig.engine);
    const before = ledger.lastPromptTokens + usage.completion_tokens;
    expect(e.known).toEqual({ contextTokens: before + estimateTokens(prompt), cachedTokens: floorToCacheUnit(before), newTokens: estimateTokens(prompt) });

    // The API then bills that part as hits, to within one 64-token cache unit: the cache also
    // holds the reply's message framing, which completion_tokens does not count.
    await rig.turn(prompt);
    const hit = rig.chats()[1].usage!.prompt_cache_hit_tokens;
    expect(hit - e.known.cachedTokens).toBeGreaterThanOrEqual(0);
    expect(hit - e.known.cachedTokens).toBeLessThanOrEqual(64);
  });

  it("before any response, spans a cold and a warm prefix: the low end assumes it cached, the high end not", async () => {
    rig = await startRig();
    const e = await rig.cost.estimate("hello", rig.engine);
    expect(e.known.contextTokens - e.known.newTokens).toBe(rig.engine.ledger().nextPromptTokens);
    expect(e.known.cachedTokens).toBe(0);
    for (const t of e.tiers) {
      if (t.error !== undefined) throw new Error(t.error);
      expect(t.low.hit).toBeGreaterThan(0);
      expect(t.high.miss).toBeGreaterThanOrEqual(e.known.contextTokens);
      expect(t.lowUsd).toBeLessThan(t.highUsd);
    }
  });

  it("offers the estimate to cost.estimate hooks, and a plugin's rewrite is what the REPL gets", async () => {
    let seen: string[] = [];
    let active = false;
    rig = await startRig({
      before: (app) => {
        app.chain.on("user", "margin", "cost.estimate", null, async (e, next) => {
          const r = await next(e);
          seen = r.map((c) => `${c.tier}:${c.taskClass}`);
          return active ? r.map((c) => (c.tier === "chat-fast" ? { ...c, highUsd: c.highUsd * 2 } : c)) : r;
        });
      },
    });
    const plain = await rig.cost.estimate("what does the chain do?", rig.engine);
    expect(seen).toEqual(["chat-fast:question", "chat-full:question", "reasoner-budget:question", "reasoner:question"]);
    active = true;
    const rewritten = await rig.cost.estimate("what does the chain do?", rig.engine);
    const [a, b] = [plain.tiers[0], rewritten.tiers[0]];
    if (a.error !== undefined || b.error !== undefined) throw new Error("no price");
    expect(b.highUsd).toBeCloseTo(a.highUsd * 2, 12);
    expect(b.highCny).toBeCloseTo(a.highCny * 2, 12); // the CNY end moves with the USD end
    expect(b.lowUsd).toBe(a.lowUsd);
    expect(rewritten.tiers.slice(1)).toEqual(plain.tiers.slice(1));
  });

  it("recommends the tier the turn will run at: the model's, a pinned one, or chat-fast at 80%", async () => {
    rig = await startRig({ settings: { budget: { daily: 1 } }, seed: [seedRecord(0.5)] });
    let e = await rig.cost.estimate("Design a plugin system for the renderer, with trade-offs", rig.engine);
    expect([e.taskClass, e.recommended, e.reason]).toEqual(["architecture", "chat-full", "the configured model"]);
    rig.cost.setTier("reasoner");
    e = await rig.cost.estimate("what does the chain do?", rig.engine);
    expect([e.recommended, e.reason]).toEqual(["reasoner", "pinned"]);
    await rig.close();

    rig = await startRig({ settings: { budget: { daily: 1 } }, seed: [seedRecord(0.8)] });
    e = await rig.cost.estimate("Design a plugin system for the renderer, with trade-offs", rig.engine);
    expect([e.recommended, e.reason, e.budget.state]).toEqual(["chat-fast", "budget at 80%: downgraded", "downgrade"]);
  });

  it("charges a tier that switches the cache off for what its first request re-reads", () => {
    const tiers = structuredClone(DEFAULT_TIERS) as TierProfiles;
    const table = loadPriceTable();
    const now = new Date("2026-11-29T02:00:00Z");
    const usage = { prompt_tokens: 10_000, completion_tokens: 200, prompt_cache_hit_tokens: 9_000, prompt_cache_miss_tokens: 1_000, reasoning_tokens: 50 };
    const ledger = { lastPromptTokens: 10_000, nextPromptTokens: 10_300, zones: { system: 1_000, tools: 3_000, log: 6_000, tail: 300 } } as Ledger;
    const first: ChatMessage = { role: "user", content: "look at the loop" };
    const messages: ChatMessage[] = [first, { role: "assistant", content: "done", reasoning_content: "thinking…" }];
    const prompt = "fix the null check in src/loop.ts";
    const e = computeEstimate({ prompt, ledger, messages, last: { usage, model: "deepseek-flash", thinking: true }, budget: "ok" }, tiers, table, now);
    const plain = estimateTurn({ prompt, lastUsage: usage, lastReplyTokens: 200, agentic: true }, tiers, table, now);
    const usd = (tier: number, which: "lowUsd" | "highUsd", from: typeof e): number => {
      const t = from.tiers[tier];
      if (t.error !== undefined) throw new Error(t.error);
      return t[which];
    };
    const cached = floorToCacheUnit(10_200);
    const rate = (model: string): number => {
      const p = priceFor(model, now, table);
      if (!p.ok) throw new Error(p.message);
      return (p.usd.miss - p.usd.hit) / 1_000_000;
    };
    // chat-full: same model, same thinking — the cache holds.
    expect(usd(1, "lowUsd", e)).toBe(usd(1, "lowUsd", plain));
    // chat-fast: thinking off — re-read from the first reply with reasoning.
    const kept = floorToCacheUnit(1_000 + 3_000 + estimateTokens(JSON.stringify(first)));
    expect(usd(0, "lowUsd", e) - usd(0, "lowUsd", plain)).toBeCloseTo((cached - kept) * rate("deepseek-flash"), 12);
    // reasoner: another model — nothing is cached for it.
    expect(usd(3, "highUsd", e) - usd(3, "highUsd", plain)).toBeCloseTo(cached * rate("deepseek-v4-pro"), 12);
  });
});
