// The pre-turn estimate: for each tier, a low–high cost range for the turn about to run, the
// token figures behind it, and the tier deepcode recommends.
//
// The model of a turn's cost. Known exactly before the turn:
//   P  the previous request's prompt_tokens (usage), R its reply as it stays in the log,
//   D  the new input (the prompt with its @-mention contents), estimated from characters;
//   C₁ = P + R + D is the first request's context, and K₁ = floor64(P + R) of it is cached
//   (request N+1 = request N + reply N + new tail; the cache persists 64-token units).
// Predicted per task class and tier (src/core/cost/tiers.ts), as a low and a high case:
//   n  model rounds (1 without tools; with tools, work units × 2–3),
//   O  output tokens per round (reasoning included), T tool-result tokens per round.
// Round k bills Kₖ hit + (Cₖ − Kₖ) miss + O output; the next round re-sends everything:
//   Cₖ₊₁ = Cₖ + O + T, of which Kₖ₊₁ = floor64(Cₖ + O) is cached.
// So a long turn costs mostly its outputs and the new tool results; the context it re-sends
// each round is billed at the hit price. Prices are those in force at `now` (peak or not).
//
// A turn that delegates to subagents costs their runs on top: how many, and what each costs —
// priced from the runs earlier turns started, else from the tables — is delegation.ts's.
// `delegation.runs` says how many runs the prompt suggests (low, high); see delegationOf.
//
// Recent turns, when there are enough (shapes.ts): a tier the recent turns ran at is priced by
// their shapes instead of the tables — each shape simulated on this turn's known context, the
// cheapest and the dearest widened by SHAPE_MARGIN — so the range is what turns here cost.

import type { CostEstimate } from "../../contract/events.js";
import type { Usage } from "../../contract/wire.js";
import { classifyTask, type TaskClass } from "./classify.js";
import { priceFor } from "../cost/prices.js";
import { estimateTokens, floorToCacheUnit } from "../tokens.js";
import {
  AGENTIC_ROUNDS_PER_UNIT,
  type Span,
  OUTPUT_PER_ROUND,
  TIER_FOR_CLASS,
  TIER_NAMES,
  TOOL_RESULT_PER_ROUND,
  WORK_UNITS,
  type TierName,
  type TierProfiles,
} from "../cost/tiers.js";
import type { PriceTable } from "../cost/types.js";
import { FEW_SHAPES_MARGIN, MIN_SHAPES, SHAPE_MARGIN, type TurnShape } from "./shapes.js";
import { bill, planDelegation, plus, runsCost, scale, type RunEvidence, type TurnTokens } from "./delegation.js";
import { asksForLargeOutput, withLargeResult } from "./large-output.js";

export { delegationOf, type TurnTokens } from "./delegation.js";

/** The main agent's rounds in a turn asked to delegate, before any earlier one says more: the
 *  Task calls, then the answer (low); a look of its own or a second batch besides (high). */
export const DELEGATING_ROUNDS: Span = [2, 3];
/** A subagent's report (its final message), entering the caller's log as the Task result. */
export const REPORT_TOKENS: Span = [150, 1000];

export interface EstimateInputs {
  /** The prompt as typed. */
  prompt: string;
  /** Contents the prompt's @-mentions expand to; new input like the prompt itself. */
  attachments?: string[];
  /** The previous request's usage; absent on a session's first turn. */
  lastUsage?: Usage;
  /** Tokens of the previous reply as it stays in the log. Default: all of completion_tokens
   *  when tools are on (DeepSeek wants reasoning back then), else completion − reasoning. */
  lastReplyTokens?: number;
  /** First turn only: the immutable prefix (system prompt, tools) and whether an earlier
   *  session left it in the cache. */
  prefixTokens?: number;
  prefixCached?: boolean;
  /** Skip the classifier (e.g. the user said what kind of task it is). */
  taskClass?: TaskClass;
  /** Actual ÷ estimated tokens, learned from earlier usage; default 1. */
  tokenRatio?: number;
  /** Tools are on, so the turn loops (default true: deepcode is an agent). */
  agentic?: boolean;
  /** A budget at ≥ 80% (or spent) makes the recommendation chat-fast. */
  budget?: "ok" | "downgrade" | "exhausted";
  /** Subagent runs the turn is expected to start (low, high), and a subagent's prefix size. */
  delegation?: { runs: Span; prefixTokens: number };
  /** Recent turns' shapes (pickShapes): the tier they ran at is priced from them. */
  shapes?: readonly TurnShape[];
  /** The project's earlier subagent runs, across its sessions (a turn's runs are priced from
   *  them; without it, from the runs of `shapes`). */
  runs?: readonly RunEvidence[];
  /** Tokens of one tool result at its bound: allowed for in the high case when the prompt asks
   *  for output that can be large (large-output.ts). Absent: not allowed for. */
  largeResultTokens?: number;
}

export type TierEstimate =
  | {
      tier: TierName;
      model: string;
      family: string;
      peak: boolean;
      lowUsd: number;
      highUsd: number;
      lowCny: number;
      highCny: number;
      low: TurnTokens;
      high: TurnTokens;
      error?: undefined;
    }
  | { tier: TierName; model: string; error: string };

export interface TurnEstimate {
  taskClass: TaskClass;
  agentic: boolean;
  /** The exact part: first request's context, the cached part of it, the new input. */
  known: { contextTokens: number; cachedTokens: number; newTokens: number };
  tiers: TierEstimate[];
  recommended: TierName;
  /** Why that tier, in words for the chooser line. */
  reason: string;
  /** Subagent runs counted in the ranges (low, high), when the turn is expected to delegate. */
  subagents?: Span;
  /** The high ends allow for one tool result of this many tokens (the prompt asks for output
   *  that can be large): the estimate line says so. */
  largeOutput?: number;
}

/** The exact inputs of the first request of the turn. */
export function knownInputs(inputs: EstimateInputs): TurnEstimate["known"] {
  const ratio = inputs.tokenRatio ?? 1;
  const newTokens = [inputs.prompt, ...(inputs.attachments ?? [])].reduce((n, t) => n + estimateTokens(t, ratio), 0);
  const agentic = inputs.agentic ?? true;
  if (inputs.lastUsage) {
    const u = inputs.lastUsage;
    const reply = inputs.lastReplyTokens ?? (agentic ? u.completion_tokens : u.completion_tokens - u.reasoning_tokens);
    const before = u.prompt_tokens + Math.max(0, reply);
    return { contextTokens: before + newTokens, cachedTokens: floorToCacheUnit(before), newTokens };
  }
  const prefix = Math.max(0, inputs.prefixTokens ?? 0);
  return {
    contextTokens: prefix + newTokens,
    cachedTokens: inputs.prefixCached ? floorToCacheUnit(prefix) : 0,
    newTokens,
  };
}

function simulate(known: TurnEstimate["known"], rounds: number, out: number, tool: number): TurnTokens {
  let context = known.contextTokens;
  let cached = Math.min(known.cachedTokens, context);
  const t: TurnTokens = { rounds, hit: 0, miss: 0, output: 0 };
  for (let k = 0; k < rounds; k++) {
    t.hit += cached;
    t.miss += context - cached;
    t.output += out;
    cached = floorToCacheUnit(context + out);
    context += out + tool;
  }
  return t;
}

/** The tier for a task class, or chat-fast when a budget is tight. */
export function recommendTier(taskClass: TaskClass, budget: EstimateInputs["budget"] = "ok"): { tier: TierName; reason: string } {
  if (budget !== "ok") {
    return { tier: "chat-fast", reason: budget === "exhausted" ? "budget spent" : "budget at 80%: downgraded" };
  }
  return { tier: TIER_FOR_CLASS[taskClass], reason: taskClass };
}

export function estimateTurn(inputs: EstimateInputs, tiers: TierProfiles, table: PriceTable, now: Date): TurnEstimate {
  const taskClass = inputs.taskClass ?? classifyTask(inputs.prompt);
  const agentic = inputs.agentic ?? true;
  const known = knownInputs(inputs);
  const units = WORK_UNITS[taskClass];
  // A question can be answered from what is already in context: at best one round, no tools.
  const lowRounds = taskClass === "question" ? 1 : units[0] * AGENTIC_ROUNDS_PER_UNIT[0];
  const rounds = agentic ? [lowRounds, units[1] * AGENTIC_ROUNDS_PER_UNIT[1]] : [1, 1];
  const tool = agentic ? TOOL_RESULT_PER_ROUND[taskClass] : ([0, 0] as const);

  const plan = planDelegation(inputs.delegation?.runs, inputs.shapes ?? [], { prompt: inputs.prompt, ...(inputs.runs ? { runs: inputs.runs } : {}) });
  // Asked to delegate, with no earlier delegating turn to draw the main part from: the main
  // agent's part is its Task calls and an answer from their reports (DELEGATING_ROUNDS).
  const firstDelegation = agentic && plan.runs[0] >= 1 && !plan.delegating;
  const prefixTokens = inputs.delegation?.prefixTokens ?? 0;
  const large = agentic && inputs.largeResultTokens && asksForLargeOutput(inputs.prompt) ? inputs.largeResultTokens : 0;

  const estimates = TIER_NAMES.map((tier): TierEstimate => {
    const profile = tiers[tier];
    const price = priceFor(profile.model, now, table);
    if (!price.ok) return { tier, model: profile.model, error: price.message };
    const [outLow, outHigh] = OUTPUT_PER_ROUND[taskClass][tier].map((o) => Math.min(o, profile.maxTokens));
    let low = simulate(known, rounds[0], outLow, tool[0]);
    let high = simulate(known, rounds[1], outHigh, tool[1]);
    // Enough shapes of this tier: drawn from them. One or two: drawn from those of the prompt's
    // own class (any class, for earlier delegating turns), widened more (a greeting's shape
    // says nothing of a refactor's).
    const ofTier = plan.shapes.filter((s) => s.tier === tier);
    const few = ofTier.length < MIN_SHAPES;
    let seen = few && !plan.delegating ? ofTier.filter((s) => s.taskClass === taskClass) : ofTier;
    // None at this tier (a planner's, a tier picked for one turn): the turns here at other tiers
    // say how many rounds and what tool results a task takes, priced at this tier, widened as few.
    // As at a tier of their own: those of the prompt's class; any class only for a tier with
    // none of its own, once there are enough.
    const borrowed = seen.length === 0 && !plan.delegating;
    if (borrowed) {
      const plain = plan.shapes.filter((s) => (s.runs?.length ?? 0) === 0);
      const same = plain.filter((s) => s.taskClass === taskClass);
      seen = same.length > 0 ? same : ofTier.length === 0 && plain.length >= MIN_SHAPES ? plain : [];
    }
    if (firstDelegation) {
      // Output per round: what the turns here did at this tier (least and most), else the tables.
      const outs = plan.shapes.filter((s) => s.tier === tier && (s.runs?.length ?? 0) === 0).map((s) => Math.min(s.outputPerRound, profile.maxTokens));
      const [o0, o1] = outs.length > 0 ? [Math.min(...outs) * SHAPE_MARGIN[0], Math.max(...outs) * SHAPE_MARGIN[1]] : [outLow, outHigh];
      low = simulate(known, DELEGATING_ROUNDS[0], o0, REPORT_TOKENS[0] * plan.runs[0]);
      high = simulate(known, DELEGATING_ROUNDS[1], o1, REPORT_TOKENS[1] * plan.runs[1]);
    } else if (agentic && seen.length > 0) {
      const runs = seen.map((s) => simulate(known, Math.max(1, s.rounds), Math.min(s.outputPerRound, profile.maxTokens), s.toolPerRound));
      const cost = (t: TurnTokens): number => bill(t, price.usd);
      const cheapest = runs.reduce((a, b) => (cost(b) < cost(a) ? b : a));
      const dearest = runs.reduce((a, b) => (cost(b) > cost(a) ? b : a));
      const [m0, m1] = few || borrowed ? FEW_SHAPES_MARGIN : SHAPE_MARGIN;
      low = scale(cheapest, m0);
      high = scale(dearest, m1);
    }
    if (large) high = withLargeResult(high, large);
    const subLow = runsCost(plan, 0, tier, tiers, table, now, prefixTokens);
    const subHigh = runsCost(plan, 1, tier, tiers, table, now, prefixTokens);
    if (!subLow || !subHigh) return { tier, model: profile.model, error: `no price for a subagent's model at ${now.toISOString()}` };
    return {
      tier,
      model: profile.model,
      family: price.family,
      peak: price.peak,
      lowUsd: bill(low, price.usd) + subLow.usd,
      highUsd: bill(high, price.usd) + subHigh.usd,
      lowCny: bill(low, price.cny) + subLow.cny,
      highCny: bill(high, price.cny) + subHigh.cny,
      low: plus(low, subLow.tokens),
      high: plus(high, subHigh.tokens),
    };
  });
  const { tier, reason } = recommendTier(taskClass, inputs.budget);
  return {
    taskClass, agentic, known, tiers: estimates, recommended: tier, reason,
    ...(plan.runs[1] > 0 ? { subagents: plan.runs } : {}), ...(large > 0 ? { largeOutput: large } : {}),
  };
}

/** The estimate as the `cost.estimate` event's result (priced tiers only). */
export function toCostEstimates(e: TurnEstimate): CostEstimate[] {
  return e.tiers.flatMap((t) =>
    t.error === undefined
      ? [{ tier: t.tier, model: t.model, lowUsd: t.lowUsd, highUsd: t.highUsd, taskClass: e.taskClass }]
      : [],
  );
}
