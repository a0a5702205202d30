// Validation of price rows and peak schedules, shared by the packaged data file and the
// settings `pricing` entries. Every failure is a ConfigError whose message starts with the
// path of the bad key (e.g. `pricing["my-model"].usd.hit`), so a person can find and fix it.

import { ConfigError } from "../../contract/errors.js";
import type { PeakSchedule, PriceRow, RatePair, Rates } from "./types.js";
import { isObject } from "../../lib/json.js";

type Obj = Record<string, unknown>;

export class Bad {
  constructor(readonly file?: string) {}
  fail(path: string, message: string): never {
    throw new ConfigError(`${path}: ${message}`, this.file);
  }
}

export function show(v: unknown): string {
  if (v === undefined) return "nothing";
  const s = JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

export function keyPath(base: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

export function onlyKeys(bad: Bad, v: Obj, path: string, allowed: readonly string[]): void {
  for (const k of Object.keys(v)) {
    if (!allowed.includes(k)) bad.fail(keyPath(path, k), `unknown key (expected one of ${allowed.join(", ")})`);
  }
}

function price(bad: Bad, v: unknown, path: string): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
    bad.fail(path, `expected a price per 1M tokens (a number ≥ 0), got ${show(v)}`);
  }
  return v;
}

function rates(bad: Bad, v: unknown, path: string): Rates {
  if (!isObject<unknown>(v)) bad.fail(path, `expected { hit, miss, output } per 1M tokens, got ${show(v)}`);
  onlyKeys(bad, v, path, ["hit", "miss", "output"]);
  return {
    hit: price(bad, v.hit, `${path}.hit`),
    miss: price(bad, v.miss, `${path}.miss`),
    output: price(bad, v.output, `${path}.output`),
  };
}

/** `{ hit, miss, output }` (no peak billing) or `{ offPeak: {...}, peak: {...} }`. */
function ratePair(bad: Bad, v: unknown, path: string): RatePair {
  if (isObject<unknown>(v) && ("offPeak" in v || "peak" in v)) {
    onlyKeys(bad, v, path, ["offPeak", "peak"]);
    return { offPeak: rates(bad, v.offPeak, `${path}.offPeak`), peak: rates(bad, v.peak, `${path}.peak`) };
  }
  const flat = rates(bad, v, path);
  return { offPeak: flat, peak: flat };
}

export function instant(bad: Bad, v: unknown, path: string): number {
  // Date-only strings parse as UTC midnight, which is what a user writing "2027-01-01" means
  // least surprisingly in a file shared across time zones.
  const t = typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(t)) bad.fail(path, `expected an ISO date or instant like "2027-01-01T00:00:00Z", got ${show(v)}`);
  return t;
}

export const ROW_KEYS = ["from", "usd", "cny", "source", "note"] as const;

/** One price row. Both currencies are required: deepcode converts nothing. */
export function priceRow(bad: Bad, v: unknown, path: string, origin: PriceRow["origin"]): PriceRow {
  if (!isObject<unknown>(v)) bad.fail(path, `expected a price row { from?, usd, cny }, got ${show(v)}`);
  onlyKeys(bad, v, path, [...ROW_KEYS, "aliases"]);
  for (const cur of ["usd", "cny"] as const) {
    if (v[cur] === undefined) {
      bad.fail(
        `${path}.${cur}`,
        "missing: give per-1M-token prices in both usd and cny ({ hit, miss, output }); deepcode converts nothing",
      );
    }
  }
  const row: PriceRow = {
    from: v.from === undefined || v.from === null ? null : instant(bad, v.from, `${path}.from`),
    usd: ratePair(bad, v.usd, `${path}.usd`),
    cny: ratePair(bad, v.cny, `${path}.cny`),
    origin,
  };
  if (typeof v.source === "string") row.source = v.source;
  return row;
}

export function aliasList(bad: Bad, v: unknown, path: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((a) => typeof a !== "string" || a.trim() === "")) {
    bad.fail(path, `expected a list of model names, got ${show(v)}`);
  }
  return (v as string[]).map((a) => a.trim().toLowerCase());
}

function clock(bad: Bad, v: unknown, path: string): number {
  const m = typeof v === "string" ? /^(\d{2}):(\d{2})$/.exec(v) : null;
  const minutes = m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
  if (!m || minutes > 24 * 60 || Number(m[2]) > 59) bad.fail(path, `expected "HH:MM", got ${show(v)}`);
  return minutes;
}

export function schedule(bad: Bad, v: unknown, path: string): PeakSchedule {
  if (!isObject<unknown>(v)) bad.fail(path, `expected a peak schedule, got ${show(v)}`);
  onlyKeys(bad, v, path, ["from", "peakUtc", "weekdays", "calendarUtcOffsetMinutes", "offPeakDates", "source"]);
  if (!Array.isArray(v.peakUtc)) bad.fail(`${path}.peakUtc`, `expected [["HH:MM", "HH:MM"], ...], got ${show(v.peakUtc)}`);
  const windowsUtc = v.peakUtc.map((w, i): [number, number] => {
    const p = `${path}.peakUtc[${i}]`;
    if (!Array.isArray(w) || w.length !== 2) bad.fail(p, `expected ["HH:MM", "HH:MM"], got ${show(w)}`);
    const start = clock(bad, w[0], `${p}[0]`);
    const end = clock(bad, w[1], `${p}[1]`);
    if (end <= start) bad.fail(p, "the window must end after it starts (windows do not cross midnight UTC)");
    return [start, end];
  });
  const weekdays = v.weekdays ?? [0, 1, 2, 3, 4, 5, 6];
  if (!Array.isArray(weekdays) || weekdays.some((d) => !Number.isInteger(d) || d < 0 || d > 6)) {
    bad.fail(`${path}.weekdays`, `expected day numbers 0 (Sunday) to 6, got ${show(weekdays)}`);
  }
  const offset = v.calendarUtcOffsetMinutes ?? 0;
  if (typeof offset !== "number" || !Number.isInteger(offset) || Math.abs(offset) > 14 * 60) {
    bad.fail(`${path}.calendarUtcOffsetMinutes`, `expected whole minutes east of UTC, got ${show(offset)}`);
  }
  const dates = v.offPeakDates ?? [];
  if (!Array.isArray(dates) || dates.some((d) => typeof d !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(d))) {
    bad.fail(`${path}.offPeakDates`, `expected a list of "YYYY-MM-DD" dates, got ${show(dates)}`);
  }
  return {
    from: instant(bad, v.from, `${path}.from`),
    windowsUtc,
    weekdays: weekdays as number[],
    calendarUtcOffsetMinutes: offset,
    offPeakDates: new Set(dates as string[]),
  };
}
