// Project secrets the sandbox hides: files in the workspace (and the other readable-writable
// folders) whose names say they hold credentials — `.env*` but the committed templates, private
// keys, key and certificate files, token files, histories (the contract's SECRET_NAMES, the rules
// the file tools and Grep use). An ignored file counts as much as a tracked one: the name decides.
//
// The walk is bounded (MAX_ENTRIES entries, MAX_DEPTH levels) and skips folders that hold
// dependencies or build output (node_modules, .git objects, virtualenvs …): secrets there are
// not the project's own, and walking them on every command would cost seconds. What the walk
// does not reach stays visible; the gate still asks before a command names a secret file.

import { lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { secretNameReason } from "../../src/contract/protected.js";

const MAX_ENTRIES = 20_000;
const MAX_DEPTH = 12;
const SKIP = new Set(["node_modules", ".git", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache", ".pytest_cache", "target", ".next", ".nuxt", ".cache", ".gradle", ".terraform"]);

/** Secret files below these folders: absolute paths of regular files (a symlink's target,
 *  when it is a file inside one of the folders). */
export function projectSecrets(dirs: readonly string[]): string[] {
  const out = new Set<string>();
  const count = { n: 0 };
  for (const d of dirs) walk(d, 0, out, count, dirs);
  return [...out].sort();
}

function walk(dir: string, depth: number, out: Set<string>, count: { n: number }, roots: readonly string[]): void {
  if (depth > MAX_DEPTH) return;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // unreadable folder: nothing of it can be listed (the command cannot list it either)
  }
  for (const name of names) {
    if (++count.n > MAX_ENTRIES) return;
    const p = join(dir, name);
    let st;
    try {
      st = lstatSync(p);
    } catch {
      continue; // gone since the listing
    }
    if (st.isDirectory()) {
      if (!SKIP.has(name)) walk(p, depth + 1, out, count, roots);
      continue;
    }
    if (secretNameReason(name) === null) continue;
    if (st.isFile()) out.add(p);
    else if (st.isSymbolicLink()) {
      try {
        const real = realpathSync(p);
        if (statSync(real).isFile() && roots.some((r) => real.startsWith(`${r}/`))) out.add(real);
      } catch {
        // a dangling link: nothing to hide
      }
    }
  }
}
