import { describe, expect, it } from "vitest";
import type { Usage } from "../../src/contract/wire.js";
import { costOf } from "../../src/core/cost/calc.js";
import { ledgerRecord, type LedgerEstimate, type LedgerRecord } from "../../src/core/cost/ledger.js";
import { formatCalibration, formatStats, statsJson } from "../../src/core/cost/report.js";
import { calibration, spending, summarise } from "../../src/core/cost/stats.js";
import { at, USAGE_A, USAGE_B, USAGE_C } from "./fixtures.js";

function req(time: string, usage: Usage, session: string, turn: number, estimate?: LedgerEstimate): LedgerRecord {
  const cost = costOf(usage, "deepseek-flash", at(time));
  return ledgerRecord({ at: at(time), project: "/work/app", session, turn, usage, cost, tier: estimate?.tier, estimate });
}

// A scripted month boundary. Flash prices; costs worked out by hand:
//   USAGE_A off-peak: $0.001224 (saving $0.001176), ¥0.00816 (saving ¥0.00784)
//   USAGE_A peak:     $0.002448 (saving 8000×(0.30−0.006) = $0.002352)
//   USAGE_B off-peak: 10000×0.003 + 2000×0.15 + 500×0.60 = 30 + 300 + 300 = 630 → $0.00063,
//                     saving 10000×0.147 = $0.00147; CNY 200 + 2000 + 2000 → ¥0.0042, saving ¥0.0098
//   USAGE_C off-peak: 1000×0.15 + 200×0.60 = 150 + 120 = 270 → $0.00027, no saving; ¥0.0018
const fast = { tier: "chat-fast", lowUsd: 0.0005, highUsd: 0.001, taskClass: "question" };
const RECORDS: LedgerRecord[] = [
  req("2026-10-31T23:30:00Z", USAGE_C, "s0", 1, fast), // Saturday; below its range
  req("2026-11-29T10:00:00Z", USAGE_A, "s1", 1, { tier: "chat-full", lowUsd: 0.001, highUsd: 0.002, taskClass: "routine" }),
  req("2026-11-29T10:05:00Z", USAGE_B, "s1", 1, { tier: "chat-full", lowUsd: 0.001, highUsd: 0.002, taskClass: "routine" }),
  req("2026-11-30T02:00:00Z", USAGE_A, "s1", 2, { tier: "chat-full", lowUsd: 0.0001, highUsd: 0.002, taskClass: "routine" }), // Monday peak; above
  req("2026-11-30T12:00:00Z", USAGE_C, "s2", 1), // no estimate
];

describe("stats add up the ledger per day and per month", () => {
  it("totals requests, turns, tokens, hit rate, cost and saving per day", () => {
    const s = summarise(RECORDS, { by: "day", timeZone: "utc" });
    expect(s.rows.map((r) => [r.period, r.requests, r.turns, r.hit, r.miss])).toEqual([
      ["2026-10-31", 1, 1, 0, 1_000],
      ["2026-11-29", 2, 1, 18_000, 4_000],
      ["2026-11-30", 2, 2, 8_000, 3_000],
    ]);
    const [, nov29, nov30] = s.rows;
    expect(nov29!.hitRate).toBeCloseTo(18_000 / 22_000, 12); // 81.8%
    expect(nov29!.usd).toBeCloseTo(0.001224 + 0.00063, 12); // $0.001854
    expect(nov29!.savingUsd).toBeCloseTo(0.001176 + 0.00147, 12); // $0.002646
    expect(nov29!.cny).toBeCloseTo(0.00816 + 0.0042, 12); // ¥0.01236
    expect(nov30!.usd).toBeCloseTo(0.002448 + 0.00027, 12); // $0.002718
    expect(nov30!.savingUsd).toBeCloseTo(0.002352, 12);
  });

  it("totals per month, and over everything", () => {
    const s = summarise(RECORDS, { by: "month", timeZone: "utc" });
    expect(s.rows.map((r) => [r.period, r.requests, r.turns])).toEqual([
      ["2026-10", 1, 1],
      ["2026-11", 4, 3],
    ]);
    const nov = s.rows[1]!;
    expect(nov.hitRate).toBeCloseTo(26_000 / 33_000, 12); // 78.8%
    expect(nov.usd).toBeCloseTo(0.001854 + 0.002718, 12); // $0.004572
    expect(nov.savingUsd).toBeCloseTo(0.002646 + 0.002352, 12); // $0.004998
    expect(s.total).toMatchObject({ period: "total", requests: 5, turns: 4, prompt: 34_000, completion: 3_900 });
    expect(s.total.hitRate).toBeCloseTo(26_000 / 34_000, 12);
    expect(s.total.usd).toBeCloseTo(0.00027 + 0.004572, 12); // $0.004842
  });

  it("leaves out what came before `since`", () => {
    const s = summarise(RECORDS, { by: "month", since: at("2026-11-01T00:00:00Z"), timeZone: "utc" });
    expect(s.rows.map((r) => r.period)).toEqual(["2026-11"]);
    expect(s.total.usd).toBeCloseTo(0.004572, 12);
  });

  it("tells what was spent today and this month, for budgets and /cost", () => {
    const s = spending(RECORDS, at("2026-11-30T15:00:00Z"), "utc");
    expect(s.today.usd).toBeCloseTo(0.002718, 12);
    expect(s.month.usd).toBeCloseTo(0.004572, 12);
    expect(s.today.cny).toBeCloseTo(0.01632 + 0.0018, 12);
  });

  it("prints days as aligned columns with a total, in the display currency", () => {
    expect(formatStats(summarise(RECORDS, { by: "day", timeZone: "utc" }), "USD")).toBe(
      [
        "day         requests  turns  input  output  hit rate     cost    saved",
        "2026-10-31         1      1  1.00k     200      0.0%  $0.0003       $0",
        "2026-11-29         2      1  22.0k   2.00k     81.8%  $0.0019  $0.0026",
        "2026-11-30         2      2  11.0k   1.70k     72.7%  $0.0027  $0.0024",
        "total              5      4  34.0k   3.90k     76.5%  $0.0048  $0.0050",
      ].join("\n"),
    );
  });

  it("prints months in CNY when that is the display currency", () => {
    // Nov CNY: 0.00816 + 0.0042 + 0.01632 + 0.0018 = ¥0.03048 → ¥0.030
    const text = formatStats(summarise(RECORDS, { by: "month", timeZone: "utc" }), "CNY");
    expect(text.split("\n")[0]).toMatch(/^month\s+requests/);
    expect(text.split("\n")[2]).toContain("¥0.030");
  });

  it("says so when there is no usage yet", () => {
    expect(formatStats(summarise([], { by: "day" }), "USD")).toBe("no usage recorded yet");
  });

  it("gives scripts the same figures as JSON, in both currencies", () => {
    const s = summarise(RECORDS, { by: "day", timeZone: "utc" });
    const json = JSON.parse(JSON.stringify(statsJson(s, calibration(RECORDS))));
    expect(Object.keys(json)).toEqual(["by", "rows", "total", "estimates"]);
    expect(json.rows[1]).toMatchObject({ period: "2026-11-29", requests: 2, hit: 18_000, miss: 4_000 });
    expect(json.total.cny).toBeCloseTo(0.0018 + 0.00816 + 0.0042 + 0.01632 + 0.0018, 12);
  });
});

describe("stats mark the cost that deepcode estimated (the API sent no usage)", () => {
  // The 2026-11-30 USAGE_C request came back without usage: booked from the text's estimate.
  const noUsage = { ...req("2026-11-30T12:00:00Z", USAGE_C, "s2", 1), estimated: true as const };
  const records = [...RECORDS.slice(0, 4), noUsage];

  it("puts ~ before the cost of a row that holds an estimated request, and says why under the table", () => {
    expect(formatStats(summarise(records, { by: "day", timeZone: "utc" }), "USD")).toBe(
      [
        "day         requests  turns  input  output  hit rate      cost    saved",
        "2026-10-31         1      1  1.00k     200      0.0%   $0.0003       $0",
        "2026-11-29         2      1  22.0k   2.00k     81.8%   $0.0019  $0.0026",
        "2026-11-30         2      2  11.0k   1.70k     72.7%  ~$0.0027  $0.0024",
        "total              5      4  34.0k   3.90k     76.5%  ~$0.0048  $0.0050",
        "",
        "~ estimated: 1 request ($0.0003) came back without usage from the API; its tokens and cost are deepcode's estimate from the text.",
      ].join("\n"),
    );
  });

  it("leaves a ledger with measured usage only unmarked", () => {
    const text = formatStats(summarise(RECORDS, { by: "month", timeZone: "utc" }), "CNY");
    expect(text).not.toContain("~");
    expect(text).not.toContain("estimated");
  });

  it("gives --json the count and the cost of the estimated requests per row", () => {
    const json = JSON.parse(JSON.stringify(statsJson(summarise(records, { by: "month", timeZone: "utc" }))));
    expect(json.rows.map((r: { period: string; estimatedRequests: number }) => [r.period, r.estimatedRequests])).toEqual([
      ["2026-10", 0],
      ["2026-11", 1],
    ]);
    expect(json.rows[1].estimatedUsd).toBeCloseTo(0.00027, 12);
    expect(json.rows[1].estimatedCny).toBeCloseTo(0.0018, 12);
    expect(json.total).toMatchObject({ estimatedRequests: 1 });
  });
});

describe("calibration shows how often turns cost what the estimate said", () => {
  it("counts per tier and per task class the turns inside, below and above their range", () => {
    // s0/1: $0.00027 against 0.0005–0.001 → below; s1/1: $0.001854 against 0.001–0.002 → inside;
    // s1/2: $0.002448 against 0.0001–0.002 → above; s2/1 had no estimate.
    const c = calibration(RECORDS);
    expect(c).toMatchObject({ turns: 3, inside: 1 });
    expect(c.byTier).toEqual([
      { key: "chat-fast", turns: 1, inside: 0, below: 1, above: 0, insideRate: 0, tight: 0 },
      { key: "chat-full", turns: 2, inside: 1, below: 0, above: 1, insideRate: 0.5, tight: 1 },
    ]);
    expect(c.byClass.map((r) => [r.key, r.turns, r.inside])).toEqual([
      ["question", 1, 0],
      ["routine", 2, 1],
    ]);
  });

  it("counts a turn that costs exactly the top of its range as inside", () => {
    const cost = costOf(USAGE_A, "deepseek-flash", at("2026-11-30T12:00:00Z"));
    const r = req("2026-11-30T12:00:00Z", USAGE_A, "s9", 1, { tier: "chat-full", lowUsd: 0, highUsd: cost.usd, taskClass: "routine" });
    expect(calibration([r]).inside).toBe(1);
  });

  it("prints the calibration as a headline and two aligned tables", () => {
    expect(formatCalibration(calibration(RECORDS))).toBe(
      [
        "3 estimated turns, 1 inside the range (33.3%), 1 inside with the high end at most 3× the actual (33.3%)",
        "",
        "tier        turns  inside  below  above  inside %  and high ≤ 3× %",
        "chat-fast       1       0      1      0      0.0%             0.0%",
        "chat-full       2       1      0      1     50.0%            50.0%",
        "",
        "task class  turns  inside  below  above  inside %  and high ≤ 3× %",
        "question        1       0      1      0      0.0%             0.0%",
        "routine         2       1      0      1     50.0%            50.0%",
      ].join("\n"),
    );
  });
});
