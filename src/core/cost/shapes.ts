// What recent turns did, as the estimate's evidence. The tables in tiers.ts say what a task
// class may do anywhere (rounds, output and tool results per round), so their ranges are wide;
// the turns this person just ran say what turns here do. A turn's shape is its rounds, its
// output per round (reasoning included) and the tool results each round added, read from its
// ledger lines (every request of a turn, in order; its subagents' lines are left out: their
// runs are estimated apart). `shapesOf` gives the latest turns, newest last.
//
// With enough shapes the estimate prices each of them on the turn about to run (its known
// context, at each tier) and takes the cheapest and the dearest, widened by SHAPE_MARGIN: the
// next turn falls inside when it looks like one of the recent ones, and the high end stays a
// small multiple of what such a turn costs.

import type { LedgerRecord } from "./ledger.js";

export interface TurnShape {
  /** The tier the turn ran at (its output per round belongs to that tier's model). */
  tier?: string;
  taskClass?: string;
  rounds: number;
  outputPerRound: number;
  toolPerRound: number;
}

/** Fewer shapes than this: the tables' ranges. */
export const MIN_SHAPES = 3;
/** The most recent turns a range is drawn from. */
export const MAX_SHAPES = 12;
/** The range of the shapes' costs, widened: low × [0], high × [1]. */
export const SHAPE_MARGIN: readonly [number, number] = [0.8, 1.25];

/** The shapes of the turns in `records` (the ledger's lines), oldest first; `keep` picks the
 *  lines that count (a session, a project). Lines of subagents are left out. */
export function shapesOf(records: readonly LedgerRecord[], keep: (r: LedgerRecord) => boolean): TurnShape[] {
  const turns = new Map<string, LedgerRecord[]>();
  for (const r of records) {
    if (r.agent !== undefined || !keep(r)) continue;
    const k = `${r.session}\u0000${r.turn}`;
    const list = turns.get(k);
    if (list) list.push(r);
    else turns.set(k, [r]);
  }
  const out: Array<TurnShape & { at: string }> = [];
  for (const lines of turns.values()) {
    const rounds = lines.length;
    const output = lines.reduce((n, r) => n + r.completion, 0);
    let tool = 0;
    for (let i = 1; i < lines.length; i++) tool += Math.max(0, lines[i].prompt - lines[i - 1].prompt - lines[i - 1].completion);
    const first = lines[0];
    out.push({
      at: first.time,
      ...(first.tier ? { tier: first.tier } : {}),
      ...(first.estimate?.taskClass ? { taskClass: first.estimate.taskClass } : {}),
      rounds,
      outputPerRound: output / rounds,
      toolPerRound: rounds > 1 ? tool / (rounds - 1) : 0,
    });
  }
  out.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return out.map(({ at: _at, ...s }) => s);
}

/** The shapes an estimate of a `taskClass` turn draws on: the latest of that class when there
 *  are enough, else the latest of any class. */
export function pickShapes(shapes: readonly TurnShape[], taskClass: string): TurnShape[] {
  const same = shapes.filter((s) => s.taskClass === taskClass);
  const from = same.length >= MIN_SHAPES ? same : shapes;
  return from.slice(-MAX_SHAPES);
}
