// Budgets as the running deepcode applies them: the user's caps (which the REPL may raise for
// the session after a confirmation) and managed policy's caps (never raised) are judged
// separately by the core's budgetState, and the fuller of the two decides. `-p` never raises.

import {
  budgetState, formatMoney, type BudgetKind, type BudgetSettings, type BudgetState, type Currency, type SessionRaise, type Spent,
} from "../index.js";
import type { Chain } from "../../chain.js";
import type { CostNotice } from "./control.js";

const ORDER = { ok: 0, downgrade: 1, exhausted: 2 } as const;

function worse(a: BudgetState, b: BudgetState): BudgetState {
  if (ORDER[a.state] !== ORDER[b.state]) return ORDER[a.state] > ORDER[b.state] ? a : b;
  return (b.fraction ?? -1) > (a.fraction ?? -1) ? b : a;
}

function only(b: BudgetSettings, kind: BudgetKind): BudgetSettings {
  const out: BudgetSettings = { ...b };
  delete out[kind === "daily" ? "monthly" : "daily"];
  return out;
}

export class Budgets {
  private readonly raised: SessionRaise = {};

  constructor(
    private readonly user: BudgetSettings,
    private readonly managed: BudgetSettings,
    private readonly currency: Currency,
    /** Read at each decision: the REPL may take over an app assembled for -p. */
    private readonly interactive: () => boolean,
  ) {}

  get any(): boolean {
    return [this.user, this.managed].some((b) => b.daily !== undefined || b.monthly !== undefined);
  }

  /** The deciding state; `readError` (an unreadable ledger) makes a set budget refuse. */
  state(spent: Spent, readError?: string): BudgetState {
    const s = worse(budgetState(spent, this.user, this.raised), budgetState(spent, this.managed));
    if (readError && this.any) {
      return { ...s, state: "exhausted", canRaise: false, raiseRefused: "the spending cannot be read", message: `${readError}: budgets cannot be checked, so new turns are refused` };
    }
    if (!this.interactive() && s.state === "exhausted") return { ...s, canRaise: false, raiseRefused: "deepcode -p does not raise budgets", message: this.printMessage(s) };
    return s;
  }

  /** The refusal `-p` prints: no "raise it for this session", which it cannot do. */
  private printMessage(s: BudgetState): string {
    const money = (n: number): string => formatMoney(n, this.currency);
    const when = s.which === "daily" ? "today" : "this month";
    const fix = s.raiseRefused ? ` (${s.raiseRefused})` : `; deepcode -p does not raise budgets: change budget.${s.which} in settings or wait until ${s.which === "daily" ? "tomorrow" : "next month"}`;
    return `${s.which} budget of ${money(s.limit ?? 0)} is spent (${money(s.spent ?? 0)} ${when}); new turns are refused${fix}`;
  }

  /** Raises, for this session, every user cap at 80% or more by its own amount. */
  raise(spent: Spent, readError?: string): { ok: boolean; message: string } {
    if (!this.interactive()) return { ok: false, message: "deepcode -p does not raise budgets; change budget.daily or budget.monthly in settings" };
    const s = this.state(spent, readError);
    if (s.state === "ok") return { ok: false, message: this.any ? "no budget is at 80% or more: there is nothing to raise" : "no budget is set" };
    if (!s.canRaise) return { ok: false, message: s.raiseRefused ?? "this budget cannot be raised" };
    const done: string[] = [];
    for (const kind of ["daily", "monthly"] as BudgetKind[]) {
      const cap = this.user[kind];
      if (cap === undefined || cap <= 0) continue;
      if (budgetState(spent, only(this.user, kind), this.raised).state === "ok") continue;
      this.raised[kind] = (this.raised[kind] ?? 0) + cap;
      done.push(`${kind} budget raised to ${formatMoney(cap + this.raised[kind], this.currency)} for this session`);
    }
    if (done.length === 0) return { ok: false, message: "a budget of 0 cannot be raised; change it in settings" };
    const after = this.state(spent, readError);
    return { ok: true, message: done.join("; ") + (after.state !== "ok" ? `; ${after.message}` : "") };
  }

  /** One line per cap, for `/cost`. */
  lines(spent: Spent): string[] {
    const money = (n: number): string => formatMoney(n, this.currency);
    const out: string[] = [];
    for (const [b, who] of [[this.user, "user"], [this.managed, "managed"]] as const) {
      for (const kind of ["daily", "monthly"] as BudgetKind[]) {
        const cap = b[kind];
        if (cap === undefined) continue;
        const extra = who === "user" ? (this.raised[kind] ?? 0) : 0;
        const used = kind === "daily" ? spent.spentToday : spent.spentMonth;
        const limit = cap + extra;
        const pct = limit > 0 ? `${Math.floor((used / limit) * 100)}%` : "–";
        const by = who === "managed" ? " (managed policy)" : b.setBy?.[kind] ? ` (${b.setBy[kind]} settings)` : "";
        const raised = extra > 0 ? `, raised from ${money(cap)} for this session` : "";
        out.push(`${kind} budget: ${money(used)} of ${money(limit)} (${pct})${by}${raised}`);
      }
    }
    return out;
  }
}

/** A Stop hook's continuation is more requests in the same turn: a loop a hook keeps
 *  (ralph-loop) stops once the budget is spent, as a new turn would be refused. */
export function holdContinuation(chain: Chain, budget: () => BudgetState, say: (n: CostNotice) => void): void {
  chain.on("prepend", "cost-budget-continue", "turn.complete", null, async (e, next) => {
    const r = await next(e);
    if (!r?.continueWith) return r;
    let st: BudgetState | undefined;
    try {
      st = budget();
    } catch {
      st = undefined; // budgets unreadable: turn.start refuses the next turn and says why
    }
    if (st?.state !== "exhausted") return r;
    say({ level: "warn", code: "budget", message: `a Stop hook asked to continue the turn; not done: ${st.message}` });
    return { ...r, continueWith: undefined };
  });
}
