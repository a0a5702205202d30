// Temp files of atomic writes that a killed process left behind. fs.write writes a temp file
// next to its target and renames it into place; a process killed between the two (kill -9, a
// power cut) leaves the temp file, up to the size of the file being written, in the project.
//
// So each write in flight is noted in a journal folder (one small entry per write, named
// `<pid>.<random>`, holding the temp file's path) and the entry removed when the write ends.
// At start-up `sweepStaleWrites` removes the temp files of entries whose process is gone, and
// the entries: bounded (at most `limit` entries a start), and only files named as fs.write
// names its temp files, so an entry that was tampered with cannot delete anything else.
// Without a journal folder (none given, or not writable) writes go on unjournaled.

import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

/** How fs.write names its temp files: `.<target name>.<pid>.<12 hex>.tmp`. */
export const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{12}\.tmp$/;

let journalDir: string | undefined;

/** Where in-flight writes are noted (deepcode's home `writes/`); undefined turns it off. */
export function setWriteJournal(dir: string | undefined): void {
  journalDir = dir;
}

/** Notes a write in flight; the returned function removes the note. Never throws. */
export function noteWrite(tmp: string): () => void {
  const dir = journalDir;
  if (!dir) return () => undefined;
  const entry = join(dir, `${process.pid}.${randomBytes(6).toString("hex")}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(entry, tmp, { mode: 0o600 });
  } catch {
    return () => undefined; // a read-only or full home: the write goes on without its note
  }
  return () => {
    try {
      unlinkSync(entry);
    } catch {
      // ENOENT: a concurrent sweep took it; anything else leaves a note the next sweep clears
    }
  };
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // someone else's live process
  }
}

/** Removes the temp files of writes whose process is gone; returns how many files it removed. */
export function sweepStaleWrites(dir: string, limit = 500): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0; // no journal yet (ENOENT) or unreadable: nothing to sweep
  }
  let removed = 0;
  for (const name of names.slice(0, limit)) {
    const m = /^(\d+)\.[0-9a-f]{12}$/.exec(name);
    if (!m || alive(Number(m[1]))) continue;
    const entry = join(dir, name);
    try {
      const tmp = readFileSync(entry, "utf8");
      const t = TEMP_NAME.exec(basename(tmp));
      if (t && t[1] === m[1]) {
        unlinkSync(tmp);
        removed++;
      }
    } catch {
      // ENOENT: the write finished (renamed) or the file is gone already
    }
    try {
      unlinkSync(entry);
    } catch {
      // ENOENT: another deepcode swept it at the same time
    }
  }
  return removed;
}
