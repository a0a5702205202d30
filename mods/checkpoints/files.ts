// A path's state on disk, as checkpoints save and restore it: a file (its content, by hash, and
// mode), a folder, a symlink (its target), or nothing. Folders are walked (symlinks are not
// followed), up to MAX_ENTRIES below one path. A path that is a symlink to a file is saved as
// the link and, separately, as the file it leads to: a write through the link changes the
// target, `rm link` the link.

import { createHash } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";

export type Entry = { kind: "file"; hash: string; size: number; mode: number } | { kind: "dir"; mode: number } | { kind: "link"; target: string };

export const MAX_ENTRIES = 5000;

export function sha256(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** What is at `path` now, without following a final symlink; null when nothing is. */
export function entryOf(path: string, save?: (data: Buffer) => string): Entry | null {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return null; // nothing there (or unreadable): absent
  }
  if (st.isSymbolicLink()) return { kind: "link", target: readlinkSync(path) };
  if (st.isDirectory()) return { kind: "dir", mode: st.mode & 0o7777 };
  if (!st.isFile()) return null; // a device or socket: not a file checkpoints keep
  const data = readFileSync(path);
  return { kind: "file", hash: save ? save(data) : sha256(data), size: data.length, mode: st.mode & 0o7777 };
}

/** Every path at and below `path` (folders walked, links not followed), deepest last; null
 *  when there are more than MAX_ENTRIES. */
export function pathsBelow(path: string): string[] | null {
  const out: string[] = [path];
  for (let i = 0; i < out.length; i++) {
    let st;
    try {
      st = lstatSync(out[i]);
    } catch {
      continue; // vanished while walking: nothing below it
    }
    if (!st.isDirectory()) continue;
    let names: string[];
    try {
      names = readdirSync(out[i]);
    } catch {
      continue; // unreadable folder: its content cannot be kept
    }
    for (const n of names.sort()) out.push(join(out[i], n));
    if (out.length > MAX_ENTRIES) return null;
  }
  return out;
}

/** The file a symlink leads to, when it leads to one. */
export function linkTarget(path: string): string | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    const real = realpathSync(path);
    return statSync(real).isFile() ? real : undefined;
  } catch {
    return undefined; // a dangling link leads nowhere
  }
}

/** A fingerprint of the state at `path` (a folder: its entries' states), null when absent. */
export function stateOf(path: string): string | null {
  const e = entryOf(path);
  if (e === null) return null;
  if (e.kind !== "dir") return e.kind === "file" ? `file:${e.hash}:${e.mode}` : `link:${e.target}`;
  const below = pathsBelow(path);
  if (below === null) return `dir:many`;
  return `dir:${sha256(below.slice(1).map((p) => `${p.slice(path.length)}=${stateOf1(p)}`).join("\n"))}`;
}

function stateOf1(p: string): string {
  const e = entryOf(p);
  return e === null ? "-" : e.kind === "file" ? e.hash : e.kind === "dir" ? "d" : `l:${e.target}`;
}

/** Why restoring `path` could land outside the project, or undefined: a folder between `root`
 *  and it that is a symlink leading out of the project now (a folder swapped for a link to ~/.ssh
 *  since the turn would carry the restored file, or the removal, there), or a component that is
 *  not a folder. Paths
 *  outside `root` (a rule let the session write there) are judged from their own folder. */
export function swappedFolder(root: string, path: string): string | undefined {
  const rel = relative(root, path);
  const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  const parts = inside ? rel.split(sep).slice(0, -1) : [];
  let at = root;
  for (const part of parts) {
    at = join(at, part);
    let st;
    try {
      st = lstatSync(at);
    } catch {
      return undefined; // missing from here on: created fresh, as real folders
    }
    if (st.isSymbolicLink()) {
      // A link that stays in the project (`lib -> vendor/lib`) is the project's own layout.
      let real: string | undefined;
      try {
        real = realpathSync(at);
      } catch {
        real = undefined; // dangling: nothing to restore into
      }
      const base = realpathSync(root);
      if (real === undefined || (real !== base && !real.startsWith(base + sep))) return `${at} is a symlink now (to ${readlinkSync(at)}), leading out of the project, so ${path} would be restored through it; not restored`;
      continue;
    }
    if (!st.isDirectory()) return `${at} is not a folder now; not restored`;
  }
  return undefined;
}

/** Put `path` back to `e` (null: remove it). `content` gives a saved file's bytes. A file is
 *  written atomically (a temp file beside it, then rename) with its old mode. */
export function restoreEntry(path: string, e: Entry | null, content: (hash: string) => Buffer): void {
  const now = entryOf(path);
  if (e === null) {
    if (now !== null) rmSync(path, { recursive: true, force: true });
    return;
  }
  if (e.kind === "dir") {
    if (now !== null && now.kind !== "dir") rmSync(path, { force: true });
    mkdirSync(path, { recursive: true });
    chmodSync(path, e.mode);
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  if (now !== null && (now.kind === "dir" || now.kind !== e.kind)) rmSync(path, { recursive: true, force: true });
  if (e.kind === "link") {
    if (now?.kind === "link") unlinkSync(path);
    symlinkSync(e.target, path);
    return;
  }
  const tmp = join(dirname(path), `.${process.pid}.${Date.now()}.deepcode-restore`);
  writeFileSync(tmp, content(e.hash), { mode: e.mode });
  chmodSync(tmp, e.mode);
  renameSync(tmp, path);
}

/** Lines taken out and put in to turn `from` into `to` (a summary, not a diff). */
export function lineChanges(from: string, to: string): { removed: number; added: number } {
  const a = from.split("\n");
  const b = to.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const left = new Map<string, number>();
  for (const l of a.slice(start, a.length - end)) left.set(l, (left.get(l) ?? 0) + 1);
  let added = 0;
  for (const l of b.slice(start, b.length - end)) {
    const n = left.get(l) ?? 0;
    if (n > 0) left.set(l, n - 1);
    else added++;
  }
  const removed = [...left.values()].reduce((x, y) => x + y, 0);
  return { removed, added };
}

/** Whether bytes look like text (no NUL in the first 8 KiB). */
export function isText(b: Buffer): boolean {
  return !b.subarray(0, 8192).includes(0);
}
