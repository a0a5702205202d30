// Files and commands through the editor (link.ts's EditorEffects for `deepcode acp`): a Read,
// Write or Edit call of one of the editor's sessions reads and writes with fs/read_text_file
// and fs/write_text_file, a Bash call runs in a terminal of the editor (terminal/create,
// wait_for_exit, output, release; kill on cancel or timeout) — each only when the editor said
// it offers it in `initialize`, and a command only while the Bash sandbox is not active.

import { openSync, readSync, closeSync, statSync, type Stats } from "node:fs";
import type { FileStat, FsReadRequest, FsReadResult, FsWriteResult, ProcessRunRequest, ProcessRunResult } from "../../src/contract/index.js";
import type { EditorEffects } from "./link.js";
import type { Peer } from "./rpc.js";

/** What the editor said it offers (initialize's clientCapabilities). */
export interface ClientOffers {
  readTextFile: boolean;
  writeTextFile: boolean;
  terminal: boolean;
}

export function offersOf(caps: unknown): ClientOffers {
  const c = typeof caps === "object" && caps !== null ? (caps as Record<string, unknown>) : {};
  const fs = typeof c.fs === "object" && c.fs !== null ? (c.fs as Record<string, unknown>) : {};
  return { readTextFile: fs.readTextFile === true, writeTextFile: fs.writeTextFile === true, terminal: c.terminal === true };
}

/** The tools whose file reads and writes go through the editor (Grep and the rest read the disk). */
const FILE_TOOLS = new Set(["Read", "Write", "Edit", "MultiEdit"]);
/** Terminal output kept by the editor for one command (its outputByteLimit). */
const TERMINAL_OUTPUT_BYTES = 1024 * 1024;
/** How long after a kill the editor has to report the exit before the call ends without it. */
const KILL_GRACE_MS = 5_000;

export interface EditorCall {
  sessionId: string;
  tool: string;
}

export interface EditorDeps {
  peer: () => Peer | undefined;
  offers: () => ClientOffers;
  /** The running call of one of the editor's sessions, by its id; undefined: not ours. */
  call: (callId: string | undefined) => EditorCall | undefined;
  /** The Bash sandbox is active: commands stay here, contained. */
  sandboxed: () => boolean;
  /** Variables that hold API keys: emptied in the editor's terminal too. */
  secretEnv: readonly string[];
  /** A call's command runs in this terminal (shown in the editor's tool call). */
  terminal: (call: EditorCall, callId: string, terminalId: string) => void;
  /** Something went wrong with the editor; the disk or this process answered instead. */
  warn: (sessionId: string, message: string) => void;
  /** A call the model made that has not started running yet (its permission question, or a
   *  tool's check that it would fail): its reads see the editor's buffers too — what it will
   *  read once it runs. Writes and commands only ever go through for a running call. */
  pending?: (callId: string | undefined) => EditorCall | undefined;
}

export function editorEffects(d: EditorDeps): EditorEffects {
  const fileCall = (callId: string | undefined): EditorCall | undefined => {
    const c = d.call(callId);
    return c && FILE_TOOLS.has(c.tool) ? c : undefined;
  };
  return {
    read(e, disk) {
      const p = d.pending?.(e.callId);
      const c = fileCall(e.callId) ?? (p && FILE_TOOLS.has(p.tool) ? p : undefined);
      const peer = d.peer();
      if (!c || !peer || !d.offers().readTextFile || !textOnDisk(e.path)) return undefined;
      return readThrough(peer, c, e, disk, d);
    },
    write(e, disk) {
      const c = fileCall(e.callId);
      const peer = d.peer();
      const text = c && peer && d.offers().writeTextFile ? utf8(e.data) : undefined;
      if (!c || !peer || text === undefined) return undefined;
      return writeThrough(peer, c, e.path, text, disk, d);
    },
    run(e, here) {
      const c = e.callId === undefined ? undefined : d.call(e.callId);
      const peer = d.peer();
      if (!c || c.tool !== "Bash" || !peer || !d.offers().terminal || d.sandboxed() || e.stdin !== undefined || e.argv.length === 0) return undefined;
      return runInTerminal(peer, c, e as ProcessRunRequest & { callId: string }, here, d);
    },
  };
}

async function readThrough(peer: Peer, c: EditorCall, e: FsReadRequest, disk: () => Promise<FsReadResult>, d: EditorDeps): Promise<FsReadResult> {
  let content: string;
  try {
    const r = (await peer.request("fs/read_text_file", { sessionId: c.sessionId, path: e.path })) as { content?: unknown } | null;
    if (typeof r?.content !== "string") throw new Error("the editor's answer has no text");
    content = r.content;
  } catch (err) {
    // A file the editor cannot open (missing, not text): the disk's answer says what it is.
    if (existing(e.path)) d.warn(c.sessionId, `the editor did not read ${e.path} (${(err as Error).message}); read from disk`);
    return disk();
  }
  const data = Buffer.from(content, "utf8");
  const limit = e.maxBytes;
  const truncated = limit !== undefined && data.length > limit;
  return { data: truncated ? data.subarray(0, limit) : data, stat: statOf(e.path, data.length), truncated };
}

async function writeThrough(peer: Peer, c: EditorCall, path: string, content: string, disk: () => Promise<FsWriteResult>, d: EditorDeps): Promise<FsWriteResult> {
  const created = !existing(path);
  try {
    await peer.request("fs/write_text_file", { sessionId: c.sessionId, path, content });
  } catch (err) {
    d.warn(c.sessionId, `the editor did not write ${path} (${(err as Error).message}); written to disk`);
    return disk();
  }
  return { stat: statOf(path, Buffer.byteLength(content, "utf8")), created };
}

/** The bytes as text when they are UTF-8 exactly (a file in another encoding goes to disk). */
function utf8(data: string | Buffer): string | undefined {
  if (typeof data === "string") return data;
  const text = data.toString("utf8");
  return Buffer.from(text, "utf8").equals(data) ? text : undefined;
}

async function runInTerminal(peer: Peer, c: EditorCall, e: ProcessRunRequest & { callId: string }, here: () => Promise<ProcessRunResult>, d: EditorDeps): Promise<ProcessRunResult> {
  const started = Date.now();
  const env = [...Object.entries(e.env ?? {}).map(([name, value]) => ({ name, value })), ...d.secretEnv.map((name) => ({ name, value: "" }))];
  let terminalId: string;
  try {
    const r = (await peer.request("terminal/create", { sessionId: c.sessionId, command: e.argv[0], args: e.argv.slice(1), env, cwd: e.cwd, outputByteLimit: Math.min(e.maxOutputBytes ?? TERMINAL_OUTPUT_BYTES, TERMINAL_OUTPUT_BYTES) })) as { terminalId?: unknown } | null;
    if (typeof r?.terminalId !== "string") throw new Error("the editor's answer has no terminalId");
    terminalId = r.terminalId;
  } catch (err) {
    d.warn(c.sessionId, `the editor did not open a terminal (${(err as Error).message}); the command runs here`);
    return here();
  }
  const ids = { sessionId: c.sessionId, terminalId };
  d.terminal(c, e.callId, terminalId);
  let timedOut = false;
  let interrupted = false;
  // An editor that does not report the exit after a kill does not hang the prompt.
  let abandoned = false;
  let giveUp: (() => void) | undefined;
  const gaveUp = new Promise<null>((resolve) => (giveUp = () => ((abandoned = true), resolve(null))));
  let grace: ReturnType<typeof setTimeout> | undefined;
  const kill = (): void => {
    grace ??= setTimeout(() => giveUp?.(), KILL_GRACE_MS);
    void peer.request("terminal/kill", ids).catch((err: Error) => d.warn(c.sessionId, `the editor did not kill terminal ${terminalId}: ${err.message}`));
  };
  const timer = setTimeout(() => ((timedOut = true), kill()), e.timeoutMs);
  const onAbort = (): void => ((interrupted = true), kill());
  if (e.signal?.aborted) onAbort();
  else e.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const exit = (await Promise.race([peer.request("terminal/wait_for_exit", ids), gaveUp])) as { exitCode?: number | null; signal?: string | null } | null;
    const out = abandoned ? null : ((await Promise.race([peer.request("terminal/output", ids), gaveUp])) as { output?: unknown; truncated?: unknown } | null);
    const output = typeof out?.output === "string" ? out.output : "";
    if (output) e.onOutput?.(output);
    const cut = out?.truncated === true ? "[the editor's terminal kept only the end of the output]\n" : "";
    return { exitCode: typeof exit?.exitCode === "number" ? exit.exitCode : null, signal: typeof exit?.signal === "string" ? exit.signal : null, stdout: cut + output, stderr: "", timedOut, interrupted, durationMs: Date.now() - started, truncatedBytes: 0 };
  } finally {
    clearTimeout(timer);
    if (grace) clearTimeout(grace);
    e.signal?.removeEventListener("abort", onAbort);
    const released = peer.request("terminal/release", ids).catch((err: Error) => d.warn(c.sessionId, `the editor did not release terminal ${terminalId}: ${err.message}`));
    if (!abandoned) await released;
  }
}

function existing(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined; // not there (yet): a new file, or only an editor buffer
  }
}

/** The file's stat with the editor's size: Edit's staleness check compares size and content. */
function statOf(path: string, size: number): FileStat {
  const s = existing(path);
  return { size, mtimeMs: s?.mtimeMs ?? Date.now(), mode: s?.mode ?? 0o100644, isFile: true, isDirectory: false };
}

/** Whether the editor should be asked: not a folder, nor a file that is not text (an image,
 *  a PDF: the Read tool reads those from disk). A missing file is asked (an unsaved buffer). */
function textOnDisk(path: string): boolean {
  const s = existing(path);
  if (!s) return true;
  if (!s.isFile()) return false;
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const head = Buffer.alloc(Math.min(8192, s.size));
    const n = readSync(fd, head, 0, head.length, 0);
    return !head.subarray(0, n).includes(0);
  } catch {
    return false; // unreadable here: the disk's own answer says why
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
