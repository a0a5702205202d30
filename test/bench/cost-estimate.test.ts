// What the cost benchmark's calibration figure rests on (bench/cost.mjs, fast sessions): the
// range it checks is the one for the tier the turn really ran at, the ranges are ordered, and a
// turn's cost is what the simulator billed for it. All deterministic — the simulator's token
// counts and a fixed clock — so asserted; whether the costs fall inside the ranges is the
// benchmark's to report, not a test's. Needs dist/ (npm test builds it first).
import { describe, expect, it } from "vitest";

interface Turn {
  turn: number;
  tier: string;
  ranAt: string;
  low: number;
  high: number;
  actual: number;
}
interface Run {
  turns: Turn[];
  billed: Array<{ usd: number; digest: boolean }>;
  billedUsd: number;
  ledgerLines: number;
}
interface Spec {
  id: string;
  label: string;
  plan?: number[];
}

// Imported by URL: the benchmark is plain JS over dist/, which this project does not type-check.
const bench = (await import(new URL("../../bench/cost.mjs", import.meta.url).href)) as { estimateRun(spec: Spec, at: Date): Promise<Run> };
const { sessions } = (await import(new URL("../../bench/sessions.mjs", import.meta.url).href)) as { sessions(o: { fast: boolean }): Spec[] };
const AT = new Date("2026-12-02T12:00:00Z"); // a Wednesday, off-peak

describe("the cost benchmark's estimate run (fast sessions)", () => {
  // As bench/cost.mjs: the planned session (two models, a rewind) is the cache benchmark's.
  for (const spec of sessions({ fast: true }).filter((s) => !s.plan)) {
    it(`checks each turn of "${spec.label}" against the range of the tier it ran at, and prices the turn as billed`, async () => {
      const run = await bench.estimateRun(spec, AT);
      expect(run.turns.length).toBeGreaterThan(0);
      for (const t of run.turns) {
        expect({ turn: t.turn, ranAt: t.ranAt }).toEqual({ turn: t.turn, ranAt: t.tier });
        expect(t.low).toBeGreaterThan(0);
        expect(t.high).toBeGreaterThanOrEqual(t.low);
        expect(t.actual).toBeGreaterThan(0);
      }
      // Every billed request, a compaction's digest included, is on a ledger line and in a
      // turn's cost.
      expect(run.ledgerLines).toBe(run.billed.length);
      const turnsUsd = run.turns.reduce((a, t) => a + t.actual, 0);
      expect(turnsUsd).toBeCloseTo(run.billedUsd, 10);
    });
  }
});
