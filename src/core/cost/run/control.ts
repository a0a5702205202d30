// The control the REPL holds: what `installCost` returns, and the shapes it hands out.

import type { BudgetState, Currency, TierName, TierProfiles, TurnEstimate } from "../index.js";
import type { Engine } from "../../engine/engine.js";
import type { BookNotice } from "./book.js";
import type { EstimateMode, TierMode } from "./settings.js";

export type CostNotice = BookNotice;

/** An estimate as the REPL gets it: the tier deepcode will run (`recommended`, with `reason`)
 *  and the budget state before the turn. */
export interface TurnCostEstimate extends TurnEstimate {
  sessionId: string;
  prompt: string;
  budget: BudgetState;
}

export interface CostControl {
  readonly currency: Currency;
  /** Settings `estimate`: the REPL's chooser waits (ask), only shows (show), or is off. */
  readonly estimateMode: EstimateMode;
  readonly tiers: TierProfiles;
  tierMode(): TierMode;
  /** `/tier auto`, `/tier NAME`, `/tier default` (follow the model). */
  setTier(name: string): { ok: boolean; message: string };
  /** The chooser's 1–4 (or a name): the next turn runs at that tier, once. */
  pick(tier: TierName | number): { ok: boolean; message: string };
  estimate(prompt: string, engine: Engine, opts?: { attachments?: string[] }): Promise<TurnCostEstimate>;
  /** The chooser's line, fitted to `width` columns when given. */
  estimateLine(e: TurnEstimate, currency?: Currency, width?: number): string;
  /** The chooser's line from the most detailed form to the shortest. */
  estimateLines(e: TurnEstimate): string[];
  /** Budgets now (the REPL checks before a turn; the gate decides anyway). */
  budget(): BudgetState;
  raiseBudget(): { ok: boolean; message: string };
  costReport(engine: Engine): string;
  tierReport(engine?: Engine): string;
  takeNotices(): CostNotice[];
  /** Resolves when every ledger line so far is written. */
  flush(): Promise<void>;
}

export interface InstallCostOptions {
  /** A person can confirm (the REPL): budgets may be raised. False for -p. */
  interactive: boolean;
  /** The clock for "today", "this month" and peak hours (tests). */
  now?: () => Date;
  /** Where notices go; default: -p writes them to stderr, the REPL collects them (takeNotices). */
  notify?: (n: CostNotice) => void;
}
