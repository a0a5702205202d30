import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { costOf } from "../../src/core/cost/calc.js";
import { appendLedger, ledgerRecord, parseLedger, readLedger, type LedgerRecord } from "../../src/core/cost/ledger.js";
import { at, USAGE_A, USAGE_B } from "./fixtures.js";

let home: string;
beforeEach(() => {
  home = join(mkdtempSync(join(tmpdir(), "deepcode-ledger-")), "home");
});
afterEach(() => {
  rmSync(join(home, ".."), { recursive: true, force: true });
});

function record(time: string, usage = USAGE_A, extra: Partial<Parameters<typeof ledgerRecord>[0]> = {}): LedgerRecord {
  return ledgerRecord({
    at: at(time),
    project: "/work/app",
    session: "s1",
    turn: 1,
    step: 1,
    tier: "chat-full",
    usage,
    cost: costOf(usage, "deepseek-flash", at(time)),
    ...extra,
  });
}

describe("the usage ledger keeps one JSON line per request", () => {
  it("appends each request as a line in <home>/usage.jsonl, readable only by the user", async () => {
    await appendLedger(home, record("2026-11-30T00:30:00Z"));
    await appendLedger(home, record("2026-11-30T00:31:00Z", USAGE_B, { step: 2 }));
    const path = join(home, "usage.jsonl");
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
  });

  it("records time, project, session, model, tier, turn, tokens by kind, cost, peak and the estimate", async () => {
    const estimate = { tier: "chat-full", lowUsd: 0.001, highUsd: 0.002, taskClass: "routine" };
    await appendLedger(home, record("2026-11-30T00:30:00Z", USAGE_A, { estimate }));
    const line = JSON.parse(readFileSync(join(home, "usage.jsonl"), "utf8").trim());
    // USAGE_A off-peak on flash: 8000×0.003 + 2000×0.15 + 1500×0.60 = 1,224 → $0.001224
    expect(line).toMatchObject({
      time: "2026-11-30T00:30:00.000Z",
      project: "/work/app",
      session: "s1",
      model: "deepseek-flash",
      family: "deepseek-flash",
      tier: "chat-full",
      turn: 1,
      step: 1,
      prompt: 10_000,
      hit: 8_000,
      miss: 2_000,
      completion: 1_500,
      reasoning: 1_000,
      peak: false,
      estimate,
    });
    expect(line.usd).toBeCloseTo(0.001224, 12);
    expect(line.cny).toBeCloseTo(0.00816, 12);
  });

  it("reads the records back in order", async () => {
    await appendLedger(home, record("2026-11-30T00:30:00Z"));
    await appendLedger(home, record("2026-11-30T00:31:00Z", USAGE_B, { step: 2 }));
    const { records, skipped } = await readLedger(home);
    expect(records.map((r) => r.step)).toEqual([1, 2]);
    expect(skipped).toEqual([]);
  });

  it("reads a missing ledger as empty", async () => {
    expect(await readLedger(home)).toEqual({ records: [], skipped: [] });
  });
});

describe("a torn last line is skipped and reported", () => {
  it("skips a last line cut short by a crash and says it was torn", async () => {
    await appendLedger(home, record("2026-11-30T00:30:00Z"));
    await appendLedger(home, record("2026-11-30T00:31:00Z"));
    appendFileSync(join(home, "usage.jsonl"), '{"time":"2026-11-30T00:32:00.000Z","proj');
    const { records, skipped } = await readLedger(home);
    expect(records).toHaveLength(2);
    expect(skipped).toEqual([{ line: 3, reason: "torn last line (a write cut short)", torn: true }]);
  });

  it("starts the next record on a new line after a torn one, so it is not lost", async () => {
    await appendLedger(home, record("2026-11-30T00:30:00Z"));
    appendFileSync(join(home, "usage.jsonl"), '{"time":"2026-11-30T00:3');
    await appendLedger(home, record("2026-11-30T00:40:00Z"));
    const { records, skipped } = await readLedger(home);
    expect(records.map((r) => r.time)).toEqual(["2026-11-30T00:30:00.000Z", "2026-11-30T00:40:00.000Z"]);
    expect(skipped).toEqual([{ line: 2, reason: "not valid JSON", torn: false }]);
  });

  it("skips a whole line that is not a record and names what is wrong with it", () => {
    const text = `${JSON.stringify(record("2026-11-30T00:30:00Z"))}\n{"time":"2026-11-30T00:31:00Z","usd":"free"}\n`;
    const { records, skipped } = parseLedger(text);
    expect(records).toHaveLength(1);
    expect(skipped).toEqual([{ line: 2, reason: '"project" is not a string', torn: false }]);
  });
});
