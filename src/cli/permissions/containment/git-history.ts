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
import { secretNameReason } from "../../../contract/protected.js";
import { configHoldsCredential, contentJudged } from "../../../contract/secret-content.js";
import { CONFIG_TEXT_MAX } from "../../../lib/regular-file.js";

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
    const secretNamed = names.split("\0").filter((p) => p !== "" && secretNameReason(baseOf(p)) !== null);
    if (secretNamed.some((p) => !contentJudged(baseOf(p)))) return true;
    // Only content-judged names (`.npmrc` …): a secret only if some version of one holds a credential.
    return secretNamed.length > 0 && someVersionHoldsCredential(dir, run);
  } catch {
    return true; // the check could not be done: fail closed
  }
}

function baseOf(p: string): string {
  return p.slice(p.lastIndexOf("/") + 1);
}

/** Every blob that was ever a content-judged file (reachable from a ref, or in the index), read
 *  back and judged; one too large to judge counts as holding a credential. */
function someVersionHoldsCredential(dir: string, run: (args: string[]) => string): boolean {
  const blobs = new Map<string, string>();
  for (const line of run(["rev-list", "--all", "--objects"]).split("\n")) {
    const sp = line.indexOf(" ");
    if (sp > 0 && contentJudged(baseOf(line.slice(sp + 1)))) blobs.set(line.slice(0, sp), baseOf(line.slice(sp + 1)));
  }
  for (const entry of run(["ls-files", "--stage", "-z"]).split("\0")) {
    const m = /^\d+ ([0-9a-f]+) \d\t(.*)$/s.exec(entry);
    if (m && contentJudged(baseOf(m[2]))) blobs.set(m[1], baseOf(m[2]));
  }
  if (blobs.size === 0) return false;
  const out = execFileSync("git", ["-c", "core.fsmonitor=false", "cat-file", "--batch"], { cwd: dir, input: [...blobs.keys()].join("\n") + "\n", timeout: TIMEOUT_MS, maxBuffer: MAX_BUFFER, stdio: ["pipe", "pipe", "ignore"], env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" } });
  let at = 0;
  for (const [oid, name] of blobs) {
    const nl = out.indexOf(10, at);
    const head = out.subarray(at, nl).toString("utf8").split(" ");
    if (head[0] !== oid || head[1] !== "blob") return true; // missing or not a blob: cannot judge
    const size = Number(head[2]);
    const body = out.subarray(nl + 1, nl + 1 + size);
    at = nl + 1 + size + 1;
    if (size > CONFIG_TEXT_MAX || configHoldsCredential(name, body.toString("utf8"))) return true;
  }
  return false;
}

