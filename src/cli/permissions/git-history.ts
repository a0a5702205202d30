// Whether a repository's history holds a secret file, for `sandbox.autoAllowBashIfSandboxed`.
//
// The sandbox hides secret files (mods/sandbox/secrets.ts) but not git's objects: a `.env` once
// committed (or staged) comes back out through `git log -p`, `git show <rev>`, `git cat-file`…
// contained.ts lets such content-printing git commands run without a prompt only where this
// says the history holds none. One `git log --all` per folder, bounded in time and output, and
// cached: a "yes" for the process, a "no" until git's index, HEAD log, packed refs or FETCH_HEAD
// change (a commit, checkout, fetch made since, by the agent or the person). When it cannot
// answer (a timeout, too much output, a broken repository) the answer is "yes" (fail closed):
// those commands ask as they would without the sandbox.

import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { secretNameReason } from "../../contract/protected.js";

const TIMEOUT_MS = 15_000;
const MAX_BUFFER = 64 * 1024 * 1024;
const cache = new Map<string, { answer: boolean; gitDir: string | null; stamp: string }>();

/** True when the repository holding `dir` has (or may have) a secret-named file in any commit
 *  reachable from a ref, stash included, or in its index. False when `dir` is in no repository. */
export function historyHoldsSecret(dir: string): boolean {
  const known = cache.get(dir);
  if (known && (known.answer || (known.gitDir !== null && stampOf(known.gitDir) === known.stamp))) return known.answer;
  const gitDir = known?.gitDir ?? gitDirOf(dir);
  const stamp = gitDir === null ? "" : stampOf(gitDir);
  const answer = gitDir === null ? false : check(dir);
  cache.set(dir, { answer, gitDir, stamp });
  return answer;
}

/** What changes when history or the index does. */
function stampOf(gitDir: string): string {
  return ["index", join("logs", "HEAD"), "packed-refs", "FETCH_HEAD", "HEAD"]
    .map((f) => {
      try {
        const st = statSync(join(gitDir, f));
        return `${st.mtimeMs}:${st.size}`;
      } catch {
        return "-"; // absent (no reflog, no packed refs yet)
      }
    })
    .join(",");
}

function gitDirOf(dir: string): string | null {
  try {
    return execFileSync("git", ["rev-parse", "--absolute-git-dir"], { cwd: dir, encoding: "utf8", timeout: TIMEOUT_MS, stdio: ["ignore", "pipe", "ignore"], env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" } }).trim() || null;
  } catch {
    return null; // not a repository (or no git): git cannot print a history that is not there
  }
}

function check(dir: string): boolean {
  const run = (args: string[]): string =>
    execFileSync("git", ["-c", "core.fsmonitor=false", "-c", "core.quotePath=false", ...args], {
      cwd: dir, encoding: "utf8", timeout: TIMEOUT_MS, maxBuffer: MAX_BUFFER, stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0" },
    });
  try {
    const names = `${run(["log", "--all", "--format=", "--name-only", "--diff-filter=AMCR", "-z"])}\0${run(["ls-files", "--cached", "-z"])}`;
    return names.split("\0").some((p) => p !== "" && secretNameReason(p.slice(p.lastIndexOf("/") + 1)) !== null);
  } catch {
    return true; // the check could not be done: fail closed
  }
}
