// Protected paths in the sandbox, whether they exist or not.
//
// bwrap can make an existing path read-only (bwrap.ts binds each one), but it can only mount
// over something that exists: a command could still *create* `.mcp.json`, `.claude/commands/x.md`,
// `.git/config.worktree`, a hook in a `core.hooksPath` folder that is not there yet — files that
// a later session or the person's own `git` obeys, outside any sandbox. A missing protected
// folder gets an empty read-only stand-in while the command runs (placeholders.ts); an empty
// file would break other tools, so for the rest (and for what moving a folder aside changes),
// while the command runs the watch (watch.ts) calls restore() at each change, and:
//   - before the command: a snapshot of every protected path (kind, identity, and the content of
//     files up to 1 MiB);
//   - after it (the sandbox is gone by then: bwrap's PID namespace ends with the command, so no
//     process of it is left to write): anything protected that is new is removed, and anything
//     protected that changed (a parent folder moved aside and a new file put in its place) gets
//     its content back. What was done is said in the command's output.
// The check runs before deepcode or the person can read the files, in the same tool call.
//
// What counts, relative to each writable folder: the contract's protected project paths
// (src/contract/protected.ts) and git's other files that make git run programs or loosen
// checks: `.git/config.worktree`, `.git/info/attributes` (filters), `.git/commondir` (which
// points git at another config and hooks), `.git/modules/*/config` and `hooks/`, and the folder
// `core.hooksPath` names (`.husky/` …; for husky ≥ 9's `<dir>/_`, `<dir>/` whole).

import { chmodSync, lstatSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmdirSync, rmSync, statSync, writeFileSync, type Stats } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { PROTECTED_PROJECT_PATHS } from "../../src/contract/protected.js";
import { nestedGits } from "./nested.js";

/** One protected place: a file or a whole folder (`tree`), or the files in a folder whose
 *  names match (`names`). Absolute. */
export interface Guarded {
  path: string;
  tree?: boolean;
  names?: RegExp;
  /** The writable folder it belongs to: the folders between it and `path` are checked for
   *  links (see linkedAncestor). */
  base?: string;
  /** A folder other tools share (the contract's `shared`): no stand-in when missing. */
  shared?: boolean;
}

const MAX_CONTENT = 1024 * 1024;
const MAX_ENTRIES = 5_000;

/** Every protected place in a writable folder, existing or not. */
export function guardedPaths(dir: string): Guarded[] {
  const out: Guarded[] = PROTECTED_PROJECT_PATHS.map((e) => ({ path: join(dir, e.path), tree: e.tree, names: e.names, ...(e.shared ? { shared: true } : {}) }));
  const git = join(dir, ".git");
  // `commondir` makes git take config and hooks from the folder it names (a copy with a
  // core.fsmonitor the person's next `git status` runs).
  out.push({ path: join(git, "config.worktree") }, { path: join(git, "info", "attributes") }, { path: join(git, "commondir") });
  for (const m of subdirs(join(git, "modules"))) out.push({ path: join(m, "config") }, { path: join(m, "config.worktree") }, { path: join(m, "hooks"), tree: true }, { path: join(m, "commondir") });
  // A linked worktree's admin folder: git there takes config and hooks from `commondir`.
  for (const w of subdirs(join(git, "worktrees"))) out.push({ path: join(w, "commondir") }, { path: join(w, "config.worktree") });
  const hooksPath = gitHooksPath(git, dir);
  if (hooksPath) out.push(...hooksTrees(hooksPath));
  // Config files the repository's config includes (`include.path = ../.gitconfig`, a pattern
  // teams use to share settings): git obeys them as its own config.
  for (const f of includedConfigs(join(git, "config"))) if (isInside(f, dir)) out.push({ path: f });
  // A relative core.hooksPath in the person's own config (~/.gitconfig …) names a folder in
  // every repository without one of its own: guarded too (only inside the folder: outside, the
  // sandbox writes nothing, and the undo must not touch what others write there meanwhile).
  for (const h of userHooksPaths(dir)) if (isInside(h, dir)) out.push(...hooksTrees(h));
  // Nested repositories (nested.ts): the person's git runs their config and hooks too.
  for (const n of nestedGits(dir)) {
    if (lstatOrNull(n)?.isDirectory() !== true) continue;
    out.push({ path: join(n, "config") }, { path: join(n, "config.worktree") }, { path: join(n, "commondir") }, { path: join(n, "info", "attributes") }, { path: join(n, "hooks"), tree: true });
    for (const f of includedConfigs(join(n, "config"))) if (isInside(f, dir)) out.push({ path: f });
    const nestedHooks = gitHooksPath(n, dirname(n));
    if (nestedHooks) out.push(...hooksTrees(nestedHooks));
    for (const h of userHooksPaths(dirname(n))) if (isInside(h, dir)) out.push(...hooksTrees(h));
  }
  return out.map((g) => (isInside(g.path, dir) ? { ...g, base: dir } : g));
}

/** The folders a `core.hooksPath` makes git run programs from: the folder itself, and for
 *  husky ≥ 9's layout (`<dir>/_`, stubs that run `<dir>/<hook>`) the folder above it too. */
export function hooksTrees(hooksPath: string): Guarded[] {
  const out: Guarded[] = [{ path: hooksPath, tree: true }];
  if (basename(hooksPath) === "_") out.push({ path: dirname(hooksPath), tree: true });
  return out;
}

/** The folder `core.hooksPath` names in a repository's config, absolute (relative paths are
 *  taken from the work tree, as git does), or null. */
export function gitHooksPath(gitDir: string, workTree: string): string | null {
  return hooksPathIn(join(gitDir, "config"), workTree);
}

/** The files `[include]` and `[includeIf …]` sections' `path` name in a git config file,
 *  absolute (relative ones are taken from the config file's folder, as git does), followed a
 *  few levels into what they include themselves. */
export function includedConfigs(file: string, home: string = homedir(), depth = 0): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return []; // no config file here
  }
  const out: string[] = [];
  let section = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const head = /^\[([^\]\s"]+)/.exec(line);
    if (head) section = head[1].toLowerCase();
    const kv = /^path\s*=\s*(.*)$/i.exec(line);
    if ((section === "include" || section === "includeif") && kv) {
      const v = kv[1].replace(/^"(.*)"$/, "$1").trim();
      if (v === "") continue;
      const abs = v === "~" || v.startsWith("~/") ? join(home, v.slice(1)) : isAbsolute(v) ? v : resolve(dirname(file), v);
      out.push(abs);
      if (depth < 3) out.push(...includedConfigs(abs, home, depth + 1));
    }
  }
  return out;
}

/** The folders core.hooksPath names in the system's and the person's git config, for a
 *  repository whose work tree is `workTree`. */
export function userHooksPaths(workTree: string, home: string = homedir(), env: NodeJS.ProcessEnv = process.env): string[] {
  const xdg = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(home, ".config");
  const files = ["/etc/gitconfig", join(xdg, "git", "config"), join(home, ".gitconfig")];
  return files.flatMap((f) => {
    const h = hooksPathIn(f, workTree, home);
    return h ? [h] : [];
  });
}

function hooksPathIn(file: string, workTree: string, home: string = homedir()): string | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null; // no repository config here
  }
  let section = "";
  let found: string | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const head = /^\[([^\]\s"]+)(?:\s+"[^"]*")?\]/.exec(line);
    if (head) section = head[1].toLowerCase();
    const kv = /^hookspath\s*=\s*(.*)$/i.exec(line);
    if (section === "core" && kv) found = kv[1].replace(/^"(.*)"$/, "$1").trim();
  }
  if (!found) return null;
  if (found === "~" || found.startsWith("~/")) return join(home, found.slice(1));
  return isAbsolute(found) ? found : resolve(workTree, found);
}

/** The existing paths of a protected place, for read-only binds: the file or folder itself;
 *  for a `names` place, the matching files in it. */
export function existingGuarded(g: Guarded): string[] {
  if (!g.names) return exists(g.path) ? [g.path] : [];
  return safeList(g.path)
    .filter((n) => g.names?.test(n))
    .sort()
    .map((n) => join(g.path, n));
}

export interface Entry {
  kind: "file" | "dir" | "link" | "other";
  ino: number;
  /** Permission bits: a hook made executable is a change as much as new content. */
  mode: number;
  size: number;
  mtimeMs: number;
  content?: Buffer;
  /** The writable folder of the protected place it was found in. */
  base?: string;
  /** A link: what the file it leads to held (up to 1 MiB), when it leads to one. */
  target?: Buffer;
}

export type Snapshot = Map<string, Entry>;

/** The folders that hold protected places (`.claude`, `.git/info` …) and do not exist now:
 *  a command that creates one only to put a protected file in it leaves it empty, and
 *  restore() removes it again. */
export function missingParents(guarded: readonly Guarded[], root: string): string[] {
  const out = new Set<string>();
  for (const g of guarded) {
    for (let d = dirname(g.path); d.startsWith(`${root}${sep}`); d = dirname(d)) if (!exists(d)) out.add(d);
  }
  return [...out].sort((a, b) => b.length - a.length); // deepest first
}

/** Every path in the protected places as it is now. */
export function snapshot(guarded: readonly Guarded[]): Snapshot {
  const out: Snapshot = new Map();
  let base: string | undefined;
  const add = (p: string, st: Stats): void => {
    const kind = st.isSymbolicLink() ? "link" : st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
    const e: Entry = { kind, ino: st.ino, mode: st.mode & 0o7777, size: st.size, mtimeMs: st.mtimeMs, base };
    if (kind === "link") {
      // A protected name that is a link (`.mcp.json -> config/mcp.json`) is obeyed for what it
      // leads to: a command that replaces the folder of the target changes it.
      try {
        if (statSync(p).size <= MAX_CONTENT) e.target = readFileSync(p);
      } catch {
        // dangling, or leads to a folder: nothing read through it
      }
    }
    if (kind === "file" && st.size <= MAX_CONTENT) {
      try {
        e.content = readFileSync(p);
      } catch {
        // unreadable: it can still be removed if it is new, not put back if it changes
      }
    }
    out.set(p, e);
  };
  for (const g of guarded) {
    base = g.base;
    // A link (or a file) where a folder of the protected path belongs: the path is recorded as
    // that link, never followed — a command that puts `.claude -> ~/.claude` in place must not
    // make restore() delete or overwrite what the link points at, outside the workspace.
    const linked = linkedAncestor(g);
    if (linked) {
      const st = lstatOrNull(linked);
      if (st) add(linked, st);
      continue;
    }
    if (g.names) {
      for (const p of existingGuarded(g)) {
        const st = lstatOrNull(p);
        if (st) add(p, st);
      }
      continue;
    }
    const st = lstatOrNull(g.path);
    if (!st) continue;
    add(g.path, st);
    if (g.tree && st.isDirectory()) walk(g.path, (p, s) => add(p, s), { n: 0 });
  }
  return out;
}

/** Put the protected places back as `before` had them: remove what is new, restore what
 *  changed or went missing (when its content was kept). Returns what it did, for people.
 *  `live`: the command is still running (watch.ts) — a file that is gone is not made again yet
 *  (that would break a command that moved its folder aside to copy it back, `mv .git .g && cp
 *  -a .g .git`: cp creates each file exclusively); one that is there but changed is put back
 *  at once, and the pass after the command makes what is missing. */
/** `ours`: an empty stand-in another run holds (not the command's). `newOnly`: only what appeared
 *  is removed, what changed is left (a process that runs all session: the protected places that
 *  exist are read-only inside its sandbox, so a change to one is the person's own). */
export function restore(guarded: readonly Guarded[], before: Snapshot, root: string, parents: readonly string[] = [], live = false, ours: (p: string) => boolean = () => false, newOnly = false): string[] {
  const after = snapshot(guarded);
  const done: string[] = [];
  const rel = (p: string): string => (relative(root, p).startsWith("..") ? p : relative(root, p).split(sep).join("/"));
  // New paths, shallowest first: removing a new folder removes what is in it. An empty stand-in
  // another run of this process holds (`ours`) is deepcode's own, not the command's.
  const fresh = [...after.keys()].filter((p) => !before.has(p) && !ours(p)).sort((a, b) => a.length - b.length);
  const removed: string[] = [];
  for (const p of fresh) {
    if (removed.some((r) => p.startsWith(`${r}${sep}`))) continue;
    try {
      rmSync(p, { recursive: true, force: true });
      removed.push(p);
      done.push(`removed ${rel(p)} (created by the command)`);
    } catch (err) {
      done.push(`could not remove ${rel(p)}: ${(err as Error).message}`);
    }
  }
  for (const [p, was] of newOnly ? [] : before) {
    if (was.kind === "link" && was.target !== undefined) {
      const now = after.get(p);
      if (now?.kind !== "link" || now.ino !== was.ino || now.target?.equals(was.target) === true) continue;
      // The same link, leading to new content: the content goes back where it leads, when that
      // is in the writable folder (elsewhere the sandbox wrote nothing).
      try {
        const real = realpathSync(p);
        if (!was.base || !isInside(real, was.base)) throw new Error(`it leads outside the workspace (${real})`);
        writeFileSync(real, was.target);
        done.push(`put back ${rel(p)} (the command changed what it leads to, ${rel(real)})`);
      } catch (err) {
        done.push(`could not put back ${rel(p)}: ${(err as Error).message}`);
      }
      continue;
    }
    if (was.kind !== "file") continue;
    const now = after.get(p);
    if (now && now.kind === "file" && now.ino === was.ino && now.mode === was.mode && now.size === was.size && now.mtimeMs === was.mtimeMs) continue;
    // Already as it was (put back by an earlier pass while the command runs: watch.ts) — not
    // written again, which would be one more change to see.
    if (now?.kind === "file" && now.mode === was.mode && was.content !== undefined && now.content?.equals(was.content) === true && linkedAncestor({ path: p, base: was.base }) === null) continue;
    if (live && !now) continue;
    if (was.content === undefined) {
      // Too large (or unreadable) to have been kept: what is there now is the command's, and
      // cannot be put back — so it goes (fails closed), and the person is told.
      if (!now) continue;
      try {
        rmSync(p, { recursive: true, force: true });
        done.push(`removed ${rel(p)} (the command changed it; it was too large to keep a copy of, so it cannot be put back)`);
      } catch (err) {
        done.push(`could not remove ${rel(p)}: ${(err as Error).message}`);
      }
      continue;
    }
    try {
      // Never through a link put where one of its folders was (a new one is removed above).
      const linked = was.base ? linkedAncestor({ path: p, base: was.base }) : null;
      if (linked) throw new Error(`${rel(linked)} is not a folder`);
      if (now && now.kind !== "file") rmSync(p, { recursive: true, force: true });
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, was.content);
      chmodSync(p, was.mode);
      done.push(`put back ${rel(p)} (the command changed or moved it)`);
    } catch (err) {
      done.push(`could not put back ${rel(p)}: ${(err as Error).message}`);
    }
  }
  // Folders that did not exist and now stand empty because of what was removed.
  if (done.length > 0) {
    for (const d of parents) {
      try {
        rmdirSync(d);
      } catch {
        // not empty (the command put other files there, which are its own business), or absent
      }
    }
  }
  return done;
}

/** The first folder between a protected place's writable folder and the place (the place
 *  itself too, for a `names` place: the folder it lists) that is a link or not a folder, or
 *  null. Without a `base`, none is checked. */
export function linkedAncestor(g: Guarded): string | null {
  if (!g.base) return null;
  const parts = relative(g.base, g.names ? g.path : dirname(g.path)).split(sep).filter((x) => x !== "");
  let d = g.base;
  for (const part of parts) {
    d = join(d, part);
    const st = lstatOrNull(d);
    if (!st) return null;
    if (!st.isDirectory()) return d;
  }
  return null;
}

function isInside(p: string, dir: string): boolean {
  const r = relative(dir, p);
  return r !== "" && !r.startsWith("..") && !isAbsolute(r);
}

function walk(dir: string, visit: (p: string, st: Stats) => void, count: { n: number }): void {
  for (const name of safeList(dir)) {
    if (++count.n > MAX_ENTRIES) return;
    const p = join(dir, name);
    const st = lstatOrNull(p);
    if (!st) continue;
    visit(p, st);
    if (st.isDirectory()) walk(p, visit, count);
  }
}

function subdirs(dir: string): string[] {
  return safeList(dir)
    .map((n) => join(dir, n))
    .filter((p) => lstatOrNull(p)?.isDirectory() === true);
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return []; // not a folder, or not there
  }
}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null; // not there
  }
}

function exists(p: string): boolean {
  return lstatOrNull(p) !== null;
}
