// What a turn's subagents add to its estimate (turn.ts).
//
// How many runs. Before the turn only the prompt and the session's earlier turns are known:
// - a prompt that names a number ("use two subagents", "3 agents", "a subagent") starts that
//   many; one that asks for delegation without a number starts one to three, or, once earlier
//   turns here delegated, as few to as many as they started;
// - a prompt that does not ask starts none once three recent turns here started none (it is
//   priced like them), else up to as many as the busiest earlier turn (delegationOf).
// What a run costs. Once the project's earlier turns started runs (their ledger lines, shapes.ts
// `runs`, from any session of the project; only those of the agent types the prompt names, when
// it names one with earlier runs: `typesNamed`), each run is priced from them — every run the
// cheapest (low); one the dearest and the others the median run (high) — at today's prices for
// the model it ran on (a run at the caller's tier moves with the tier being priced), its agent's
// prefix cached (only the first run of a type reads it whole; `warm`), widened by SHAPE_MARGIN.
// Before any: a prior (`priorRuns`): a fresh context of the caller's prefix size, two or three
// rounds at what this model wrote per round in the turns here.
// The main agent's part of a delegating turn is priced from earlier delegating turns' own
// lines (their rounds: a Task call, the answer) — those whose prompt asked, when there are any
// (the ledger's estimate says so: LedgerEstimate.subagents) — else from all; before any
// delegating turn, a Task round and the answer (turn.ts DELEGATING_ROUNDS).

import { priceFor } from "../cost/prices.js";
import { floorToCacheUnit } from "../tokens.js";
import { OUTPUT_PER_ROUND, TIER_NAMES, TOOL_RESULT_PER_ROUND, type Span, type TierName, type TierProfiles } from "../cost/tiers.js";
import { MIN_SHAPES, SHAPE_MARGIN, type RunShape, type TurnShape } from "./shapes.js";
import type { PriceTable, Rates } from "../cost/types.js";

/** Tokens of a case (low or high) of a range, and how many model rounds they take. */
export interface TurnTokens {
  rounds: number;
  hit: number;
  miss: number;
  output: number;
}

export const NO_TOKENS: TurnTokens = Object.freeze({ rounds: 0, hit: 0, miss: 0, output: 0 });

export function plus(a: TurnTokens, b: TurnTokens): TurnTokens {
  return { rounds: a.rounds + b.rounds, hit: a.hit + b.hit, miss: a.miss + b.miss, output: a.output + b.output };
}

/** A case's tokens times `k` (rounds stay: a margin, not more requests). */
export function scale(t: TurnTokens, k: number): TurnTokens {
  return { rounds: t.rounds, hit: t.hit * k, miss: t.miss * k, output: t.output * k };
}

export function bill(t: TurnTokens, r: Rates): number {
  return (t.hit * r.hit + t.miss * r.miss + t.output * r.output) / 1_000_000;
}

const ASKS = /\b(sub-?agents?|delegat\w*|in parallel|parallel tasks?|Task tool)\b|子代理|并行/i;
const NUMBERS: Record<string, number> = { a: 1, an: 1, one: 1, single: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };
const NAMED = /\b(a|an|one|single|two|three|four|five|six|\d{1,2})\s+(?:(?:parallel|separate|explore|exploring|general[- ]purpose|independent)\s+)?(?:sub-?agents?|agents?|Task calls?|tasks?)\b/i;

/** The number of subagents a prompt names ("use two subagents", "3 explore agents", "a
 *  subagent"), when it asks for delegation and names one; else undefined. */
export function runsNamed(prompt: string): number | undefined {
  if (!ASKS.test(prompt)) return undefined;
  const m = NAMED.exec(prompt);
  if (!m) return undefined;
  const w = m[1].toLowerCase();
  const n = /^\d+$/.test(w) ? Number(w) : NUMBERS[w];
  return n !== undefined && n >= 1 && n <= 10 ? n : undefined;
}

/** How many subagent runs a turn may start (low, high), from what is known before it runs: none
 *  without the Task tool; the number the prompt names; one to three when the prompt asks for
 *  delegation (subagents, delegate, in parallel, the Task tool); up to two when it only speaks
 *  of an agent; otherwise up to as many as the busiest earlier turn of the session started (a
 *  session that delegated may again), else none. `planDelegation` narrows it from earlier turns. */
export function delegationOf(prompt: string, o: { hasTask: boolean; earlierMostRuns?: number }): Span {
  if (!o.hasTask) return [0, 0];
  const named = runsNamed(prompt);
  if (named !== undefined) return [named, named];
  if (ASKS.test(prompt)) return [1, 3];
  if (/\bagents?\b(?!\.md)/i.test(prompt)) return [0, 2];
  const earlier = Math.ceil(o.earlierMostRuns ?? 0);
  return earlier > 0 ? [0, Math.min(earlier, 4)] : [0, 0];
}

/** What the estimate of one turn does about subagents. */
export interface DelegationPlan {
  runs: Span;
  /** Earlier runs to price each run from (empty: the tables); `inherits`: it ran at the tier
   *  of the turn that started it, so it would run at the tier being priced. */
  evidence: Array<RunShape & { inherits: boolean }>;
  /** The shapes the main agent's part is drawn from; `delegating`: they are earlier delegating
   *  turns, alike whatever their task class (a Task call, then an answer from the results). */
  shapes: readonly TurnShape[];
  delegating?: true;
  /** The turns that started none: what the model does per round here (a first run's prior). */
  plain?: readonly TurnShape[];
}

const started = (s: TurnShape): number => s.runs?.length ?? 0;

/** The agent types among `types` that the prompt names as agents ("an explore agent", "two
 *  general-purpose subagents", "subagent_type explore"): a run of such a turn is priced from
 *  earlier runs of those types only. */
export function typesNamed(prompt: string, types: Iterable<string>): string[] {
  const out: string[] = [];
  for (const t of new Set(types)) {
    const name = t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/[- ]/g, "[- ]");
    const re = new RegExp(`\\b${name}(?:[- ](?:sub-?)?agents?\\b|\\s+type\\b)|subagent_type\\W{0,3}${name}\\b`, "i");
    if (re.test(prompt)) out.push(t);
  }
  return out;
}

/** Earlier runs, with whether each ran at the tier of the turn that started it. */
export type RunEvidence = RunShape & { inherits: boolean };

/** The runs `shapes` started, each marked whether it inherited its turn's tier. */
export function runsEvidence(shapes: readonly TurnShape[]): RunEvidence[] {
  return shapes.filter((s) => started(s) > 0).flatMap((s) => (s.runs ?? []).map((r) => ({ ...r, inherits: r.tier !== undefined && r.tier === s.tier })));
}

/** Narrows the expected runs (`runs`, from delegationOf) and picks the evidence, from the recent
 *  turns' shapes. `o.runs`: the project's earlier runs, across its sessions (the evidence when
 *  given; else the runs of `shapes`); `o.prompt`: a prompt that names agent types with earlier
 *  runs is priced from runs of those types only. */
export function planDelegation(runs: Span | undefined, shapes: readonly TurnShape[], o: { prompt?: string; runs?: readonly RunEvidence[] } = {}): DelegationPlan {
  const delegating = shapes.filter((s) => started(s) > 0);
  const plain = shapes.filter((s) => started(s) === 0);
  let earlier = o.runs ?? runsEvidence(shapes);
  const named = o.prompt === undefined ? [] : typesNamed(o.prompt, earlier.flatMap((r) => (r.agent ? [r.agent] : [])));
  if (named.length > 0) earlier = earlier.filter((r) => r.agent !== undefined && named.includes(r.agent));
  const evidence = warm([...earlier]);
  const mostly = plain.length > 0 ? plain : shapes;
  if (!runs || runs[1] <= 0) return { runs: [0, 0], evidence, shapes: mostly, plain };
  if (runs[0] >= 1) {
    // Asked for: the number named; else what enough earlier delegating turns started, never
    // fewer than one nor a narrower top than three before there are enough. The main part is
    // drawn from earlier turns that were asked too, when there are any (a turn that delegated
    // on its own did its own work besides).
    const asked = delegating.filter((s) => s.asked);
    const like = asked.length > 0 ? asked : delegating;
    const counts = like.map(started);
    const span: Span = runs[0] === runs[1] ? runs : counts.length >= MIN_SHAPES ? [Math.min(...counts), Math.max(...counts)] : [runs[0], Math.max(runs[1], ...counts)];
    return { runs: span, evidence, plain, ...(like.length > 0 ? { shapes: like, delegating: true as const } : { shapes }) };
  }
  // Not asked, though earlier turns delegated: priced like the recent turns that started none,
  // when there are enough of them (a model that delegates unasked shows as a turn above it).
  if (plain.length >= MIN_SHAPES) return { runs: [0, 0], evidence, shapes: plain, plain };
  return { runs, evidence, shapes, plain };
}

/** The runs as they cost once their agent's prefix is cached: a run whose first request missed
 *  more than the least any run on its model did (the first run of its type) is priced as if it
 *  had missed only that much — the prefix stays cached for the runs after it. */
function warm<T extends RunShape>(runs: T[]): T[] {
  const least = new Map<string, number>();
  for (const r of runs) least.set(r.model, Math.min(least.get(r.model) ?? Infinity, r.firstMiss));
  return runs.map((r) => {
    const extra = Math.max(0, Math.min(r.miss, r.firstMiss - (least.get(r.model) ?? r.firstMiss)));
    return extra > 0 ? { ...r, miss: r.miss - extra, hit: r.hit + extra, firstMiss: r.firstMiss - extra } : r;
  });
}

/** A case's subagent part: tokens (for the rounds shown) and money, priced per run. */
export interface RunsCost {
  tokens: TurnTokens;
  usd: number;
  cny: number;
}

/** A subagent's task prompt, in tokens (what the calling model writes into a Task call). */
const TASK_PROMPT_TOKENS = 300;

/** What the plan's runs add in one case (0 low, 1 high) at `tier`. From evidence: each run the
 *  cheapest earlier run (low), or one the dearest and the rest the median (high), priced for the
 *  model it ran on now, widened by SHAPE_MARGIN. From the tables: fresh contexts of `prefixTokens` that loop like routine turns
 *  at this tier. Undefined when a price is missing (the caller then leaves runs out). */
export function runsCost(plan: DelegationPlan, k: 0 | 1, tier: TierName, tiers: TierProfiles, table: PriceTable, now: Date, prefixTokens: number): RunsCost | undefined {
  const n = plan.runs[k];
  if (n <= 0) return { tokens: NO_TOKENS, usd: 0, cny: 0 };
  if (plan.evidence.length > 0) {
    const priced = plan.evidence.map((r) => {
      // A run at the caller's tier (an agent that inherits) would run at the tier being priced.
      const model = r.inherits ? tiers[tier].model : r.model;
      const p = priceFor(model, now, table);
      return p.ok ? { r, usd: bill(r, p.usd), cny: bill(r, p.cny) } : undefined;
    });
    if (priced.some((x) => x === undefined)) return undefined;
    const ok = (priced as Array<{ r: RunShape; usd: number; cny: number }>).sort((a, b) => a.usd - b.usd);
    // Low: every run the cheapest. High: one run the dearest, the others the median run (the
    // runs of one turn are mostly of one kind; at most one is expected to be the dear kind).
    const runs = k === 0 ? Array.from({ length: n }, () => ok[0]) : [ok[ok.length - 1], ...Array.from({ length: n - 1 }, () => ok[Math.floor(ok.length / 2)])];
    const m = SHAPE_MARGIN[k];
    const sum = runs.reduce((a, x) => ({ tokens: plus(a.tokens, { ...scale(x.r, m), rounds: x.r.rounds }), usd: a.usd + x.usd * m, cny: a.cny + x.cny * m }), { tokens: NO_TOKENS, usd: 0, cny: 0 });
    return sum;
  }
  return priorRuns(n, k, tier, tiers, table, now, prefixTokens, plan.plain ?? []);
}

/** A first run's model rounds, before any earlier run says more: a search or a command and its
 *  report (low); a search, a read of what it found and the report (high). */
export const RUN_ROUNDS: Span = [2, 3];

/** `n` runs before any earlier run to learn from (a project's first delegating turn). Each is a
 *  fresh context of the caller's prefix size (a subagent has at most the caller's tools) plus its
 *  task. Whether its prefix is cached is not known, as on a session's first turn: the low case
 *  assumes it is (an earlier run left it) and runs on the cheapest tier (where a read-only type
 *  like explore runs); the high case that every run reads it whole (parallel runs start
 *  together), at the tier being priced (a type that inherits it). Output and tool results per
 *  round are what this model did per round in the turns here at that tier (their least and
 *  most, widened by SHAPE_MARGIN), else the routine class's tables. */
function priorRuns(n: number, k: 0 | 1, tier: TierName, tiers: TierProfiles, table: PriceTable, now: Date, prefixTokens: number, plain: readonly TurnShape[]): RunsCost | undefined {
  const runTier: TierName = k === 0 ? cheapestTier(tiers, table, now) ?? tier : tier;
  const profile = tiers[runTier];
  const p = priceFor(profile.model, now, table);
  if (!p.ok) return undefined;
  const seen = plain.filter((s) => s.tier === runTier && s.rounds > 1);
  const pick = (xs: number[]): number => (k === 0 ? Math.min(...xs) : Math.max(...xs)) * SHAPE_MARGIN[k];
  const out = Math.min(profile.maxTokens, seen.length > 0 ? pick(seen.map((s) => s.outputPerRound)) : OUTPUT_PER_ROUND.routine[runTier][k]);
  const tool = seen.length > 0 ? pick(seen.map((s) => s.toolPerRound)) : TOOL_RESULT_PER_ROUND.routine[k];
  let total = NO_TOKENS;
  for (let i = 0; i < n; i++) {
    let context = prefixTokens + TASK_PROMPT_TOKENS;
    let cached = k === 0 ? floorToCacheUnit(prefixTokens) : 0;
    for (let j = 0; j < RUN_ROUNDS[k]; j++) {
      total = plus(total, { rounds: 1, hit: cached, miss: context - cached, output: out });
      cached = floorToCacheUnit(context + out);
      context += out + tool;
    }
  }
  return { tokens: total, usd: bill(total, p.usd), cny: bill(total, p.cny) };
}

/** The tier whose model costs least per output token now (undefined when none is priced). */
function cheapestTier(tiers: TierProfiles, table: PriceTable, now: Date): TierName | undefined {
  let best: { tier: TierName; rate: number } | undefined;
  for (const tier of TIER_NAMES) {
    const p = priceFor(tiers[tier].model, now, table);
    if (p.ok && (!best || p.usd.output < best.rate || (p.usd.output === best.rate && !tiers[tier].thinking))) best = { tier, rate: p.usd.output };
  }
  return best?.tier;
}
