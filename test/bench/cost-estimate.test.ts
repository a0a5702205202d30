// What the cost benchmark's calibration figure rests on (bench/cost.mjs, fast sessions): the
// range it checks is the one for the tier the turn really ran at, the ranges are ordered, and a
// turn's cost is what the simulator billed for it. All deterministic — the simulator's token
// counts and a fixed clock — so asserted; whether the costs fall inside the ranges is the
// benchmark's to report, not a test's. Needs dist/ (npm test builds it first).
import { describe, expect, it } from "vitest";

interface Turn {
  sessionId: string;
  turn: number;
  tier: string;
  ranAt: string;
  low: number;
  high: number;
  actual: number;
  runs: number;
  runsUsd: number;
}
interface Run {
  turns: Turn[];
  billed: Array<{ usd: number; digest: boolean }>;
  billedUsd: number;
  ledgerLines: number;
  times: string[];
}
interface Spec {
  id: string;
  label: string;
  plan?: number[];
  newSessionAt?: number;
}

// Imported by URL: the benchmark is plain JS over dist/, which this project does not type-check.
const bench = (await import(new URL("../../bench/cost.mjs", import.meta.url).href)) as { estimateRun(spec: Spec, at: Date): Promise<Run> };
const { sessions } = (await import(new URL("../../bench/sessions.mjs", import.meta.url).href)) as { sessions(o: { fast: boolean }): Spec[] };
const { subagentSession } = (await import(new URL("../../bench/subagent-sessions.mjs", import.meta.url).href)) as { subagentSession(o: { fast: boolean }): Spec & { turns: Array<{ steps: Array<{ tool_calls?: Array<{ name: string }> }> }> } };
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

  it("runs the session with subagents as the REPL does: each delegating turn's subagents billed in its cost, its tier the main agent's", async () => {
    const spec = subagentSession({ fast: true });
    const run = await bench.estimateRun(spec, AT);
    // The Task calls the script makes per turn, and the runs the ledger booked to each turn.
    const asked = spec.turns.map((t) => t.steps.flatMap((s) => s.tool_calls ?? []).filter((c) => c.name === "Task").length);
    expect(run.turns.map((t) => t.runs)).toEqual(asked);
    expect(asked.filter((n) => n > 0).length).toBeGreaterThanOrEqual(4);
    // The second session is a new one in the same project: its turns count from 1 again.
    const at = spec.newSessionAt ?? 0;
    expect(at).toBeGreaterThan(0);
    expect(run.turns[at].sessionId).not.toBe(run.turns[at - 1].sessionId);
    expect(run.turns[at].turn).toBe(1);
    expect(asked.slice(at).some((n) => n > 0)).toBe(true);
    for (const t of run.turns) {
      expect(t.ranAt).toBe(t.tier); // explore's chat-fast lines are not the turn's tier
      if (t.runs > 0) expect(t.runsUsd).toBeGreaterThan(0);
      expect(t.high).toBeGreaterThanOrEqual(t.low);
    }
    expect(run.ledgerLines).toBe(run.billed.length);
    // Subagents run on their parent's clock (a fixed one here, off-peak): priced as billed at
    // any hour the suite runs, peak hours included (they ran on the real clock before).
    expect(run.times).toEqual([AT.toISOString()]);
    expect(run.turns.reduce((a, t) => a + t.actual, 0)).toBeCloseTo(run.billedUsd, 10);
  });
});
