// Where a file word of a shell command leads on disk, as bash would resolve it just before
// running: `~/` against the home folder, a relative word against each folder the part may run in
// (a `cd` may fail), and a glob in the last segment expanded against what is there now. The shell
// reader (src/lib/shell) says which words a part reads and writes; this says which paths they
// are. Shared by tool.effects (what checkpoints save) and the permission gate (what it judges).

import { readdirSync } from "node:fs";
import { isAbsolute } from "node:path";
import { globToRegExp } from "../glob-match.js";
import type { Word } from "../shell/lexer.js";
import type { CwdSet } from "../shell/types.js";

/**
 * Where a file word may point: one group per possible working folder, each group the path (or,
 * for a glob, the names it matches now); null when unknowable.
 */
export function resolveWord(w: Word, cwd: CwdSet, home: string): string[][] | null {
  if (w.expanded || w.brace || w.value === "") return null;
  let v = w.value;
  if (w.tilde) {
    if (v === "~" || v.startsWith("~/")) v = home + v.slice(1);
    else return null; // ~user
  }
  let bases: string[];
  if (isAbsolute(v)) bases = [v];
  else if (cwd.unknown) return null;
  // Joined without normalising: `link/../x` must be resolved after following `link`.
  else bases = cwd.dirs.map((d) => `${d}/${v}`);
  if (!w.glob) return bases.map((b) => [b]);
  const groups = bases.map(expandGlob);
  return groups.some((g) => g === null) ? null : (groups as string[][]);
}

/**
 * What a glob in its last segment matches now (bash expands it just before running), or the
 * pattern itself when nothing matches (bash then passes it as written). A matched name may be a
 * symlink that leads outside, so each match is checked. Globs in folder segments: unknowable.
 */
function expandGlob(p: string): string[] | null {
  const slash = p.lastIndexOf("/");
  const dir = p.slice(0, slash) || "/";
  const pattern = p.slice(slash + 1);
  if (/[*?[]/.test(dir) || pattern === "" || pattern === "." || pattern === "..") return null;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [p]; // no such folder: nothing matches
  }
  const re = globToRegExp(pattern, { dot: false });
  const matches = names.filter((n) => re.test(n)).map((n) => `${dir}/${n}`);
  if (matches.length > 10_000) return null;
  return matches.length > 0 ? matches : [p];
}
