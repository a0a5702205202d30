// What the cost engine reads from settings, with where each part came from:
//   currency  "USD" | "CNY" (display currency; default USD)
//   estimate  "show" | "ask" | "off" (the REPL's estimate line; default show: shown, never
//             waited on; ask: the tier chooser waits for Enter, 1–4 or Esc)
//   tiers     profile overrides per tier (core resolveTiers; a bad one is a ConfigError)
//   tier      "auto" or a tier name: the session's starting tier (default: the configured model's)
//   budget    { daily?, monthly?, allowRaise? } in the display currency
//
// Budgets are read per layer, not from the merged view: a cap set by managed policy and one set
// by the user are both kept, and both apply (the user may be stricter than the policy; the
// policy's cap is never raised). Within each group the highest layer wins, as in the merge.

import type { JsonValue } from "../../../contract/index.js";
import { ConfigError } from "../../../contract/index.js";
import { settingFile } from "../../../lib/setting-file.js";
import { isTierName, parseCurrency, resolveTiers, type BudgetKind, type BudgetSettings, type Currency, type SettingsLayer, type TierName, type TierProfiles } from "../index.js";

/** What the cost engine reads of the settings in force: the merged view and the layers, low to
 *  high with the managed policy last (the CLI's LoadedSettings is one). */
export interface CostSettingsSource {
  merged: { readonly [key: string]: JsonValue | undefined };
  layers: ReadonlyArray<{ name: string; file?: string; settings: { readonly [key: string]: JsonValue | undefined } }>;
}

export type EstimateMode = "ask" | "show" | "off";

/** How the session picks its tier: follow the configured model, pin one, or choose per turn. */
export type TierMode = { kind: "model" } | { kind: "pinned"; tier: TierName } | { kind: "auto" };

export interface CostSettings {
  currency: Currency;
  estimate: EstimateMode;
  tiers: TierProfiles;
  tierMode: TierMode;
  /** Caps set in the user, project, local or flag layers (the highest one per cap). */
  userBudget: BudgetSettings;
  /** Caps set by managed policy; never raised. */
  managedBudget: BudgetSettings;
}

export function readCostSettings(settings: CostSettingsSource): CostSettings {
  const m = settings.merged;
  const currency = parseCurrency(m.currency);
  const estimate: EstimateMode = m.estimate === "ask" || m.estimate === "off" ? m.estimate : "show";
  const tiers = resolveTiers(m.tiers, { file: settingFile(settings, "tiers") });
  return { currency, estimate, tiers, tierMode: tierMode(m.tier, settingFile(settings, "tier")), ...budgets(settings, currency) };
}

function tierMode(v: JsonValue | undefined, file: string | undefined): TierMode {
  if (v === undefined || v === null) return { kind: "model" };
  if (v === "auto") return { kind: "auto" };
  if (isTierName(v)) return { kind: "pinned", tier: v };
  throw new ConfigError(`tier: expected "auto" or one of chat-fast, chat-full, reasoner-budget, reasoner, got ${JSON.stringify(v)}`, file);
}

function budgets(settings: CostSettingsSource, currency: Currency): Pick<CostSettings, "userBudget" | "managedBudget"> {
  const user: BudgetSettings = { currency, setBy: {} };
  const managed: BudgetSettings = { currency, setBy: {} };
  for (const layer of settings.layers) {
    const b = layer.settings.budget;
    if (typeof b !== "object" || b === null || Array.isArray(b)) continue;
    const name = layer.name as SettingsLayer;
    const into = name === "managed" ? managed : user;
    for (const kind of ["daily", "monthly"] as BudgetKind[]) {
      const v = b[kind];
      if (typeof v === "number" && Number.isFinite(v) && v >= 0) {
        into[kind] = v;
        into.setBy![kind] = name;
      }
    }
    if (typeof b.allowRaise === "boolean") {
      // allowRaise governs the user's caps; managed policy's word on it outranks every layer.
      if (name === "managed" || user.setBy!.allowRaise !== "managed") {
        user.allowRaise = b.allowRaise;
        user.setBy!.allowRaise = name;
      }
    }
  }
  managed.allowRaise = false;
  return { userBudget: user, managedBudget: managed };
}
