// Sums over the ledger: per day or month (`deepcode stats`), what was spent today and this
// month (budgets, `/cost`), and how often turns landed inside their pre-turn range
// (`deepcode stats --estimates`).
//
// Days and months are calendar periods in the user's local time by default (what "today"
// means to a person); pass `timeZone: "utc"` for UTC periods (tests, servers).

import { TASK_CLASSES } from "../estimate/classify.js";
import type { LedgerRecord } from "./ledger.js";
import { TIER_NAMES } from "./tiers.js";

export type PeriodKind = "day" | "month";
export type TimeZoneMode = "local" | "utc";

export interface SummaryRow {
  /** `2026-11-30` or `2026-11`; `total` for the sum. */
  period: string;
  requests: number;
  turns: number;
  prompt: number;
  hit: number;
  miss: number;
  completion: number;
  reasoning: number;
  /** hit ÷ (hit + miss); 0 with no prompt tokens. */
  hitRate: number;
  usd: number;
  cny: number;
  savingUsd: number;
  savingCny: number;
  /** Of the above, what subagents' requests cost (LedgerRecord.agent). */
  agentRequests: number;
  agentUsd: number;
  agentCny: number;
  /** Of the above, requests the API sent no usage for (LedgerRecord.estimated): their tokens
   *  and cost are deepcode's estimate from the text, so the row's cost is partly estimated. */
  estimatedRequests: number;
  estimatedUsd: number;
  estimatedCny: number;
}

export interface Summary {
  by: PeriodKind;
  rows: SummaryRow[];
  total: SummaryRow;
}

export function periodOf(time: string | Date, by: PeriodKind, tz: TimeZoneMode = "local"): string {
  const d = typeof time === "string" ? new Date(time) : time;
  const y = tz === "utc" ? d.getUTCFullYear() : d.getFullYear();
  const m = (tz === "utc" ? d.getUTCMonth() : d.getMonth()) + 1;
  const day = tz === "utc" ? d.getUTCDate() : d.getDate();
  const ym = `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}`;
  return by === "month" ? ym : `${ym}-${String(day).padStart(2, "0")}`;
}

function emptyRow(period: string): SummaryRow {
  return {
    period, requests: 0, turns: 0, prompt: 0, hit: 0, miss: 0, completion: 0, reasoning: 0,
    hitRate: 0, usd: 0, cny: 0, savingUsd: 0, savingCny: 0, agentRequests: 0, agentUsd: 0, agentCny: 0,
    estimatedRequests: 0, estimatedUsd: 0, estimatedCny: 0,
  };
}

function add(row: SummaryRow, r: LedgerRecord): void {
  row.requests++;
  row.prompt += r.prompt;
  row.hit += r.hit;
  row.miss += r.miss;
  row.completion += r.completion;
  row.reasoning += r.reasoning;
  row.usd += r.usd;
  row.cny += r.cny;
  row.savingUsd += r.savingUsd;
  row.savingCny += r.savingCny;
  if (r.agent !== undefined) {
    row.agentRequests++;
    row.agentUsd += r.usd;
    row.agentCny += r.cny;
  }
  if (r.estimated === true) {
    row.estimatedRequests++;
    row.estimatedUsd += r.usd;
    row.estimatedCny += r.cny;
  }
}

const turnKey = (r: LedgerRecord): string => `${r.project}\u0000${r.session}\u0000${r.turn}`;

/** Totals per day or month, oldest first, from `since` (inclusive) on. */
export function summarise(
  records: readonly LedgerRecord[],
  opts: { by: PeriodKind; since?: Date; timeZone?: TimeZoneMode },
): Summary {
  const tz = opts.timeZone ?? "local";
  const since = opts.since?.getTime() ?? -Infinity;
  const rows = new Map<string, SummaryRow>();
  const turns = new Map<string, Set<string>>();
  const total = emptyRow("total");
  const allTurns = new Set<string>();
  for (const r of records) {
    if (Date.parse(r.time) < since) continue;
    const period = periodOf(r.time, opts.by, tz);
    let row = rows.get(period);
    if (!row) rows.set(period, (row = emptyRow(period)));
    add(row, r);
    add(total, r);
    let set = turns.get(period);
    if (!set) turns.set(period, (set = new Set()));
    set.add(turnKey(r));
    allTurns.add(turnKey(r));
  }
  const sorted = [...rows.values()].sort((a, b) => (a.period < b.period ? -1 : a.period > b.period ? 1 : 0));
  for (const row of sorted) row.turns = turns.get(row.period)?.size ?? 0;
  total.turns = allTurns.size;
  for (const row of [...sorted, total]) row.hitRate = row.hit + row.miss > 0 ? row.hit / (row.hit + row.miss) : 0;
  return { by: opts.by, rows: sorted, total };
}

/** What was spent today and this month (at `now`), in both currencies, for budgets and `/cost`. */
export function spending(
  records: readonly LedgerRecord[],
  now: Date,
  tz: TimeZoneMode = "local",
): { today: { usd: number; cny: number }; month: { usd: number; cny: number } } {
  const day = periodOf(now, "day", tz);
  const month = periodOf(now, "month", tz);
  const out = { today: { usd: 0, cny: 0 }, month: { usd: 0, cny: 0 } };
  for (const r of records) {
    if (periodOf(r.time, "month", tz) !== month) continue;
    out.month.usd += r.usd;
    out.month.cny += r.cny;
    if (periodOf(r.time, "day", tz) === day) {
      out.today.usd += r.usd;
      out.today.cny += r.cny;
    }
  }
  return out;
}

export interface CalibrationRow {
  /** A tier name or a task class. */
  key: string;
  turns: number;
  /** Actual turn cost within [low, high]. */
  inside: number;
  /** Cheaper than the low end. */
  below: number;
  /** Dearer than the high end. */
  above: number;
  /** inside ÷ turns. */
  insideRate: number;
  /** Inside, with the high end at most 3× the actual cost (a range that still guides). */
  tight: number;
}

export interface Calibration {
  turns: number;
  inside: number;
  insideRate: number;
  /** Inside with the high end ≤ 3× the actual cost. */
  tight: number;
  byTier: CalibrationRow[];
  byClass: CalibrationRow[];
}

function calRow(key: string): CalibrationRow {
  return { key, turns: 0, inside: 0, below: 0, above: 0, insideRate: 0, tight: 0 };
}

/**
 * Estimate against actual, per turn: a turn is the records sharing project, session and turn
 * number; its actual cost is the sum of their USD costs; its estimate is the one recorded on
 * them. Turns without an estimate are left out. Compared in USD, the currency of the estimate.
 */
export function calibration(records: readonly LedgerRecord[]): Calibration {
  const turns = new Map<string, { usd: number; estimate?: LedgerRecord["estimate"] }>();
  for (const r of records) {
    const k = turnKey(r);
    const t = turns.get(k) ?? { usd: 0 };
    t.usd += r.usd;
    t.estimate ??= r.estimate;
    turns.set(k, t);
  }
  const byTier = new Map<string, CalibrationRow>();
  const byClass = new Map<string, CalibrationRow>();
  const all = calRow("all");
  // Costs are sums of floats; a turn exactly at an end of its range must count as inside.
  const eps = 1e-12;
  for (const t of turns.values()) {
    const e = t.estimate;
    if (!e) continue;
    const where = t.usd < e.lowUsd - eps ? "below" : t.usd > e.highUsd + eps ? "above" : "inside";
    const tight = where === "inside" && e.highUsd <= 3 * t.usd + eps ? 1 : 0;
    for (const [map, key] of [[byTier, e.tier], [byClass, String(e.taskClass)]] as const) {
      let row = map.get(key);
      if (!row) map.set(key, (row = calRow(key)));
      row.turns++;
      row[where]++;
      row.tight += tight;
    }
    all.turns++;
    all[where]++;
    all.tight += tight;
  }
  // Known names in their natural order (cheapest tier first), unknown ones after, by name.
  const finish = (m: Map<string, CalibrationRow>, order: readonly string[]): CalibrationRow[] => {
    const rank = (k: string): number => (order.includes(k) ? order.indexOf(k) : order.length);
    return [...m.values()]
      .map((r) => ({ ...r, insideRate: r.turns ? r.inside / r.turns : 0 }))
      .sort((a, b) => rank(a.key) - rank(b.key) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  };
  return {
    turns: all.turns,
    inside: all.inside,
    insideRate: all.turns ? all.inside / all.turns : 0,
    tight: all.tight,
    byTier: finish(byTier, TIER_NAMES),
    byClass: finish(byClass, TASK_CLASSES),
  };
}
