// Budgets: settings `budget.daily` and `budget.monthly`, in the display currency. At 80% of
// either, deepcode downgrades to chat-fast and says so; at 100% it refuses new turns (stop
// reason `budget_exhausted`). The REPL may raise a cap for the session after a confirmation —
// unless the budget was set by managed policy, or `allowRaise` is false, in which case
// `canRaise` is false and `raiseRefused` says why.

import { formatMoney } from "./format.js";
import type { Currency } from "./types.js";

/** The settings layers, low to high; only `managed` is beyond the user's reach. */
export type SettingsLayer = "user" | "project" | "local" | "flag" | "managed";

export type BudgetKind = "daily" | "monthly";

export interface BudgetSettings {
  daily?: number;
  monthly?: number;
  /** false: no raising for the session, even after confirmation. */
  allowRaise?: boolean;
  /** Which layer set each cap (and `allowRaise`), as the settings loader knows it. */
  setBy?: Partial<Record<BudgetKind | "allowRaise", SettingsLayer>>;
  currency?: Currency;
}

export interface Spent {
  spentToday: number;
  spentMonth: number;
}

/** Extra allowance the user granted for this session, per cap. */
export type SessionRaise = Partial<Record<BudgetKind, number>>;

export const DOWNGRADE_AT = 0.8;

export interface BudgetState {
  state: "ok" | "downgrade" | "exhausted";
  /** The cap that decided the state (the fuller one); absent when no cap is set. */
  which?: BudgetKind;
  limit?: number;
  spent?: number;
  left?: number;
  /** spent ÷ limit of the deciding cap. */
  fraction?: number;
  /** One sentence for the user; empty when ok and under 80%. */
  message: string;
  canRaise: boolean;
  raiseRefused?: string;
}

const DAY_WORD: Record<BudgetKind, string> = { daily: "today", monthly: "this month" };

export function budgetState(spent: Spent, budget: BudgetSettings, sessionRaise: SessionRaise = {}): BudgetState {
  const currency = budget.currency ?? "USD";
  const money = (n: number): string => formatMoney(n, currency);
  const kinds: BudgetKind[] = ["daily", "monthly"];
  let worst: { kind: BudgetKind; limit: number; spent: number; fraction: number } | undefined;
  for (const kind of kinds) {
    const cap = budget[kind];
    if (cap === undefined || !Number.isFinite(cap) || cap < 0) continue;
    // A managed cap ignores any session raise: the user cannot lift it.
    const raise = budget.setBy?.[kind] === "managed" ? 0 : Math.max(0, sessionRaise[kind] ?? 0);
    const limit = cap + raise;
    const used = kind === "daily" ? spent.spentToday : spent.spentMonth;
    const fraction = limit > 0 ? used / limit : used > 0 ? Infinity : 1;
    if (!worst || fraction > worst.fraction) worst = { kind, limit, spent: used, fraction };
  }
  if (!worst) return { state: "ok", message: "", canRaise: false, raiseRefused: "no budget is set" };

  const { kind, limit, fraction } = worst;
  const left = Math.max(0, limit - worst.spent);
  const refusal = raiseRefusal(budget, kind);
  const base = { which: kind, limit, spent: worst.spent, left, fraction, canRaise: refusal === undefined };
  const withRefusal = refusal === undefined ? {} : { raiseRefused: refusal };
  // Spending is a sum of float costs: $0.10 + $0.70 of $1.00 must count as 80%, not 79.99…%.
  const EPS = 1e-9;
  const pct = Math.floor(Math.min(fraction, 9.99) * 100 + EPS);
  if (fraction >= 1 - EPS) {
    return {
      state: "exhausted",
      ...base,
      ...withRefusal,
      message:
        `${kind} budget of ${money(limit)} is spent (${money(worst.spent)} ${DAY_WORD[kind]}); new turns are refused` +
        (refusal ? ` — ${refusal}` : " until you raise it for this session"),
    };
  }
  if (fraction >= DOWNGRADE_AT - EPS) {
    return {
      state: "downgrade",
      ...base,
      ...withRefusal,
      message: `${kind} budget ${pct}% used: ${money(left)} of ${money(limit)} left ${DAY_WORD[kind]}; switching to chat-fast`,
    };
  }
  return { state: "ok", ...base, ...withRefusal, message: "" };
}

function raiseRefusal(budget: BudgetSettings, kind: BudgetKind): string | undefined {
  if (budget.setBy?.[kind] === "managed") return `the ${kind} budget is set by managed policy and cannot be raised`;
  if (budget.allowRaise === false) {
    const by = budget.setBy?.allowRaise;
    return by === "managed"
      ? "managed policy does not allow raising budgets"
      : `raising budgets is switched off (budget.allowRaise: false${by ? ` in ${by} settings` : ""})`;
  }
  return undefined;
}
