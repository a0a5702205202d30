// Stand-ins for protected folders that do not exist (issue 35, item 7). bwrap can only mount over
// what exists, so a missing `.husky/`, `.claude/`, `.vscode/`, `.devcontainer/`, `.git/hooks` …
// could be created by a command and exist on the host while it runs (a background job for
// minutes), where the person's own git or editor obeys it. Prevention instead of undo: before
// the command, each such folder is created empty (mode 0555) on the host, so the sandbox binds
// it read-only like any protected path that exists (bwrap.ts) and the command can put nothing in
// it; after the command it is removed again (when still empty: what the person's own tools put
// there meanwhile is restore()'s business). An empty folder runs nothing and breaks no tool.
//
// Only folders whose parent folder exists are stood in for (never a `.git/hooks` that would make
// an empty `.git`), and never through a link. Missing protected *files* get no stand-in: an
// empty `.mcp.json`, `lefthook.yml` or `.git/commondir` would break the person's tools running
// beside; those are watched instead (watch.ts) and undone at the end (protect.ts).

import { chmodSync, lstatSync, mkdirSync, readdirSync, rmdirSync, type Stats } from "node:fs";
import { dirname } from "node:path";
import { linkedAncestor, type Guarded } from "./protect.js";

/** Stand-ins in use by commands of this process that are still running (a background job and a
 *  foreground command at once): removed only when the last of them ends, never from under a
 *  sandbox that has it mounted. */
const inUse = new Map<string, number>();

/** Create the stand-ins; returns the folders this command holds, shallowest first. */
export function makePlaceholders(guarded: readonly Guarded[]): string[] {
  const made: string[] = [];
  const candidates = guarded.filter((g) => (g.tree === true || g.names !== undefined) && g.shared !== true && g.base !== undefined && g.path !== g.base);
  for (const g of [...candidates].sort((a, b) => a.path.length - b.path.length)) {
    if (made.includes(g.path) || made.some((m) => g.path.startsWith(`${m}/`))) continue; // inside one already: covered
    const held = inUse.get(g.path);
    if (held !== undefined && lstatOrNull(g.path)?.isDirectory() === true) {
      inUse.set(g.path, held + 1);
      made.push(g.path);
      continue;
    }
    if (lstatOrNull(g.path) !== null || linkedAncestor(g) !== null) continue;
    if (lstatOrNull(dirname(g.path))?.isDirectory() !== true) continue;
    try {
      mkdirSync(g.path, { mode: 0o555 });
      chmodSync(g.path, 0o555);
      made.push(g.path);
      inUse.set(g.path, 1);
    } catch {
      // EEXIST (made meanwhile: bound as it is), EACCES/EROFS (the command cannot create it
      // either): nothing to stand in for
    }
  }
  return made;
}

/** `path` is a stand-in a running command of this process holds, still an empty folder. */
export function heldStandIn(path: string): boolean {
  if (!inUse.has(path)) return false;
  try {
    return readdirSync(path).length === 0;
  } catch {
    return false; // gone or unreadable: not a stand-in to keep
  }
}

/** Remove the stand-ins that are still empty folders, deepest first. Returns the ones that
 *  could not be removed (something is in them). */
export function removePlaceholders(made: readonly string[]): string[] {
  const left: string[] = [];
  for (const p of [...made].sort((a, b) => b.length - a.length)) {
    const held = inUse.get(p) ?? 1;
    if (held > 1) {
      inUse.set(p, held - 1); // another running command still stands on it
      continue;
    }
    inUse.delete(p);
    const st = lstatOrNull(p);
    if (st === null || !st.isDirectory()) continue;
    try {
      rmdirSync(p);
    } catch {
      left.push(p); // not empty: what is in it was put there from outside the sandbox
      try {
        chmodSync(p, 0o755);
      } catch {
        // gone meanwhile, or not ours to change: left as it is
      }
    }
  }
  return left;
}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null; // not there
  }
}
