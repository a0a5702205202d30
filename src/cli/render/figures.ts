// The figures the CLI prints, from one formatter each (src/core/cost/format.ts): money, tokens,
// plurals. A line with several amounts shows them at one precision (`moneyLine`).

// format.js itself, not the cost engine's index: the prompt loads this before the engine.
import { formatMoney, formatTokens, moneyDigits, plural, fit, visibleLength } from "../../core/cost/format.js";

export { fit, plural, visibleLength };

/** A USD amount (`$0`, `<$0.0001`, `$0.0042`, `$1.20`), at `digits` when a line sets one. */
export function money(usd: number, digits?: number): string {
  return formatMoney(usd, "USD", digits);
}

/** Several USD amounts meant for one line, at the precision the smallest of them needs. */
export function moneyLine(...usd: number[]): string[] {
  const d = moneyDigits(...usd);
  return usd.map((u) => formatMoney(u, "USD", d));
}

export const tokens = formatTokens;

