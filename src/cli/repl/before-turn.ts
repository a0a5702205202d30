// The cost before a turn, in the REPL: a spent budget may be raised for the session after a
// confirmation; then the estimate line. With `estimate: show` (the default) the line is shown
// and the turn starts at once — nobody waits; it names `/tier` for changing the tier. With
// `estimate: ask` (opt-in) the tier chooser waits for an answer — Enter accepts, 1–4 picks a
// tier for this turn, Esc cancels (the prompt comes back to be edited). It has no timer: an
// answer that accepts by itself is what let an Enter meant for it land on the next question.
// Only those keys answer the chooser: other typing is kept for the next prompt. Ctrl-C cancels
// the turn.

import type { Engine } from "../../core/engine/engine.js";
import type { CostControl } from "../../core/cost/run/index.js";
import { fit, visibleLength } from "../render/figures.js";
import type { Style } from "../render/style.js";
import { ESC, isEnter, type TurnKeys } from "./keys.js";
import { plannedEstimateLines, type PlanStatus } from "./plan-route.js";

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
    const k = await d.keys.ask({ show: () => d.out.write(`Raise it for this session? ${style("bold", "[y]")} yes  ${style("bold", "[n]")} no  › `) });
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
    d.print(style("dim", fit(plannedEstimateLines(e, d.planned.plannerTier, cost.currency).map((l) => `≈ ${l}`), width - 2)));
    return true;
  }
  if (cost.estimateMode === "show") {
    const hint = " · /tier changes the tier";
    const line = cost.estimateLine(e, undefined, width - 2 - hint.length);
    d.print(style("dim", `≈ ${line}${visibleLength(line) + hint.length + 2 <= width ? hint : ""}`));
    return true;
  }
  // The hint and the answer share the line: the most detail of the estimate first, then the
  // longest hint that still fits beside it; the keys are dropped only when nothing else fits
  // (a person must see how to answer a question that waits).
  const hints = [" · Enter accepts, 1–4 picks, Esc cancels", " · Enter/1–4/Esc"];
  const lines = cost.estimateLines(e);
  const line = fit([...lines.flatMap((l) => hints.map((h) => `≈ ${l}${h}`)), ...lines.map((l) => `≈ ${l}`)], width - 12);
  const k = await d.keys.ask({ accepts: chooserKey, show: () => d.out.write(`${style("dim", line)} `) });
  if (k.kind === "interrupt") {
    d.out.write("cancelled\n");
    return false;
  }
  if (k.kind === "key" && k.key === ESC) {
    d.out.write("cancelled\n");
    d.keys.unshift(prompt.replace(/\n/g, " ")); // back at the prompt, to edit
    d.keys.quietEnters(); // a quick second Enter does not send it again
    return false;
  }
  const n = k.kind === "key" ? Number(k.key) : NaN;
  if (Number.isInteger(n) && n >= 1 && n <= 4) {
    const r = cost.pick(n);
    d.out.write(`${r.ok ? r.message : style("red", r.message)}\n`);
  } else d.out.write(`${style("dim", "✓")}\n`);
  return true;
}
