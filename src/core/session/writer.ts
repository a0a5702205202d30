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

import { closeSync, fstatSync, mkdirSync, openSync, readSync, statSync, writeSync } from "node:fs";
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

export class SessionWriter {
  private fd: number | undefined;
  private ident = { dev: 0, ino: 0 };
  /** The file's size as this writer left it. */
  private size = 0;
  hooks: WriterHooks;

  constructor(
    readonly file: string,
    hooks: WriterHooks = {},
  ) {
    this.hooks = hooks;
  }

  append(record: SessionRecord): void {
    if (this.fd === undefined) this.open();
    else this.check();
    this.write(`${JSON.stringify(record)}\n`);
  }

  close(): void {
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
    this.size = st.size;
    this.freshLine();
  }

  private check(): void {
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
      return;
    }
    if (st.size !== this.size) {
      this.size = st.size;
      this.freshLine();
    }
  }

  /** A file whose last byte is not a newline (a torn line) gets one before the next record. */
  private freshLine(): void {
    if (this.size === 0) return;
    const last = Buffer.alloc(1);
    if (readSync(this.fd!, last, 0, 1, this.size - 1) === 1 && last[0] !== 0x0a) this.write("\n");
  }

  private write(text: string): void {
    const bytes = Buffer.from(text);
    let off = 0;
    while (off < bytes.length) off += writeSync(this.fd!, bytes, off, bytes.length - off);
    this.size += bytes.length;
  }
}
