// .gitignore rules, as git and ripgrep apply them — written once, used by Glob and by Grep's
// built-in search (whose output must equal rg's on the same tree).
//
// - Each .gitignore applies to paths below its own folder. A pattern with a slash at the start
//   or in the middle is anchored to that folder; without one it matches a name at any depth.
// - A trailing `/` matches folders only; `!` re-includes; `\#`, `\!`, `\ ` escape; trailing
//   spaces are dropped; `**` spans folders (glob-match.ts).
// - For one path, the deepest .gitignore with a matching rule decides, and within a file the
//   last matching rule. A folder that is ignored is not entered, so nothing below it can be
//   re-included (git's rule).
// - .gitignore files of the folders above the search start apply too (ripgrep reads them all
//   the way up, also outside a git repository: we run rg with --no-require-git to match).

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { globToRegExp } from "./glob-match.js";

interface Rule {
  re: RegExp;
  negate: boolean;
  dirOnly: boolean;
  /** Matched against the path relative to the .gitignore's folder; else against the name. */
  anchored: boolean;
}

export interface IgnoreFile {
  /** The folder the .gitignore sits in (absolute, no trailing slash except for `/`). */
  dir: string;
  rules: Rule[];
}

export function parseGitignore(dir: string, text: string): IgnoreFile {
  const rules: Rule[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (line === "" || line.startsWith("#")) continue;
    line = line.replace(/(?<!\\)\s+$/, "");
    if (line === "") continue;
    let negate = false;
    if (line.startsWith("!")) {
      negate = true;
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith("/") && !line.endsWith("\\/")) {
      dirOnly = true;
      line = line.replace(/\/+$/, "");
    }
    if (line === "") continue;
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    rules.push({ re: globToRegExp(line), negate, dirOnly, anchored });
  }
  return { dir, rules };
}

/** Read `dir/.gitignore` if it exists (a missing or unreadable one has no rules). */
export function loadGitignore(dir: string): IgnoreFile | null {
  let text: string;
  try {
    text = readFileSync(join(dir, ".gitignore"), "utf8");
  } catch {
    return null; // ENOENT, EACCES, EISDIR: no rules from here
  }
  const f = parseGitignore(dir, text);
  return f.rules.length ? f : null;
}

/** The .gitignore files of every folder above `start` (outermost first), as rg reads them. */
export function parentGitignores(start: string): IgnoreFile[] {
  const found: IgnoreFile[] = [];
  for (let dir = dirname(start), prev = start; dir !== prev; prev = dir, dir = dirname(dir)) {
    const f = loadGitignore(dir);
    if (f) found.push(f);
  }
  return found.reverse();
}

/**
 * Whether `abs` (a file or folder) is ignored by the stack of .gitignore files that apply to it,
 * outermost first. Returns "ignore", "keep" (a `!` rule re-included it) or null (no rule matched).
 */
export function gitignoreVerdict(stack: readonly IgnoreFile[], abs: string, isDir: boolean): "ignore" | "keep" | null {
  const name = abs.slice(abs.lastIndexOf("/") + 1);
  for (let s = stack.length - 1; s >= 0; s--) {
    const f = stack[s];
    const rel = abs.slice(f.dir === "/" ? 1 : f.dir.length + 1);
    for (let r = f.rules.length - 1; r >= 0; r--) {
      const rule = f.rules[r];
      if (rule.dirOnly && !isDir) continue;
      if (rule.re.test(rule.anchored ? rel : name)) return rule.negate ? "keep" : "ignore";
    }
  }
  return null;
}
