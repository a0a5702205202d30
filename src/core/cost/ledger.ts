// The usage ledger: `<home>/usage.jsonl`, one JSON line per model request, appended as each
// response arrives (mode 0600 in a 0700 home). It is what `deepcode stats`, `/cost` and the
// budgets read. Lines are never rewritten.
//
// A process killed mid-write can leave a torn last line. Reading skips any line that is not a
// whole record and reports it; appending first ends a torn line with a newline, so the next
// record is never glued onto it.

import { closeSync, constants, fstatSync, ftruncateSync, openSync, readSync, writeSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { NotRegularFileError, fileKind, readRegularFileSync } from "../../lib/regular-file.js";
import type { Usage } from "../../contract/wire.js";
import { splitPrompt } from "./calc.js";
import type { TaskClass } from "../estimate/classify.js";
import type { Cost } from "./types.js";

export const LEDGER_FILE = "usage.jsonl";

export interface LedgerEstimate {
  tier: string;
  lowUsd: number;
  highUsd: number;
  taskClass: TaskClass | string;
  /** The subagent runs it counted (low, high), when it expected any: a low of 1 or more means
   *  the prompt asked for delegation (shapes.ts tells asked delegating turns from the others). */
  subagents?: [number, number];
}

/** One request. Costs are as billed at `time` (the price then in force); savings likewise. */
export interface LedgerRecord {
  /** ISO 8601 instant the response arrived. */
  time: string;
  project: string;
  session: string;
  model: string;
  family: string;
  tier?: string;
  turn: number;
  /** Model round within the turn (1-based), when known. */
  step?: number;
  prompt: number;
  hit: number;
  miss: number;
  completion: number;
  reasoning: number;
  usd: number;
  cny: number;
  savingUsd: number;
  savingCny: number;
  peak: boolean;
  /** The estimate shown before the turn, on every request of that turn, when there was one. */
  estimate?: LedgerEstimate;
  /** A subagent's request: its agent type, and its own session. `session` and `turn` are then
   *  the main session's and turn's it worked for (so a session's cost includes its subagents). */
  agent?: string;
  agentSession?: string;
  /** The API sent no usage for this request: the token counts (and so the cost) are deepcode's
   *  estimate from the text (src/core/engine/usage-estimate.ts), not what was billed. */
  estimated?: true;
}

export interface SkippedLine {
  line: number;
  reason: string;
  /** True for the last line of the file without a newline: a write cut short. */
  torn: boolean;
}

export interface LedgerRead {
  records: LedgerRecord[];
  skipped: SkippedLine[];
}

/** The ledger line for one request, from its usage and its cost (costOf). */
export function ledgerRecord(r: {
  at: Date;
  project: string;
  session: string;
  turn: number;
  step?: number;
  tier?: string;
  usage: Usage;
  cost: Cost;
  estimate?: LedgerEstimate;
  agent?: { name: string; session: string };
  estimated?: boolean;
}): LedgerRecord {
  const { hit, miss } = splitPrompt(r.usage);
  const rec: LedgerRecord = {
    time: r.at.toISOString(),
    project: r.project,
    session: r.session,
    model: r.cost.model,
    family: r.cost.family,
    turn: r.turn,
    prompt: r.usage.prompt_tokens,
    hit,
    miss,
    completion: r.usage.completion_tokens,
    reasoning: r.usage.reasoning_tokens,
    usd: r.cost.usd,
    cny: r.cost.cny,
    savingUsd: r.cost.savingUsd,
    savingCny: r.cost.savingCny,
    peak: r.cost.peak,
  };
  if (r.tier !== undefined) rec.tier = r.tier;
  if (r.step !== undefined) rec.step = r.step;
  if (r.estimate) rec.estimate = { ...r.estimate };
  if (r.agent) {
    rec.agent = r.agent.name;
    rec.agentSession = r.agent.session;
  }
  if (r.estimated) rec.estimated = true;
  return rec;
}

export function ledgerPath(home: string): string {
  return join(home, LEDGER_FILE);
}

/** Whether the open ledger's last byte is not a newline (a torn last line). */
function endsTorn(fd: number, size: number): boolean {
  if (size === 0) return false;
  const b = Buffer.alloc(1);
  readSync(fd, b, 0, 1, size - 1);
  return b[0] !== 0x0a;
}

/** O_APPEND | O_CREAT, and O_NONBLOCK so a FIFO at the ledger's path fails (ENXIO) or is
 *  refused after fstat instead of waiting for a reader; O_RDWR to look at the last byte. */
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0);

export async function appendLedger(home: string, record: LedgerRecord): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  const path = ledgerPath(home);
  let fd: number;
  try {
    fd = openSync(path, APPEND_FLAGS, 0o600);
  } catch (err) {
    throw ledgerError(path, err);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new NotRegularFileError(path, fileKind(st));
    const line = `${endsTorn(fd, st.size) ? "\n" : ""}${JSON.stringify(record)}\n`;
    // One write with O_APPEND: concurrent sessions interleave whole lines, not bytes. A short
    // write (a full disk) fails the line, which the book keeps and writes again; the part that
    // went out is cut off again when nobody wrote after it, else the next line starts afresh.
    const bytes = Buffer.from(line);
    const wrote = writeSync(fd, bytes);
    if (wrote < bytes.length) {
      try {
        if (fstatSync(fd).size === st.size + wrote) ftruncateSync(fd, st.size);
      } catch {
        // the cut failed: the torn line is skipped on read and the next line starts a fresh one
      }
      const err: NodeJS.ErrnoException = new Error(`ENOSPC: no space left on device, write (${wrote} of ${bytes.length} bytes)`);
      err.code = "ENOSPC";
      throw err;
    }
  } finally {
    closeSync(fd);
  }
}

/** An error about the ledger file that names it (node's EISDIR, ENXIO… do not). */
export function ledgerError(path: string, err: unknown): Error {
  if (err instanceof NotRegularFileError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "EISDIR") return new Error(`the usage ledger ${path} is a directory, not a file: move it away`);
  if (code === "ENXIO") return new Error(`${path} is a named pipe (FIFO), not a regular file`);
  return new Error(`cannot use the usage ledger ${path} (${code ?? (err as Error).message})`);
}

const NUMBERS = ["turn", "prompt", "hit", "miss", "completion", "reasoning", "usd", "cny", "savingUsd", "savingCny"] as const;
const STRINGS = ["time", "project", "session", "model", "family"] as const;

/** Why `v` is not a ledger record, or undefined when it is one. */
function invalid(v: unknown): string | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "not a JSON object";
  const r = v as Record<string, unknown>;
  for (const k of STRINGS) if (typeof r[k] !== "string") return `"${k}" is not a string`;
  if (Number.isNaN(Date.parse(r.time as string))) return `"time" is not an ISO instant`;
  for (const k of NUMBERS) if (typeof r[k] !== "number" || !Number.isFinite(r[k])) return `"${k}" is not a number`;
  if (typeof r.peak !== "boolean") return `"peak" is not true or false`;
  if (r.agent !== undefined && typeof r.agent !== "string") return `"agent" is not a string`;
  if (r.estimate !== undefined) {
    const e = r.estimate as Record<string, unknown> | null;
    if (typeof e !== "object" || e === null || typeof e.lowUsd !== "number" || typeof e.highUsd !== "number" || typeof e.tier !== "string") {
      return `"estimate" is not { tier, lowUsd, highUsd, taskClass }`;
    }
  }
  return undefined;
}

/** Parses ledger text; exposed for tests and for callers that hold the text already. */
export function parseLedger(text: string): LedgerRead {
  const records: LedgerRecord[] = [];
  const skipped: SkippedLine[] = [];
  const lines = text.split("\n");
  const lastIsPartial = !text.endsWith("\n");
  lines.forEach((raw, i) => {
    if (raw.trim() === "") return;
    const torn = lastIsPartial && i === lines.length - 1;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      skipped.push({ line: i + 1, reason: torn ? "torn last line (a write cut short)" : "not valid JSON", torn });
      return;
    }
    const why = invalid(v);
    if (why) skipped.push({ line: i + 1, reason: why, torn });
    else records.push(v as LedgerRecord);
  });
  return { records, skipped };
}

/** Every record of `<home>/usage.jsonl`; a missing file is an empty ledger. Anything else at
 *  that path (a folder, a FIFO) is an error naming the file. */
export async function readLedger(home: string): Promise<LedgerRead> {
  return parseLedger(readLedgerText(ledgerPath(home)));
}

/** The ledger's text ("" when there is none); throws an error naming the file otherwise. */
export function readLedgerText(path: string): string {
  try {
    return readRegularFileSync(path).data.toString("utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw ledgerError(path, err);
  }
}
