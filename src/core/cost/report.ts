// The text deepcode prints about money: `deepcode stats` (days or months), `deepcode stats
// --estimates` (calibration), their `--json` shapes, and the one-line pre-turn estimate the
// REPL's chooser shows. Plain text, aligned columns, no colour (the renderer adds it).

import type { TurnEstimate } from "../estimate/turn.js";
import { fit, formatMoney, formatPercent, formatRange, formatTokens } from "./format.js";
import type { Calibration, CalibrationRow, Summary, SummaryRow } from "./stats.js";
import type { Currency } from "./types.js";

/** Lays out rows as columns: the first left-aligned, the rest right-aligned, two spaces apart. */
export function columns(rows: string[][]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows
    .map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ").trimEnd())
    .join("\n");
}

function statsCells(row: SummaryRow, currency: Currency, agents: boolean): string[] {
  const cost = currency === "USD" ? row.usd : row.cny;
  const saved = currency === "USD" ? row.savingUsd : row.savingCny;
  const more = agents ? [formatMoney(currency === "USD" ? row.agentUsd : row.agentCny, currency)] : [];
  return [
    row.period,
    String(row.requests),
    String(row.turns),
    formatTokens(row.prompt),
    formatTokens(row.completion),
    formatPercent(row.hit, row.hit + row.miss),
    `${row.estimatedRequests > 0 ? ESTIMATED_MARK : ""}${formatMoney(cost, currency)}`,
    formatMoney(saved, currency),
    ...more,
  ];
}

/** Put before a cost that includes requests booked from deepcode's own token estimate. */
export const ESTIMATED_MARK = "~";

/** The footnote under a table where some cost is marked estimated; null when none is. */
export function estimatedNote(total: SummaryRow, currency: Currency): string | null {
  const n = total.estimatedRequests;
  if (n === 0) return null;
  const part = formatMoney(currency === "USD" ? total.estimatedUsd : total.estimatedCny, currency);
  return `${ESTIMATED_MARK} estimated: ${n} request${n === 1 ? "" : "s"} (${part}) came back without usage from the API; ${n === 1 ? "its" : "their"} tokens and cost are deepcode's estimate from the text.`;
}

/**
 * `deepcode stats`:
 *   day         requests  turns  input  output  hit rate    cost   saved
 *   2026-11-29         4      2  60.0K   2.40K     93.3%  $0.012  $0.017
 *   total             ...
 * `input` is prompt tokens (hit + miss), `output` completion tokens (reasoning included),
 * `saved` what cache hits spared against paying for them as misses. When subagents ran, a last
 * column `subagents` says how much of `cost` was theirs. A cost that includes requests the API
 * sent no usage for (booked from deepcode's estimate) is marked `~$0.0012`, with a footnote.
 */
export function formatStats(summary: Summary, currency: Currency): string {
  if (summary.rows.length === 0) return "no usage recorded yet";
  const agents = summary.total.agentRequests > 0;
  const header = [summary.by, "requests", "turns", "input", "output", "hit rate", "cost", "saved", ...(agents ? ["subagents"] : [])];
  const table = columns([header, ...summary.rows.map((r) => statsCells(r, currency, agents)), statsCells(summary.total, currency, agents)]);
  const note = estimatedNote(summary.total, currency);
  return note === null ? table : `${table}\n\n${note}`;
}

function calCells(r: CalibrationRow): string[] {
  return [r.key, String(r.turns), String(r.inside), String(r.below), String(r.above), formatPercent(r.inside, r.turns), formatPercent(r.tight, r.turns)];
}

/**
 * `deepcode stats --estimates`: how often a turn's actual cost fell inside the range shown
 * before it, per tier and per task class. `below`/`above`: cheaper or dearer than the range.
 */
export function formatCalibration(cal: Calibration): string {
  if (cal.turns === 0) return "no estimates recorded yet";
  const head = `${cal.turns} estimated turn${cal.turns === 1 ? "" : "s"}, ${cal.inside} inside the range (${formatPercent(cal.inside, cal.turns)}), ${cal.tight} inside with the high end at most 3× the actual (${formatPercent(cal.tight, cal.turns)})`;
  const cols = ["turns", "inside", "below", "above", "inside %", "and high ≤ 3× %"];
  const table = columns([["tier", ...cols], ...cal.byTier.map(calCells), [""], ["task class", ...cols], ...cal.byClass.map(calCells)]);
  return `${head}\n\n${table}`;
}

/** The `--json` output: both currencies, plain numbers, stable keys. */
export function statsJson(summary: Summary, cal?: Calibration): {
  by: Summary["by"];
  rows: SummaryRow[];
  total: SummaryRow;
  estimates?: Calibration;
} {
  const out: { by: Summary["by"]; rows: SummaryRow[]; total: SummaryRow; estimates?: Calibration } = {
    by: summary.by,
    rows: summary.rows.map((r) => ({ ...r })),
    total: { ...summary.total },
  };
  if (cal) out.estimates = cal;
  return out;
}

/**
 * The chooser's line: the recommended tier and its range first, then every tier with the key
 * that picks it, e.g.
 *   routine → chat-full $0.004–0.031 · 1 chat-fast $0.001–0.012 · 2 chat-full … · peak hours
 * fitted to `width` columns: the reason goes first, then the tiers' names, then the tiers, and
 * a figure is never cut.
 */
export function formatEstimateLine(e: TurnEstimate, currency: Currency, width = Infinity): string {
  return fit(estimateLineVariants(e, currency), width);
}

/** The chooser's line from the most detailed to the shortest (see formatEstimateLine). */
export function estimateLineVariants(e: TurnEstimate, currency: Currency): string[] {
  const range = (t: TurnEstimate["tiers"][number]): string =>
    t.error !== undefined
      ? "no price"
      : currency === "USD"
        ? formatRange(t.lowUsd, t.highUsd, currency)
        : formatRange(t.lowCny, t.highCny, currency);
  const rec = e.tiers.find((t) => t.tier === e.recommended);
  const head = `${e.taskClass} → ${e.recommended} ${rec ? range(rec) : ""}`.trimEnd();
  const note = e.reason !== e.taskClass ? ` (${e.reason})` : "";
  const all = e.tiers.map((t, i) => `${i + 1} ${t.tier} ${range(t)}`).join(" · ");
  const numbered = e.tiers.map((t, i) => `${i + 1} ${range(t)}`).join(" · ");
  const isPeak = e.tiers.some((t) => t.error === undefined && t.peak);
  const peak = isPeak ? " · peak hours" : "";
  const agents = e.subagents ? ` · with ${e.subagents[0] === e.subagents[1] ? e.subagents[0] : `${e.subagents[0]}–${e.subagents[1]}`} subagent run${e.subagents[1] === 1 ? "" : "s"}` : "";
  const short = isPeak ? " · peak" : "";
  // A high end that allows for a large tool result says so: the range is wide for that reason.
  const large = e.largeOutput ? " · high end allows a large output" : "";
  const big = e.largeOutput ? " · large output" : "";
  return [
    `${head}${note} · ${all}${peak}${agents}${large}`,
    `${head} · ${all}${peak}${agents}${large}`,
    `${head} · ${numbered}${peak}${agents}${big}`,
    `${head}${peak}${big}`,
    `${head}${short}${big}`,
    `${head}${short}`,
    `${e.recommended} ${rec ? range(rec) : ""}${short}`.trimEnd(),
  ];
}
