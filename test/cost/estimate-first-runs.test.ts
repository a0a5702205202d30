// Complaints about the estimate of turns that start subagents, each as a test:
// - "my second session's first delegating turn was estimated at a tenth of what it cost": runs are
//   priced from the project's earlier runs, whatever session started them;
// - "I asked for an explore agent and was shown the price of a general-purpose one": a prompt
//   that names an agent type is priced from earlier runs of that type;
// - "my first delegating turn was shown a range of $0.001–$0.03": before any run, a run is priced
//   from a prior (the caller's prefix, a few rounds, this model's output per round here), not
//   from the routine class's tables.
import { describe, expect, it } from "vitest";
import { costOf } from "../../src/core/cost/calc.js";
import { runsEvidence, typesNamed } from "../../src/core/estimate/delegation.js";
import { estimateTurn, type TierEstimate } from "../../src/core/estimate/turn.js";
import { ledgerRecord, type LedgerRecord } from "../../src/core/cost/ledger.js";
import { loadPriceTable } from "../../src/core/cost/prices.js";
import { pickShapes, shapesOf } from "../../src/core/estimate/shapes.js";
import { resolveTiers } from "../../src/core/cost/tiers.js";
import type { Usage } from "../../src/contract/wire.js";
import { at } from "./fixtures.js";

const table = loadPriceTable();
const tiers = resolveTiers();
const NOW = at("2026-11-30T12:00:00Z");

const usage = (prompt: number, completion: number, hit: number): Usage => ({ prompt_tokens: prompt, completion_tokens: completion, prompt_cache_hit_tokens: hit, prompt_cache_miss_tokens: prompt - hit, reasoning_tokens: 0 });

/** A kind of subagent run: explore (chat-fast, no thinking, short output) or general-purpose
 *  (the caller's chat-full, thinking: long output, and a test run's output to read). */
const EXPLORE = { name: "explore", tier: "chat-fast", out: 120, tool: 900 };
const GENERAL = { name: "general-purpose", tier: "chat-full", out: 900, tool: 2500 };
type Kind = typeof EXPLORE;

let clock = 0;
/** A main turn of `rounds` requests (`out` output and `tool` tool-result tokens a round), its
 *  subagent runs (3 rounds each, from a 2 000-token prefix; a run's first request misses it
 *  when `cold`) started after its first request. */
function turn(session: string, n: number, o: { start: number; rounds: number; out: number; tool: number; runs?: Kind[]; cold?: boolean; asked?: [number, number] }): LedgerRecord[] {
  const lines: LedgerRecord[] = [];
  const estimate = { tier: "chat-full", lowUsd: 0, highUsd: 1, taskClass: "routine", ...(o.asked ? { subagents: o.asked } : {}) };
  const line = (u: Usage, step: number, tier: string, agent?: { name: string; session: string }): LedgerRecord =>
    ledgerRecord({ at: new Date(NOW.getTime() + ++clock * 1000), project: "/p", session, turn: n, step, tier, usage: u, cost: costOf(u, "deepseek-flash", NOW), estimate, ...(agent ? { agent } : {}) });
  let prompt = o.start;
  for (let k = 0; k < o.rounds; k++) {
    lines.push(line(usage(prompt, o.out, prompt - (k === 0 ? 40 : o.tool)), k + 1, "chat-full"));
    prompt += o.out + o.tool;
    if (k > 0) continue;
    for (const [i, kind] of (o.runs ?? []).entries()) {
      let p = 2300;
      for (let j = 0; j < 3; j++) {
        const hit = j === 0 ? (o.cold ? 0 : 2240) : p - kind.tool;
        lines.push(line(usage(p, kind.out, hit), j + 1, kind.tier, { name: kind.name, session: `${session}-${n}-${i}` }));
        p += kind.out + kind.tool;
      }
    }
  }
  return lines;
}

const chatFull = (ts: TierEstimate[]) => {
  const t = ts.find((x) => x.tier === "chat-full");
  if (!t || t.error !== undefined) throw new Error("chat-full unpriced");
  return t;
};
const cost = (lines: LedgerRecord[]) => lines.reduce((a, r) => a + r.usd, 0);
const holds = (e: { lowUsd: number; highUsd: number }, actual: number) => {
  expect(e.lowUsd).toBeLessThanOrEqual(actual);
  expect(e.highUsd).toBeGreaterThanOrEqual(actual);
  expect(e.highUsd).toBeLessThanOrEqual(3 * actual);
};
const plain = (session: string, from: number) => [0, 1, 2].flatMap((i) => turn(session, from + i, { start: 8000 + i * 2000, rounds: 4, out: 300, tool: 500 }));

describe("a delegating turn's runs, priced from what is known before it", () => {
  it("prices a second session's first delegating turn from the general-purpose runs an earlier session of the project started", () => {
    const first = [...plain("a", 1), ...turn("a", 4, { start: 14_000, rounds: 2, out: 300, tool: 300, runs: [GENERAL], asked: [1, 1] })];
    const second = plain("b", 1);
    const records = [...first, ...second];
    // What the cost engine passes: this session's shapes (three, none delegating), the project's
    // latest delegating turns beside them, and the project's runs.
    const project = shapesOf(records, (r) => r.project === "/p");
    const mine = shapesOf(records, (r) => r.session === "b");
    const shapes = pickShapes([...project.filter((s) => s.runs), ...mine], "routine");
    const base = { prompt: "Use one general-purpose agent to run the tests and report failures", taskClass: "routine" as const, lastUsage: usage(14_000, 300, 13_900), delegation: { runs: [1, 1] as const, prefixTokens: 2000 } };
    const e = chatFull(estimateTurn({ ...base, shapes, runs: runsEvidence(project) }, tiers, table, NOW).tiers);
    const actual = cost(turn("b", 4, { start: 14_300, rounds: 2, out: 300, tool: 300, runs: [GENERAL] }));
    holds(e, actual);
    // From this session alone (no run to learn from), the prior's high end is well below it.
    const alone = chatFull(estimateTurn({ ...base, shapes: pickShapes(mine, "routine") }, tiers, table, NOW).tiers);
    expect(alone.highUsd).toBeLessThan(e.highUsd);
  });

  it("prices a prompt that names explore from the explore runs, not the dearer general-purpose ones, and an unnamed one with the dearest", () => {
    const records = [
      ...plain("s", 1),
      ...turn("s", 4, { start: 14_000, rounds: 2, out: 300, tool: 300, runs: [EXPLORE, EXPLORE], asked: [2, 2] }),
      ...turn("s", 5, { start: 16_000, rounds: 2, out: 300, tool: 300, runs: [GENERAL], asked: [1, 1] }),
    ];
    const project = shapesOf(records, () => true);
    const shapes = pickShapes(project, "routine");
    const runs = runsEvidence(project);
    const base = { taskClass: "routine" as const, lastUsage: usage(18_000, 300, 17_900), delegation: { runs: [1, 1] as const, prefixTokens: 2000 }, shapes, runs };
    const named = chatFull(estimateTurn({ ...base, prompt: "Use one explore agent to find where dates are parsed" }, tiers, table, NOW).tiers);
    holds(named, cost(turn("s", 6, { start: 18_300, rounds: 2, out: 300, tool: 300, runs: [EXPLORE] })));
    const unnamed = chatFull(estimateTurn({ ...base, prompt: "Use one subagent to look into the dates module" }, tiers, table, NOW).tiers);
    holds(unnamed, cost(turn("s", 6, { start: 18_300, rounds: 2, out: 300, tool: 300, runs: [GENERAL] })));
    expect(typesNamed("use two explore agents, then a general-purpose subagent", ["explore", "general-purpose", "reviewer"])).toEqual(["explore", "general-purpose"]);
    expect(typesNamed("explore the parser and tell me how it works", ["explore"])).toEqual([]); // a verb, not a type
  });

  it("prices a project's first delegating turn from a prior, not the tables: a cold explore run and an inheriting run both fall inside, the high end within 3×", () => {
    const shapes = pickShapes(shapesOf(plain("s", 1), () => true), "routine");
    const e = chatFull(estimateTurn({ prompt: "Use one subagent for this: check the money module's helpers", taskClass: "routine", lastUsage: usage(14_000, 300, 13_900), delegation: { runs: [1, 1], prefixTokens: 2000 }, shapes }, tiers, table, NOW).tiers);
    const main = { start: 14_300, rounds: 2, out: 300, tool: 300 };
    const explore = cost(turn("s", 4, { ...main, runs: [EXPLORE], cold: true }));
    expect(e.lowUsd).toBeLessThanOrEqual(explore);
    expect(e.highUsd).toBeLessThanOrEqual(3 * explore);
    const inherits = cost(turn("s", 4, { ...main, runs: [{ ...GENERAL, out: 400, tool: 800 }], cold: true }));
    holds(e, inherits);
    // The main part is a Task call and an answer: two or three rounds, beside the run's two or three.
    expect([e.low.rounds, e.high.rounds]).toEqual([4, 6]);
  });
});
