// The core answers of the side-effect events: `fs.read`, `fs.write`, `process.run`,
// `http.fetch`. Tools reach these only through `ctx` (tool-context.ts), so every hook on the
// chain — the path fence, the sandbox, an audit log — sees every side effect before it lands.
//
// Contracts:
// - fs.read reads at most `maxBytes` and says whether it stopped short; a directory is an
//   EISDIR error, a missing file ENOENT (the error's `code`, as node:fs reports it), a FIFO,
//   socket or device ENOTREG (refused at once: opened non-blocking, never waited on).
// - fs.write is atomic: a temp file in the same folder, then rename. An existing file keeps its
//   mode; `mode` applies to new files only. A symlink is written through (its target changes).
// - process.run spawns argv without a shell, in its own process group. Timeout or abort sends
//   SIGTERM to the whole group, then SIGKILL after a short grace. Every live group is killed
//   when deepcode exits, so no child outlives it — also after kill -9: a watchdog shell that
//   sees deepcode's end as the end of a pipe kills the groups it was told about. Output is kept per stream up to
//   `maxOutputBytes` as head + tail, the middle replaced by a marker naming the bytes cut.
// - http.fetch is one hop of HTTP(S) that never follows a redirect and never reaches a
//   non-public address unless a rule names the host (http-fetch.ts).

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import * as fs from "node:fs";
import { chmod, mkdir, open, realpath, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { FileStat, FsReadRequest, FsReadResult, FsWriteRequest, FsWriteResult, ProcessRunRequest, ProcessRunResult } from "../contract/index.js";
import { openRegular } from "../lib/regular-file.js";
import type { Chain } from "./chain.js";
import { httpFetch, type FetchPolicy } from "./http-fetch.js";
import { noteWrite, setWriteJournal, sweepStaleWrites } from "./write-litter.js";

/** Per stream, when the caller does not say. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1_000_000;
/** Between SIGTERM and SIGKILL to a process group. */
export const KILL_GRACE_MS = 2_000;
/** After the leader exits, how long background children may hold its pipes open before we stop reading. */
const STREAM_GRACE_MS = 200;

export interface EffectsOptions {
  /** Environment variables no child process may see (the API key's): a command the model
   *  runs could otherwise print it into the transcript. */
  scrubEnv?: readonly string[];
  /** Where writes in flight are noted (deepcode's home `writes/`): temp files of writes killed
   *  before their rename are removed at the next start (write-litter.ts). */
  writeJournal?: string;
  /** What http.fetch may reach besides public addresses (the permission rules' say). */
  fetch?: FetchPolicy;
  /** Settings `env`: every child gets them under its request's own (not with `clearEnv`). */
  env?: Readonly<Record<string, string>>;
}

export function registerEffects(chain: Chain, opts: EffectsOptions = {}): void {
  const scrub = opts.scrubEnv ?? [];
  if (opts.writeJournal) {
    setWriteJournal(opts.writeJournal);
    sweepStaleWrites(opts.writeJournal);
  }
  chain.setCore("fs.read", (e) => readFileBounded(e));
  chain.setCore("fs.write", (e) => writeFileAtomic(e));
  const withSettings = <T extends { env?: Readonly<Record<string, string>>; clearEnv?: boolean }>(e: T): T => (e.clearEnv || !opts.env ? e : { ...e, env: { ...opts.env, ...e.env } });
  chain.setCore("process.run", (e) => runProcess(withSettings(e), scrub));
  // A launch unchanged: deepcode's environment under the configured variables, less the
  // variables no child may see.
  chain.setCore("process.launch", (e) => ({ argv: [...e.argv], env: childEnv(withSettings(e), scrub), ended: () => [] }));
  chain.setCore("http.fetch", (e) => httpFetch(e, opts.fetch));
}

/** A child's environment: deepcode's under the request's (only the request's with `clearEnv`),
 *  less the names no child may see. */
function childEnv(e: { env?: Readonly<Record<string, string>>; clearEnv?: boolean }, scrub: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries({ ...(e.clearEnv ? {} : process.env), ...e.env }).filter((kv): kv is [string, string] => kv[1] !== undefined && !scrub.includes(kv[0])));
}

function toFileStat(st: Stats): FileStat {
  return { size: st.size, mtimeMs: st.mtimeMs, mode: st.mode & 0o7777, isFile: st.isFile(), isDirectory: st.isDirectory() };
}

function errno(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

// fs.read uses node:fs's callback API: several times faster than FileHandle promises when a
// search reads thousands of files (see bench/tools.mjs).
function call<T>(fn: (cb: (err: NodeJS.ErrnoException | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => fn((err, value) => (err ? reject(err) : resolve(value))));
}

export async function readFileBounded(req: FsReadRequest): Promise<FsReadResult> {
  // Never blocks on a FIFO or a device: those are refused (NotRegularFileError, "ENOTREG").
  const { fd, stat: st } = await openRegular(req.path);
  try {
    const cap = req.maxBytes ?? Number.POSITIVE_INFINITY;
    // Read the size stat gave (within the cap), then on until EOF: the file may have grown.
    const chunks: Buffer[] = [];
    let got = 0;
    let size = Math.max(Math.min(cap, st.size), 8192);
    while (got < cap) {
      const buf = Buffer.allocUnsafe(Math.min(size, cap - got));
      const n = await readInto(fd, buf, got);
      chunks.push(buf.subarray(0, n));
      got += n;
      if (n < buf.length) break; // end of file
      size = 64 * 1024;
    }
    const truncated = got >= cap && (await readInto(fd, Buffer.alloc(1), got)) > 0;
    return { data: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), stat: toFileStat(st), truncated };
  } finally {
    await call<void>((cb) => fs.close(fd, (err) => cb(err, undefined)));
  }
}

/** Fill `buf` from `position` on; fewer bytes only at end of file. */
async function readInto(fd: number, buf: Buffer, position: number): Promise<number> {
  let filled = 0;
  while (filled < buf.length) {
    const n = await call<number>((cb) => fs.read(fd, buf, filled, buf.length - filled, position + filled, cb));
    if (n === 0) break;
    filled += n;
  }
  return filled;
}

export async function writeFileAtomic(req: FsWriteRequest): Promise<FsWriteResult> {
  let target = req.path;
  try {
    target = await realpath(req.path);
  } catch {
    // ENOENT (a new file, or a dangling link): write at the path as given
  }
  const dir = dirname(target);
  if (req.createDirs) await mkdir(dir, { recursive: true });
  let existing: Stats | null = null;
  try {
    existing = await stat(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  if (existing?.isDirectory()) throw errno("EISDIR", `illegal operation on a directory, write '${req.path}'`);
  const mode = existing ? existing.mode & 0o7777 : req.mode;
  const tmp = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const done = noteWrite(tmp); // so a kill -9 before the rename leaves nothing for good (write-litter.ts)
  try {
    // Without a mode to keep or set, the temp file is created as a plain create would (0666
    // minus the umask); otherwise it starts private and gets its exact mode before the rename.
    const fh = await open(tmp, "wx", mode === undefined ? 0o666 : 0o600);
    try {
      await fh.writeFile(req.data);
      await fh.datasync();
    } finally {
      await fh.close();
    }
    if (mode !== undefined) await chmod(tmp, mode);
    await rename(tmp, target);
  } catch (err) {
    await unlink(tmp).catch(() => undefined); // the temp file may not exist (open failed)
    throw err;
  } finally {
    done();
  }
  return { stat: toFileStat(await stat(target)), created: existing === null };
}

// ---- processes -------------------------------------------------------------------------------

const liveGroups = new Set<number>();
let exitHookInstalled = false;

function trackGroup(pid: number): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", killAllGroups);
  }
  liveGroups.add(pid);
  watchdog()?.write(`${pid}\n`);
}

function untrackGroup(pid: number): void {
  if (liveGroups.delete(pid)) watchdog()?.write(`-${pid}\n`);
}

// The watchdog: the exit hook above cannot run when deepcode is killed with SIGKILL (or
// crashes hard), and a process group outlives its creator. So one small shell, in a group of its
// own, is told each group deepcode starts (a line "PID") and each one that ended ("-PID"), on
// its stdin; when that pipe reaches end of file — deepcode is gone, however it died — it sends
// SIGKILL to every group it still knows, then exits. It holds no file but its stdin (no
// terminal, nothing of the project) and does nothing while deepcode lives.
const WATCHDOG_SCRIPT = [
  'g=" "',
  "while IFS= read -r l; do",
  '  case "$l" in',
  '    -*) g=$(printf "%s" "$g" | sed "s/ ${l#-} / /") ;;',
  '    *[!0-9]*|"") ;;',
  '    *) g="$g$l " ;;',
  "  esac",
  "done",
  'for p in $g; do kill -s KILL -- "-$p" 2>/dev/null; done',
].join("\n");

let watchdogStdin: import("node:stream").Writable | null | undefined;

/** The watchdog's stdin, started on first use; null where there is no POSIX shell (Windows)
 *  or it could not start (then only the exit hook kills groups). */
function watchdog(): import("node:stream").Writable | null {
  if (watchdogStdin !== undefined) return watchdogStdin;
  watchdogStdin = null;
  if (process.platform === "win32") return null;
  try {
    const w = spawn("/bin/sh", ["-c", WATCHDOG_SCRIPT], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
    w.on("error", () => {
      watchdogStdin = null; // no /bin/sh: the exit hook is all there is
    });
    w.unref();
    const stdin = w.stdin!;
    // EPIPE: the watchdog was killed; groups are still killed by the exit hook.
    stdin.on("error", () => (watchdogStdin = null));
    (stdin as unknown as { unref?: () => void }).unref?.(); // a pipe kept open must not keep deepcode alive
    watchdogStdin = stdin;
  } catch {
    watchdogStdin = null; // spawn threw synchronously (EAGAIN, ENOMEM): the exit hook is all there is
  }
  return watchdogStdin;
}

/** SIGKILL every process group deepcode started that may still be alive (runs at exit). */
export function killAllGroups(): void {
  for (const pid of liveGroups) signalGroup(pid, "SIGKILL");
  liveGroups.clear();
}

function signalGroup(pid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, sig);
    return true;
  } catch {
    return false; // ESRCH: every process of the group is gone
  }
}

/** Head + tail of a byte stream, the middle counted but not kept. */
class BoundedOutput {
  private readonly head: Buffer[] = [];
  private headLen = 0;
  private tail: Buffer[] = [];
  private tailLen = 0;
  private total = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(max: number) {
    this.headMax = Math.ceil(max / 2);
    this.tailMax = Math.floor(max / 2);
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.headLen < this.headMax) {
      const take = Math.min(chunk.length, this.headMax - this.headLen);
      this.head.push(chunk.subarray(0, take));
      this.headLen += take;
      chunk = chunk.subarray(take);
    }
    if (chunk.length === 0 || this.tailMax === 0) return;
    this.tail.push(chunk);
    this.tailLen += chunk.length;
    while (this.tail.length > 1 && this.tailLen - this.tail[0].length >= this.tailMax) {
      this.tailLen -= this.tail.shift()!.length;
    }
  }

  /** The text and the bytes cut from it. */
  finish(): { text: string; cut: number } {
    let head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    if (tail.length > this.tailMax) tail = tail.subarray(tail.length - this.tailMax);
    if (head.length + tail.length === this.total) return { text: Buffer.concat([head, tail]).toString("utf8"), cut: 0 };
    head = head.subarray(0, utf8End(head));
    tail = tail.subarray(utf8Start(tail));
    const cut = this.total - head.length - tail.length;
    return { text: `${head.toString("utf8")}\n… [${cut} bytes of output cut] …\n${tail.toString("utf8")}`, cut };
  }
}

/** Length of `b` without a UTF-8 sequence cut short at its end. */
function utf8End(b: Buffer): number {
  for (let i = b.length - 1, back = 0; i >= 0 && back < 4; i--, back++) {
    const c = b[i];
    if ((c & 0xc0) === 0x80) continue;
    const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return i + need <= b.length ? b.length : i;
  }
  return b.length;
}

/** Offset of the first byte of `b` that starts a UTF-8 sequence. */
function utf8Start(b: Buffer): number {
  let i = 0;
  while (i < b.length && i < 3 && (b[i] & 0xc0) === 0x80) i++;
  return i;
}

export function runProcess(req: ProcessRunRequest, scrubEnv: readonly string[] = []): Promise<ProcessRunResult> {
  const started = performance.now();
  const base = { exitCode: null, signal: null, stdout: "", stderr: "", timedOut: false, interrupted: false, durationMs: 0, truncatedBytes: 0 };
  if (req.signal?.aborted) return Promise.resolve({ ...base, interrupted: true });
  if (req.argv.length === 0) return Promise.reject(new Error("process.run: empty argv"));
  return new Promise((resolve, reject) => {
    const env = childEnv(req, scrubEnv);
    const child = spawn(req.argv[0], req.argv.slice(1), {
      cwd: req.cwd,
      env,
      detached: true,
      stdio: [req.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    const max = req.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    const out = new BoundedOutput(max);
    const err = new BoundedOutput(max);
    const live = req.onOutput;
    const show = (c: Buffer): void => {
      try {
        live?.(c.toString("utf8"));
      } catch {
        // a live view that fails must not fail the command: its output is still collected
      }
    };
    child.stdout!.on("data", (c: Buffer) => (out.push(c), show(c)));
    child.stderr!.on("data", (c: Buffer) => (err.push(c), show(c)));
    if (req.stdin !== undefined && child.stdin) {
      child.stdin.on("error", () => undefined); // EPIPE: the child exited without reading its input
      child.stdin.end(req.stdin);
    }
    const pid = child.pid;
    if (pid !== undefined) trackGroup(pid);

    let timedOut = false;
    let interrupted = false;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let exited = false;
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;

    const stop = (why: "timeout" | "abort"): void => {
      if (settled || pid === undefined) return;
      if (why === "timeout") timedOut = true;
      else interrupted = true;
      signalGroup(pid, "SIGTERM");
      setTimeout(() => signalGroup(pid, "SIGKILL"), KILL_GRACE_MS).unref();
    };
    const timer = setTimeout(() => stop("timeout"), req.timeoutMs);
    const onAbort = (): void => stop("abort");
    req.signal?.addEventListener("abort", onAbort, { once: true });

    const cleanup = (): void => {
      settled = true;
      clearTimeout(timer);
      if (graceTimer) clearTimeout(graceTimer);
      req.signal?.removeEventListener("abort", onAbort);
    };
    const finish = (): void => {
      if (settled) return;
      cleanup();
      child.stdout!.destroy();
      child.stderr!.destroy();
      // A group whose background children still run stays tracked until deepcode exits.
      if (pid !== undefined && !signalGroup(pid, 0)) untrackGroup(pid);
      const o = out.finish();
      const e = err.finish();
      resolve({
        exitCode,
        signal: exitSignal,
        stdout: o.text,
        stderr: e.text,
        timedOut,
        interrupted,
        durationMs: performance.now() - started,
        truncatedBytes: o.cut + e.cut,
      });
    };

    child.on("error", (e) => {
      if (settled) return;
      cleanup();
      if (pid !== undefined) untrackGroup(pid);
      reject(e);
    });
    child.on("exit", (code, sig) => {
      exited = true;
      exitCode = code;
      exitSignal = sig;
      graceTimer = setTimeout(finish, STREAM_GRACE_MS);
    });
    child.on("close", () => {
      if (exited) finish();
    });
  });
}
