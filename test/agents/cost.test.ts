import { describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chats, deepcode, isSubagent, projects, task } from "./helpers.js";
import type { Usage } from "../../src/contract/wire.js";
import { costOf } from "../../src/core/cost/calc.js";
import { delegationOf, estimateTurn, type TierEstimate } from "../../src/core/estimate/turn.js";
import { ledgerRecord, parseLedger, type LedgerRecord } from "../../src/core/cost/ledger.js";
import { loadPriceTable } from "../../src/core/cost/prices.js";
import { formatEstimateLine, formatStats } from "../../src/core/cost/report.js";
import { summarise } from "../../src/core/cost/stats.js";
import { resolveTiers } from "../../src/core/cost/tiers.js";
import { formatCostReport } from "../../src/core/cost/run/repl-text.js";
import { at, USAGE_A, USAGE_B } from "../cost/fixtures.js";

const table = loadPriceTable();
const tiers = resolveTiers();
const NOW = at("2026-11-30T12:00:00Z");

function priced(e: TierEstimate): Exclude<TierEstimate, { error: string }> {
  if (e.error !== undefined) throw new Error(e.error);
  return e;
}

describe("the estimate knows a turn that delegates to subagents costs more", () => {
  it("expects runs when the prompt asks for delegation, and none without the Task tool", () => {
    expect(delegationOf("use subagents to review each module", { hasTask: true })).toEqual([1, 3]);
    expect(delegationOf("check these three files in parallel", { hasTask: true })).toEqual([1, 3]);
    expect(delegationOf("ask an agent to look at the tests", { hasTask: true })).toEqual([0, 2]);
    expect(delegationOf("update AGENTS.md with the new layout", { hasTask: true })).toEqual([0, 0]);
    expect(delegationOf("fix the typo", { hasTask: true })).toEqual([0, 0]);
    expect(delegationOf("use subagents", { hasTask: false })).toEqual([0, 0]);
  });

  it("expects as many as the busiest earlier turn started, in a session that delegated before", () => {
    expect(delegationOf("now the next module", { hasTask: true, earlierMostRuns: 2 })).toEqual([0, 2]);
  });

  it("adds the subagents' runs to every tier's range, and the chooser line says so", () => {
    const base = { prompt: "use subagents to review each module", prefixTokens: 12_000, prefixCached: true };
    const plain = estimateTurn(base, tiers, table, NOW);
    const delegating = estimateTurn({ ...base, delegation: { runs: [1, 3], prefixTokens: 9_000 } }, tiers, table, NOW);
    const more = estimateTurn({ ...base, delegation: { runs: [2, 4], prefixTokens: 9_000 } }, tiers, table, NOW);
    for (let i = 0; i < plain.tiers.length; i++) {
      const b = priced(delegating.tiers[i]);
      const c = priced(more.tiers[i]);
      // The main agent's own part of a delegating turn is its Task calls and an answer (less
      // than a plain turn's table range); the runs come on top, one more run more at both ends.
      expect(priced(plain.tiers[i]).lowUsd).toBeGreaterThan(0);
      expect(c.lowUsd).toBeGreaterThan(b.lowUsd);
      expect(c.highUsd).toBeGreaterThan(b.highUsd);
      expect(c.low.rounds).toBeGreaterThan(b.low.rounds);
      expect(c.high.rounds).toBeGreaterThan(b.high.rounds);
    }
    expect(formatEstimateLine(delegating, "USD")).toMatch(/ · with 1–3 subagent runs$/);
    expect(formatEstimateLine(plain, "USD")).not.toContain("subagent");
  });
});

function line(usage: Usage, agent?: string): LedgerRecord {
  const cost = costOf(usage, "deepseek-flash", NOW);
  return ledgerRecord({ at: NOW, project: "/p", session: "main", turn: 1, usage, cost, ...(agent ? { agent: { name: agent, session: `sub-${agent}` } } : {}) });
}

describe("subagent spend, shown apart", () => {
  const records = [line(USAGE_A), line(USAGE_B, "explore"), line(USAGE_B, "explore")];

  it("is marked in the ledger with the agent and its own session, under the main session and turn", () => {
    const text = records.map((r) => JSON.stringify(r)).join("\n") + "\n";
    const back = parseLedger(text).records;
    expect(back.map((r) => [r.session, r.turn, r.agent, r.agentSession])).toEqual([
      ["main", 1, undefined, undefined],
      ["main", 1, "explore", "sub-explore"],
      ["main", 1, "explore", "sub-explore"],
    ]);
  });

  it("gets a column of its own in deepcode stats when subagents ran", () => {
    const text = formatStats(summarise(records, { by: "day", timeZone: "utc" }), "USD");
    const [head, day] = text.split("\n");
    expect(head).toMatch(/cost\s+saved\s+subagents$/);
    expect(day.trim().split(/\s+/).at(-1)).toBe("$0.0013"); // 2 × $0.00063
    expect(formatStats(summarise([records[0]], { by: "day", timeZone: "utc" }), "USD")).not.toContain("subagents");
  });

  it("gets a row of its own under the session in /cost", () => {
    const s = summarise(records, { by: "month" }).total;
    const agents = summarise(records.filter((r) => r.agent), { by: "month" }).total;
    const report = formatCostReport({ rows: { session: s, agents, today: s, month: s }, currency: "USD", budgetLines: [], tierLine: "tier" });
    const rows = report.split("\n");
    expect(rows[1]).toMatch(/^this session\s+3\s+1/);
    expect(rows[2]).toMatch(/^ {2}subagents\s+2\s+1\s.*\$0\.0013/);
  });
});

describe("a subagent's turn and the budget", () => {
  const p = projects();

  it("is refused once the daily budget ran out during the turn that starts it, and the parent is told", async () => {
    await p.open(
      { main: [{ tool_calls: [task("explore", "look", "Look around.")] }, { content: "could not delegate" }], agents: [{ marker: "You are an exploring agent", steps: [{ content: "looked" }] }] },
      { "a.txt": "x" },
    );
    mkdirSync(p.env.home, { recursive: true });
    writeFileSync(join(p.env.home, "settings.json"), JSON.stringify({ budget: { daily: 0.0000001 } }));
    const r = await deepcode(p.env, ["-p", "go", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(chats(p.sim.requests).filter((c) => isSubagent(c.json))).toHaveLength(0);
    const told = chats(p.sim.requests).at(-1)!.json.messages.at(-1).content as string;
    expect(told).toMatch(/^The subagent stopped before it finished \(budget_exhausted: daily budget of .* is spent/);
  });
});
