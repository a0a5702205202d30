// The shapes the cost engine works with. Prices are per 1M tokens, in the currency named by
// the field they sit under; instants are epoch milliseconds (UTC).

export type Currency = "USD" | "CNY";

/** Prices for one kind of hour: cache-hit input, cache-miss input, output (reasoning included). */
export interface Rates {
  hit: number;
  miss: number;
  output: number;
}

/** Off-peak and peak prices. A row without peak billing has the same object in both. */
export interface RatePair {
  offPeak: Rates;
  peak: Rates;
}

/** One price row of a model family, in force from `from` until the next row's `from`. */
export interface PriceRow {
  /** Epoch ms; null: in force since before any date we know of. */
  from: number | null;
  usd: RatePair;
  cny: RatePair;
  source?: string;
  /** Where the row came from: the packaged data file or a `pricing` entry in settings. */
  origin: "data" | "settings";
}

/** A model family: the name it is billed as, the names that route to it, its rows (oldest first). */
export interface PriceFamily {
  name: string;
  aliases: string[];
  rows: PriceRow[];
}

/** When peak prices apply, from `from` until the next schedule. */
export interface PeakSchedule {
  from: number;
  /** Peak windows as [start, end) minutes after 00:00 UTC. */
  windowsUtc: Array<[number, number]>;
  /** Days (0 = Sunday) on which the windows apply, judged at `calendarUtcOffsetMinutes`. */
  weekdays: number[];
  calendarUtcOffsetMinutes: number;
  /** Local dates (YYYY-MM-DD at the calendar offset) that are off-peak all day. */
  offPeakDates: Set<string>;
}

export interface PriceTable {
  families: Map<string, PriceFamily>;
  /** Every accepted model name (lower case), family names included, to its family. */
  names: Map<string, string>;
  /** Oldest first. Before the first one, no hour is peak. */
  schedules: PeakSchedule[];
  source: string;
  checked: string;
}

/** The answer to "what did model X cost at time T": a price, or why there is none. */
export type PriceLookup =
  | { ok: true; model: string; family: string; peak: boolean; usd: Rates; cny: Rates; row: PriceRow }
  | { ok: false; model: string; message: string };

/** The exact cost of one request. Savings are what the cache hits spared against misses. */
export interface Cost {
  model: string;
  family: string;
  peak: boolean;
  usd: number;
  cny: number;
  savingUsd: number;
  savingCny: number;
}
