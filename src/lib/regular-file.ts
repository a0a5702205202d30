// Reading a file that must be a regular file, without ever blocking on one that is not.
//
// Opening a named pipe (FIFO) for reading blocks until a writer appears, and reading a FIFO or
// a character device (/dev/zero, a terminal) may never end; a synchronous open of one freezes the
// main thread so that Ctrl-C, SIGTERM and closing the terminal do nothing. So every file deepcode
// (or a mod) reads on its own — tool reads, @-mentions, settings, the usage ledger, instruction,
// skill and agent files — is opened with O_NONBLOCK (an open that returns at once, whatever is
// there) and O_NOCTTY, then checked with fstat on the very descriptor it will read: anything but
// a regular file is closed again and refused with a `NotRegularFileError` (code "ENOTREG") that
// says what it is. A directory keeps node's own EISDIR code, so callers that report folders
// still recognise it. O_NONBLOCK has no effect on reading a regular file.
//
// This is the one file of the contract that imports node:fs (check-boundaries allows it here
// only): mods may import it like the rest of the contract.

import { closeSync, constants, fstat, fstatSync, open, openSync, readSync } from "node:fs";
import type { Stats } from "node:fs";

/** open(2) flags for a read that never blocks on the open itself (0 where the platform lacks them). */
export const READ_NONBLOCK_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** What a path that is not a regular file is, in words ("a named pipe (FIFO)"…). */
export function fileKind(st: Stats): string {
  if (st.isFIFO()) return "a named pipe (FIFO)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isDirectory()) return "a directory";
  if (st.isSymbolicLink()) return "a symbolic link";
  return st.isFile() ? "a regular file" : "not a regular file";
}

/** A path that exists but is not a regular file (nor a directory: that is EISDIR). */
export class NotRegularFileError extends Error {
  readonly code = "ENOTREG";
  constructor(readonly path: string, readonly kind: string) {
    super(`${path} is ${kind}, not a regular file`);
    this.name = "NotRegularFileError";
  }
}

function refuse(fd: number, path: string, st: Stats): never {
  try {
    closeSync(fd);
  } catch {
    // EBADF cannot happen for a descriptor just opened; nothing else to do on a failed close
  }
  if (st.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), { code: "EISDIR", path });
  throw new NotRegularFileError(path, fileKind(st));
}

/** Open `path` for reading; the descriptor is a regular file's (else it is closed and a
 *  NotRegularFileError or EISDIR thrown). The caller closes it. */
export function openRegularSync(path: string): { fd: number; stat: Stats } {
  const fd = openSync(path, READ_NONBLOCK_FLAGS);
  let st: Stats;
  try {
    st = fstatSync(fd);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  if (!st.isFile()) refuse(fd, path, st);
  return { fd, stat: st };
}

/** The asynchronous twin of openRegularSync (node:fs callbacks: the thread pool, never the main thread). */
export function openRegular(path: string): Promise<{ fd: number; stat: Stats }> {
  return new Promise((resolve, reject) => {
    open(path, READ_NONBLOCK_FLAGS, (err, fd) => {
      if (err) return reject(err);
      fstat(fd, (err2, st) => {
        if (err2) {
          closeSync(fd);
          return reject(err2);
        }
        try {
          if (!st.isFile()) refuse(fd, path, st);
        } catch (e) {
          return reject(e);
        }
        resolve({ fd, stat: st });
      });
    });
  });
}

/**
 * A regular file's bytes, at most `maxBytes` of them (default: all). `truncated` says the file
 * holds more. Throws ENOENT/EACCES… as node:fs does, EISDIR for a directory, and a
 * NotRegularFileError for a FIFO, socket or device — at once, never waiting on a writer.
 */
export function readRegularFileSync(path: string, maxBytes = Number.POSITIVE_INFINITY): { data: Buffer; stat: Stats; truncated: boolean } {
  const { fd, stat } = openRegularSync(path);
  try {
    const chunks: Buffer[] = [];
    let got = 0;
    let size = Math.max(Math.min(maxBytes, stat.size), 8192);
    let truncated = false;
    for (;;) {
      const want = Math.min(size, maxBytes - got);
      if (want <= 0) {
        truncated = readSync(fd, Buffer.alloc(1), 0, 1, got) > 0;
        break;
      }
      const buf = Buffer.allocUnsafe(want);
      let filled = 0;
      while (filled < want) {
        const n = readSync(fd, buf, filled, want - filled, got + filled);
        if (n === 0) break;
        filled += n;
      }
      chunks.push(buf.subarray(0, filled));
      got += filled;
      if (filled < want) break; // end of file
      size = 64 * 1024;
    }
    return { data: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), stat, truncated };
  } finally {
    closeSync(fd);
  }
}

/** A regular file's text (UTF-8, as read; a BOM is kept). */
export function readRegularTextSync(path: string): string {
  return readRegularFileSync(path).data.toString("utf8");
}

/** The largest configuration file judged by its content (an `.npmrc`…): a larger one is not
 *  read and counts as a secret (contract `secretFileReason`). */
export const CONFIG_TEXT_MAX = 64 * 1024;

/** A small configuration file's text, or null when it is not a readable regular file of at
 *  most CONFIG_TEXT_MAX bytes: the reader `secretFileReason` takes. */
export function readConfigText(path: string): string | null {
  try {
    const r = readRegularFileSync(path, CONFIG_TEXT_MAX);
    return r.truncated ? null : r.data.toString("utf8");
  } catch {
    return null; // unreadable, gone, or not a regular file: the name decides (a secret)
  }
}
