// deepcode's home folder: DEEPCODE_HOME, else ~/.deepcode. A light module: the REPL's fast
// start path needs it before anything heavy loads.
import { homedir } from "node:os";
import { join, sep } from "node:path";

export function deepcodeHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.DEEPCODE_HOME || join(homedir(), ".deepcode");
}

const UNWRITABLE = new Set(["EROFS", "EACCES", "EPERM"]);

/**
 * The person's words for a failed write under deepcode's home, or undefined when `err` is not
 * one. A recursive mkdir in a read-only folder reports ENOENT (node stops at the first parent it
 * cannot create), which alone reads as "something is missing"; this says what is wrong, where,
 * and what still works without a writable home.
 */
export function unwritableHome(err: unknown, home: string): string | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const e = err as NodeJS.ErrnoException;
  if (typeof e.path !== "string" || (e.path !== home && !e.path.startsWith(home.endsWith(sep) ? home : home + sep))) return undefined;
  const mkdirEnoent = e.code === "ENOENT" && e.syscall === "mkdir";
  if (!mkdirEnoent && !UNWRITABLE.has(e.code ?? "")) return undefined;
  const why = e.code === "EROFS" ? "on a read-only file system" : e.code === "ENOENT" ? "it (or a folder above it) cannot be created" : `permission denied: ${e.code}`;
  return (
    `deepcode's home ${home} is not writable (${why}; ${e.syscall ?? "write"} ${e.path}). ` +
    `deepcode keeps sessions and the usage ledger there, so a session cannot start. ` +
    `Make it writable, or point DEEPCODE_HOME at a writable folder. Without it, --help, --version and \`deepcode stats\` still work.`
  );
}
