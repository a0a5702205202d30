// The API key out of deepcode's own environment, so that no tool can read it there.
//
// A child process never gets the key (effects.ts and the hooks mod drop it from the environment
// they pass on), but a command can read its *parent's* environment: `ps eww`, `cat
// /proc/$PPID/environ`, `cat /proc/*/environ`. That file shows the environment the process was
// started with — the bytes the kernel placed on its stack — not what `process.env` holds now, so
// `delete process.env.X` does not change it. So, first thing at start (main()), sealKeyEnv():
//   1. takes each key variable's value into this module (sealedKey() hands it to
//      resolveApiKey) and deletes it from process.env (no child can inherit it);
//   2. on Linux, overwrites the value's bytes in that start-up area with NULs, through
//      /proc/self/mem (the process's own memory; /proc/self/stat gives the area's bounds), so
//      /proc/<deepcode>/environ and `ps eww` show `DEEPSEEK_API_KEY=` and nothing after it;
//   3. reads /proc/self/environ back to prove the value gone ("scrubbed"), else says why not
//      ("exposed": start-up warns loudly, `deepcode doctor` reports it, docs/permissions.md says so).
// It costs one small read and write at start, on Node 20, 22 and 24 alike (no re-exec: Node 20
// has no process.execve, and a launcher that stayed alive would keep the key in its own
// environment). Elsewhere (macOS, Windows) the start-up environment cannot be changed from
// Node: the key stays readable by a command run without the sandbox, and deepcode says so.
//
// What this does not cover: a command run without the sandbox, as the same user, that may
// ptrace deepcode (Linux's Yama ptrace_scope 0) could read deepcode's memory; the bwrap sandbox
// (its own PID namespace) keeps deepcode out of its view. doctor reports which applies.

import { closeSync, openSync, readFileSync, readSync, writeSync } from "node:fs";

export type KeyEnvState =
  /** No key variable was set: the key comes from the credentials file, or there is none. */
  | { state: "none" }
  /** Set, taken out of process.env and wiped from the start-up environment. */
  | { state: "scrubbed"; names: string[] }
  /** Set and taken out of process.env, but still readable in the start-up environment. */
  | { state: "exposed"; names: string[]; why: string };

const sealed = new Map<string, string>();
let current: KeyEnvState = { state: "none" };

/** Every environment variable deepcode reads a key from: each endpoint's `keyEnv`
 *  (src/providers/endpoints.ts; a test keeps the two equal). Written out rather than imported,
 *  so that sealing at start loads nothing of the providers before the first prompt. */
export const KEY_ENV_NAMES: readonly string[] = ["DEEPSEEK_API_KEY"];

/** Take the key variables out of this process's environment (see the top of this file). */
export function sealKeyEnv(names: readonly string[] = KEY_ENV_NAMES): KeyEnvState {
  const taken: string[] = [];
  for (const name of names) {
    const v = process.env[name];
    if (v === undefined) continue;
    delete process.env[name];
    if (v.trim() === "" || sealed.has(name)) continue;
    sealed.set(name, v);
    taken.push(name);
  }
  if (taken.length === 0) return current;
  const all = [...new Set([...(current.state === "none" ? [] : current.names), ...taken])];
  const why = wipeStartupEnv(taken.map((n) => [n, sealed.get(n) as string]));
  current = why === null && current.state !== "exposed" ? { state: "scrubbed", names: all } : { state: "exposed", names: all, why: why ?? (current as { why: string }).why };
  return current;
}

/** A key taken out of the environment by sealKeyEnv, by its variable's name. */
export function sealedKey(name: string): string | undefined {
  return sealed.get(name);
}

/** A key variable's value: from `env`, or — when `env` is this process's own — as sealed. */
export function keyFromEnv(env: NodeJS.ProcessEnv, name: string): string | undefined {
  return env[name] ?? (env === process.env ? sealed.get(name) : undefined);
}

export function keyEnvState(): KeyEnvState {
  return current;
}

/** The loud line for start-up, or null when there is nothing to say. */
export function keyEnvWarning(s: KeyEnvState = current): string | null {
  if (s.state !== "exposed") return null;
  return `WARNING: ${s.names.join(", ")} stays readable in deepcode's process environment (${s.why}), so a command run without the sandbox can print it (ps eww). Store the key with \`deepcode setup\` and unset the variable.`;
}

/** Wipe the values from the start-up environment area; null when done and verified, else why not. */
function wipeStartupEnv(pairs: ReadonlyArray<[string, string]>): string | null {
  if (process.platform !== "linux") return `on ${process.platform} deepcode cannot change the environment it was started with`;
  let fd: number | undefined;
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // Fields after `(comm)`: the 3rd field is index 0, so env_start (50) and env_end (51) are 47, 48.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const start = Number(fields[47]);
    const end = Number(fields[48]);
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start || end - start > 16 * 1024 * 1024) return "/proc/self/stat does not give the environment's bounds";
    fd = openSync("/proc/self/mem", "r+");
    const area = Buffer.alloc(end - start);
    if (readSync(fd, area, 0, area.length, start) !== area.length) return "the environment could not be read whole";
    for (const span of spans(area, pairs)) {
      const zeros = Buffer.alloc(span[1] - span[0]);
      if (writeSync(fd, zeros, 0, zeros.length, start + span[0]) !== zeros.length) return "the environment could not be overwritten";
    }
  } catch (err) {
    return `/proc/self/mem: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  try {
    const now = readFileSync("/proc/self/environ");
    if (pairs.some(([, v]) => now.includes(Buffer.from(v)))) return "the value was still there after it was overwritten";
  } catch (err) {
    return `/proc/self/environ: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
  }
  return null;
}

/** Byte ranges to wipe: each `NAME=` entry's value, and the value wherever else it appears
 *  (another variable holding the same key). */
function spans(area: Buffer, pairs: ReadonlyArray<[string, string]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [name, value] of pairs) {
    const entry = Buffer.from(`${name}=`);
    for (let at = area.indexOf(entry); at >= 0; at = area.indexOf(entry, at + 1)) {
      if (at > 0 && area[at - 1] !== 0) continue; // `X_DEEPSEEK_API_KEY=`: another variable
      const stop = area.indexOf(0, at);
      out.push([at + entry.length, stop < 0 ? area.length : stop]);
    }
    const bytes = Buffer.from(value);
    if (bytes.length < 8) continue;
    for (let at = area.indexOf(bytes); at >= 0; at = area.indexOf(bytes, at + 1)) out.push([at, at + bytes.length]);
  }
  return out;
}
