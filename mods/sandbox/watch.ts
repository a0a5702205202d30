// Watching protected places while a command runs (issue 35, item 7). A missing protected *file*
// (`.mcp.json`, `.claude/settings.local.json`, `lefthook.yml`, `.git/config.worktree` …) gets no
// stand-in (placeholders.ts says why), so a command can create it; a protected file can be
// changed by moving its folder aside. For a foreground command the undo at the end comes before
// anyone reads it; a background job runs for minutes, while the person's own git or editor reads
// the workspace. So while a command runs, the folders that hold protected places are watched
// (fs.watch) and every change there runs the undo at once: a planted file lives for the
// moment between its creation and the event (milliseconds), not for the job.
//
// The watchers never keep deepcode alive (persistent: false), re-arm on folders that appear
// (a new `.git/info`), and stop when the command ends; the full undo follows then (index.ts).

import { lstatSync, readdirSync, watch, type FSWatcher } from "node:fs";
import { dirname, join } from "node:path";
import type { Guarded } from "./protect.js";

/** At most one undo per this many milliseconds while events keep coming (a build writing in the
 *  workspace root): the first event after a quiet spell is acted on at once. */
const MIN_GAP_MS = 10;

export interface ProtectedWatch {
  close(): void;
}

/** The folders to watch for these protected places: each existing protected folder (a names
 *  place's folder; a tree and the folders in it, up to MAX_TREE_DIRS), and the nearest existing
 *  folder above each place, inside its writable folder; `extra` folders too (where package.json
 *  files are). Each is watched on its own: Node's recursive watch is not inotify everywhere. */
export function watchedFolders(guarded: readonly Guarded[], extra: readonly string[] = []): Set<string> {
  const out = new Set<string>();
  for (const d of extra) if (isDir(d)) out.add(d);
  for (const g of guarded) {
    if (!g.base) continue;
    if (g.names && isDir(g.path)) out.add(g.path);
    if (g.tree && isDir(g.path)) for (const d of treeDirs(g.path)) out.add(d);
    for (let d = dirname(g.path); d === g.base || d.startsWith(`${g.base}/`); d = dirname(d)) {
      if (isDir(d)) {
        out.add(d);
        break;
      }
    }
  }
  return out;
}

const MAX_TREE_DIRS = 200;

function treeDirs(top: string): string[] {
  const out = [top];
  for (let i = 0; i < out.length && out.length < MAX_TREE_DIRS; i++) {
    try {
      for (const e of readdirSync(out[i], { withFileTypes: true })) if (e.isDirectory() && out.length < MAX_TREE_DIRS) out.push(join(out[i], e.name));
    } catch {
      // gone or unreadable: nothing below it to watch
    }
  }
  return out;
}

/** Watch `folders()` and call `onChange` soon after anything changes in them; re-reads
 *  `folders()` after each call. */
export function watchProtected(folders: () => Set<string>, onChange: () => void): ProtectedWatch {
  // Keyed by folder; with the folder's inode: one moved aside and replaced is watched anew.
  const watchers = new Map<string, { w: FSWatcher; ino: number }>();
  let timer: NodeJS.Timeout | undefined;
  let last = 0;
  let closed = false;
  const run = (): void => {
    timer = undefined;
    if (closed) return;
    last = Date.now();
    try {
      onChange();
    } finally {
      arm();
    }
  };
  const schedule = (): void => {
    if (closed || timer) return;
    timer = setTimeout(run, Math.max(0, last + MIN_GAP_MS - Date.now()));
  };
  const arm = (): void => {
    if (closed) return;
    for (const dir of folders()) {
      const ino = inode(dir);
      const had = watchers.get(dir);
      if (had && had.ino === ino) continue;
      had?.w.close();
      watchers.delete(dir);
      try {
        const w = watch(dir, { persistent: false }, schedule);
        w.on("error", () => {
          // the folder went away (moved aside, removed): watched again if it comes back
          w.close();
          if (watchers.get(dir)?.w === w) watchers.delete(dir);
          schedule();
        });
        watchers.set(dir, { w, ino });
      } catch {
        // gone between the listing and the watch: the folder above still sees it come back
      }
    }
  };
  arm();
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const { w } of watchers.values()) w.close();
      watchers.clear();
    },
  };
}

function inode(p: string): number {
  try {
    return lstatSync(p).ino;
  } catch {
    return -1; // not there
  }
}

function isDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false; // not there
  }
}
