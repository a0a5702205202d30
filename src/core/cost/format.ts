// Money and token figures as the user reads them, in the display currency chosen in settings
// (`currency`: "USD" | "CNY"). Turn costs are often fractions of a cent, so small amounts keep
// four decimals instead of rounding to zero.

import type { Currency } from "./types.js";

const SYMBOL: Record<Currency, string> = { USD: "$", CNY: "¥" };

/** Reads settings `currency`; anything but "CNY" (any case) is USD. */
export function parseCurrency(v: unknown): Currency {
  return typeof v === "string" && v.trim().toUpperCase() === "CNY" ? "CNY" : "USD";
}

function digits(abs: number): number {
  if (abs >= 1) return 2;
  if (abs >= 0.01) return 3;
  return 4;
}

/** `$1.23`, `$0.042`, `¥0.0031`; a positive amount under 0.0001 shows as `<$0.0001`. */
export function formatMoney(amount: number, currency: Currency): string {
  const sym = SYMBOL[currency];
  const abs = Math.abs(amount);
  if (abs > 0 && abs < 0.00005) return `${amount < 0 ? "-" : ""}<${sym}0.0001`;
  const text = abs.toFixed(digits(abs));
  return `${amount < 0 ? "-" : ""}${sym}${text}`;
}

/** `$0.0021–0.0064` (both ends at the precision of the larger one). */
export function formatRange(low: number, high: number, currency: Currency): string {
  const d = digits(Math.max(Math.abs(low), Math.abs(high)));
  if (low === high) return formatMoney(low, currency);
  return `${SYMBOL[currency]}${low.toFixed(d)}–${high.toFixed(d)}`;
}

/** `950`, `12.3K`, `4.56M`. */
export function formatTokens(n: number): string {
  const abs = Math.abs(n);
  if (abs < 1000) return String(Math.round(n));
  if (abs < 1_000_000) return `${(n / 1000).toFixed(abs < 10_000 ? 2 : 1)}K`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

/** `91.4%`; `–` when there is nothing to divide. */
export function formatPercent(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : "–";
}
