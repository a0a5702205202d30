// Grep through ripgrep (via ctx.run, so the sandbox hook sees it). The flags pin down every
// behaviour the built-in search (grep-search.ts) reproduces: no config file, hidden files
// searched, .git skipped, only .gitignore files as ignore rules (no .ignore/.rgignore, no
// .git/info/exclude, no global excludes) and those also outside a git repository, types from
// our own table, file paths always printed, secrets left out (`--glob '!…'`, grep-secrets.ts).
// rg runs in parallel in every mode (`--sort path` would make it walk and search on one thread)
// and its output is sorted here into rg's sorted order: each file's lines come out together, so
// content mode sorts whole files (byFile).

import { resolve } from "node:path";
import { findOnPath } from "../lib/path-lookup.js";
import type { ToolContext } from "../contract/index.js";
import type { GrepMode, GrepQuery } from "./grep-search.js";
import { displayPath } from "../lib/paths.js";
import { comparePaths } from "./walk.js";

const RG_TIMEOUT_MS = 120_000;
const RG_MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

const NOTHING_SEARCHED = /^No files were searched/m;

export class RgError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RgError";
  }
}

/** The absolute path of `rg` on PATH, or null. */
export function findRg(path = process.env.PATH ?? ""): string | null {
  return findOnPath("rg", path);
}

const WALK_FLAGS = ["--no-config", "--hidden", "--no-require-git", "--no-ignore-dot", "--no-ignore-exclude", "--no-ignore-global"];

/** The user's file filters (globs, `.git`, type) and what to search: shared by the search and
 *  by the listing that counts skipped secrets, so both walk the same files. */
function filterArgs(q: GrepQuery, secrets: boolean): string[] {
  const args: string[] = [];
  for (const g of q.globs) args.push("--glob", g);
  args.push("--glob", "!.git");
  // Last, so they win over the user's globs (rg: a later glob takes precedence) and .gitignore.
  if (secrets) for (const g of q.secrets?.globsFor(q.target) ?? []) args.push("--glob", `!${g}`);
  if (q.typeGlobs) {
    for (const g of q.typeGlobs) args.push("--type-add", `deepcode:${g}`);
    args.push("--type", "deepcode");
  }
  return args;
}

/** rg prints paths as it was given them: project-relative below the root, absolute outside. */
function targetArgs(q: GrepQuery): string[] {
  const shown = displayPath(q.root, q.target);
  return shown === "." ? [] : ["--", shown];
}

export function rgArgs(q: GrepQuery): string[] {
  const args = [...WALK_FLAGS, "--color=never", "--no-heading", "--with-filename", q.ignoreCase ? "--ignore-case" : "--case-sensitive"];
  if (q.mode === "files_with_matches") args.push("--files-with-matches");
  else if (q.mode === "count") args.push("--count");
  else {
    // Paths end in NUL and lines are always numbered, so that each line's file is known for
    // certain (secrets under another name are left out, keepFile) whatever the path holds;
    // contentLines() gives the lines back the form asked for.
    args.push("--null", "--line-number");
    if (q.before > 0) args.push("--before-context", String(q.before));
    if (q.after > 0) args.push("--after-context", String(q.after));
  }
  if (q.multiline) args.push("--multiline", "--multiline-dotall");
  args.push(...filterArgs(q, true), "--regexp", q.pattern, ...targetArgs(q));
  return args;
}

/** `rg --files` with the search's filters but without the secret globs: what the search would
 *  have read had it not left the secrets out. */
export function rgListArgs(q: GrepQuery): string[] {
  return [...WALK_FLAGS, "--files", ...filterArgs(q, false), ...targetArgs(q)];
}

/**
 * The files the search left out as secrets, as rg prints paths, sorted; null when they could not
 * be listed. Runs rg a second time (listing names, reading nothing), because rg does not report
 * what its globs excluded.
 */
export async function secretsSkippedRg(rg: string, q: GrepQuery, ctx: ToolContext): Promise<string[] | null> {
  const secrets = q.secrets;
  if (!secrets) return [];
  const r = await ctx.run({ argv: [rg, ...rgListArgs(q)], cwd: q.root, command: "rg --files", timeoutMs: RG_TIMEOUT_MS, maxOutputBytes: RG_MAX_OUTPUT_BYTES, grantRead: [q.target] });
  if (r.exitCode === 2 && r.stdout === "" && NOTHING_SEARCHED.test(r.stderr)) return [];
  if (r.timedOut || r.interrupted || r.truncatedBytes > 0 || (r.exitCode !== 0 && r.exitCode !== 1 && !(r.exitCode === 2 && r.stdout !== ""))) return null;
  const shown = r.stdout.split("\n").filter((l) => l !== "" && secrets.skips(resolve(q.root, l), q.target));
  return shown.sort(comparePaths);
}

/** rg's output lines; `cut` when the output bound dropped some (its marker line is removed). */
export async function searchRg(rg: string, q: GrepQuery, ctx: ToolContext): Promise<{ lines: string[]; cut: boolean }> {
  // Whether a file rg found is kept (not a secret under another name), per path as rg prints it.
  const judged = new Map<string, boolean>();
  const keep = (shown: string): boolean => {
    let ok = judged.get(shown);
    if (ok === undefined) judged.set(shown, (ok = !q.secrets?.isSecretFile(underRoot(q.root, shown))));
    return ok;
  };
  const r = await ctx.run({
    argv: [rg, ...rgArgs(q)],
    cwd: q.root,
    command: `rg ${q.pattern}`,
    // What Grep searches was judged at its check: a sandbox shows it (read-only, secrets masked).
    grantRead: [q.target],
    timeoutMs: RG_TIMEOUT_MS,
    maxOutputBytes: RG_MAX_OUTPUT_BYTES,
    onOutput: q.secrets ? judgeAsFound(q.mode, keep) : undefined,
  });
  if (r.timedOut) throw new RgError(`rg timed out after ${RG_TIMEOUT_MS / 1000} s; narrow the path or the pattern`);
  if (r.interrupted) throw new RgError("interrupted");
  // Exit 1 is "no match"; 2 is an error, but rg still prints what it found in readable files.
  // rg also exits 2 when its globs left nothing to search (`glob: ".env"`, every match a
  // secret): that is no match, as the built-in search says.
  if (r.exitCode === 2 && r.stdout === "" && NOTHING_SEARCHED.test(r.stderr)) return { lines: [], cut: false };
  if (r.exitCode === 2 && r.stdout === "") throw new RgError(r.stderr.trim() || "rg failed");
  if (r.exitCode !== 0 && r.exitCode !== 1 && r.exitCode !== 2) throw new RgError(r.stderr.trim() || `rg exited with ${r.exitCode ?? r.signal}`);
  let lines = r.stdout.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const cut = r.truncatedBytes > 0;
  if (cut) lines = lines.filter((l) => !/^… \[\d+ bytes of output cut\] …$/.test(l));
  if (q.mode === "files_with_matches") lines = lines.filter(keep).sort(comparePaths);
  else if (q.mode === "count") lines = lines.filter((l) => keep(l.slice(0, l.lastIndexOf(":")))).sort((a, b) => comparePaths(a.slice(0, a.lastIndexOf(":")), b.slice(0, b.lastIndexOf(":"))));
  else lines = contentLines(byFile(lines, q.before > 0 || q.after > 0), q, keep);
  return { lines, cut };
}

const PENDING_MAX = 8192;

/**
 * A live view of rg's output that asks, for each file as rg names it, whether it is a secret
 * under another name (a stat, and more for a file with several names): asked while rg still
 * searches, so that little is left to ask once it has finished (the answers are kept by path;
 * searchRg asks again, exactly, of the whole output). A chunk may end mid-line, so the last
 * part waits for the next; a line that is not a path (stderr, a separator) costs one stat of
 * a file that is not there.
 */
function judgeAsFound(mode: GrepMode, keep: (shown: string) => boolean): (text: string) => void {
  let rest = "";
  let last = "";
  const end = mode === "content" ? "\0" : mode === "count" ? ":" : "\n";
  return (text) => {
    // Only a line's start is needed (a path is at most PATH_MAX long): a long line (minified
    // code) is not carried along, so it costs nothing however many chunks it spans.
    if (!text.includes("\n")) {
      if (rest.length < PENDING_MAX) rest += text.slice(0, PENDING_MAX);
      return;
    }
    const all = rest + text;
    let from = 0;
    for (let nl = all.indexOf("\n"); nl >= 0; from = nl + 1, nl = all.indexOf("\n", from)) {
      const cut = end === "\n" ? nl : end === ":" ? all.lastIndexOf(":", nl) : all.indexOf("\0", from);
      if (cut < from || cut > nl) continue;
      const shown = all.slice(from, cut);
      if (shown === last) continue; // a file's next line
      last = shown;
      keep(shown);
    }
    rest = all.slice(from, from + PENDING_MAX);
  };
}

/** The absolute path of a path as rg prints it: joined without path.resolve (a search prints
 *  thousands) when it is plain (relative, no `.`/`..` segment, no `//`, no trailing `/`). */
export function underRoot(root: string, shown: string): string {
  if (NOT_PLAIN.test(shown)) return resolve(root, shown);
  return root.endsWith("/") ? root + shown : `${root}/${shown}`;
}

const NOT_PLAIN = /^$|^\/|\/\/|\/$|(^|\/)\.\.?(\/|$)|\\/;

/**
 * rg's content output in `--sort path` order. rg searches files in parallel but prints each
 * file's lines together, so the output is runs of lines per file (`path NUL …`): the runs are
 * sorted by path. A `--` between two runs separates files and is put back between the sorted
 * runs when context lines were asked for; one inside a run (between two groups of a file) stays.
 */
export function byFile(raw: readonly string[], context: boolean): string[] {
  const runs: Run[] = [];
  let run: Run | null = null;
  let pending: string[] = []; // lines without a path (separators) since the last run's line
  for (const l of raw) {
    const nul = l.indexOf("\0");
    if (nul < 0) {
      pending.push(l);
      continue;
    }
    // The same file as the line before (most lines): compared in place, no path cut out.
    if (run === null || nul !== run.path.length || !l.startsWith(run.path)) {
      // Lines without a path before a file's first line: the separator between files (dropped)
      // or a note rg printed on its own (kept, in place).
      run = { path: l.slice(0, nul), lines: pending.filter((p) => p !== "--"), i: runs.length };
      runs.push(run);
    } else {
      for (const p of pending) run.lines.push(p);
    }
    if (pending.length > 0) pending = [];
    run.lines.push(l);
  }
  const tail = pending.filter((p) => p !== "--");
  if (run !== null) for (const p of tail) run.lines.push(p);
  else return tail;
  // Stable: a file printed twice (never, but a cut output can look so) keeps its order.
  runs.sort((a, b) => comparePaths(a.path, b.path) || a.i - b.i);
  const out: string[] = [];
  for (const r of runs) {
    if (context && out.length > 0) out.push("--");
    for (const l of r.lines) out.push(l);
  }
  return out;
}

interface Run {
  path: string;
  lines: string[];
  /** Its place in rg's output. */
  i: number;
}

/** rg's `path NUL N:text` lines as rg prints them without --null (`path:N:text`, `path-N-text`,
 *  or without N), the files `keep` refuses left out, with the `--` group separators that then
 *  stand first, last or twice dropped. A line without NUL is a separator, a binary-match note
 *  for a file searched by name, or a line the output bound cut in half (dropped: its file is
 *  not known). */
function contentLines(raw: readonly string[], q: GrepQuery, keep: (shown: string) => boolean): string[] {
  const out: string[] = [];
  for (const l of raw) {
    const nul = l.indexOf("\0");
    if (nul < 0) {
      if (l === "--" ? out.length > 0 && out[out.length - 1] !== "--" : q.targetIsFile) out.push(l);
      continue;
    }
    const shown = l.slice(0, nul);
    if (!keep(shown)) continue;
    const rest = l.slice(nul + 1);
    const m = /^([0-9]+)([:-])/.exec(rest);
    if (m === null) out.push(`${shown}:${rest}`);
    else out.push(q.lineNumbers ? `${shown}${m[2]}${rest}` : `${shown}${m[2]}${rest.slice(m[0].length)}`);
  }
  while (out[out.length - 1] === "--") out.pop();
  return out;
}
