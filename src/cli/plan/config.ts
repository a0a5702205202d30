// What plan mode and checkpoints read from settings, and the configuration assembly hands
// their mods (`api.config`):
//   planner      the tier (chat-fast, chat-full, reasoner-budget, reasoner) or model that plans;
//                default reasoner-budget. Execution runs on the session's own tier.
//   autoPlan     off | ask | on: whether the REPL offers (ask) or enters (on) plan mode first
//                when the task classifier sees a multi-file or architectural task; default off.
//   checkpoints  { enabled?: boolean (default true), maxBytes?: number (default 256 MiB) }.

import type { JsonValue, TurnProfile } from "../../contract/index.js";
import { ConfigError } from "../../contract/index.js";
import { isTierName, type TierName, type TierProfiles } from "../../core/cost/index.js";
import { profileOf } from "../cost/tiers.js";
import type { LoadedSettings } from "../settings/types.js";
import { settingFile } from "../settings/load.js";

export const DEFAULT_PLANNER: TierName = "reasoner-budget";
export const DEFAULT_CHECKPOINT_BYTES = 256 * 1024 * 1024;

export type AutoPlan = "off" | "ask" | "on";

export interface Planner {
  /** What the person reads: `reasoner-budget (deepseek-v4-pro)`. */
  label: string;
  /** The tier it is, when it is one (for the estimate line). */
  tier?: TierName;
  profile: TurnProfile;
}

export function plannerSetting(settings: LoadedSettings, tiers: TierProfiles): Planner {
  const v = settings.merged.planner;
  const name = v === undefined || v === null ? DEFAULT_PLANNER : v;
  if (typeof name !== "string" || name.trim() === "") throw new ConfigError(`planner: expected a tier (chat-fast, chat-full, reasoner-budget, reasoner) or a model name, got ${JSON.stringify(v)}`, settingFile(settings, "planner"));
  const n = name.trim();
  if (isTierName(n)) {
    const profile = profileOf(n, tiers);
    return { label: `${n} (${profile.model})`, tier: n, profile };
  }
  return { label: n, profile: { model: n } };
}

export function autoPlanSetting(settings: LoadedSettings): AutoPlan {
  const v = settings.merged.autoPlan;
  return v === "ask" || v === "on" ? v : "off";
}

/** The plan mod's configuration. `start`: every turn of this run plans (`--permission-mode plan`). */
export function planModConfig(planner: Planner, start: boolean): Record<string, JsonValue> {
  return { planner: { label: planner.label, profile: { ...planner.profile } as unknown as JsonValue }, start };
}

/** The checkpoints mod's configuration: where sessions live, and the store's bound. */
export function checkpointsModConfig(settings: LoadedSettings, sessionsDir: string): Record<string, JsonValue> {
  const c = settings.merged.checkpoints;
  const o = typeof c === "object" && c !== null && !Array.isArray(c) ? c : {};
  const max = typeof o.maxBytes === "number" && o.maxBytes >= 0 ? Math.floor(o.maxBytes) : DEFAULT_CHECKPOINT_BYTES;
  return { sessionsDir, enabled: o.enabled !== false, maxBytes: max };
}
