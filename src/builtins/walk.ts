// The file walk shared by Glob and Grep's built-in search, in ripgrep's sorted order: depth
// first, each folder's entries sorted by name, byte-wise (what `rg --sort path` prints; it is
// also a segment-by-segment comparison of paths, see comparePaths). Hidden files are included,
// `.git` is always skipped, symbolic links are not followed (rg's defaults without -L), and
// .gitignore rules apply (ignore.ts); Grep also leaves out secrets (`secret`, grep-secrets.ts).
// Listing folders uses node:fs directly; file contents are read by the tools through ctx.fs.

import { readdirSync, type Dirent } from "node:fs";
import { join } from "node:path";
import { gitignoreVerdict, loadGitignore, parentGitignores, type IgnoreFile } from "../lib/gitignore.js";

export interface WalkRules {
  /**
   * Consulted before .gitignore, like rg's --glob overrides: "include" keeps the entry whatever
   * .gitignore says, "exclude" drops it (a folder is not entered), null leaves it to .gitignore.
   */
  override?(abs: string, isDir: boolean): "include" | "exclude" | null;
  /** Files only, after .gitignore (rg's --type). */
  accept?(name: string): boolean;
  /** Whether a folder is worth entering (Glob's literal prefix); `rel` is relative to the start. */
  enter?(rel: string): boolean;
  /**
   * Consulted last, for an entry every other rule keeps: true leaves it out as a secret (Grep,
   * grep-secrets.ts). A file is listed in `skipped` instead of the result; a folder is walked
   * for the same listing only (nothing in it is read), so the count equals what rg would have
   * searched there.
   */
  secret?(abs: string, isDir: boolean): boolean;
}

/** Absolute paths of the files under `start`, in walk order; files left out by `rules.secret`
 *  go to `skipped` (when given; without it, a secret folder is not walked). */
export function walkFiles(start: string, rules: WalkRules = {}, skipped?: string[]): string[] {
  const out: string[] = [];
  const stack = parentGitignores(start);
  visit(start, "", stack, rules, out, skipped);
  return out;
}

function visit(dir: string, rel: string, stack: IgnoreFile[], rules: WalkRules, out: string[], skipped: string[] | undefined): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // EACCES, or the folder vanished mid-walk: nothing to list (rg reports and goes on)
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let here = stack;
  if (entries.some((e) => e.name === ".gitignore")) {
    const f = loadGitignore(dir);
    if (f) here = [...stack, f];
  }
  for (const e of entries) {
    if (e.name === ".git") continue;
    const isDir = e.isDirectory();
    if (!isDir && !e.isFile()) continue; // symlinks, sockets, fifos
    const abs = dir === "/" ? `/${e.name}` : join(dir, e.name);
    const childRel = rel ? `${rel}/${e.name}` : e.name;
    const o = rules.override?.(abs, isDir) ?? null;
    if (o === "exclude") continue;
    if (o === null && gitignoreVerdict(here, abs, isDir) === "ignore") continue;
    // Inside a secret folder (out === skipped) everything is skipped already.
    const secret = out !== skipped && rules.secret !== undefined && rules.secret(abs, isDir);
    const sink = secret ? skipped : out;
    if (!sink) continue; // a secret, and no one counts them: not even walked
    if (isDir) {
      if (!rules.enter || rules.enter(childRel)) visit(abs, childRel, here, rules, sink, skipped);
    } else if (o === "include" || !rules.accept || rules.accept(e.name)) {
      sink.push(abs);
    }
  }
}

/** rg's sorted order for two paths: segment by segment, each compared by code unit. Walked
 *  as one string (a large search sorts thousands of paths; splitting each into segments on
 *  every comparison was most of the sort): at the first unit that differs, a segment that
 *  ended there (`/` or the end) is the shorter one and sorts first, and the end of the path
 *  before a `/` (fewer segments). */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x === SLASH) return -1;
    if (y === SLASH) return 1;
    return x - y;
  }
  return a.length - b.length;
}

const SLASH = 47;
