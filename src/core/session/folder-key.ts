// How a project maps to its folder of sessions: `<home>/sessions/<key>/`. The key is the root's
// path made readable (`/home/me/src/app` → `-home-me-src-app`) plus a hash of the exact path, so
// two projects never share a folder: the readable part alone made `x/acme-api` and `x/acme/api`
// the same (`-x-acme-api`), and `-c` in one resumed the other.
//
// Sessions written under the old key (the readable part alone) are moved to the new folder the
// first time the project opens its store — only those whose own record names this very root
// (a folder two projects shared holds both; each takes its own), with everything kept beside
// each (its subagents' folder, checkpoints, kept outputs: every `<id>` and `<id>.*` entry).

import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmdirSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";

/** The readable part is cut here: a folder name must stay well under the 255 bytes file
 *  systems allow (the hash keeps cut names apart). */
const MAX_READABLE = 120;

export function sessionFolderKey(root: string): string {
  const hash = createHash("sha256").update(root).digest("hex").slice(0, 12);
  return `${legacySessionFolderKey(root).slice(0, MAX_READABLE)}-${hash}`;
}

/** The key before it carried a hash (still read, to move what was written under it). */
export function legacySessionFolderKey(root: string): string {
  return root.replace(/[^A-Za-z0-9]/g, "-");
}

/** Move this root's sessions from the folder of the old key into `dir`. Never throws: what
 *  cannot be moved stays where it was (another process moved it first, a read-only home). */
export function migrateLegacySessions(home: string, root: string, dir: string): void {
  const old = join(home, "sessions", legacySessionFolderKey(root));
  if (old === dir || !existsSync(old)) return;
  let names: string[];
  try {
    names = readdirSync(old);
  } catch {
    return; // unreadable: nothing we can move
  }
  for (const name of names) {
    if (!name.endsWith(".jsonl")) continue;
    const id = name.slice(0, -".jsonl".length);
    if (sessionRoot(join(old, name)) !== root) continue;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      for (const n of names) if (n === name || n === id || n.startsWith(`${id}.`)) renameSync(join(old, n), join(dir, n));
    } catch {
      // ENOENT: another deepcode moved it first; EACCES/EXDEV: it stays in the old folder.
    }
  }
  try {
    rmdirSync(old); // only when empty: later starts need not look again
  } catch {
    // ENOTEMPTY: another project's sessions (or files deepcode did not move) are still there.
  }
}

/** The `root` a session file's first record names, or undefined. */
function sessionRoot(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const first = buf.subarray(0, n).toString("utf8").split("\n")[0];
    const rec = JSON.parse(first) as { t?: string; root?: unknown };
    return rec.t === "session" && typeof rec.root === "string" ? rec.root : undefined;
  } catch {
    return undefined; // unreadable, or a first line that is not a session record: not moved
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
