import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/contract/errors.js";
import { costOf } from "../../src/core/cost/calc.js";
import { loadPriceTable, priceFor } from "../../src/core/cost/prices.js";
import { at, USAGE_A } from "./fixtures.js";

const PROXY = {
  aliases: ["proxy-fast"],
  usd: { hit: 0.01, miss: 0.5, output: 2 },
  cny: { hit: 0.07, miss: 3.5, output: 14 },
};

describe("settings `pricing` overrides and adds price rows", () => {
  it("prices a model added in settings, by its name and its aliases, at any hour", () => {
    // 8000×0.01 + 2000×0.5 + 1500×2 = 80 + 1,000 + 3,000 = 4,080 → $0.00408 (no peak billing given)
    const table = loadPriceTable({ "my-proxy": PROXY });
    for (const name of ["my-proxy", "proxy-fast"]) {
      expect(costOf(USAGE_A, name, at("2026-11-30T02:00:00Z"), table).usd).toBeCloseTo(0.00408, 12);
    }
    // CNY: 8000×0.07 + 2000×3.5 + 1500×14 = 560 + 7,000 + 21,000 = 28,560 → ¥0.02856
    expect(costOf(USAGE_A, "my-proxy", at("2026-11-30T12:00:00Z"), table).cny).toBeCloseTo(0.02856, 12);
  });

  it("adds a dated row to a known family without changing earlier requests", () => {
    const table = loadPriceTable({
      "deepseek-flash": { from: "2027-01-01", usd: { hit: 0.001, miss: 0.1, output: 0.5 }, cny: { hit: 0.01, miss: 0.7, output: 3.5 } },
    });
    // 2027-01-04 12:00 UTC: 8000×0.001 + 2000×0.1 + 1500×0.5 = 8 + 200 + 750 = 958 → $0.000958
    expect(costOf(USAGE_A, "deepseek-flash", at("2027-01-04T12:00:00Z"), table).usd).toBeCloseTo(0.000958, 12);
    // the alias follows its family
    expect(costOf(USAGE_A, "deepseek-chat", at("2027-01-04T12:00:00Z"), table).usd).toBeCloseTo(0.000958, 12);
    // 2026-12-31 12:00 UTC (off-peak) still the packaged row: $0.001224
    expect(costOf(USAGE_A, "deepseek-flash", at("2026-12-31T12:00:00Z"), table).usd).toBeCloseTo(0.001224, 12);
  });

  it("replaces every row of a family when the settings row has no date", () => {
    const table = loadPriceTable({ "deepseek-v4-pro": { usd: { hit: 0.01, miss: 0.5, output: 2 }, cny: PROXY.cny } });
    // at a peak hour, the flat settings row: $0.00408 (see above)
    expect(costOf(USAGE_A, "deepseek-v4-pro", at("2026-11-30T02:00:00Z"), table).usd).toBeCloseTo(0.00408, 12);
  });

  it("prices an alias on its own when settings name it, leaving its family alone", () => {
    const table = loadPriceTable({ "deepseek-chat": PROXY });
    expect(priceFor("deepseek-chat", at("2026-11-30T12:00:00Z"), table)).toMatchObject({ ok: true, family: "deepseek-chat" });
    expect(priceFor("deepseek-reasoner", at("2026-11-30T12:00:00Z"), table)).toMatchObject({ ok: true, family: "deepseek-flash" });
  });

  it("never lets one caller's overrides leak into another's table", () => {
    loadPriceTable({ "my-proxy": PROXY });
    expect(priceFor("my-proxy", at("2026-11-30T12:00:00Z"), loadPriceTable()).ok).toBe(false);
  });

  it("names the bad key when a price is not a number", () => {
    const bad = { "my-model": { usd: { hit: "cheap", miss: 1, output: 2 }, cny: PROXY.cny } };
    expect(() => loadPriceTable(bad)).toThrow(ConfigError);
    expect(() => loadPriceTable(bad)).toThrow(/pricing\["my-model"\]\.usd\.hit: expected a price per 1M tokens/);
  });

  it("names the settings file and asks for both currencies when one is missing", () => {
    expect(() => loadPriceTable({ mine: { usd: PROXY.usd } }, { file: "/home/u/.deepcode/settings.json" })).toThrow(
      /^\/home\/u\/\.deepcode\/settings\.json: pricing\.mine\.cny: missing: give per-1M-token prices in both usd and cny/,
    );
  });

  it("rejects an unknown key and a date it cannot read", () => {
    expect(() => loadPriceTable({ mine: { ...PROXY, currency: "EUR" } })).toThrow(/pricing\.mine\.currency: unknown key/);
    expect(() => loadPriceTable({ mine: { ...PROXY, from: "next year" } })).toThrow(/pricing\.mine\.from: expected an ISO date/);
  });

  it("says when a model's only settings row starts after the request", () => {
    const table = loadPriceTable({ mine: { ...PROXY, from: "2027-01-01" } });
    const p = priceFor("mine", at("2026-12-01T00:00:00Z"), table);
    expect(p.ok).toBe(false);
    expect(p.ok === false && p.message).toMatch(/no price for model "mine" at 2026-12-01T00:00:00.000Z/);
  });
});
