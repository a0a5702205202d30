// The MCP section of the cache benchmark (bench/mcp.mjs) in fast mode: a server that connects
// after the first request keeps every request at its cache optimum. Needs dist/ (npm test builds it).
import { describe, expect, it } from "vitest";

interface Row {
  ofOptimum: number;
  unexpected: unknown[];
  toolErrors: string[];
  perRequest: Array<{ prompt: number; hit: number; optimum: number }>;
}
const bench = (await import(new URL("../../bench/mcp.mjs", import.meta.url).href)) as { lateServerSession(o: { fast: boolean }): object };
const cache = (await import(new URL("../../bench/cache.mjs", import.meta.url).href)) as { measure(spec: object): Promise<Row> };

describe("the prompt cache with an MCP server that connects after the first request", () => {
  it("keeps 100% of the optimum: its tool arrives through UseTool and a tail note, never the prefix", async () => {
    const row = await cache.measure(bench.lateServerSession({ fast: true }));
    expect(row.unexpected).toEqual([]);
    expect(row.toolErrors.filter((e) => /UseTool|mcp__/.test(e))).toEqual([]);
    expect(row.perRequest.filter((r) => r.hit < r.optimum)).toEqual([]);
    expect(row.ofOptimum).toBe(1);
  });
});
