import { describe, expect, it } from "vitest";
import { isPeak, loadPriceTable } from "../../src/core/cost/prices.js";
import { at } from "./fixtures.js";

// 2026-11-30 is a Monday; 2026-11-28 a Saturday; 2026-10-01 a Thursday and a Chinese holiday.
describe("peak hours are 01:00–04:00 and 06:00–10:00 UTC on working days", () => {
  it("treats 00:59 UTC on a Monday as off-peak and 01:00 as peak", () => {
    expect(isPeak(at("2026-11-30T00:59:59Z"))).toBe(false);
    expect(isPeak(at("2026-11-30T01:00:00Z"))).toBe(true);
  });

  it("ends the morning window at 04:00 UTC and starts the second at 06:00", () => {
    expect(isPeak(at("2026-11-30T03:59:59Z"))).toBe(true);
    expect(isPeak(at("2026-11-30T04:00:00Z"))).toBe(false);
    expect(isPeak(at("2026-11-30T05:59:59Z"))).toBe(false);
    expect(isPeak(at("2026-11-30T06:00:00Z"))).toBe(true);
  });

  it("ends the second window at 10:00 UTC", () => {
    expect(isPeak(at("2026-11-30T09:59:59Z"))).toBe(true);
    expect(isPeak(at("2026-11-30T10:00:00Z"))).toBe(false);
  });

  it("keeps a Saturday and a Sunday off-peak inside the peak hours", () => {
    expect(isPeak(at("2026-11-28T02:00:00Z"))).toBe(false);
    expect(isPeak(at("2026-11-29T07:30:00Z"))).toBe(false);
  });

  it("keeps a Chinese statutory holiday off-peak, and the working day after it peak", () => {
    expect(isPeak(at("2026-10-01T02:00:00Z"))).toBe(false);
    expect(isPeak(at("2026-10-07T08:00:00Z"))).toBe(false);
    expect(isPeak(at("2026-10-08T08:00:00Z"))).toBe(true);
  });

  it("has no peak hours before peak billing began at 16:00 UTC on 2026-08-16", () => {
    expect(isPeak(at("2026-08-14T02:00:00Z"))).toBe(false);
    expect(isPeak(at("2026-08-17T02:00:00Z"))).toBe(true);
  });

  it("records the public source and the date the table was checked", () => {
    const table = loadPriceTable();
    expect(table.source).toContain("api-docs.deepseek.com");
    expect(table.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
