// The price table: DeepSeek's published prices (data/pricing.json in the package), merged with
// the settings `pricing` entries, and the two questions asked of it — is this instant peak, and
// what did model X cost at instant T.
//
// Settings `pricing` (validated; a bad key is a ConfigError naming it):
//   "pricing": {
//     "deepseek-flash": { "from": "2027-01-01", "usd": {...}, "cny": {...} },   // adds a row from that date
//     "deepseek-v4-pro": { "usd": {...}, "cny": {...} },                        // no `from`: replaces every row
//     "my-proxy-model": { "aliases": ["proxy-fast"], "usd": {...}, "cny": {...} } // a new family
//   }
// A value may also be a list of rows. Prices are `{ hit, miss, output }` per 1M tokens, or
// `{ offPeak: {...}, peak: {...} }`. A key naming an alias (e.g. `deepseek-chat`) prices that
// name on its own: it leaves its family and becomes a family of one.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError } from "../../contract/errors.js";
import { aliasList, Bad, keyPath, onlyKeys, priceRow, schedule, show } from "./parse-prices.js";
import type { PeakSchedule, PriceFamily, PriceLookup, PriceRow, PriceTable } from "./types.js";
import { isObject } from "../../lib/json.js";

const DATA_FILE = join("data", "pricing.json");

/** The package root holds data/. The compiled module lives in dist/src/core/cost/, the source
 *  (under vitest) in src/core/cost/: walk up until data/pricing.json is found. */
function dataPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, DATA_FILE);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new ConfigError(`cannot find ${DATA_FILE} above ${fileURLToPath(import.meta.url)}; the package is incomplete`);
}

let base: PriceTable | undefined;

/** The packaged table, read and validated once per process. */
function packaged(): PriceTable {
  if (base) return base;
  const file = dataPath();
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new ConfigError(`not valid JSON: ${(err as Error).message}`, file);
  }
  base = parseTable(json, new Bad(file));
  return base;
}

function parseTable(json: unknown, bad: Bad): PriceTable {
  if (!isObject<unknown>(json)) bad.fail("(top)", "expected an object");
  if (!Array.isArray(json.schedules)) bad.fail("schedules", `expected a list, got ${show(json.schedules)}`);
  if (!isObject<unknown>(json.families)) bad.fail("families", `expected an object, got ${show(json.families)}`);
  const schedules = json.schedules.map((s, i) => schedule(bad, s, `schedules[${i}]`)).sort((a, b) => a.from - b.from);
  const table: PriceTable = {
    families: new Map(),
    names: new Map(),
    schedules,
    source: typeof json.source === "string" ? json.source : "",
    checked: typeof json.checked === "string" ? json.checked : "",
  };
  for (const [name, fam] of Object.entries(json.families)) {
    const path = keyPath("families", name);
    if (!isObject<unknown>(fam)) bad.fail(path, `expected { aliases, rows }, got ${show(fam)}`);
    onlyKeys(bad, fam, path, ["aliases", "rows"]);
    if (!Array.isArray(fam.rows) || fam.rows.length === 0) bad.fail(`${path}.rows`, "expected at least one price row");
    const rows = fam.rows.map((r, i) => priceRow(bad, r, `${path}.rows[${i}]`, "data"));
    addFamily(table, { name: name.toLowerCase(), aliases: aliasList(bad, fam.aliases, `${path}.aliases`), rows: sortRows(rows) });
  }
  return table;
}

function sortRows(rows: PriceRow[]): PriceRow[] {
  return [...rows].sort((a, b) => (a.from ?? -Infinity) - (b.from ?? -Infinity));
}

function addFamily(table: PriceTable, fam: PriceFamily): void {
  table.families.set(fam.name, fam);
  table.names.set(fam.name, fam.name);
  for (const a of fam.aliases) table.names.set(a, fam.name);
}

function copyTable(t: PriceTable): PriceTable {
  const families = new Map<string, PriceFamily>();
  for (const [k, f] of t.families) families.set(k, { name: f.name, aliases: [...f.aliases], rows: [...f.rows] });
  return { ...t, families, names: new Map(t.names), schedules: [...t.schedules] };
}

/**
 * The price table in force: the packaged prices with the settings `pricing` entries applied.
 * `file` names the settings file in error messages. The packaged part is read once and shared;
 * each call returns a fresh table, so overrides never leak between callers.
 */
export function loadPriceTable(overrides?: unknown, opts: { file?: string } = {}): PriceTable {
  const table = copyTable(packaged());
  if (overrides === undefined || overrides === null) return table;
  const bad = new Bad(opts.file);
  if (!isObject<unknown>(overrides)) bad.fail("pricing", `expected an object of model names to price rows, got ${show(overrides)}`);
  for (const [rawName, value] of Object.entries(overrides)) {
    const name = rawName.trim().toLowerCase();
    const path = keyPath("pricing", rawName);
    if (name === "") bad.fail(path, "a model name cannot be empty");
    const list = Array.isArray(value) ? value : [value];
    if (list.length === 0) bad.fail(path, "expected a price row or a list of rows");
    const rows = list.map((r, i) => priceRow(bad, r, Array.isArray(value) ? `${path}[${i}]` : path, "settings"));
    const aliases = list.flatMap((r, i) =>
      aliasList(bad, isObject<unknown>(r) ? r.aliases : undefined, `${Array.isArray(value) ? `${path}[${i}]` : path}.aliases`),
    );
    applyOverride(table, name, rows, aliases);
  }
  return table;
}

function applyOverride(table: PriceTable, name: string, rows: PriceRow[], aliases: string[]): void {
  const owner = table.names.get(name);
  let fam = owner === name ? table.families.get(name) : undefined;
  if (!fam) {
    // A new name, or an alias priced on its own: detach it from its old family.
    if (owner) {
      const old = table.families.get(owner);
      if (old) old.aliases = old.aliases.filter((a) => a !== name);
    }
    fam = { name, aliases: [], rows: [] };
    table.families.set(name, fam);
  }
  // A row without `from` says "this is the price", for all time: it replaces what was there.
  if (rows.some((r) => r.from === null)) fam.rows = [];
  for (const row of rows) {
    fam.rows = fam.rows.filter((r) => r.from !== row.from);
    fam.rows.push(row);
  }
  fam.rows = sortRows(fam.rows);
  for (const a of aliases) {
    const prev = table.names.get(a);
    const prevFam = prev ? table.families.get(prev) : undefined;
    if (prevFam && prevFam !== fam) prevFam.aliases = prevFam.aliases.filter((x) => x !== a);
    if (!fam.aliases.includes(a)) fam.aliases.push(a);
  }
  table.names.set(name, name);
  for (const a of fam.aliases) table.names.set(a, name);
}

let defaultTable: PriceTable | undefined;
function tableOrDefault(table?: PriceTable): PriceTable {
  if (table) return table;
  defaultTable ??= loadPriceTable();
  return defaultTable;
}

function scheduleAt(table: PriceTable, t: number): PeakSchedule | undefined {
  let found: PeakSchedule | undefined;
  for (const s of table.schedules) if (s.from <= t) found = s;
  return found;
}

/** Whether peak prices apply at `at` (Chinese statutory holidays and weekends are off-peak). */
export function isPeak(at: Date, table?: PriceTable): boolean {
  const t = at.getTime();
  const s = scheduleAt(tableOrDefault(table), t);
  if (!s) return false;
  const local = new Date(t + s.calendarUtcOffsetMinutes * 60_000);
  if (!s.weekdays.includes(local.getUTCDay())) return false;
  if (s.offPeakDates.has(local.toISOString().slice(0, 10))) return false;
  const minute = at.getUTCHours() * 60 + at.getUTCMinutes();
  return s.windowsUtc.some(([start, end]) => minute >= start && minute < end);
}

/** The family a model name is billed as, or undefined when the table does not know it. */
export function familyOf(model: string, table?: PriceTable): string | undefined {
  return tableOrDefault(table).names.get(model.trim().toLowerCase());
}

/** The prices model `model` was billed at, at instant `at`. Never a silent zero: an unknown
 *  model, or a time before its first row, is `ok: false` with a message saying what to do. */
export function priceFor(model: string, at: Date, table?: PriceTable): PriceLookup {
  const t = tableOrDefault(table);
  const familyName = familyOf(model, t);
  const fam = familyName ? t.families.get(familyName) : undefined;
  if (!fam) {
    return { ok: false, model, message: `no price for model "${model}"; add it under \`pricing\` in settings` };
  }
  const ms = at.getTime();
  let row: PriceRow | undefined;
  for (const r of fam.rows) if (r.from === null || r.from <= ms) row = r;
  if (!row) {
    return {
      ok: false,
      model,
      message: `no price for model "${model}" at ${at.toISOString()} (its first price row starts later); add one under \`pricing\` in settings`,
    };
  }
  const peak = isPeak(at, t);
  return {
    ok: true,
    model,
    family: fam.name,
    peak,
    usd: peak ? row.usd.peak : row.usd.offPeak,
    cny: peak ? row.cny.peak : row.cny.offPeak,
    row,
  };
}
