// The cost before a turn, in the REPL: a spent budget may be raised for the session after a
// confirmation; then the estimate line, and with `estimate: ask` the tier chooser — Enter
// accepts, 1–4 picks a tier for this turn, Esc cancels (the prompt comes back to be edited),
// 3 s without an answer accepts. Only those keys answer the chooser: other typing is kept for
// the next prompt. Ctrl-C cancels the turn.

import type { Engine } from "../../core/engine/engine.js";
import type { CostControl } from "../cost/index.js";
import { fit } from "../render/figures.js";
import type { Style } from "../render/style.js";
import { ESC, isEnter, type TurnKeys } from "./keys.js";
import { plannedEstimateLine, type PlanStatus } from "../plan/repl.js";

/** How long the tier chooser waits before it accepts the recommended tier. */
export const CHOOSER_MS = 3000;

export interface BeforeTurn {
  cost: CostControl;
  /** The turn plans (plan mode): its estimate is planner + executor, and there is no chooser. */
  planned?: PlanStatus;
  engine: Engine;
  keys: TurnKeys;
  out: NodeJS.WriteStream;
  style: Style;
  print(text: string): void;
}

const chooserKey = (k: string): boolean => isEnter(k) || k === ESC || /^[1-4]$/.test(k);

/** True when the turn may run. */
export async function beforeTurn(d: BeforeTurn, prompt: string): Promise<boolean> {
  const { cost, style } = d;
  const budget = cost.budget();
  if (budget.state === "exhausted") {
    d.print(style("yellow", `! ${budget.message}`));
    if (!budget.canRaise) return false;
    d.out.write(`Raise it for this session? ${style("bold", "[y]")} yes  ${style("bold", "[n]")} no  › `);
    const k = await d.keys.ask();
    const yes = k.kind === "key" && k.key.toLowerCase() === "y";
    d.out.write(`${yes ? "yes" : "no"}\n`);
    if (!yes) return false;
    const raised = cost.raiseBudget();
    d.print(raised.ok ? raised.message : style("red", raised.message));
    if (!raised.ok) return false;
  }
  if (cost.estimateMode === "off") return true;
  const e = await cost.estimate(prompt, d.engine);
  const width = (d.out.columns || 80) - 1; // the last column would wrap on some terminals
  if (d.planned) {
    d.print(style("dim", fit([`≈ ${plannedEstimateLine(e, d.planned.plannerTier, cost.currency)}`, `≈ plan + run ${e.taskClass}`], width - 2)));
    return true;
  }
  if (cost.estimateMode === "show") {
    d.print(style("dim", `≈ ${cost.estimateLine(e, undefined, width - 2)}`));
    return true;
  }
  // The hint and the answer ("(accepted)") share the line: the most detail of the estimate
  // first, then the longest hint that still fits beside it.
  const hints = [" · Enter accepts, 1–4 picks, Esc cancels", " · Enter/1–4/Esc", ""];
  const line = fit(cost.estimateLines(e).flatMap((l) => hints.map((h) => `≈ ${l}${h}`)), width - 12);
  d.out.write(`${style("dim", line)} `);
  const k = await d.keys.ask(CHOOSER_MS, chooserKey);
  if (k.kind === "interrupt") {
    d.out.write("cancelled\n");
    return false;
  }
  if (k.kind === "key" && k.key === ESC) {
    d.out.write("cancelled\n");
    d.keys.unshift(prompt.replace(/\n/g, " ")); // back at the prompt, to edit
    return false;
  }
  const n = k.kind === "key" ? Number(k.key) : NaN;
  if (Number.isInteger(n) && n >= 1 && n <= 4) {
    const r = cost.pick(n);
    d.out.write(`${r.ok ? r.message : style("red", r.message)}\n`);
  } else d.out.write(`${style("dim", k.kind === "timeout" ? "(accepted)" : "✓")}\n`);
  return true;
}
