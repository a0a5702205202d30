import { describe, expect, it } from "vitest";
import { formatMoney, formatRange, formatTokens, parseCurrency } from "../../src/core/cost/format.js";

describe("money is shown in the display currency at a precision that suits its size", () => {
  it("keeps four decimals for amounts under a cent and two from a unit up", () => {
    expect(formatMoney(0.001224, "USD")).toBe("$0.0012");
    expect(formatMoney(0.0304, "CNY")).toBe("¥0.030");
    expect(formatMoney(12.345, "USD")).toBe("$12.35");
  });

  it("never shows a positive cost as zero", () => {
    expect(formatMoney(0.00001, "USD")).toBe("<$0.0001");
    expect(formatMoney(0, "USD")).toBe("$0.0000");
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
    expect([formatTokens(950), formatTokens(2_400), formatTokens(60_000), formatTokens(4_560_000)]).toEqual(["950", "2.40K", "60.0K", "4.56M"]);
  });
});
