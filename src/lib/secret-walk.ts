// The walk that finds a workspace's secret files (the sandbox hides them; the permission gate
// asks which of them a contained command can still read): bounded (MAX_ENTRIES entries,
// MAX_DEPTH levels), and skipping folders that hold dependencies or build output
// (node_modules, .git objects, virtualenvs …) — secrets there are not the project's own, and
// walking them on every command would cost seconds. What the walk does not reach stays visible
// in the sandbox, and the gate asks before a command reads it. One walk for both, so they agree.
// Which files are secrets is the caller's judgement (the contract's `secretFileReason`).

import { lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";

const MAX_ENTRIES = 20_000;
const MAX_DEPTH = 12;
const SKIP = new Set(["node_modules", ".git", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache", ".pytest_cache", "target", ".next", ".nuxt", ".cache", ".gradle", ".terraform"]);

/** Secret files below these folders: absolute paths of regular files (a symlink's target, when
 *  it is a file inside one of the folders), for which `isSecret(name, path)` is true. */
export function findSecrets(dirs: readonly string[], isSecret: (name: string, path: string) => boolean): string[] {
  const out = new Set<string>();
  const count = { n: 0 };
  for (const d of dirs) walk(d, 0, out, count, dirs, isSecret);
  return [...out].sort();
}

function walk(dir: string, depth: number, out: Set<string>, count: { n: number }, roots: readonly string[], isSecret: (name: string, path: string) => boolean): void {
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
      if (!SKIP.has(name)) walk(p, depth + 1, out, count, roots, isSecret);
      continue;
    }
    if (st.isFile()) {
      if (isSecret(name, p)) out.add(p);
    } else if (st.isSymbolicLink()) {
      try {
        const real = realpathSync(p);
        if (statSync(real).isFile() && roots.some((r) => real.startsWith(`${r}/`)) && isSecret(name, real)) out.add(real);
      } catch {
        // a dangling link: nothing to hide
      }
    }
  }
}
