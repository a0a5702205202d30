// Secrets recognised by what they are, not by their name: a hard link to ~/.ssh/id_rsa or to the
// project's .env under an innocent name (`notes.txt`), or a file renamed from one, is the same
// file — the same device and inode — and counts as that secret. The permission gate (a Read,
// Bash's reads, an @-mention) and Grep ask this module about every file they would hand over.
//
// Cost: nothing is walked for an ordinary file. Only a file with more than one name (st_nlink >
// 1) needs the index of the known secrets' identities, which is built on first need, once per
// session (per root and home), and rebuilt when such a file's inode changed after the build (a
// new hard link sets the inode's ctime, so a link made later is never judged by an old index).
// Once built, the index is consulted for every file, so a secret renamed after the build
// (`mv .env notes.txt`) is recognised too.
//
// What the index holds: every regular file in the contract's fixed secret places (home credential
// places, deepcode's home; symlinks there followed to their file), and every file in the project
// whose name is a secret's (`.env…`, keys, token files), the project walked without `.git` and
// `node_modules`. Both walks are bounded; where one stopped short, a many-named file on that
// device cannot be shown to be harmless, and counts as a secret (the reason says so). A hard
// link whose other names all lie outside these places (another project's `.env`) is not known.

import { lstatSync, readdirSync, statSync, type Dirent, type Stats } from "node:fs";
import { join, relative, sep } from "node:path";
import { secretLocations } from "../contract/protected.js";
import { secretFileReason } from "../contract/secret-content.js";
import { readConfigText } from "../lib/regular-file.js";

export interface IdentityScope {
  root: string;
  home: string;
  deepcodeHome?: string;
}

/** Files stat'ed in the fixed secret places, and entries read in the project, per build. */
export const PLACE_BUDGET = 20_000;
export const PROJECT_BUDGET = 100_000;
/** A link made within this long before the build may carry an older ctime (coarse clocks). */
const CTIME_SLACK_MS = 2_000;
const SKIP_DIRS = new Set([".git", "node_modules"]);

interface Index {
  builtAt: number;
  /** `dev:ino` → the secret's path and why it is one. */
  files: Map<string, { path: string; why: string }>;
  /** Devices where a walk stopped short. */
  incomplete: Set<number>;
  /** Many-named files a rebuild already found harmless, with the ctime they had then: they do
   *  not trigger another rebuild until their inode changes (kept across rebuilds). */
  cleared: Map<string, number>;
}

const indexes = new Map<string, Index>();

/** Why the file at `path` (symlinks followed) is a known secret under another name, or null. */
export function identitySecret(path: string, scope: IdentityScope): string | null {
  let st: Stats;
  try {
    st = statSync(path);
  } catch {
    return null; // missing or unreadable: nothing to hand over
  }
  if (!st.isFile()) return null;
  const key = scopeKey(scope);
  let index = indexes.get(key);
  if (index === undefined && st.nlink <= 1) return null;
  const stale = index !== undefined && st.nlink > 1 && !index.files.has(id(st)) && st.ctimeMs >= index.builtAt - CTIME_SLACK_MS && index.cleared.get(id(st)) !== st.ctimeMs;
  if (index === undefined || stale) {
    index = buildIndex(scope, index?.cleared);
    indexes.set(key, index);
    if (!index.files.has(id(st))) index.cleared.set(id(st), st.ctimeMs);
  }
  const hit = index.files.get(id(st));
  if (hit) return `it is the same file as ${shown(hit.path, scope)} (${hit.why})`;
  if (st.nlink > 1 && index.incomplete.has(st.dev)) {
    return `it has ${st.nlink} names, and deepcode stopped looking for the others before it could show that none is a secret`;
  }
  return null;
}

/** Forget the indexes (tests; a long-lived process whose secrets moved). */
export function resetIdentityIndex(): void {
  indexes.clear();
}

function buildIndex(scope: IdentityScope, cleared = new Map<string, number>()): Index {
  const index: Index = { builtAt: Date.now(), files: new Map(), incomplete: new Set(), cleared };
  const budget = { left: PLACE_BUDGET };
  for (const l of secretLocations(scope.home, scope.deepcodeHome)) {
    // A place that holds the project itself (a project inside ~/.deepcode/plugins) is the
    // person's choice: its files are the project's, not secrets.
    if (isInside(scope.root, l.path)) continue;
    addPlace(l.path, l.why, index, budget);
  }
  walkProject(scope.root, index, { left: PROJECT_BUDGET });
  return index;
}

function addPlace(path: string, why: string, index: Index, budget: { left: number }): void {
  let st: Stats;
  try {
    st = statSync(path);
  } catch {
    return; // absent: nothing there
  }
  if (st.isFile()) {
    index.files.set(id(st), { path, why });
    return;
  }
  if (!st.isDirectory()) return;
  for (const { path: p, entry } of entriesBelow(path, NO_SKIP)) {
    if (entry.isDirectory() || (!entry.isFile() && !entry.isSymbolicLink())) continue;
    if (budget.left-- <= 0) {
      index.incomplete.add(st.dev);
      return;
    }
    try {
      const f = statSync(p);
      if (f.isFile()) index.files.set(id(f), { path: p, why });
    } catch {
      // a dangling symlink, or it vanished: no file to recognise
    }
  }
}

function walkProject(root: string, index: Index, budget: { left: number }): void {
  for (const { path: p, entry } of entriesBelow(root, SKIP_DIRS)) {
    if (budget.left-- <= 0) {
      markIncomplete(root, index);
      return;
    }
    const why = entry.isDirectory() ? null : secretFileReason(entry.name, () => readConfigText(p), p);
    if (why === null) continue;
    try {
      const f = lstatSync(p);
      if (f.isFile()) index.files.set(id(f), { path: p, why });
    } catch {
      // vanished mid-walk: nothing to recognise
    }
  }
}

const NO_SKIP: ReadonlySet<string> = new Set();

/** Every entry below `start`, depth first; folders named in `skip` are listed, not entered. */
function* entriesBelow(start: string, skip: ReadonlySet<string>): Generator<{ path: string; entry: Dirent }> {
  const stack = [start];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable folder: what deepcode cannot list, a tool cannot read either
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && !skip.has(entry.name)) stack.push(path);
      yield { path, entry };
    }
  }
}

function markIncomplete(root: string, index: Index): void {
  try {
    index.incomplete.add(statSync(root).dev);
  } catch {
    // the root vanished: nothing of it to hand over either
  }
}

function id(st: Stats): string {
  return `${st.dev}:${st.ino}`;
}

function scopeKey(s: IdentityScope): string {
  return `${s.root}\u0000${s.home}\u0000${s.deepcodeHome ?? ""}`;
}

function shown(path: string, scope: IdentityScope): string {
  if (isInside(path, scope.root)) return relative(scope.root, path) || ".";
  if (isInside(path, scope.home)) return `~${sep}${relative(scope.home, path)}`;
  return path;
}

function isInside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}
