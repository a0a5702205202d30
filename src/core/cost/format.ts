// Money and token figures as the user reads them, in the display currency chosen in settings
// (`currency`: "USD" | "CNY"). Turn costs are often fractions of a cent, so small amounts keep
// four decimals instead of rounding to zero.

import type { Currency } from "./types.js";

const SYMBOL: Record<Currency, string> = { USD: "$", CNY: "¥" };

/** Reads settings `currency`; anything but "CNY" (any case) is USD. */
export function parseCurrency(v: unknown): Currency {
  return typeof v === "string" && v.trim().toUpperCase() === "CNY" ? "CNY" : "USD";
}

/** Decimals an amount is shown with: two from a unit up, three from a cent, four below. */
export function moneyDigits(...amounts: number[]): number {
  let d = 2;
  for (const a of amounts) {
    const abs = Math.abs(a);
    if (abs === 0 || abs < 0.00005) continue; // zero and "<$0.0001" have their own form
    d = Math.max(d, abs >= 1 ? 2 : abs >= 0.01 ? 3 : 4);
  }
  return d;
}

/**
 * The one money formatter: `$1.23`, `$0.042`, `¥0.0031`; exactly zero is `$0`; a positive amount
 * under 0.0001 is `<$0.0001` (never a zero for something that cost something). `digits` sets the
 * precision, so figures on one line agree (`moneyDigits(...theLine)`).
 */
export function formatMoney(amount: number, currency: Currency, digits = moneyDigits(amount)): string {
  const sym = SYMBOL[currency];
  const abs = Math.abs(amount);
  if (abs === 0) return `${sym}0`;
  if (abs < 0.00005) return `${amount < 0 ? "-" : ""}<${sym}0.0001`;
  return `${amount < 0 ? "-" : ""}${sym}${abs.toFixed(digits)}`;
}

/** `$0.0021–0.0064` (both ends at the precision of the larger one). */
export function formatRange(low: number, high: number, currency: Currency): string {
  const d = moneyDigits(Math.max(Math.abs(low), Math.abs(high)));
  if (low === high) return formatMoney(low, currency);
  return `${SYMBOL[currency]}${low.toFixed(d)}–${high.toFixed(d)}`;
}

/** A cost as a JSON number, rounded to what a price can mean: prices are per million tokens
 *  with at most three decimals, so a cost is a whole number of 1e-9 units; the rest is float
 *  noise (0.000014285999999999998 → 0.000014286). */
export function roundCost(amount: number): number {
  return Math.round(amount * 1e9) / 1e9;
}

/** The one token formatter, three significant figures: `950`, `2.40k`, `32.8k`, `131k`, `4.56M`. */
export function formatTokens(n: number): string {
  const abs = Math.abs(Math.round(n));
  if (abs < 1000) return String(Math.round(n));
  const sign = n < 0 ? "-" : "";
  for (const [unit, size] of [["k", 1000], ["M", 1_000_000]] as const) {
    const v = Number((abs / size).toPrecision(3));
    const text = v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0);
    if (unit === "M" || v < 1000) return `${sign}${text}${unit}`;
  }
  return String(n); // unreachable: the M branch always returns
}

/** `1 turn`, `2 turns`; `plural(3, "entry", "entries")`. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** `91.4%`; `–` when there is nothing to divide. */
export function formatPercent(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : "–";
}

/** The first of `variants` (most detailed first) that fits in `width` columns, else the last:
 *  a line is shortened by dropping whole parts, never cut inside a figure. */
export function fit(variants: readonly string[], width: number): string {
  for (const v of variants) if (visibleLength(v) <= width) return v;
  return variants[variants.length - 1] ?? "";
}

/** Columns a string takes on a terminal (escape sequences take none). */
export function visibleLength(s: string): number {
  return [...s.replace(/\x1b\[[0-9;]*m/g, "")].length;
}
