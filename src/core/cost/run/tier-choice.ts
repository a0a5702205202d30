// Which tier a turn runs at, and the turn profile that tier becomes.
//
// The session's tier mode (settings `tier`, `/tier`):
//   model   the default: the tier matching the configured model (same price family, same
//           thinking), keeping the model name the user chose, so `-m` and `/model` still rule.
//           A model no tier matches (another vendor's) runs untouched, without a tier.
//   pinned  `/tier NAME`: every turn runs at that tier's profile.
//   auto    `/tier auto`: each turn's prompt is classified and a tier chosen by the rule below.
//
// Auto-tier and the cache. Changing the model family makes the next request miss from token 0
// (the cache is per model), and switching thinking on or off makes it miss from the first
// assistant message with reasoning ("thinking mode switched"). Changing only the effort or the
// output limit costs nothing. So auto does not follow every prompt:
//   1. On a session's first turn nothing is cached yet: take the class's tier.
//   2. A switch that changes neither model nor thinking is free: take it.
//   3. A class that needs a stronger tier gets it at once: a hard task should not run weak.
//   4. A cheaper tier is taken only when two turns in a row ask for one below the current
//      tier (then the stronger of the two): one question between edits keeps the tier and its
//      cache; a run of questions steps down.

import { familyOf, formatTokens, TIER_FOR_CLASS, TIER_NAMES, type PriceTable, type TaskClass, type TierName, type TierProfiles } from "../index.js";
import type { ModelCaps, TurnProfile } from "../../../contract/index.js";
import type { TierMode } from "./settings.js";

export const rank = (t: TierName): number => TIER_NAMES.indexOf(t);

/** The turn profile of a tier; `model` keeps a name of the same family the user chose. */
export function profileOf(tier: TierName, tiers: TierProfiles, model?: string): TurnProfile {
  const p = tiers[tier];
  const out: TurnProfile = { tier, model: model ?? p.model, thinking: p.thinking ? "enabled" : "disabled", maxTokens: p.maxTokens };
  if (p.thinking && p.effort) out.effort = p.effort;
  return out;
}

/** What the tiers need to know of a model the price table may not name: its family and whether
 *  it thinks by default (the provider's capability table; the CLI hands it in). */
export type ModelFacts = (model: string) => Pick<ModelCaps, "family" | "thinkingByDefault">;

/** The model family: the price table's, else the capability table's. */
function family(model: string, caps: ModelFacts, prices?: PriceTable): string {
  return familyOf(model, prices) ?? caps(model).family;
}

/** Whether a turn with this profile thinks (the model's default when it does not say). */
export function thinks(p: TurnProfile, caps: ModelFacts): boolean {
  return p.thinking === undefined ? caps(p.model).thinkingByDefault : p.thinking === "enabled";
}

/** The tier a profile amounts to: same family and thinking (and effort, when it names one). */
export function matchTier(p: TurnProfile, tiers: TierProfiles, caps: ModelFacts, prices?: PriceTable): TierName | undefined {
  const fam = family(p.model, caps, prices);
  const on = thinks(p, caps);
  const same = TIER_NAMES.filter((t) => family(tiers[t].model, caps, prices) === fam && tiers[t].thinking === on);
  return same.find((t) => p.effort !== undefined && tiers[t].effort === p.effort) ?? same[0];
}

/** Whether moving between two tiers keeps the cache (same model family, same thinking). */
export function freeSwitch(a: TierName, b: TierName, tiers: TierProfiles, caps: ModelFacts, prices?: PriceTable): boolean {
  return family(tiers[a].model, caps, prices) === family(tiers[b].model, caps, prices) && tiers[a].thinking === tiers[b].thinking;
}

/** What pinning `to` after a turn at `from` costs the cache, as a clause for `/tier`. `held`:
 *  tokens of this session the new model's cache holds (an earlier turn on it, a planner's). */
export function switchNote(from: TierName, to: TierName, tiers: TierProfiles, caps: ModelFacts, prices?: PriceTable, held = 0): string {
  if (from === to || freeSwitch(from, to, tiers, caps, prices)) return "";
  if (family(tiers[from].model, caps, prices) === family(tiers[to].model, caps, prices)) {
    return " — thinking switches, so the next request re-reads the log from the first reply with reasoning";
  }
  return held > 0
    ? ` — the model changes, so the next request re-reads what ${tiers[to].model} has not cached (it holds ${formatTokens(held)} tokens of this session)`
    : " — the model changes, so the next request re-reads the whole context";
}

/** What auto remembers of a session: the tier its last turn ran at, the last class's tier. */
export interface AutoState {
  current?: TierName;
  lastAsked?: TierName;
}

export interface TierChoice {
  tier: TierName;
  /** Why, in a few words for the chooser line and `/tier`. */
  reason: string;
}

/** Auto's choice for a turn of class `taskClass` (rules 1–4 above). */
export function autoTier(taskClass: TaskClass, state: AutoState, firstTurn: boolean, tiers: TierProfiles, caps: ModelFacts, prices?: PriceTable): TierChoice {
  const asked = TIER_FOR_CLASS[taskClass];
  const cur = state.current;
  if (firstTurn || cur === undefined || cur === asked) return { tier: asked, reason: `auto: ${taskClass}` };
  if (freeSwitch(cur, asked, tiers, caps, prices)) return { tier: asked, reason: `auto: ${taskClass}` };
  if (rank(asked) > rank(cur)) return { tier: asked, reason: `auto: ${taskClass} needs ${asked}` };
  if (state.lastAsked !== undefined && rank(state.lastAsked) < rank(cur)) {
    const tier = rank(state.lastAsked) > rank(asked) ? state.lastAsked : asked;
    return { tier, reason: `auto: second cheaper turn, down to ${tier}` };
  }
  return { tier: cur, reason: `auto: kept ${cur} (one ${taskClass} turn does not pay for a cache switch)` };
}

/**
 * The tier a turn runs at and its profile, before budgets: a one-turn pick from the chooser
 * wins, then the session's mode. `base` is the profile the engine offered (the session's model).
 */
export function planTurn(o: {
  mode: TierMode;
  base: TurnProfile;
  taskClass: TaskClass;
  state: AutoState;
  firstTurn: boolean;
  pick?: TierName;
  tiers: TierProfiles;
  caps: ModelFacts;
  prices?: PriceTable;
}): { choice?: TierChoice; profile: TurnProfile } {
  if (o.pick) return { choice: { tier: o.pick, reason: "picked" }, profile: profileOf(o.pick, o.tiers) };
  if (o.mode.kind === "pinned") return { choice: { tier: o.mode.tier, reason: "pinned" }, profile: profileOf(o.mode.tier, o.tiers) };
  if (o.mode.kind === "auto") {
    const choice = autoTier(o.taskClass, o.state, o.firstTurn, o.tiers, o.caps, o.prices);
    return { choice, profile: profileOf(choice.tier, o.tiers) };
  }
  const tier = matchTier(o.base, o.tiers, o.caps, o.prices);
  if (!tier) return { profile: o.base };
  // Fields the engine's profile sets explicitly stay; the tier fills the rest.
  const t = profileOf(tier, o.tiers, o.base.model);
  const profile: TurnProfile = { ...t, ...definedOnly(o.base), tier };
  if (profile.thinking === "disabled") delete profile.effort;
  return { choice: { tier, reason: "the configured model" }, profile };
}

function definedOnly(p: TurnProfile): Partial<TurnProfile> {
  const out: Partial<TurnProfile> = {};
  for (const [k, v] of Object.entries(p)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
