// The REPL's part of plan mode (the mechanism is mods/plan): where a typed prompt goes, and
// the estimate line of a planning turn.
//
// A prompt goes to `/plan` when plan mode is on (the mod's status says so: `/plan` alone or
// `--permission-mode plan`), or when settings `autoPlan` is `ask` or `on` and the task
// classifier the estimate uses sees a multi-file or architectural task (class refactor or
// architecture): `ask` offers plan mode first ([y] plan first, anything else runs it as it is),
// `on` enters it and says so. The estimate of a planning turn is planner + executor: the
// planner's range for this prompt, plus the session's tier's range for carrying it out.

import type { JsonValue } from "../../contract/index.js";
import { classifyTask, formatRange, isTierName, type Currency, type TierName, type TurnEstimate } from "../../core/cost/index.js";
import type { App } from "../assemble.js";
import type { LoadedSettings } from "../settings/types.js";

/** Settings `autoPlan` (what the REPL reads of plan mode's settings; the plan and checkpoints
 *  mods read their own): off | ask | on — whether the REPL offers (ask) or enters (on) plan mode
 *  first when the task classifier sees a multi-file or architectural task; default off. */
export type AutoPlan = "off" | "ask" | "on";

export function autoPlanSetting(settings: LoadedSettings): AutoPlan {
  const v = settings.merged.autoPlan;
  return v === "ask" || v === "on" ? v : "off";
}

export interface PlanStatus {
  planning: boolean;
  awaiting: boolean;
  planner: string;
  /** The planner's tier, when it is one (a model name is not). */
  plannerTier?: TierName;
}

/** The plan mod's state, as it reports it (undefined when it did not load). */
export function planStatus(app: Pick<App, "pluginStatus">): PlanStatus | undefined {
  const s = app.pluginStatus("plan") as { [k: string]: JsonValue } | undefined;
  if (!s || typeof s !== "object") return undefined;
  const tier = typeof s.plannerTier === "string" && isTierName(s.plannerTier) ? s.plannerTier : undefined;
  return { planning: s.planning === true, awaiting: s.awaiting === true, planner: typeof s.planner === "string" ? s.planner : "the planner", plannerTier: tier };
}

export type Route = "plan" | "turn" | "cancel";

export interface RouteDeps {
  app: Pick<App, "pluginStatus" | "settings">;
  /** Ask the person a yes/no question (true: yes; undefined: cancelled with Ctrl-C). */
  ask(question: string): Promise<boolean | undefined>;
  print(text: string): void;
}

/** Whether a typed prompt runs as it is or is planned first. */
export async function routePrompt(d: RouteDeps, text: string): Promise<Route> {
  const st = planStatus(d.app);
  if (!st) return "turn";
  if (st.planning) return "plan";
  const auto: AutoPlan = autoPlanSetting(d.app.settings as App["settings"]);
  if (auto === "off") return "turn";
  const cls = classifyTask(text);
  if (cls !== "refactor" && cls !== "architecture") return "turn";
  const what = cls === "refactor" ? "a multi-file change" : "an architectural task";
  if (auto === "on") {
    d.print(`this looks like ${what}: planning it first with ${st.planner} (settings autoPlan on)`);
    return "plan";
  }
  const yes = await d.ask(`This looks like ${what}. Plan it first with ${st.planner}?`);
  return yes === undefined ? "cancel" : yes ? "plan" : "turn";
}

/** The estimate line of a planning turn: planner + executor, and their sum. */
export function plannedEstimateLine(e: TurnEstimate, planner: TierName | undefined, currency: Currency): string {
  return plannedEstimateLines(e, planner, currency)[0];
}

/** The planning turn's line from the most detailed form to the shortest, for `fit`: names go
 *  first, then the parts' ranges; the sum — the figure a person decides with — stays in every
 *  form (README: a figure is never cut), down to the sum alone. */
export function plannedEstimateLines(e: TurnEstimate, planner: TierName | undefined, currency: Currency): string[] {
  const range = (lo: number, hi: number): string => formatRange(lo, hi, currency);
  const exec = e.tiers.find((t) => t.tier === e.recommended);
  const plan = planner ? e.tiers.find((t) => t.tier === planner) : undefined;
  if (!plan || plan.error !== undefined || !exec || exec.error !== undefined) {
    return [`${e.taskClass} → plan with ${planner ?? "the planner"} (no estimate: ${planner ? "no price" : "not a tier"}) + run ${e.recommended}`, `plan + run ${e.taskClass} (no estimate)`];
  }
  const usd = currency === "USD";
  const p = range(...((usd ? [plan.lowUsd, plan.highUsd] : [plan.lowCny, plan.highCny]) as [number, number]));
  const x = range(...((usd ? [exec.lowUsd, exec.highUsd] : [exec.lowCny, exec.highCny]) as [number, number]));
  const sum = usd ? range(plan.lowUsd + exec.lowUsd, plan.highUsd + exec.highUsd) : range(plan.lowCny + exec.lowCny, plan.highCny + exec.highCny);
  return [
    `${e.taskClass} → plan ${planner} ${p} + run ${e.recommended} ${x} = ${sum} (planner + executor)`,
    `${e.taskClass} → plan ${planner} ${p} + run ${e.recommended} ${x} = ${sum}`,
    `${e.taskClass} → plan ${p} + run ${x} = ${sum}`,
    `plan ${p} + run ${x} = ${sum}`,
    `${e.taskClass}: plan + run ${sum}`,
    `plan + run ${sum}`,
    sum,
  ];
}
