// The cost engine's public surface: prices, exact cost, the pre-turn estimate, budgets and the
// usage ledger. Pure except ledger.ts (file I/O on the ledger) and the one read of
// data/pricing.json in prices.ts.

export type { Cost, Currency, PeakSchedule, PriceFamily, PriceLookup, PriceRow, PriceTable, RatePair, Rates } from "./types.js";
export { familyOf, isPeak, loadPriceTable, priceFor } from "./prices.js";
export { addCosts, costOf, inCurrency, splitPrompt } from "./calc.js";
export { fit, formatMoney, formatPercent, formatRange, formatTokens, moneyDigits, parseCurrency, plural, roundCost, visibleLength } from "./format.js";
export { classifyTask, taskSignals, TASK_CLASSES, type TaskClass, type TaskSignals } from "../estimate/classify.js";
export { estimateTokens, floorToCacheUnit } from "../tokens.js";
export {
  DEFAULT_TIERS, isTierName, resolveTiers, tierRequest, TIER_FOR_CLASS, TIER_NAMES,
  type TierName, type TierProfile, type TierProfiles,
} from "./tiers.js";
export {
  delegationOf, estimateTurn, knownInputs, recommendTier, toCostEstimates,
  type EstimateInputs, type TierEstimate, type TurnEstimate, type TurnTokens,
} from "../estimate/turn.js";
export { FEW_SHAPES_MARGIN, MAX_SHAPES, MIN_SHAPES, pickShapes, SHAPE_MARGIN, shapesOf, type RunShape, type TurnShape } from "../estimate/shapes.js";
export { planDelegation, runsEvidence, runsNamed, typesNamed, type DelegationPlan, type RunEvidence } from "../estimate/delegation.js";
export {
  budgetState, DOWNGRADE_AT,
  type BudgetKind, type BudgetSettings, type BudgetState, type SessionRaise, type SettingsLayer, type Spent,
} from "./budget.js";
export {
  appendLedger, LEDGER_FILE, ledgerError, ledgerPath, ledgerRecord, parseLedger, readLedger, readLedgerText,
  type LedgerEstimate, type LedgerRead, type LedgerRecord, type SkippedLine,
} from "./ledger.js";
export {
  calibration, periodOf, spending, summarise,
  type Calibration, type CalibrationRow, type PeriodKind, type Summary, type SummaryRow, type TimeZoneMode,
} from "./stats.js";
export { columns, ESTIMATED_MARK, estimatedNote, estimateLineVariants, formatCalibration, formatEstimateLine, formatStats, statsJson } from "./report.js";
