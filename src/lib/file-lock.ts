// Locks beside shared files, for writers in several processes at once: a file read, changed and
// written again whole (the MCP sign-in store) loses another process's change unless the read,
// the change and the write happen under one lock. The session lock (src/core/session/lock.ts)
// places its lock the same way.
//
// A lock is placed whole: its text is written to a file of this process's own and hard-linked
// to the lock's name (the link fails when the name exists, as an exclusive create does). So no
// process ever reads a lock half written, a full disk leaves no empty lock behind, and an empty
// or unreadable lock is always garbage (stale).

import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";

/** Put `text` at `file` whole, or not at all. False when the name is taken; a failed write
 *  throws (node's error, which names no file: callers name it). */
export function placeWhole(file: string, text: string): boolean {
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
    return createWhole(file, text); // a file system without hard links
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // never created, or already gone
    }
  }
}

/** An exclusive create, removed again when its write fails. */
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

/** Move the stale lock `file` aside and remove it — unless, in between, another process
 *  replaced it with a live one (its text is not `seen`), which is then put back. */
export function breakAside(file: string, seen: string): void {
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

export function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined; // no such file
  }
}

/** Whether process `pid` of this host is running. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // alive, someone else's
  }
}

const sleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Run `fn` holding `<target>.lock` (a short read-change-write of `target`): waits while a live
 *  process of this host holds it, up to `waitMs`, then throws an error naming the lock. A lock
 *  whose process is gone, that is unreadable, or that was held longer than `waitMs` (a process
 *  stopped mid-write) is broken. Held by pid, so not re-entrant within a process. */
export function withFileLock<T>(target: string, fn: () => T, waitMs = 10_000): T {
  const lock = `${target}.lock`;
  const me = JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() });
  const until = Date.now() + waitMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    let placed: boolean;
    try {
      placed = placeWhole(lock, me);
    } catch (err) {
      throw Object.assign(new Error(`could not write the lock ${lock}: ${(err as Error).message}`, { cause: err }), { code: (err as NodeJS.ErrnoException).code });
    }
    if (placed) break;
    const text = readText(lock);
    if (text === undefined) continue; // released between our link and our read
    if (stale(text, waitMs)) {
      breakAside(lock, text);
      continue;
    }
    if (Date.now() > until) throw new Error(`${lock} is held by another deepcode for over ${Math.round(waitMs / 1000)} s; if no deepcode is running, remove it`);
    sleep(pause + Math.floor(Math.random() * pause));
  }
  try {
    return fn();
  } finally {
    if (readText(lock) === me) {
      try {
        unlinkSync(lock);
      } catch {
        // already gone: nothing to release
      }
    }
  }
}

function stale(text: string, waitMs: number): boolean {
  let h: { pid?: unknown; host?: unknown; at?: unknown };
  try {
    h = JSON.parse(text) as typeof h;
  } catch {
    return true; // unreadable: placed whole, so never a lock being written
  }
  if (typeof h !== "object" || h === null || typeof h.pid !== "number" || typeof h.at !== "number") return true;
  if (Date.now() - h.at > waitMs) return true;
  return h.host === hostname() && !alive(h.pid);
}
