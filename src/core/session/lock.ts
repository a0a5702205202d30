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

import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";

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
    if (placeLock(file, JSON.stringify(me))) {
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
    // A lock appears whole (placeLock), so one that is empty or holds no holder is garbage a
    // crash or a full disk left (or an older deepcode's half-written one): stale, and broken.
    if (!holder || isStale(holder)) {
      breakStale(file, text);
      continue;
    }
    throw new SessionBusyError(id, holder, file);
  }
  throw new Error(`could not take the lock ${file}: it keeps changing (another deepcode is starting on this session)`);
}

/** Put the lock at `file` whole, or not at all: written to a file of this process's own and
 *  hard-linked to the name (link fails when the name exists, as an exclusive create does), so
 *  no other process ever reads a lock half written, and a full disk leaves no empty lock behind.
 *  False when the name is taken; a write that fails throws an error naming the lock. */
function placeLock(file: string, text: string): boolean {
  const tmp = `${file}.${process.pid}.new`;
  try {
    const fd = openSync(tmp, "w", 0o600);
    try {
      const bytes = Buffer.from(text);
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(tmp, file);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return false;
      if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS") throw err;
    }
    // A file system without hard links: an exclusive create, removed again if its write fails.
    return createWhole(file, text);
  } catch (err) {
    throw lockError(file, err);
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // never created, or already gone
    }
  }
}

function createWhole(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  try {
    writeSync(fd, text);
  } catch (err) {
    closeSync(fd);
    unlinkSync(file);
    throw err;
  }
  closeSync(fd);
  return true;
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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // alive, someone else's
  }
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

/** Move the stale lock aside and remove it — unless, in between, another process replaced it
 *  with a live one, which is then put back. */
function breakStale(file: string, seen: string): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
  } catch {
    return; // someone else broke it first
  }
  if (readText(aside) !== seen) {
    try {
      linkSync(aside, file);
    } catch {
      // a newer lock stands at the name already: it wins
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // already gone
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined; // no lock
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
