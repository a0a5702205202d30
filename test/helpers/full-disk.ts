// A disk that fills up, for tests, without root (no small tmpfs to fill): `vi.mock` puts
// `mockFs` in front of node:fs, and `disk.left` says how many more bytes the disk takes
// (Infinity: not full). A write that does not fit writes what fits and then fails ENOSPC,
// as a real full disk does (a torn line, half a file). Only writes are limited: reads, renames,
// links and unlinks go on as on a full disk (they need no new blocks). Nothing in src/ knows of
// this: it exists only in the test files that mock node:fs with it.
//
//   vi.mock("node:fs", async (orig) => (await import("../helpers/full-disk.js")).mockFs(await orig()));
//   import { disk } from "../helpers/full-disk.js";
import type * as Fs from "node:fs";

export const disk = {
  /** Bytes the disk still takes. */
  left: Infinity,
  /** Failed writes so far (each one an ENOSPC thrown). */
  refused: 0,
  /** When set, only writes to files below this folder count (the one file system that is
   *  full, as when deepcode's home is on another disk than the project). */
  under: undefined as string | undefined,
  fill(under?: string): void {
    this.left = 0;
    this.under = under;
  },
  free(): void {
    this.left = Infinity;
    this.under = undefined;
  },
};

export function enospc(syscall: string, path?: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`ENOSPC: no space left on device, ${syscall}${path ? ` '${path}'` : ""}`);
  err.code = "ENOSPC";
  err.errno = -28;
  err.syscall = syscall;
  if (path) err.path = path;
  disk.refused++;
  return err;
}

/** Which file each open descriptor is, for `disk.under`. */
const opened = new Map<number, string>();

/** How many of `n` bytes fit (and takes them) in the file at `path`. */
function take(n: number, path?: string): number {
  if (disk.under !== undefined && (path === undefined || !path.startsWith(disk.under))) return n;
  const k = Math.min(n, disk.left);
  disk.left -= k;
  return k;
}

const bytesOf = (data: unknown, encoding?: BufferEncoding): Buffer =>
  Buffer.isBuffer(data) ? data : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(String(data), encoding);

const encodingOf = (o: unknown): BufferEncoding | undefined => (typeof o === "string" ? (o as BufferEncoding) : (o as { encoding?: BufferEncoding } | undefined)?.encoding ?? undefined);

/** node:fs with its writes limited by `disk`. */
export function mockFs(real: typeof Fs): typeof Fs {
  // writeSync(fd, buffer, offset?, length?, position?) or writeSync(fd, string, position?, encoding?)
  const writeSync = ((fd: number, data: unknown, a?: unknown, b?: unknown, c?: unknown): number => {
    let buf: Buffer;
    let position: number | null | undefined;
    if (typeof data === "string") {
      buf = Buffer.from(data, typeof b === "string" ? (b as BufferEncoding) : "utf8");
      position = typeof a === "number" ? a : null;
    } else {
      const all = bytesOf(data);
      const off = typeof a === "number" ? a : 0;
      const len = typeof b === "number" ? b : all.length - off;
      buf = all.subarray(off, off + len);
      position = typeof c === "number" ? c : null;
    }
    if (buf.length === 0) return real.writeSync(fd, buf, 0, 0, position);
    const k = take(buf.length, opened.get(fd));
    if (k === 0) throw enospc("write");
    return real.writeSync(fd, buf, 0, k, position);
  }) as typeof Fs.writeSync;

  const writeWhole = (path: Fs.PathOrFileDescriptor, data: unknown, options: unknown, flag: string): void => {
    const buf = bytesOf(data, encodingOf(options));
    const k = take(buf.length, typeof path === "number" ? opened.get(path) : String(path));
    const mode = typeof options === "object" && options !== null ? (options as { mode?: number }).mode : undefined;
    const opts = { ...(mode !== undefined ? { mode } : {}), flag };
    real.writeFileSync(path, buf.subarray(0, k), opts);
    if (k < buf.length) throw enospc("write", String(path));
  };
  const writeFileSync = ((path: Fs.PathOrFileDescriptor, data: unknown, options?: unknown) => {
    const flag = typeof options === "object" && options !== null ? ((options as { flag?: string }).flag ?? "w") : "w";
    writeWhole(path, data, options, flag);
  }) as typeof Fs.writeFileSync;
  const appendFileSync = ((path: Fs.PathOrFileDescriptor, data: unknown, options?: unknown) => writeWhole(path, data, options, "a")) as typeof Fs.appendFileSync;
  const copyFileSync = ((src: Fs.PathLike, dest: Fs.PathLike, mode?: number) => {
    const size = real.statSync(src).size;
    if (take(size, String(dest)) < size) {
      real.writeFileSync(dest, "");
      throw enospc("copyfile", String(dest));
    }
    real.copyFileSync(src, dest, mode);
  }) as typeof Fs.copyFileSync;

  const promises = {
    ...real.promises,
    writeFile: async (path: Fs.PathOrFileDescriptor, data: unknown, options?: unknown) => writeFileSync(path, data as string, options as Fs.WriteFileOptions),
    appendFile: async (path: Fs.PathOrFileDescriptor, data: unknown, options?: unknown) => appendFileSync(path, data as string, options as Fs.WriteFileOptions),
  } as typeof Fs.promises;

  const openSync = ((path: Fs.PathLike, flags?: Fs.OpenMode, mode?: Fs.Mode) => {
    const fd = real.openSync(path, flags ?? "r", mode);
    opened.set(fd, String(path));
    return fd;
  }) as typeof Fs.openSync;
  const closeSync = ((fd: number) => {
    opened.delete(fd);
    real.closeSync(fd);
  }) as typeof Fs.closeSync;

  const mocked = { ...real, openSync, closeSync, writeSync, writeFileSync, appendFileSync, copyFileSync, promises };
  return { ...mocked, default: mocked } as typeof Fs;
}
