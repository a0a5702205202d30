// One writer per session: `<id>.lock` beside the transcript names the process that writes it
// (pid, host, when, and the process's start tick so a reused pid is not mistaken for it). Two
// processes appending to one transcript interleave their records and make every later request
// invalid, so a second process is told who holds the session instead (and may fork it).
//
// A lock is placed whole (written aside, then linked to its name), so an empty or unreadable
// lock is never another process mid-write: it is stale, as is a lock whose process is gone
// (kill -9, a crash, a reboot), and is taken over; one
// held on another host cannot be checked and counts as held (the message says how to remove
// it). The lock is released when its engine closes and, as a backstop, when the process exits.

import { readFileSync, unlinkSync } from "node:fs";
import { hostname } from "node:os";
import { alive, breakAside, placeWhole, readText } from "../../lib/file-lock.js";

export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the lock was taken. */
  started: string;
  /** The process's start tick (Linux /proc/<pid>/stat field 22), when known. */
  tick?: string;
}

/** The session is being written by another process. */
export class SessionBusyError extends Error {
  constructor(
    readonly id: string,
    readonly holder: LockHolder,
    readonly lockFile: string,
  ) {
    super(`session ${id} is in use by deepcode (pid ${holder.pid} on ${holder.host}, since ${holder.started}): one process writes a session at a time; --fork-session continues a copy of it${holder.host === hostname() ? "" : ` (if that process is gone, remove ${lockFile})`}`);
    this.name = "SessionBusyError";
  }
}

const held = new Set<string>();
let exitHook = false;

/** Take the lock for this process, or throw SessionBusyError naming its holder. A lock this
 *  process already holds is taken again (an engine resuming what another engine of the same
 *  process had open: the process is the writer). */
export function acquireLock(file: string, id: string): void {
  for (let attempt = 0; attempt < 5; attempt++) {
    const me: LockHolder = { pid: process.pid, host: hostname(), started: new Date().toISOString(), tick: startTick(process.pid) };
    let placed: boolean;
    try {
      placed = placeWhole(file, JSON.stringify(me));
    } catch (err) {
      throw lockError(file, err);
    }
    if (placed) {
      remember(file);
      return;
    }
    const text = readText(file);
    if (text === undefined) continue; // removed between our link and read: try again
    const holder = parseHolder(text);
    if (holder && holder.pid === process.pid && holder.host === me.host) {
      remember(file);
      return;
    }
    // A lock appears whole (placeWhole), so one that is empty or holds no holder is garbage a
    // crash or a full disk left (or an older deepcode's half-written one): stale, and broken.
    if (!holder || isStale(holder)) {
      breakAside(file, text);
      continue;
    }
    throw new SessionBusyError(id, holder, file);
  }
  throw new Error(`could not take the lock ${file}: it keeps changing (another deepcode is starting on this session)`);
}

/** An error that names the lock (node's ENOSPC names no file). */
function lockError(file: string, err: unknown): Error {
  const e = err as NodeJS.ErrnoException;
  if (e.code === "ENOSPC") return Object.assign(new Error(`could not write the session lock ${file}: no space left on device (ENOSPC); free some space and start again`, { cause: err }), { code: e.code });
  return Object.assign(new Error(`could not write the session lock ${file}: ${e.message}`, { cause: err }), { code: e.code });
}

/** Who holds the lock, when it is held by a live process other than this one. */
export function lockHolder(file: string): LockHolder | undefined {
  const text = readText(file);
  if (text === undefined) return undefined;
  const holder = parseHolder(text);
  if (!holder) return undefined;
  if (holder.pid === process.pid && holder.host === hostname()) return undefined;
  return isStale(holder) ? undefined : holder;
}

/** Give the lock up (only if it is still this process's). */
export function releaseLock(file: string): void {
  held.delete(file);
  const holder = parseHolder(readText(file) ?? "");
  if (holder?.pid !== process.pid || holder.host !== hostname()) return;
  try {
    unlinkSync(file);
  } catch {
    // already gone: nothing to release
  }
}

function remember(file: string): void {
  held.add(file);
  if (exitHook) return;
  exitHook = true;
  process.once("exit", () => {
    for (const f of [...held]) releaseLock(f);
  });
}

function isStale(h: LockHolder): boolean {
  if (h.host !== hostname()) return false; // another machine's process cannot be checked
  if (!alive(h.pid)) return true;
  const tick = startTick(h.pid);
  return h.tick !== undefined && tick !== undefined && tick !== h.tick; // the pid was reused
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); undefined elsewhere. */
function startTick(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined; // not Linux, or the process is gone
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (typeof h.pid === "number" && typeof h.host === "string" && typeof h.started === "string") return { pid: h.pid, host: h.host, started: h.started, tick: typeof h.tick === "string" ? h.tick : undefined };
  } catch {
    // a lock being written, or garbage: the caller decides
  }
  return undefined;
}
