// The sandbox's journal (issue 35, item 7): what the undo after a command needs, written before
// the command runs, so that a deepcode killed mid-command (`kill -9`, a crash, the machine going
// down) leaves no protected path changed for longer than until its next start in this project.
//
// One file per running command, under deepcode's home (`sandbox/journal/<project>/`, 0600 in a
// 0700 folder; the sandbox hides deepcode's home, so no command can change it): the writable
// folders, the protected places and their snapshot (protect.ts: kinds, modes and contents), the
// stand-in folders (placeholders.ts), the folders made to hold nothing yet, the nested
// repositories, and package.json's guarded keys (lifecycle.ts). Written to a temporary name and
// renamed into place, so a journal is whole or absent: a torn temporary file is removed
// unread. Removed after the undo. The owner is recorded as pid and the kernel's start time of
// that process, so a journal is swept only once its owner is gone (not one of another deepcode
// running in the same project, and not after the pid is reused).

import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { projectStoreKey } from "../../src/lib/project-store.js";
import { writeWholeSync } from "../../src/lib/whole-file.js";
import type { Entry, Guarded, Snapshot } from "./protect.js";
import type { PackageKeys } from "./lifecycle.js";

export interface Journal {
  root: string;
  dirs: string[];
  guarded: Guarded[];
  before: Snapshot;
  placeholders: string[];
  parents: string[];
  repos: string[];
  packages: PackageKeys;
  /** When the command started (ISO), for the person. */
  started: string;
  /** A process that runs all session (guard.ts): only what appeared is undone. */
  session?: boolean;
}

interface EntryJson extends Omit<Entry, "content" | "target"> {
  content?: string;
  target?: string;
}

interface JournalJson {
  version: 1;
  pid: number;
  startTime: string;
  root: string;
  dirs: string[];
  guarded: Array<{ path: string; tree?: boolean; names?: [string, string]; base?: string; shared?: boolean }>;
  before: Array<[string, EntryJson]>;
  placeholders: string[];
  parents: string[];
  repos: string[];
  packages: Array<[string, Record<string, string>]>;
  started: string;
  session?: boolean;
}

/** This project's journal folder in deepcode's home. */
export function journalDir(home: string, root: string): string {
  return join(home, "sandbox", "journal", createHash("sha256").update(projectStoreKey(root)).digest("hex").slice(0, 16));
}

/** Write a journal; returns its path (for removeJournal). */
export function writeJournal(dir: string, j: Journal): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const data: JournalJson = {
    version: 1,
    pid: process.pid,
    startTime: startTimeOf(process.pid) ?? "",
    root: j.root,
    dirs: j.dirs,
    guarded: j.guarded.map((g) => ({ path: g.path, ...(g.tree ? { tree: true } : {}), ...(g.names ? { names: [g.names.source, g.names.flags] as [string, string] } : {}), ...(g.base ? { base: g.base } : {}), ...(g.shared ? { shared: true } : {}) })),
    before: [...j.before].map(([p, e]) => [p, { ...e, content: e.content?.toString("base64"), target: e.target?.toString("base64") }]),
    placeholders: j.placeholders,
    parents: j.parents,
    repos: j.repos,
    packages: [...j.packages],
    started: j.started,
    ...(j.session ? { session: true } : {}),
  };
  const file = join(dir, `${process.pid}-${Date.now()}-${randomBytes(4).toString("hex")}.json`);
  // Whole or not at all: a journal the disk tore would be swept as damaged, and the command's
  // changes to protected files could not be put back. A refused write names the file.
  writeWholeSync(file, JSON.stringify(data), { mode: 0o600 });
  return file;
}

export function removeJournal(file: string): void {
  rmSync(file, { force: true });
}

/** The journals in `dir` whose owner is gone, read back; torn temporary files of a gone owner
 *  are removed, and so is a journal that cannot be read (`problems` says which). */
export function orphanJournals(dir: string): { journals: Array<{ file: string; journal: Journal }>; problems: string[] } {
  const journals: Array<{ file: string; journal: Journal }> = [];
  const problems: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { journals, problems }; // no journal folder: nothing was left
  }
  for (const name of names.sort()) {
    const file = join(dir, name);
    const pid = Number(/^(\d+)-/.exec(name)?.[1] ?? NaN);
    if (name.endsWith(".tmp")) {
      // Torn mid-write: its command had not started (the journal comes first), so nothing is
      // owed; removed once its owner is gone.
      if (!Number.isInteger(pid) || !alive(pid, null)) rmSync(file, { force: true });
      continue;
    }
    if (!name.endsWith(".json")) continue;
    let data: JournalJson;
    try {
      data = JSON.parse(readFileSync(file, "utf8")) as JournalJson;
      if (data.version !== 1 || !Array.isArray(data.before) || !Array.isArray(data.guarded)) throw new Error("not a journal of this version");
    } catch (err) {
      if (Number.isInteger(pid) && alive(pid, null)) continue; // its owner may still be writing it
      problems.push(`${file}: ${(err as Error).message}`);
      rmSync(file, { force: true });
      continue;
    }
    if (alive(data.pid, data.startTime)) continue;
    journals.push({
      file,
      journal: {
        root: data.root,
        dirs: data.dirs,
        guarded: data.guarded.map((g) => ({ path: g.path, ...(g.tree ? { tree: true } : {}), ...(g.names ? { names: new RegExp(g.names[0], g.names[1]) } : {}), ...(g.base ? { base: g.base } : {}), ...(g.shared ? { shared: true } : {}) })),
        before: new Map(data.before.map(([p, e]) => [p, { ...e, content: e.content === undefined ? undefined : Buffer.from(e.content, "base64"), target: e.target === undefined ? undefined : Buffer.from(e.target, "base64") }])),
        placeholders: data.placeholders,
        parents: data.parents,
        repos: data.repos,
        packages: new Map(data.packages),
        started: data.started,
        ...(data.session === true ? { session: true } : {}),
      },
    });
  }
  return { journals, problems };
}

/** Is the process `pid` running, and (when `startTime` is given) the same one that wrote it? */
function alive(pid: number, startTime: string | null): boolean {
  const now = startTimeOf(pid);
  if (now === null) return false;
  return startTime === null || startTime === "" || now === startTime;
}

/** The kernel's start time of a process (field 22 of /proc/<pid>/stat), or null when there is
 *  no such process. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null; // no such process
  }
}
