// A plugin's files: copied at install, hashed into the lock, and checked against it.
//
// - Copying takes a symlink to one of the plugin's own files or folders as that file or folder;
//   a symlink that leads outside the plugin, or to a folder that holds it, refuses the install, as does a plugin whose real place
//   is outside its marketplace or repository, or one past 10,000 files or 100 MiB. A `.git/`
//   at the plugin's top is the repository's, not the plugin's, and is not copied.
// - The digest of a plugin is sha256 over its files in path order, one line each:
//   `<sha256 of the file>  <relative path>\n` — what `sha256sum` prints, so a marketplace author
//   can compute the `sha256` pin with ordinary tools (README: Plugins).
// - Checking at start-up is cheap: a file whose size, mode, mtime, ctime and inode are what the
//   lock recorded is taken as unchanged; only the others are hashed (a ctime moved by a copy or
//   a backup restore with the same content is fine). `deepcode plugin verify` hashes all.

import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { FileRecord } from "./store.js";
import { inert } from "../../src/lib/inert.js";

const MAX_DEPTH = 16;
const MAX_FILES = 10_000;

/** Every file below `dir` (relative paths with `/`); symlinks as they are. `topGit`: skip a
 *  `.git` at the top (a plugin folder that is a repository: not the plugin's). An installed
 *  plugin's folder skips nothing — a `.git` put in it is a file added like any other. */
function walk(dir: string, topGit = false, base = dir, depth = 0, out: string[] = []): string[] {
  if (depth > MAX_DEPTH) throw new Error(`${dir}: folders nest deeper than ${MAX_DEPTH}`);
  for (const name of readdirSync(dir).sort()) {
    if (topGit && depth === 0 && name === ".git") continue;
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isDirectory()) walk(p, false, base, depth + 1, out);
    else out.push(relative(base, p).split(sep).join("/"));
    if (out.length > MAX_FILES) throw new Error(`${base}: more than ${MAX_FILES} files`);
  }
  return out;
}

/** The most a plugin's copy may hold: an install stops with an error past either. */
export const MAX_COPY_FILES = MAX_FILES;
export const MAX_COPY_BYTES = 100 * 1024 * 1024;

const inside = (real: string, root: string): boolean => real === root || real.startsWith(root + sep);

/** Copy a plugin's folder to `dst` (which must not exist). `within`: the marketplace's folder
 *  or the repository's clone — the plugin's real place (symlinks resolved) must be inside it.
 *  A symlink inside the plugin to one of its own files or folders is copied as that file or
 *  folder; a symlink that leads outside it, or to a folder that holds the link (which would
 *  copy itself over and over), is refused, naming the link and what to do. At most MAX_COPY_FILES files and MAX_COPY_BYTES bytes are copied. */
export function copyPlugin(src: string, dst: string, within?: string, limits = { files: MAX_COPY_FILES, bytes: MAX_COPY_BYTES }): void {
  const realRoot = realpathSync(src);
  if (within !== undefined && !inside(realRoot, realpathSync(within))) throw new Error(`${src} is really ${realRoot}, outside ${within}; a plugin's source must be inside its marketplace or repository`);
  let files = 0;
  let bytes = 0;
  // The real folders being copied, outermost first: a link back to one of them is a loop.
  const open: string[] = [realRoot];
  const copy = (from: string, to: string, depth: number): void => {
    if (depth > MAX_DEPTH) throw new Error(`${src}: folders nest deeper than ${MAX_DEPTH}`);
    mkdirSync(to, { recursive: true });
    for (const name of readdirSync(from).sort()) {
      if (depth === 0 && name === ".git") continue; // the repository's, not the plugin's
      const p = join(from, name);
      let st = lstatSync(p);
      if (st.isSymbolicLink()) {
        let real: string;
        try {
          real = realpathSync(p);
        } catch {
          throw new Error(`${relative(src, p)} is a symlink to nothing (${readlinkSync(p)}); a plugin's files must be its own`);
        }
        if (!inside(real, realRoot)) throw new Error(`${relative(src, p)} is a symlink that leads outside the plugin (to ${real}), so the plugin is not installed: a plugin's files must be its own. Ask its author to ship the files instead of the link, or copy the plugin, replace the link with what it points to, and add that folder as a marketplace (deepcode plugin marketplace add <folder>)`);
        st = statSync(p);
        if (st.isDirectory() && open.includes(real)) throw new Error(`${relative(src, p)} is a symlink to a folder that holds it (${real}), which would copy itself forever; ask the plugin's author to remove the link`);
      }
      if (st.isDirectory()) {
        // A link to one of the plugin's own folders (compound-engineering's `.claude/skills ->
        // ../.agents/skills`) is copied as that folder: the installed copy holds no links.
        open.push(realpathSync(p));
        copy(p, join(to, name), depth + 1);
        open.pop();
      }
      else if (st.isFile()) {
        files++;
        bytes += st.size;
        if (files > limits.files) throw new Error(`${src} has more than ${limits.files} files: too many for a plugin, not installed`);
        if (bytes > limits.bytes) throw new Error(`${src} holds more than ${limits.bytes} bytes: too much for a plugin, not installed`);
        copyFileSync(p, join(to, name));
        chmodSync(join(to, name), st.mode & 0o777);
      } else throw new Error(`${relative(src, p)} is not a file or a folder`);
    }
  };
  copy(src, dst, 0);
}

export function sha256File(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** The lock's record of every file of an installed plugin. A symlink (only a person's
 *  `deepcode plugin verify --accept` of a folder they changed records one: an install copies a
 *  link as its file) is recorded as the link, by its target, never followed. */
export function recordFiles(dir: string): Record<string, FileRecord> {
  const out: Record<string, FileRecord> = {};
  for (const rel of walk(dir)) {
    const p = join(dir, rel);
    const st = lstatSync(p);
    const times = { size: st.size, mode: st.mode & 0o777, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
    if (st.isSymbolicLink()) {
      const link = readlinkSync(p);
      out[rel] = { sha256: linkHash(link), ...times, link };
      continue;
    }
    if (!st.isFile()) throw new Error(`${rel} is not a plain file`);
    out[rel] = { sha256: sha256File(p), ...times };
  }
  return out;
}

/** What the lock holds as a symlink's hash: its target's text, marked as a link. */
function linkHash(target: string): string {
  return createHash("sha256").update(`symlink\0${target}`).digest("hex");
}

/** The sha256 over every file's hash and path (sha256sum's lines, in path order). */
export function digestOf(files: Readonly<Record<string, { sha256: string }>>): string {
  const lines = Object.keys(files)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((rel) => `${files[rel].sha256}  ${rel}\n`)
    .join("");
  return createHash("sha256").update(lines).digest("hex");
}

/** The digest of a folder as it is (a plugin before install: what a marketplace pins). */
export function digestOfDir(dir: string): string {
  const files: Record<string, { sha256: string }> = {};
  const realRoot = realpathSync(dir);
  for (const rel of walk(dir, true)) {
    const p = join(dir, rel);
    const real = realpathSync(p);
    if (real !== realRoot && !real.startsWith(realRoot + sep)) throw new Error(`${rel} is a symlink that leads outside the plugin (${real})`);
    if (statSync(p).isDirectory()) {
      for (const [inner, rec] of Object.entries(digestFiles(p))) files[`${rel}/${inner}`] = rec;
    } else files[rel] = { sha256: sha256File(p) };
  }
  return digestOf(files);
}

function digestFiles(dir: string): Record<string, { sha256: string }> {
  const out: Record<string, { sha256: string }> = {};
  for (const rel of walk(dir)) out[rel] = { sha256: sha256File(join(dir, rel)) };
  return out;
}

export interface Drift {
  modified: string[];
  added: string[];
  missing: string[];
}

export function driftWords(d: Drift): string {
  const parts: string[] = [];
  const list = (ys: string[]): string => {
    const xs = ys.map(inert); // file names are the plugin's own text
    return xs.length > 4 ? `${xs.slice(0, 4).join(", ")} and ${xs.length - 4} more` : xs.join(", ");
  };
  if (d.modified.length) parts.push(`changed: ${list(d.modified)}`);
  if (d.added.length) parts.push(`added: ${list(d.added)}`);
  if (d.missing.length) parts.push(`missing: ${list(d.missing)}`);
  return parts.join("; ");
}

/** What differs between `dir` and the lock's records; `full` hashes every file, otherwise only
 *  those whose mtime, ctime or inode moved (a changed size or mode is a change). Null when nothing does. */
export function drift(dir: string, records: Readonly<Record<string, FileRecord>>, full = false): Drift | null {
  const d: Drift = { modified: [], added: [], missing: [] };
  let present: string[];
  try {
    present = walk(dir);
  } catch {
    present = []; // the folder is gone (or unreadable): every file is missing
  }
  const seen = new Set(present);
  for (const rel of present) {
    const rec = records[rel];
    if (!rec) {
      d.added.push(rel);
      continue;
    }
    const p = join(dir, rel);
    const st = lstatSync(p);
    if (rec.link !== undefined || st.isSymbolicLink()) {
      // A link is as recorded only while it is a link to the same target.
      if (rec.link === undefined || !st.isSymbolicLink() || readlinkSync(p) !== rec.link) d.modified.push(rel);
      continue;
    }
    if (!st.isFile() || st.size !== rec.size || (st.mode & 0o777) !== rec.mode) {
      d.modified.push(rel);
      continue;
    }
    // The fast path: unchanged size, mode, mtime, ctime and inode. utimes can put an mtime
    // back, but not a ctime (any write or chmod moves it), and a file swapped in is another inode.
    if (!full && st.mtimeMs === rec.mtimeMs && st.ctimeMs === rec.ctimeMs && st.ino === rec.ino) continue;
    if (sha256File(p) !== rec.sha256) d.modified.push(rel);
  }
  for (const rel of Object.keys(records)) if (!seen.has(rel)) d.missing.push(rel);
  return d.modified.length || d.added.length || d.missing.length ? d : null;
}
