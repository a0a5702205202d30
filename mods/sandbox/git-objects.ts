// Git's copies of the project's hidden secrets (issue 21, the sandbox's holes).
//
// The sandbox hides a secret file (`.env`, a key…: secrets.ts) under /dev/null, but git keeps
// its own copy of every content it was given: `git add` (also `-f` of an ignored file), `git
// stash -u`/`-a`, a commit later removed — as an object named by the hash of the content, loose
// (`.git/objects/ab/cdef…`, zlib) or in a pack. `git show :.env`, `git cat-file -p <id>`, `git
// stash show -p`, or a script inflating the object file would print what the mount hides.
//
// What the sandbox promises, and what it does not:
//   - the content a hidden secret has now is not readable through git inside the sandbox: each
//     object that holds it is found by its hash (the same bytes give the same object id) and
//     hidden like the file — a loose object under /dev/null; a pack that holds it, when the
//     index does not track that content at that path (an ignored, untracked or only stashed
//     secret), under /dev/null too: git then cannot read what else that pack holds inside the
//     sandbox (the command's error says the pack is broken), which is the price of keeping the
//     secret. In the workspace's repository, in every nested one and submodule, and in the
//     object folders they borrow (`objects/info/alternates`, a linked worktree's common dir);
//   - content the index tracks under a name that is no secret (a `.env` still equal to the
//     `.env.example` it was copied from) is readable in the tree anyway: not hidden;
//   - a secret the index tracks with this very content and that is in a pack (committed,
//     cloned, gc'd) is the repository's: every clone holds it. Its pack stays readable (hiding
//     it would break git for the whole history); the permission gate asks before git commands
//     that print old contents in such a repository (docs/permissions.md);
//   - an *older* content of a secret (a key committed and later rotated, a `.env` edited since
//     it was stashed) is not recognised: only the hash of what the file holds now is known.
// Object ids are SHA-1, or SHA-256 where the repository says `objectformat = sha256`.

import { closeSync, existsSync, lstatSync, openSync, readFileSync, readSync, readdirSync, statSync } from "node:fs";
import { createHash } from "node:crypto";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { secretNameReason } from "../../src/contract/protected.js";
import { nestedGits } from "./nested.js";

/** Files to hide (loose objects, packs) so that no secret's current content can be read from
 *  git's object store in these folders. */
export function secretObjects(dirs: readonly string[], secrets: readonly string[]): string[] {
  if (secrets.length === 0) return [];
  const out = new Set<string>();
  const dotGits = dirs.flatMap((d) => [join(d, ".git"), ...nestedGits(d)]);
  for (const dotGit of dotGits) {
    const repo = openRepo(dotGit);
    if (!repo) continue;
    const work = dirname(dotGit);
    const tracked = new Map<string, string[]>();
    for (const e of indexEntries(join(repo.gitDir, "index"), repo.algo)) {
      const [path, oid] = e.split("\0");
      tracked.set(oid, [...(tracked.get(oid) ?? []), path]);
    }
    for (const s of secrets) {
      const rel = relative(work, s);
      if (rel.startsWith("..") || isAbsolute(rel)) continue;
      let data: Buffer;
      try {
        data = readFileSync(s);
      } catch {
        continue; // unreadable: the command cannot read it either, nor its hash be known
      }
      const oid = createHash(repo.algo).update(`blob ${data.length}\0`).update(data).digest();
      const hex = oid.toString("hex");
      const paths = tracked.get(hex) ?? [];
      // The same bytes tracked under a name that is no secret (`.env` copied from
      // `.env.example` and not edited yet) are shown in the tree anyway: nothing to hide.
      if (paths.some((p) => secretNameReason(basename(p)) === null)) continue;
      const inIndex = paths.length > 0;
      for (const objects of repo.objectDirs) {
        const loose = join(objects, hex.slice(0, 2), hex.slice(2));
        if (existsSync(loose)) out.add(loose);
        if (inIndex) continue;
        for (const idx of packIndexes(objects)) if (packHolds(idx, oid)) for (const p of [idx.replace(/\.idx$/, ".pack"), idx]) if (existsSync(p)) out.add(p);
      }
    }
  }
  return [...out].sort();
}

interface Repo {
  gitDir: string;
  algo: "sha1" | "sha256";
  objectDirs: string[];
}

/** A `.git` folder, or a `.git` file naming one (`gitdir: …`); its common dir and alternates. */
function openRepo(dotGit: string): Repo | null {
  let gitDir = dotGit;
  try {
    const st = lstatSync(dotGit);
    if (st.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"));
      if (!m) return null;
      gitDir = resolve(dirname(dotGit), m[1]);
    } else if (!st.isDirectory()) return null;
  } catch {
    return null; // no repository here
  }
  const common = firstLine(join(gitDir, "commondir"));
  const commonDir = common ? resolve(gitDir, common) : gitDir;
  let config = "";
  try {
    config = readFileSync(join(commonDir, "config"), "utf8");
  } catch {
    // no config: the default object format
  }
  const algo = /^\s*objectformat\s*=\s*sha256\s*$/im.test(config) ? "sha256" : "sha1";
  const objectDirs = [join(commonDir, "objects")];
  for (let i = 0; i < objectDirs.length && i < 16; i++) {
    let alt: string;
    try {
      alt = readFileSync(join(objectDirs[i], "info", "alternates"), "utf8");
    } catch {
      continue; // no alternates
    }
    for (const line of alt.split("\n").map((l) => l.trim())) {
      if (line === "" || line.startsWith("#")) continue;
      const d = resolve(objectDirs[i], line);
      if (!objectDirs.includes(d)) objectDirs.push(d);
    }
  }
  return { gitDir, algo, objectDirs };
}

function firstLine(file: string): string | null {
  try {
    return readFileSync(file, "utf8").split("\n")[0].trim() || null;
  } catch {
    return null; // not a linked worktree
  }
}

/** `path\0oid` of every entry in git's index (versions 2, 3 and 4). Empty when there is none
 *  or it cannot be read — then nothing counts as tracked, so more is hidden, not less. */
export function indexEntries(file: string, algo: "sha1" | "sha256"): Set<string> {
  const out = new Set<string>();
  let b: Buffer;
  try {
    b = readFileSync(file);
  } catch {
    return out; // no index
  }
  if (b.length < 12 || b.toString("latin1", 0, 4) !== "DIRC") return out;
  const version = b.readUInt32BE(4);
  const count = b.readUInt32BE(8);
  const hashLen = algo === "sha1" ? 20 : 32;
  let pos = 12;
  let prev = "";
  for (let i = 0; i < count; i++) {
    const start = pos;
    if (pos + 40 + hashLen + 2 > b.length) break;
    const oid = b.toString("hex", pos + 40, pos + 40 + hashLen);
    const flags = b.readUInt16BE(pos + 40 + hashLen);
    pos += 40 + hashLen + 2;
    if (version >= 3 && flags & 0x4000) pos += 2;
    let path: string;
    if (version === 4) {
      let c = b[pos++];
      let strip = c & 127;
      while (c & 128) {
        c = b[pos++];
        strip = ((strip + 1) << 7) | (c & 127);
      }
      const end = b.indexOf(0, pos);
      if (end < 0) break;
      path = prev.slice(0, Math.max(0, prev.length - strip)) + b.toString("utf8", pos, end);
      pos = end + 1;
    } else {
      const end = b.indexOf(0, pos);
      if (end < 0) break;
      path = b.toString("utf8", pos, end);
      pos = start + ((end - start + 8) & ~7);
    }
    prev = path;
    out.add(`${path}\0${oid}`);
  }
  return out;
}

function packIndexes(objects: string): string[] {
  const dir = join(objects, "pack");
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith(".idx"))
      .map((n) => join(dir, n));
  } catch {
    return []; // no packs
  }
}

/** Whether a pack's index (version 1 or 2) lists the object: a binary search read from the
 *  file in small pieces (an index can be tens of megabytes). Unreadable: treated as holding it
 *  (hidden rather than shown). */
export function packHolds(idx: string, oid: Buffer): boolean {
  let fd: number;
  try {
    if (!statSync(idx).isFile()) return false;
    fd = openSync(idx, "r");
  } catch {
    return false; // gone since the listing: git cannot use it either
  }
  try {
    const head = Buffer.alloc(8);
    readSync(fd, head, 0, 8, 0);
    const v2 = head.readUInt32BE(0) === 0xff744f63;
    const fanoutAt = v2 ? 8 : 0;
    const first = oid[0];
    const fan = Buffer.alloc(8);
    readSync(fd, fan, 0, 8, fanoutAt + (first === 0 ? 0 : (first - 1) * 4));
    let lo = first === 0 ? 0 : fan.readUInt32BE(0);
    let hi = first === 0 ? fan.readUInt32BE(0) : fan.readUInt32BE(4);
    const total = Buffer.alloc(4);
    readSync(fd, total, 0, 4, fanoutAt + 255 * 4);
    const n = total.readUInt32BE(0);
    const namesAt = fanoutAt + 256 * 4;
    const entry = Buffer.alloc(oid.length);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = v2 ? namesAt + mid * oid.length : namesAt + mid * (4 + oid.length) + 4;
      if (mid >= n || readSync(fd, entry, 0, oid.length, at) !== oid.length) return true;
      const c = entry.compare(oid);
      if (c === 0) return true;
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return false;
  } catch {
    return true; // a damaged index: hidden rather than shown
  } finally {
    closeSync(fd);
  }
}
