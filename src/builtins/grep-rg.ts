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
import type { GrepQuery } from "./grep-search.js";
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
  const r = await ctx.run({
    argv: [rg, ...rgArgs(q)],
    cwd: q.root,
    command: `rg ${q.pattern}`,
    // What Grep searches was judged at its check: a sandbox shows it (read-only, secrets masked).
    grantRead: [q.target],
    timeoutMs: RG_TIMEOUT_MS,
    maxOutputBytes: RG_MAX_OUTPUT_BYTES,
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
  const keep = (shown: string): boolean => !q.secrets?.isSecretFile(resolve(q.root, shown));
  if (q.mode === "files_with_matches") lines = lines.filter(keep).sort(comparePaths);
  else if (q.mode === "count") lines = lines.filter((l) => keep(l.slice(0, l.lastIndexOf(":")))).sort((a, b) => comparePaths(a.slice(0, a.lastIndexOf(":")), b.slice(0, b.lastIndexOf(":"))));
  else lines = contentLines(byFile(lines, q.before > 0 || q.after > 0), q, keep);
  return { lines, cut };
}

/**
 * rg's content output in `--sort path` order. rg searches files in parallel but prints each
 * file's lines together, so the output is runs of lines per file (`path NUL …`): the runs are
 * sorted by path. A `--` between two runs separates files and is put back between the sorted
 * runs when context lines were asked for; one inside a run (between two groups of a file) stays.
 */
export function byFile(raw: readonly string[], context: boolean): string[] {
  const runs: Array<{ path: string; lines: string[] }> = [];
  let run: { path: string; lines: string[] } | null = null;
  let pending: string[] = []; // lines without a path (separators) since the last run's line
  for (const l of raw) {
    const nul = l.indexOf("\0");
    if (nul < 0) {
      pending.push(l);
      continue;
    }
    const path = l.slice(0, nul);
    if (run === null || run.path !== path) {
      // Lines without a path before a file's first line: the separator between files (dropped)
      // or a note rg printed on its own (kept, in place).
      const notes = pending.filter((p) => p !== "--");
      run = { path, lines: notes };
      runs.push(run);
    } else {
      run.lines.push(...pending);
    }
    pending = [];
    run.lines.push(l);
  }
  const tail = pending.filter((p) => p !== "--");
  if (run !== null) run.lines.push(...tail);
  else return tail;
  // Stable: a file printed twice (never, but a cut output can look so) keeps its order.
  const sorted = runs.map((r, i) => ({ ...r, i })).sort((a, b) => comparePaths(a.path, b.path) || a.i - b.i);
  const out: string[] = [];
  for (const r of sorted) {
    if (context && out.length > 0) out.push("--");
    out.push(...r.lines);
  }
  return out;
}

/** rg's `path NUL N:text` lines as rg prints them without --null (`path:N:text`, `path-N-text`,
 *  or without N), the files `keep` refuses left out, with the `--` group separators that then
 *  stand first, last or twice dropped. A line without NUL is a separator, a binary-match note
 *  for a file searched by name, or a line the output bound cut in half (dropped: its file is
 *  not known). */
function contentLines(raw: readonly string[], q: GrepQuery, keep: (shown: string) => boolean): string[] {
  const out: string[] = [];
  const kept = new Map<string, boolean>();
  for (const l of raw) {
    const nul = l.indexOf("\0");
    if (nul < 0) {
      if (l === "--" ? out.length > 0 && out[out.length - 1] !== "--" : q.targetIsFile) out.push(l);
      continue;
    }
    const shown = l.slice(0, nul);
    let ok = kept.get(shown);
    if (ok === undefined) kept.set(shown, (ok = keep(shown)));
    if (!ok) continue;
    const rest = l.slice(nul + 1);
    const m = /^([0-9]+)([:-])/.exec(rest);
    if (m === null) out.push(`${shown}:${rest}`);
    else out.push(q.lineNumbers ? `${shown}${m[2]}${rest}` : `${shown}${m[2]}${rest.slice(m[0].length)}`);
  }
  while (out[out.length - 1] === "--") out.pop();
  return out;
}
