// Appending a session's records. One writer per session (the lock, lock.ts); each record is
// one write(2) of a whole line, so a kill -9 loses at most the line being written.
//
// Before each append the writer checks that the file it holds open is still the one at its
// path (device and inode): a transcript deleted or replaced mid-session would otherwise swallow
// every later record into an unlinked file, silently. When it is not, the file at the path is
// opened (created) again, re-seeded with what the engine holds (the session, its prefix and
// the conversation so far, `reseed`), and the engine is told (`warn`) so it can say so. When the
// file grew or shrank behind the writer's back (someone else wrote to it, or cut it), the next
// record starts on a fresh line, never glued to a torn one.
//
// A write that fails (a full disk) is undone: the file is cut back to where the record began, so
// no torn line is left, and the record is kept and written before the next one, so nothing the
// session did is lost once space is back (the failure still reaches the caller, which says so).
// When the cut fails too, the size is unknown and the next append repairs the line first: the
// size is only ever recorded once the repairing newline is on disk.

import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { SessionRecord } from "./records.js";

export interface WriterHooks {
  /** Records that rebuild the session as this process holds it, for a file written again. */
  reseed?: () => SessionRecord[];
  /** Something the person must hear about the file (deleted, replaced). */
  warn?: (message: string) => void;
  /** Called when the file was written again (the lock beside it may be gone too). */
  reopened?: () => void;
  /** Called once when the writer closes (the lock is released). */
  closed?: () => void;
}

/** An error that names the session file (node's ENOSPC names none). */
function fileError(file: string, err: unknown): Error {
  const e = err as NodeJS.ErrnoException;
  const why = e.code === "ENOSPC" ? "no space left on device (ENOSPC); what could not be written is kept and written when space is back" : e.message;
  return Object.assign(new Error(`could not write the session file ${file}: ${why}`, { cause: err }), { code: e.code });
}

/** Records a re-seeded file holds already: the seed is the session as the engine holds it. */
const SEEDED = new Set<SessionRecord["t"]>(["session", "prefix", "msg", "epoch", "rewind", "model"]);

export class SessionWriter {
  private fd: number | undefined;
  private ident = { dev: 0, ino: 0 };
  /** The file's size as this writer left it; -1 when a failed write left it unknown. */
  private size = 0;
  /** Lines a failed write could not put on disk, oldest first, written before the next record. */
  private unwritten: Array<{ t: SessionRecord["t"]; line: string }> = [];
  hooks: WriterHooks;

  constructor(
    readonly file: string,
    hooks: WriterHooks = {},
  ) {
    this.hooks = hooks;
  }

  /** Write `record` (after any kept from a failed write). Throws an error naming the file when
   *  the disk refuses; the record is kept and written by a later append or the close. */
  append(record: SessionRecord): void {
    try {
      this.appendLine(record);
    } catch (err) {
      throw fileError(this.file, err);
    }
  }

  private appendLine(record: SessionRecord): void {
    const line = { t: record.t, line: `${JSON.stringify(record)}\n` };
    const pending = [...this.unwritten, line];
    this.unwritten = pending;
    if (this.fd === undefined) this.open();
    else if (this.check()) this.unwritten = this.unwritten.filter((u) => !SEEDED.has(u.t));
    while (this.unwritten.length) {
      this.write(this.unwritten[0].line);
      this.unwritten.shift();
    }
  }

  /** Lines still waiting for space on the disk. */
  get pending(): number {
    return this.unwritten.length;
  }

  close(): void {
    if (this.fd !== undefined && this.unwritten.length) {
      try {
        while (this.unwritten.length) {
          this.write(this.unwritten[0].line);
          this.unwritten.shift();
        }
      } catch {
        // still no space: the caller was told when the records first failed
      }
    }
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    const closed = this.hooks.closed;
    this.hooks = {};
    closed?.();
  }

  private open(): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    this.fd = openSync(this.file, "a+", 0o600);
    const st = fstatSync(this.fd);
    this.ident = { dev: st.dev, ino: st.ino };
    this.size = -1;
    this.freshLine(st.size);
  }

  /** True when the file was written again from the engine's seed: the seed holds the session
   *  as it stands, the record being appended included when it is a message (the engine logs a
   *  message after it holds it), so the seed's kinds of record are not written again. */
  private check(): boolean {
    let st: { dev: number; ino: number; size: number } | undefined;
    try {
      st = statSync(this.file);
    } catch {
      st = undefined; // deleted
    }
    if (!st || st.dev !== this.ident.dev || st.ino !== this.ident.ino) {
      closeSync(this.fd!);
      this.fd = undefined;
      this.open();
      const seed = this.hooks.reseed?.() ?? [];
      for (const r of seed) this.write(`${JSON.stringify(r)}\n`);
      this.hooks.reopened?.();
      const what = st ? "replaced by another file" : "deleted";
      this.hooks.warn?.(`the session file ${this.file} was ${what} while this session ran; it was written again with the conversation so far${seed.length ? "" : " (nothing to re-seed it with)"} and the session goes on in it — what the old file held beyond that (usage and turn records) is not in it`);
      return seed.length > 0;
    }
    if (st.size !== this.size) this.freshLine(st.size);
    return false;
  }

  /** A file whose last byte is not a newline (a torn line) gets one before the next record;
   *  the size is recorded only once that newline is on disk. */
  private freshLine(size: number): void {
    this.size = -1;
    const last = Buffer.alloc(1);
    if (size > 0 && readSync(this.fd!, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a) {
      writeSync(this.fd!, "\n");
      size += 1;
    }
    this.size = size;
  }

  private write(text: string): void {
    const bytes = Buffer.from(text);
    let off = 0;
    try {
      while (off < bytes.length) off += writeSync(this.fd!, bytes, off, bytes.length - off);
    } catch (err) {
      this.undo(off);
      throw err;
    }
    this.size += bytes.length;
  }

  /** Cut a part-written line back off, so the file ends where the last whole record does. */
  private undo(written: number): void {
    if (written === 0) return;
    const size = this.size;
    this.size = -1;
    if (size < 0) return;
    try {
      ftruncateSync(this.fd!, size);
      this.size = size;
    } catch {
      // the cut failed: the size stays unknown, so the next append repairs the torn line first
    }
  }
}
