// Running one hook command: `bash -c COMMAND` in the project root, the event's JSON on stdin.
//
// Hooks are the user's (or the administrator's) own configured commands, not tool side
// effects, so they do not go through `process.run` (no gate, no tool result); they are started
// through `process.launch`, where the sandbox wraps them: a hook's command may run files a
// contained command could have rewritten (a project script, `node_modules/.bin`, a formatter's
// config), so where the sandbox is active it runs contained too (issue 35, item 5). Contracts:
// - The command runs in its own session and process group; on timeout its whole process tree
//   gets SIGTERM, then SIGKILL after a short grace, and the result says `timedOut`. The tree is
//   the group plus every process that carries this run's mark — a random nonce in the
//   environment (DEEPCODE_HOOK_RUN), which children inherit — so a grandchild that left the
//   group (`setsid sleep 1000 &`, a double fork) ends too. Finding marked processes reads
//   /proc/<pid>/environ (Linux); elsewhere only the group is signalled. A process that clears
//   its own environment escapes the mark: hooks are the person's own commands, not an
//   adversary's, and a project's hooks run only in a trusted project. No group outlives deepcode.
// - stdout and stderr are kept up to MAX_OUTPUT bytes each (the rest is dropped, said in the text).
// - The environment is deepcode's, plus CLAUDE_PROJECT_DIR / DEEPCODE_PROJECT_DIR (the project
//   root, as Claude Code's hooks expect), minus the DeepSeek API key: secrets never leave (and
//   in the sandbox, by grant: mods/sandbox/env.ts).

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import type { ProcessLaunch, ProcessLaunchRequest } from "../../src/contract/index.js";

const MAX_OUTPUT = 1_000_000;
const KILL_GRACE_MS = 2_000;
/** After the shell exits, how long background children may hold its pipes before we stop reading. */
const STREAM_GRACE_MS = 200;

export interface HookRun {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Ended early through its signal (its session ended). */
  aborted?: boolean;
  /** The command could not be started at all (no bash, bad cwd). */
  spawnError?: string;
  /** It said on its first output line that it goes on by itself (Claude Code's `{"async": true}`,
   *  optionally with `asyncTimeout` in ms): the event did not wait for it. It runs on, bounded by
   *  that time (else its timeout; at most ASYNC_MAX_MS), and what it prints later is not read. */
  detached?: boolean;
}

/** The longest an announced-async hook may run on after the event went on. */
export const ASYNC_MAX_MS = 10 * 60_000;

/** `{"async": true, "asyncTimeout": 180000}` as a hook's first stdout line: how long it will take
 *  (undefined: not such a line; null: no time given). */
export function asyncAnnouncement(line: string): number | null | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined; // not JSON: ordinary output
  }
  if (typeof v !== "object" || v === null || (v as { async?: unknown }).async !== true) return undefined;
  const t = (v as { asyncTimeout?: unknown }).asyncTimeout;
  return typeof t === "number" && t > 0 ? t : null;
}

/** Live runs: process group → its mark. */
const live = new Map<number, string>();
let exitHook = false;

function track(pid: number, nonce: string): void {
  if (!exitHook) {
    exitHook = true;
    process.on("exit", () => {
      for (const [p, mark] of live) killTree(p, mark, "SIGKILL");
    });
  }
  live.set(pid, nonce);
}

function killGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    // ESRCH: every process of the group has already exited
  }
}

/** The variable that marks every process of one hook run. */
export const RUN_MARK = "DEEPCODE_HOOK_RUN";

/** Signal every process whose environment carries `RUN_MARK=nonce`; returns how many. Linux
 *  (/proc); elsewhere none are found. Processes of other users cannot be read, and are not ours. */
export function killMarked(nonce: string, sig: NodeJS.Signals): number {
  const needle = Buffer.from(`${RUN_MARK}=${nonce}\0`);
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((n) => /^[0-9]+$/.test(n) && Number(n) !== process.pid);
  } catch {
    return 0; // no /proc (macOS, Windows): the process group is all deepcode can reach
  }
  let n = 0;
  for (const p of pids) {
    let env: Buffer;
    try {
      env = readFileSync(`/proc/${p}/environ`);
    } catch {
      continue; // gone, or another user's (EACCES): not one of this run's
    }
    const at = env.indexOf(needle);
    if (at < 0 || (at > 0 && env[at - 1] !== 0)) continue;
    try {
      process.kill(Number(p), sig);
      n++;
    } catch {
      // exited between the read and the signal
    }
  }
  return n;
}

/** The whole tree of one run: its group, and every marked process (twice for SIGKILL: a parent
 *  killed in the first sweep may have forked a child the sweep had already passed). */
function killTree(pid: number, nonce: string, sig: NodeJS.Signals): void {
  killGroup(pid, sig);
  killMarked(nonce, sig);
  if (sig === "SIGKILL") killMarked(nonce, sig);
}

/** `o.env`: variables the hook's own configuration adds (a plugin's CLAUDE_PLUGIN_ROOT).
 *  `o.signal`: ends the run early (its whole tree, as on timeout; the result says `aborted`) —
 *  a background hook whose session ended. `o.launch`: how the command is started — the chain's
 *  `process.launch` (the sandbox wraps it there); without one (tests, embedding) it starts as
 *  it is. `o.readable`: files outside the workspace its configuration names (namedPaths), which
 *  a sandbox shows read-only. */
export async function runHookCommand(command: string, input: object, o: HookRunOptions): Promise<HookRun> {
  const nonce = randomBytes(12).toString("hex");
  const env: Record<string, string> = { ...o.env, CLAUDE_PROJECT_DIR: o.cwd, DEEPCODE_PROJECT_DIR: o.cwd, [RUN_MARK]: nonce };
  const request: ProcessLaunchRequest = { argv: ["bash", "-c", command], cwd: o.cwd, env, purpose: "hook", name: command, readable: [...(o.readable ?? [])], ...(o.unsandboxed ? { unsandboxed: true } : {}) };
  let launch: ProcessLaunch;
  try {
    launch = await (o.launch ?? startAsIs)(request);
  } catch (err) {
    return { exitCode: null, signal: null, stdout: "", stderr: "", timedOut: false, spawnError: `could not be prepared: ${err instanceof Error ? err.message : String(err)}` };
  }
  return spawnHook(launch, input, o, nonce);
}

export interface HookRunOptions {
  cwd: string;
  timeoutMs: number;
  env?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  launch?: (req: ProcessLaunchRequest) => Promise<ProcessLaunch>;
  readable?: readonly string[];
  unsandboxed?: boolean;
}

/** No chain: deepcode's environment and the configured variables, less the DeepSeek API key. */
async function startAsIs(req: ProcessLaunchRequest): Promise<ProcessLaunch> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "DEEPSEEK_API_KEY") env[k] = v;
  return { argv: req.argv, env: { ...env, ...req.env }, ended: () => [] };
}

function spawnHook(launch: ProcessLaunch, input: object, o: HookRunOptions, nonce: string): Promise<HookRun> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(launch.argv[0], launch.argv.slice(1), { cwd: o.cwd, env: launch.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    } catch (err) {
      launch.ended();
      resolve({ exitCode: null, signal: null, stdout: "", stderr: "", timedOut: false, spawnError: err instanceof Error ? err.message : String(err) });
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const sizes = { out: 0, err: 0 };
    const collect = (into: Buffer[], key: "out" | "err") => (c: Buffer) => {
      if (sizes[key] < MAX_OUTPUT) into.push(c.subarray(0, MAX_OUTPUT - sizes[key]));
      sizes[key] += c.length;
    };
    // The first line, until it is complete (or too long to be an announcement).
    let head: string | undefined = "";
    const collectOut = collect(out, "out");
    child.stdout.on("data", (c: Buffer) => {
      if (detached) return;
      if (head !== undefined) {
        head += c.toString("utf8");
        const nl = head.indexOf("\n");
        const said = nl >= 0 ? asyncAnnouncement(head.slice(0, nl)) : undefined;
        if (said !== undefined) return detach(said ?? o.timeoutMs);
        if (nl >= 0 || head.length > 4096) head = undefined;
      }
      collectOut(c);
    });
    child.stderr.on("data", collect(err, "err"));
    child.stdin.on("error", () => undefined); // EPIPE: the hook exited without reading its input
    child.stdin.end(`${JSON.stringify(input)}\n`);
    const pid = child.pid;
    if (pid !== undefined) track(pid, nonce);

    let timedOut = false;
    let aborted = false;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    const end = (): void => {
      if (pid === undefined || killTimer) return;
      killTree(pid, nonce, "SIGTERM");
      killTimer = setTimeout(() => killTree(pid, nonce, "SIGKILL"), KILL_GRACE_MS);
      killTimer.unref(); // deepcode's exit handler kills the group if it exits first
    };
    const expire = (): void => {
      timedOut = true;
      end();
    };
    let timer = setTimeout(expire, o.timeoutMs);
    let detached = false;
    // Announced async: the event goes on now (an answer of nothing), the run on its own clock.
    const detach = (ms: number): void => {
      detached = true;
      clearTimeout(timer);
      timer = setTimeout(expire, Math.min(ms, ASYNC_MAX_MS));
      timer.unref();
      // deepcode's exit does not wait for it: the exit handler (track) ends it with deepcode,
      // as a configured async hook ends with its session.
      child.unref();
      for (const s of [child.stdout, child.stderr, child.stdin] as Array<{ unref?: () => void } | null>) s?.unref?.();
      resolve({ exitCode: 0, signal: null, stdout: "", stderr: "", timedOut: false, detached: true });
    };
    const onAbort = (): void => {
      aborted = true;
      end();
    };
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener("abort", onAbort, { once: true });

    const text = (chunks: Buffer[], size: number): string => {
      const s = Buffer.concat(chunks).toString("utf8");
      return size > MAX_OUTPUT ? `${s}\n[… ${size - MAX_OUTPUT} more bytes dropped]` : s;
    };
    const finish = (exitCode: number | null, signal: string | null, spawnError?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener("abort", onAbort);
      const killed = timedOut || aborted;
      if (killTimer && !killed) clearTimeout(killTimer);
      // A hook that exits may leave children it started on purpose (a sound, a notifier) running;
      // they keep running, but our ends of the pipes close so deepcode never waits for them.
      if (pid !== undefined && !killed) live.delete(pid);
      child.stdout.destroy();
      child.stderr.destroy();
      // The sandbox's undo (what a contained hook did to protected paths), said where a person
      // reads the hook's failure: on stderr.
      const undone = launch.ended();
      const note = undone.length > 0 ? `\n[deepcode sandbox: protected paths are never written by a hook; ${undone.join("; ")}]` : "";
      resolve({ exitCode, signal, stdout: text(out, sizes.out), stderr: text(err, sizes.err) + note, timedOut, ...(aborted ? { aborted } : {}), ...(spawnError ? { spawnError } : {}) });
    };
    child.on("error", (e) => finish(null, null, e.message));
    child.on("exit", (code, signal) => {
      // Wait for the pipes to drain, but not for background children that keep them open.
      const grace = setTimeout(() => finish(code, signal), STREAM_GRACE_MS);
      child.on("close", () => {
        clearTimeout(grace);
        finish(code, signal);
      });
    });
  });
}

/** One line saying how a run failed (for warnings and deny reasons), or null when it exited 0/2. */
export function failureOf(command: string, r: HookRun, timeoutMs: number): string | null {
  const name = `\`${short(command)}\``;
  if (r.spawnError) return `${name} could not start (${r.spawnError})`;
  if (r.aborted) return `${name} was ended with its session`;
  if (r.timedOut) return `${name} timed out after ${timeoutMs / 1000} s`;
  if (r.exitCode === 0 || r.exitCode === 2) return null;
  const why = r.exitCode === null ? `was killed by ${r.signal ?? "a signal"}` : `exited with status ${r.exitCode}`;
  const detail = r.stderr.trim().split("\n")[0];
  return `${name} ${why}${detail ? `: ${detail}` : ""}`;
}

export function short(command: string): string {
  const one = command.replace(/\s+/g, " ").trim();
  return one.length > 60 ? `${one.slice(0, 57)}...` : one;
}
