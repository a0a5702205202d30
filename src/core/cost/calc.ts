// The exact cost of one request, from the `usage` the API returned.
//
//   cost   = hit × hit price + miss × miss price + completion × output price
//   saving = hit × (miss price − hit price)
//
// at the prices in force when the request was made (peak or off-peak, and the row of that
// date). `completion_tokens` already includes the reasoning tokens on the wire, so reasoning is
// never added a second time. DeepSeek has no cache-write price: a miss is billed as a miss.

import { ConfigError } from "../../contract/errors.js";
import type { Usage } from "../../contract/wire.js";
import { priceFor } from "./prices.js";
import type { Cost, PriceTable, Rates } from "./types.js";

const PER = 1_000_000;

/**
 * Hit and miss tokens of a usage. When the split is missing or short (a provider that does not
 * report it), the unreported part of `prompt_tokens` counts as miss: the cost is never under-
 * stated for lack of data.
 */
export function splitPrompt(usage: Usage): { hit: number; miss: number } {
  const hit = Math.max(0, usage.prompt_cache_hit_tokens);
  const miss = Math.max(0, usage.prompt_cache_miss_tokens, usage.prompt_tokens - hit);
  return { hit, miss };
}

function priced(hit: number, miss: number, out: number, r: Rates): number {
  return (hit * r.hit + miss * r.miss + out * r.output) / PER;
}

/**
 * What one request cost. Throws a ConfigError ("no price for model X; add it under `pricing`
 * in settings") for a model the table does not price: a cost is never a silent zero.
 */
export function costOf(usage: Usage, model: string, at: Date, table?: PriceTable): Cost {
  const p = priceFor(model, at, table);
  if (!p.ok) throw new ConfigError(p.message);
  const { hit, miss } = splitPrompt(usage);
  const out = Math.max(0, usage.completion_tokens);
  return {
    model,
    family: p.family,
    peak: p.peak,
    usd: priced(hit, miss, out, p.usd),
    cny: priced(hit, miss, out, p.cny),
    savingUsd: (hit * (p.usd.miss - p.usd.hit)) / PER,
    savingCny: (hit * (p.cny.miss - p.cny.hit)) / PER,
  };
}

/** Sums costs (e.g. the requests of a turn or a session); family and model of the last one. */
export function addCosts(a: Cost, b: Cost): Cost {
  return {
    model: b.model,
    family: b.family,
    peak: a.peak || b.peak,
    usd: a.usd + b.usd,
    cny: a.cny + b.cny,
    savingUsd: a.savingUsd + b.savingUsd,
    savingCny: a.savingCny + b.savingCny,
  };
}

/** The amount of a cost in the display currency. */
export function inCurrency(c: { usd: number; cny: number }, currency: "USD" | "CNY"): number {
  return currency === "USD" ? c.usd : c.cny;
}
