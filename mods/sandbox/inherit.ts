// Handing open files to bubblewrap as inherited descriptors, without changing the
// `process.run` core (which starts a program with stdin, stdout and stderr only).
//
// deepcode holds each file open itself, with no name left on disk, and the command's argv
// becomes `/bin/sh -c 'exec "$@" 3<"$1" …'`: the shell (outside the sandbox, before bwrap
// runs) opens `/proc/<deepcode's pid>/fd/<n>` at the descriptor wanted and replaces itself with
// bwrap — same process, same process group, so the core's timeout and interrupt reach bwrap as
// before. Opening a /proc/<pid>/fd link opens the very file deepcode holds (a FIFO included),
// not a path someone could replace; deepcode's /proc is not visible inside the sandbox (a PID
// namespace of its own), and nothing is left to clean up when deepcode exits. (Not a named file
// in deepcode's home: whatever can write there — a folder of it granted to the sandbox, now or
// later — could replace the filter between two commands; a held descriptor cannot be.)
//
// Used for the seccomp program (`--seccomp 3`: bwrap reads it and closes it before the command
// runs; seccomp.ts) and for the allowedDomains channel's two FIFOs (channel.ts).

import { spawnSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One descriptor the command starts with: `fd` opened from `path` for reading or writing. */
export interface Inherited {
  fd: number;
  path: string;
  write?: boolean;
}

/** `argv` run with the descriptors open: the shell opens them and execs `argv`. Paths are
 *  passed as arguments, never spliced into the script. */
export function withInherited(argv: readonly string[], files: readonly Inherited[]): string[] {
  if (files.length === 0) return [...argv];
  const names = files.map((_f, i) => `f${i + 1}=$${i + 1}`).join(" ");
  const opens = files.map((f, i) => `${f.fd}${f.write ? ">" : "<"}"$f${i + 1}"`).join(" ");
  return ["/bin/sh", "-c", `${names}; shift ${files.length}; exec "$@" ${opens}`, "sh", ...files.map((f) => f.path), ...argv];
}

/** A file with `content`, held open by this process for as long as it lives and named nowhere:
 *  the /proc path that reaches it. Throws where it cannot be made (no writable temp folder). */
export function heldFile(content: Buffer, dir: string = tmpdir()): string {
  const folder = mkdtempSync(join(dir, "deepcode-held-"));
  const path = join(folder, "file");
  try {
    writeFileSync(path, content, { mode: 0o600, flag: "wx" });
    return procPath(openSync(path, constants.O_RDONLY));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** `count` FIFOs, each held open read-write by this process (so opening either end never
 *  blocks) and named nowhere: their descriptors and the /proc paths the shell opens. One
 *  `mkfifo` (coreutils': node has none) makes them all. */
export function heldFifos(count: number, dir: string = tmpdir()): Array<{ fd: number; path: string }> {
  const folder = mkdtempSync(join(dir, "deepcode-fifo-"));
  const names = Array.from({ length: count }, (_v, i) => join(folder, `fifo${i}`));
  const held: Array<{ fd: number; path: string }> = [];
  try {
    const r = spawnSync("mkfifo", ["-m", "600", ...names], { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
    if (r.status !== 0) throw new Error(`mkfifo: ${r.error?.message ?? r.stderr.trim()}`);
    for (const n of names) {
      const fd = openSync(n, constants.O_RDWR | constants.O_NONBLOCK);
      held.push({ fd, path: procPath(fd) });
    }
    return held;
  } catch (err) {
    for (const h of held) release(h.fd);
    throw err;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Close a descriptor heldFifos returned (when it is not already handed to a stream). */
export function release(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // EBADF: already closed by the stream that wrapped it
  }
}

function procPath(fd: number): string {
  return `/proc/${process.pid}/fd/${fd}`;
}
