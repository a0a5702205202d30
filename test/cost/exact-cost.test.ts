import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/contract/errors.js";
import { costOf } from "../../src/core/cost/calc.js";
import { priceFor } from "../../src/core/cost/prices.js";
import { at, USAGE_A } from "./fixtures.js";

// USAGE_A: 8,000 hit + 2,000 miss prompt tokens, 1,500 completion tokens (1,000 of them reasoning).
// Prices per 1M tokens, rows in force from 2026-09-10 (Beijing) on.
const OFF_PEAK = "2026-11-30T00:59:00Z"; // Monday, a minute before peak
const PEAK = "2026-11-30T01:00:00Z";

describe("the exact cost of a request comes from its usage at the price in force", () => {
  it("prices deepseek-flash off-peak in USD: 8000×0.003 + 2000×0.15 + 1500×0.60", () => {
    // 24 + 300 + 900 = 1,224 per 1M → $0.001224
    const c = costOf(USAGE_A, "deepseek-flash", at(OFF_PEAK));
    expect(c.usd).toBeCloseTo(0.001224, 12);
    expect(c.peak).toBe(false);
    expect(c.family).toBe("deepseek-flash");
  });

  it("prices deepseek-flash at peak at twice the off-peak rates", () => {
    // 8000×0.006 + 2000×0.30 + 1500×1.20 = 48 + 600 + 1,800 = 2,448 → $0.002448
    const c = costOf(USAGE_A, "deepseek-flash", at(PEAK));
    expect(c.usd).toBeCloseTo(0.002448, 12);
    expect(c.peak).toBe(true);
  });

  it("prices deepseek-flash in CNY off-peak and at peak", () => {
    // off-peak 8000×0.02 + 2000×1 + 1500×4 = 160 + 2,000 + 6,000 = 8,160 → ¥0.00816
    // peak     8000×0.04 + 2000×2 + 1500×8 = 320 + 4,000 + 12,000 = 16,320 → ¥0.01632
    expect(costOf(USAGE_A, "deepseek-flash", at(OFF_PEAK)).cny).toBeCloseTo(0.00816, 12);
    expect(costOf(USAGE_A, "deepseek-flash", at(PEAK)).cny).toBeCloseTo(0.01632, 12);
  });

  it("prices deepseek-v4-pro in USD and CNY, off-peak and at peak", () => {
    // USD off-peak 8000×0.022 + 2000×0.66 + 1500×1.98 = 176 + 1,320 + 2,970 = 4,466 → $0.004466
    // USD peak     8000×0.044 + 2000×1.32 + 1500×3.96 = 352 + 2,640 + 5,940 = 8,932 → $0.008932
    // CNY off-peak 8000×0.15 + 2000×4.5 + 1500×13.5 = 1,200 + 9,000 + 20,250 = 30,450 → ¥0.03045
    // CNY peak     8000×0.30 + 2000×9 + 1500×27 = 2,400 + 18,000 + 40,500 = 60,900 → ¥0.0609
    const off = costOf(USAGE_A, "deepseek-v4-pro", at(OFF_PEAK));
    const peak = costOf(USAGE_A, "deepseek-v4-pro", at(PEAK));
    expect(off.usd).toBeCloseTo(0.004466, 12);
    expect(peak.usd).toBeCloseTo(0.008932, 12);
    expect(off.cny).toBeCloseTo(0.03045, 12);
    expect(peak.cny).toBeCloseTo(0.0609, 12);
  });

  it("counts reasoning tokens once, as part of completion_tokens", () => {
    // Adding the 1,000 reasoning tokens again would give 1,224 + 1000×0.60 = 1,824 → $0.001824.
    const c = costOf(USAGE_A, "deepseek-flash", at(OFF_PEAK));
    expect(c.usd).not.toBeCloseTo(0.001824, 9);
    expect(c.usd).toBeCloseTo(0.001224, 12);
  });

  it("reports what the cache saved: hit tokens × (miss − hit price)", () => {
    // USD 8000 × (0.15 − 0.003) = 1,176 → $0.001176; CNY 8000 × (1 − 0.02) = 7,840 → ¥0.00784
    // at peak: USD 8000 × (0.30 − 0.006) = 2,352 → $0.002352
    const off = costOf(USAGE_A, "deepseek-flash", at(OFF_PEAK));
    expect(off.savingUsd).toBeCloseTo(0.001176, 12);
    expect(off.savingCny).toBeCloseTo(0.00784, 12);
    expect(costOf(USAGE_A, "deepseek-flash", at(PEAK)).savingUsd).toBeCloseTo(0.002352, 12);
  });

  it("prices the older names deepseek-chat, deepseek-reasoner and deepseek-v4-flash as flash", () => {
    for (const name of ["deepseek-chat", "deepseek-reasoner", "deepseek-v4-flash"]) {
      const c = costOf(USAGE_A, name, at(OFF_PEAK));
      expect(c.family).toBe("deepseek-flash");
      expect(c.model).toBe(name);
      expect(c.usd).toBeCloseTo(0.001224, 12);
    }
  });

  it("refuses to price an unknown model instead of calling it free", () => {
    const lookup = priceFor("gpt-9", at(OFF_PEAK));
    expect(lookup).toEqual({
      ok: false,
      model: "gpt-9",
      message: 'no price for model "gpt-9"; add it under `pricing` in settings',
    });
    expect(() => costOf(USAGE_A, "gpt-9", at(OFF_PEAK))).toThrow(ConfigError);
    expect(() => costOf(USAGE_A, "gpt-9", at(OFF_PEAK))).toThrow(/no price for model "gpt-9"; add it under `pricing` in settings/);
  });

  it("charges a miss the unreported part of prompt_tokens when the cache split is missing", () => {
    // 10,000 prompt tokens, no split reported: all miss. 10000×0.15 = 1,500 → $0.0015
    const u = { prompt_tokens: 10_000, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 0, completion_tokens: 0, reasoning_tokens: 0 };
    expect(costOf(u, "deepseek-flash", at(OFF_PEAK)).usd).toBeCloseTo(0.0015, 12);
  });
});

describe("a request is priced at the row in force when it was made", () => {
  it("uses the flat V4 price before peak billing began on 2026-08-16", () => {
    // 8000×0.0028 + 2000×0.14 + 1500×0.28 = 22.4 + 280 + 420 = 722.4 → $0.0007224
    const c = costOf(USAGE_A, "deepseek-flash", at("2026-08-14T02:00:00Z"));
    expect(c.usd).toBeCloseTo(0.0007224, 12);
    expect(c.peak).toBe(false);
  });

  it("uses the August 2026 peak price for a weekday peak hour before 2026-09-10", () => {
    // 8000×0.014 + 2000×0.44 + 1500×1.32 = 112 + 880 + 1,980 = 2,972 → $0.002972
    expect(costOf(USAGE_A, "deepseek-flash", at("2026-09-01T02:00:00Z")).usd).toBeCloseTo(0.002972, 12);
  });

  it("switches flash to the current price at 00:00 Beijing time on 2026-09-10 (16:00 UTC the day before)", () => {
    // 15:59 UTC, August off-peak row: 8000×0.007 + 2000×0.22 + 1500×0.66 = 56 + 440 + 990 = 1,486 → $0.001486
    // 16:00 UTC, current off-peak row: $0.001224 (as above)
    expect(costOf(USAGE_A, "deepseek-flash", at("2026-09-09T15:59:00Z")).usd).toBeCloseTo(0.001486, 12);
    expect(costOf(USAGE_A, "deepseek-flash", at("2026-09-09T16:00:00Z")).usd).toBeCloseTo(0.001224, 12);
  });
});
