// The pre-turn estimate for a running session: the core's estimateTurn fed with what the
// engine knows exactly, and the `cost.estimate` result (which plugins may rewrite) folded back.
//
// Known inputs. After a response: the context is the last request's prompt_tokens plus its
// completion_tokens (the reply stays in the log; reasoning included, since tools are on) plus
// the new input, and the cached part is that sum without the new input, floored to the 64-token
// unit (DeepSeek persists each request's input and output). Before any response in this
// process (a new or resumed session), or when the context shrank since (compaction, reload),
// the context is the ledger's next-request size, and whether it is cached is not known: the low
// end of each range assumes it is (an earlier session left the same prefix), the high end that
// it is not.
//
// A tier that would switch the cache off pays for it in its first request: another model
// family finds only what its own earlier requests left (the cache is per model: nothing, or
// its last request and reply when plan mode's planner went between), and a switch of thinking on or off
// re-reads the log from the first reply that carries reasoning. Those tiers' ranges move by
// the lost hits, billed at miss price instead of hit price.

import type { ChatMessage, CostEstimate, Usage } from "../../contract/index.js";
import {
  delegationOf, estimateTokens, estimateTurn, familyOf, floorToCacheUnit, priceFor,
  type EstimateInputs, type PriceTable, type RunEvidence, type TierEstimate, type TierProfiles, type TurnEstimate, type TurnShape,
} from "../cost/index.js";
import type { Ledger } from "../context/context.js";

export interface EstimateSource {
  prompt: string;
  attachments?: string[];
  /** The engine's ledger now (before the turn). */
  ledger?: Ledger;
  /** The log now, to find where a thinking switch would start missing. */
  messages?: readonly ChatMessage[];
  /** The last request in this session, as this process saw it: usage, model, thinking. */
  last?: { usage: Usage; model: string; thinking: boolean };
  /** What each model family's cache holds of this session (its last request + reply), when it
   *  sent any: a tier of another family than the last request's finds that much cached. */
  cachedBy?: Readonly<Record<string, number>>;
  budget: EstimateInputs["budget"];
  /** The session has the Task tool: the turn may start subagents (delegationOf). */
  hasTask?: boolean;
  /** Recent turns' shapes (core shapes.ts), already picked for this prompt's class. */
  shapes?: readonly TurnShape[];
  /** The project's latest subagent runs, across its sessions (core delegation.ts). */
  runs?: readonly RunEvidence[];
  /** The class the turn counts as (a plan's, memory.ts), instead of the prompt's own. */
  taskClass?: EstimateInputs["taskClass"];
  /** No request of this process yet, but an earlier one's is recent (memory.ts): the log is
   *  taken as cached in both ends. */
  warm?: boolean;
  /** Tokens of one tool result at its bound (core large-output.ts). */
  largeResultTokens?: number;
}

export function computeEstimate(src: EstimateSource, tiers: TierProfiles, table: PriceTable, now: Date): TurnEstimate {
  const runs = delegationOf(src.prompt, { hasTask: src.hasTask === true, earlierMostRuns: mostTaskCalls(src.messages ?? []) });
  const delegation = runs[1] > 0 ? { runs, prefixTokens: (src.ledger?.zones.system ?? 0) + (src.ledger?.zones.tools ?? 0) } : undefined;
  const base: EstimateInputs = { prompt: src.prompt, attachments: src.attachments, budget: src.budget, agentic: true, ...(delegation ? { delegation } : {}), ...(src.shapes ? { shapes: src.shapes } : {}), ...(src.runs ? { runs: src.runs } : {}),
    ...(src.taskClass ? { taskClass: src.taskClass } : {}), ...(src.largeResultTokens ? { largeResultTokens: src.largeResultTokens } : {}) };
  const l = src.ledger;
  const last = src.last;
  if (last && l && l.lastPromptTokens === last.usage.prompt_tokens && l.nextPromptTokens >= last.usage.prompt_tokens) {
    const e = estimateTurn({ ...base, lastUsage: last.usage, lastReplyTokens: last.usage.completion_tokens }, tiers, table, now);
    const keptOnSwitch = floorToCacheUnit(l.zones.system + l.zones.tools + tokensBeforeReasoning(src.messages ?? []));
    return {
      ...e,
      tiers: e.tiers.map((t) => {
        if (t.error !== undefined) return t;
        const p = tiers[t.tier];
        const family = familyOf(p.model, table) ?? p.model;
        const kept = family !== (familyOf(last.model, table) ?? last.model)
          ? Math.min(src.cachedBy?.[family] ?? 0, e.known.cachedTokens)
          : p.thinking !== last.thinking && hasReasoning(src.messages ?? [])
            ? Math.min(keptOnSwitch, e.known.cachedTokens)
            : e.known.cachedTokens;
        return missFirstRound(t, e.known.cachedTokens - kept, table, now);
      }),
    };
  }
  const prefixTokens = l?.nextPromptTokens ?? 0;
  const cold = estimateTurn({ ...base, prefixTokens, prefixCached: false }, tiers, table, now);
  const warm = estimateTurn({ ...base, prefixTokens, prefixCached: true }, tiers, table, now);
  if (src.warm) return warm;
  return {
    ...cold,
    tiers: cold.tiers.map((t, i) => {
      const w = warm.tiers[i];
      if (t.error !== undefined || w.error !== undefined) return t;
      return { ...t, lowUsd: w.lowUsd, lowCny: w.lowCny, low: w.low };
    }),
  };
}

/** The most Task calls any earlier turn of the log made (a turn starts at a person's prompt). */
function mostTaskCalls(messages: readonly ChatMessage[]): number {
  let most = 0;
  let now = 0;
  for (const m of messages) {
    if (m.role === "user" && !m.content.startsWith("[deepcode]")) now = 0;
    else if (m.role === "assistant") now += (m.tool_calls ?? []).filter((c) => c.function.name === "Task").length;
    most = Math.max(most, now);
  }
  return most;
}

function hasReasoning(messages: readonly ChatMessage[]): boolean {
  return messages.some((m) => m.role === "assistant" && !!m.reasoning_content);
}

/** Estimated tokens of the log before its first reply with reasoning (all of it when none). */
function tokensBeforeReasoning(messages: readonly ChatMessage[]): number {
  let n = 0;
  for (const m of messages) {
    if (m.role === "assistant" && m.reasoning_content) break;
    n += estimateTokens(JSON.stringify(m));
  }
  return n;
}

/** Moves `lost` tokens of the first request from hit to miss, in both ends of the range. */
function missFirstRound(t: Extract<TierEstimate, { error?: undefined }>, lost: number, table: PriceTable, now: Date): TierEstimate {
  if (lost <= 0) return t;
  const price = priceFor(t.model, now, table);
  if (!price.ok) return t;
  const usd = (lost * (price.usd.miss - price.usd.hit)) / 1_000_000;
  const cny = (lost * (price.cny.miss - price.cny.hit)) / 1_000_000;
  const move = (x: typeof t.low): typeof t.low => ({ ...x, hit: x.hit - lost, miss: x.miss + lost });
  return { ...t, lowUsd: t.lowUsd + usd, highUsd: t.highUsd + usd, lowCny: t.lowCny + cny, highCny: t.highCny + cny, low: move(t.low), high: move(t.high) };
}

/** Applies a `cost.estimate` result that hooks may have rewritten: a tier's new USD range
 *  replaces its own, and its CNY range moves in proportion. Tiers left out keep their range. */
export function foldBack(e: TurnEstimate, result: readonly CostEstimate[]): TurnEstimate {
  const byTier = new Map(result.map((c) => [c.tier, c]));
  return {
    ...e,
    tiers: e.tiers.map((t) => {
      const c = byTier.get(t.tier);
      if (!c || t.error !== undefined || !Number.isFinite(c.lowUsd) || !Number.isFinite(c.highUsd)) return t;
      if (c.lowUsd === t.lowUsd && c.highUsd === t.highUsd) return t;
      const scale = (cny: number, usd: number, to: number): number => (usd > 0 ? (cny / usd) * to : cny);
      return { ...t, lowUsd: c.lowUsd, highUsd: c.highUsd, lowCny: scale(t.lowCny, t.lowUsd, c.lowUsd), highCny: scale(t.highCny, t.highUsd, c.highUsd) };
    }),
  };
}
