import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { startHarness, type Harness } from "../helpers/harness.js";
import { testTools } from "../helpers/tools.js";
import { countTokens } from "../sim/server.mjs";
import { estimateTokens } from "../../src/core/tokens.js";

const mixed = readFileSync(new URL("../fixtures/context/mixed.txt", import.meta.url), "utf8");
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("the context ledger", () => {
  it("equals usage.prompt_tokens exactly after a response, split over system, tools and log", async () => {
    h = await startHarness({ script: { replies: [{ tool_calls: [{ name: "Echo", arguments: { text: "x" } }] }, { content: "done" }] }, tools: testTools(), allowAll: true });
    await h.turn("count me");
    const usage = h.sim.requests.filter((r) => r.status === 200).map((r) => r.usage!);
    const ledger = h.engine.ledger();
    expect(ledger.lastPromptTokens).toBe(usage[usage.length - 1].prompt_tokens);
    expect(ledger.zones.system + ledger.zones.tools + ledger.zones.log).toBe(usage[usage.length - 1].prompt_tokens);
    expect(ledger.zones.tools).toBeGreaterThan(0); // tool definitions are counted too
    expect(ledger.requests.map((r) => [r.promptTokens, r.hitTokens, r.missTokens])).toEqual(usage.map((u) => [u.prompt_tokens, u.prompt_cache_hit_tokens, u.prompt_cache_miss_tokens]));
    expect(ledger.hitRate).toBeCloseTo(usage.reduce((a, u) => a + u.prompt_cache_hit_tokens, 0) / usage.reduce((a, u) => a + u.prompt_tokens, 0), 10);
  });

  it("estimates a mixed English/Chinese/code text within 15% of the real tokenizer", () => {
    const real = countTokens(mixed);
    expect(Math.abs(estimateTokens(mixed) - real) / real).toBeLessThan(0.15);
  });

  it("estimates the next request's delta within 15% before it is sent", async () => {
    h = await startHarness({ script: { default: { content: "short answer" } }, tools: testTools(), allowAll: true });
    await h.turn("hello");
    const before = h.engine.ledger();
    const estimatedDelta = before.nextPromptTokens + estimateTokens(mixed) - before.lastPromptTokens;
    await h.turn(mixed);
    const actualDelta = h.engine.ledger().lastPromptTokens - before.lastPromptTokens;
    expect(Math.abs(estimatedDelta - actualDelta) / actualDelta).toBeLessThan(0.15);
  });
});
