// The cache benchmark's delegating session (bench/cache.mjs, bench/sessions.mjs) in fast mode,
// as a test: turns that start explore subagents in parallel, through the real CLI. Hit rates
// are deterministic, so they are asserted: every request reaches its optimum, and every
// subagent run after the first of its type hits the cache for its whole prefix. Needs dist/.
import { describe, expect, it } from "vitest";

interface Row {
  requests: number;
  subagentRequests: number;
  ofOptimum: number;
  hitRate: number;
  warmStarts: Array<{ hit: number; optimum: number }>;
  toolErrors: string[];
  unexpected: unknown[];
  perRequest: Array<{ prompt: number; hit: number; optimum: number }>;
}

// Imported by URL: the benchmark is plain JS over dist/, which this project does not type-check.
const bench = (await import(new URL("../../bench/cache.mjs", import.meta.url).href)) as { measureDelegating(spec: object): Promise<Row> };
const { delegatingSession } = (await import(new URL("../../bench/sessions.mjs", import.meta.url).href)) as { delegatingSession(o: { fast: boolean }): object };

describe("deepcode's prompt-cache hits in a session that delegates to subagents (fast mode)", () => {
  it("keeps every conversation at its optimum, and a subagent type's prefix cached across its runs and processes", async () => {
    const row = await bench.measureDelegating(delegatingSession({ fast: true }));
    expect(row.toolErrors).toEqual([]);
    expect(row.unexpected).toEqual([]);
    expect(row.subagentRequests).toBeGreaterThan(row.requests / 2);
    const short = row.perRequest.flatMap((r, i) => (r.hit < r.optimum ? [{ request: i + 1, ...r }] : []));
    expect(short).toEqual([]);
    expect(row.ofOptimum).toBeGreaterThanOrEqual(0.97);
    // Six explore runs in three processes: all but the very first start warm, on the whole prefix.
    expect(row.warmStarts).toHaveLength(5);
    for (const w of row.warmStarts) expect(w.hit).toBeGreaterThanOrEqual(w.optimum);
    expect(Math.min(...row.warmStarts.map((w) => w.optimum))).toBeGreaterThan(500); // a whole subagent prefix (about 960 tokens since the shorter tool descriptions, issue 41), not a sliver
  });
});
