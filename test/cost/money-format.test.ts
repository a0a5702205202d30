import { describe, expect, it } from "vitest";
import { formatMoney, formatRange, formatTokens, moneyDigits, parseCurrency, plural, roundCost } from "../../src/core/cost/format.js";

describe("money is shown in the display currency at a precision that suits its size", () => {
  it("keeps four decimals for amounts under a cent and two from a unit up", () => {
    expect(formatMoney(0.001224, "USD")).toBe("$0.0012");
    expect(formatMoney(0.0304, "CNY")).toBe("¥0.030");
    expect(formatMoney(12.345, "USD")).toBe("$12.35");
  });

  it("never shows a positive cost as zero, and shows exactly zero as $0 whatever the precision", () => {
    expect(formatMoney(0.00001, "USD")).toBe("<$0.0001");
    expect(formatMoney(0, "USD")).toBe("$0");
    expect(formatMoney(0, "USD", 4)).toBe("$0");
  });

  it("shows the amounts of one line at one precision", () => {
    const d = moneyDigits(0.0004, 0.012, 0);
    expect([formatMoney(0.0004, "USD", d), formatMoney(0.012, "USD", d)]).toEqual(["$0.0004", "$0.0120"]);
    expect(moneyDigits(1.5, 0.25)).toBe(3);
  });

  it("rounds a cost to what a price can mean, dropping float noise", () => {
    expect(roundCost(0.000014285999999999998)).toBe(0.000014286);
    expect(roundCost(0.1 + 0.2)).toBe(0.3);
  });

  it("says plurals right", () => {
    expect([plural(1, "turn"), plural(2, "turn"), plural(0, "request"), plural(1, "entry", "entries")]).toEqual(["1 turn", "2 turns", "0 requests", "1 entry"]);
  });

  it("shows a range with one symbol, both ends at the same precision", () => {
    expect(formatRange(0.0021, 0.0064, "USD")).toBe("$0.0021–0.0064");
    expect(formatRange(0.004, 0.031, "CNY")).toBe("¥0.004–0.031");
  });

  it("reads the currency setting, defaulting to USD", () => {
    expect(parseCurrency("cny")).toBe("CNY");
    expect(parseCurrency("USD")).toBe("USD");
    expect(parseCurrency(undefined)).toBe("USD");
  });

  it("shortens token counts", () => {
    expect([formatTokens(950), formatTokens(2_400), formatTokens(60_000), formatTokens(131_072), formatTokens(4_560_000)]).toEqual(["950", "2.40k", "60.0k", "131k", "4.56M"]);
    expect([formatTokens(9_999), formatTokens(999_999)]).toEqual(["10.0k", "1.00M"]);
  });
});
