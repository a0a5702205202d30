// The text the REPL prints about money: `/cost`, `/tier` and the chooser's line. Plain text;
// the renderer adds colour.

import {
  columns, ESTIMATED_MARK, estimatedNote, formatMoney, formatPercent, formatTokens, TIER_NAMES,
  type Currency, type SummaryRow, type TierName, type TierProfiles,
} from "../index.js";
import type { TierMode } from "./settings.js";

/**
 * `/cost`:
 *                 requests  turns  input  output  hit rate    cost   saved
 *   this session         4      2  8.40K      40     73.1%  $0.0007  $0.0004
 *   today ...
 *   this month ...
 * then one line per budget and the tier in force. `input` is prompt tokens (hit + miss),
 * `output` completion tokens with reasoning, `saved` what cache hits spared against misses. When
 * the session's subagents ran, a row `  subagents` under it is their part of it. A cost that
 * holds requests booked from deepcode's estimate (no usage from the API) is marked `~`.
 */
export function formatCostReport(o: {
  rows: { session: SummaryRow; agents?: SummaryRow; today: SummaryRow; month: SummaryRow };
  currency: Currency;
  budgetLines: string[];
  tierLine: string;
}): string {
  const cells = (label: string, r: SummaryRow): string[] => {
    const money = (usd: number, cny: number): string => formatMoney(o.currency === "USD" ? usd : cny, o.currency);
    return [
      label,
      String(r.requests),
      String(r.turns),
      formatTokens(r.prompt),
      formatTokens(r.completion),
      formatPercent(r.hit, r.hit + r.miss),
      `${r.estimatedRequests > 0 ? ESTIMATED_MARK : ""}${money(r.usd, r.cny)}`,
      money(r.savingUsd, r.savingCny),
    ];
  };
  const table = columns([
    ["", "requests", "turns", "input", "output", "hit rate", "cost", "saved"],
    cells("this session", o.rows.session),
    ...(o.rows.agents && o.rows.agents.requests > 0 ? [cells("  subagents", o.rows.agents)] : []),
    cells("today", o.rows.today),
    cells("this month", o.rows.month),
  ]);
  const note = estimatedNote(o.rows.month, o.currency);
  return [table, "", ...(note === null ? [] : [note]), ...o.budgetLines, o.tierLine].join("\n");
}

/** `/tier` without an argument: the mode, the last turn's tier, and the four profiles. */
export function formatTiers(mode: TierMode, tiers: TierProfiles, last: TierName | undefined): string {
  const head =
    mode.kind === "auto"
      ? `tier: auto (chosen per turn${last ? `; last turn ${last}` : ""})`
      : mode.kind === "pinned"
        ? `tier: ${mode.tier} (pinned)`
        : `tier: ${last ?? "none"} (follows the configured model)`;
  const rows = TIER_NAMES.map((t, i) => {
    const p = tiers[t];
    const marker = (mode.kind === "pinned" ? mode.tier : last) === t ? "*" : " ";
    return [`${marker} ${i + 1} ${t}`, p.model, p.thinking ? `thinking${p.effort ? ` (${p.effort})` : ""}` : "no thinking", `max ${formatTokens(p.maxTokens)}`];
  });
  return `${head}\n${columns(rows)}\n/tier auto | /tier NAME`;
}
