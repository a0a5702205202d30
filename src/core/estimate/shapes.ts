// What recent turns did, as the estimate's evidence. The tables in tiers.ts say what a task
// class may do anywhere (rounds, output and tool results per round), so their ranges are wide;
// the turns this person just ran say what turns here do. A turn's shape is its rounds, its
// output per round (reasoning included) and the tool results each round added, read from its
// ledger lines (every request of a turn, in order). Its subagents' lines are kept apart, as the
// turn's `runs`: each run's tokens and the model it ran on, so a turn that delegates again is
// priced from what the earlier runs cost (turn.ts, delegation.ts). `shapesOf` gives the
// latest turns, newest last.
//
// With enough shapes the estimate prices each of them on the turn about to run (its known
// context, at each tier) and takes the cheapest and the dearest, widened by SHAPE_MARGIN: the
// next turn falls inside when it looks like one of the recent ones, and the high end stays a
// small multiple of what such a turn costs.

import type { LedgerRecord } from "../cost/ledger.js";

/** One subagent run a turn started: what all its requests added up to, and where it ran. */
export interface RunShape {
  /** The model its requests went to, and the tier its lines carry (the caller's for an agent
   *  that inherits, else its own, e.g. chat-fast for explore). */
  model: string;
  tier?: string;
  /** The agent type it ran as (explore, general-purpose, a file's name). */
  agent?: string;
  rounds: number;
  hit: number;
  miss: number;
  output: number;
  /** Its first request's cache misses (the agent's prefix, when no earlier run left it cached). */
  firstMiss: number;
}

export interface TurnShape {
  /** The tier the turn ran at (its output per round belongs to that tier's model). */
  tier?: string;
  taskClass?: string;
  rounds: number;
  outputPerRound: number;
  toolPerRound: number;
  /** The subagent runs the turn started, when it started any. */
  runs?: RunShape[];
  /** Its prompt asked for delegation (its estimate counted at least one run in the low case). */
  asked?: true;
}

/** Fewer shapes than this: the tables' ranges. */
export const MIN_SHAPES = 3;
/** The most recent turns a range is drawn from. */
export const MAX_SHAPES = 12;
/** The range of the shapes' costs, widened: low × [0], high × [1]. */
export const SHAPE_MARGIN: readonly [number, number] = [0.8, 1.25];
/** With one or two shapes of the prompt's own task class (fewer than MIN_SHAPES), the range is
 *  drawn from them widened more: less evidence, a wider range that still guides. */
export const FEW_SHAPES_MARGIN: readonly [number, number] = [0.5, 2];

/** The shapes of the turns in `records` (the ledger's lines), oldest first; `keep` picks the
 *  lines that count (a session, a project). Lines of subagents are left out. */
export function shapesOf(records: readonly LedgerRecord[], keep: (r: LedgerRecord) => boolean): TurnShape[] {
  const turns = new Map<string, LedgerRecord[]>();
  const runs = new Map<string, Map<string, RunShape>>();
  for (const r of records) {
    if (!keep(r)) continue;
    const k = `${r.session}\u0000${r.turn}`;
    if (r.agent !== undefined) {
      const byRun = runs.get(k) ?? new Map<string, RunShape>();
      runs.set(k, byRun);
      const id = r.agentSession ?? r.agent;
      const run = byRun.get(id) ?? { model: r.model, ...(r.tier ? { tier: r.tier } : {}), agent: r.agent, rounds: 0, hit: 0, miss: 0, output: 0, firstMiss: r.miss };
      byRun.set(id, run);
      run.rounds += 1;
      run.hit += r.hit;
      run.miss += r.miss;
      run.output += r.completion;
      continue;
    }
    const list = turns.get(k);
    if (list) list.push(r);
    else turns.set(k, [r]);
  }
  const out: Array<TurnShape & { at: string }> = [];
  for (const [k, lines] of turns) {
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
      ...(runs.has(k) ? { runs: [...runs.get(k)!.values()] } : {}),
      ...(askedFor(first) ? { asked: true as const } : {}),
    });
  }
  out.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return out.map(({ at: _at, ...s }) => s);
}

function askedFor(r: LedgerRecord): boolean {
  const s: unknown = r.estimate?.subagents;
  return Array.isArray(s) && typeof s[0] === "number" && s[0] >= 1;
}

/** The shapes an estimate of a `taskClass` turn draws on: the latest of that class when there
 *  are enough, else the latest of any class (turns that started no subagents first); and with them the latest turns of any class that
 *  started subagents (a delegating turn is priced from those: delegation.ts), oldest first. */
export function pickShapes(shapes: readonly TurnShape[], taskClass: string): TurnShape[] {
  // Turns without subagents first (a delegating turn's own lines are a Task call and an answer).
  const plain = shapes.filter((s) => (s.runs?.length ?? 0) === 0);
  const same = plain.filter((s) => s.taskClass === taskClass);
  const from = (same.length >= MIN_SHAPES ? same : plain.length >= MIN_SHAPES ? plain : shapes).slice(-MAX_SHAPES);
  const delegating = shapes.filter((s) => (s.runs?.length ?? 0) > 0 && !from.includes(s)).slice(-MAX_SHAPES);
  return shapes.filter((s) => from.includes(s) || delegating.includes(s));
}
