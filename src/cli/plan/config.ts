// What the REPL reads of plan mode's settings (the plan and checkpoints mods read their own):
//   autoPlan     off | ask | on: whether the REPL offers (ask) or enters (on) plan mode first
//                when the task classifier sees a multi-file or architectural task; default off.

import type { LoadedSettings } from "../settings/types.js";

export type AutoPlan = "off" | "ask" | "on";

export function autoPlanSetting(settings: LoadedSettings): AutoPlan {
  const v = settings.merged.autoPlan;
  return v === "ask" || v === "on" ? v : "off";
}
