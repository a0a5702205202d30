// Finding a test's own processes on the host by what their command line holds: where a hook or
// a server runs in the sandbox, the pid it reports (`echo $$`) is its PID namespace's, not the
// host's, so tests look through /proc for a token only their process carries.
import { readdirSync, readFileSync } from "node:fs";

/** Host processes, not zombies, whose command line holds `token` (Linux /proc; elsewhere none). */
export function processesRunning(token: string): number[] {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((n) => /^\d+$/.test(n));
  } catch {
    return []; // no /proc: nothing to look through
  }
  return pids.map(Number).filter((pid) => {
    try {
      if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"))) return false; // ended, awaiting its reaper
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(token);
    } catch {
      return false; // exited meanwhile
    }
  });
}
