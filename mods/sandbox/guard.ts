// Around each sandboxed command (index.ts): the protected paths of the writable folders are
// stood in for (placeholders.ts), recorded (protect.ts, lifecycle.ts) and journaled
// (journal.ts) before it runs, watched while it runs (watch.ts), and put back after it; and at
// start, what a deepcode killed mid-command left is swept from its journals (sweepJournals).

import { rmdirSync } from "node:fs";
import { ensureProtectedFolders } from "./bwrap.js";
import { guardedPaths, missingParents, restore, snapshot, type Guarded } from "./protect.js";
import { nestedGits, removeNewGits } from "./nested.js";
import { packageKeys, putBackPackageKeys } from "./lifecycle.js";
import { heldStandIn, makePlaceholders, removePlaceholders } from "./placeholders.js";
import { journalDir, orphanJournals, removeJournal, writeJournal, type Journal } from "./journal.js";
import { watchedFolders, watchProtected } from "./watch.js";
import { dirname, join } from "node:path";

export interface Guard {
  /** Stop watching, put everything back, remove the stand-ins and the journal; returns what was
   *  undone, for people. Call once, when the command has ended. */
  finish(): string[];
}

/** Before a command that may write `dirs` (real paths, the root first). `session: true` (a
 *  process that runs all session, a stdio MCP server): what appears at a protected path is
 *  removed at once, but a protected file that changes is left as it is — inside the sandbox it
 *  is read-only, so the change is the person's (their `git push -u` writing .git/config, their
 *  edit of .mcp.json), which a session-long undo would keep taking back. */
export function startGuard(root: string, home: string, dirs: readonly string[], o: { session?: boolean } = {}): Guard {
  if (dirs.length === 0) return { finish: () => [] };
  ensureProtectedFolders(root);
  const initial = dirs.flatMap(guardedPaths);
  // Folders that hold nothing yet are found before the stand-ins make some of them.
  const parents = dirs.flatMap((d) => missingParents(guardedPaths(d), d));
  const placeholders = makePlaceholders(initial);
  const guarded = dirs.flatMap(guardedPaths);
  const before = snapshot(guarded);
  const repos = dirs.flatMap(nestedGits);
  const packages = packageKeys(dirs);
  const journal: Journal = { root, dirs: [...dirs], guarded, before, placeholders, parents, repos, packages, started: new Date().toISOString(), ...(o.session ? { session: true } : {}) };
  let file: string | undefined;
  const undone = new Set<string>();
  try {
    file = writeJournal(journalDir(home, root), journal);
  } catch (err) {
    // No journal (deepcode's home not writable): the watch and the undo still run; only a
    // deepcode killed mid-command would leave this command's changes until someone looks.
    undone.add(`could not write the sandbox journal: ${(err as Error).message}`);
  }
  const pkgFiles = [...new Set([...packages.keys(), ...dirs.map((d) => join(d, "package.json"))])];
  const pkgDirs = [...new Set(pkgFiles.map((f) => dirname(f)))];
  const watch = watchProtected(
    () => watchedFolders(guarded, pkgDirs),
    () => {
      for (const m of [...restore(guarded, before, root, [], true, heldStandIn, o.session === true), ...putBackPackageKeys(packages, dirs, root, pkgFiles)]) undone.add(m);
    },
  );
  return {
    finish() {
      watch.close();
      for (const m of undoJournal(journal)) undone.add(m);
      if (file) removeJournal(file);
      return [...undone];
    },
  };
}

/** Everything the journal says to undo, as at the end of its command: protected places back as
 *  they were (with those that appeared meanwhile, all they hold being new), new nested
 *  repositories removed, the stand-ins and the folders made empty removed, package.json's
 *  guarded keys put back. */
function undoJournal(j: Journal): string[] {
  const { root, dirs, guarded, before } = j;
  const now: Guarded[] = [...guarded, ...dirs.flatMap(guardedPaths).filter((g) => !guarded.some((o) => o.path === g.path))];
  const done = [...restore(now, before, root, [], false, heldStandIn, j.session === true), ...removeNewGits(dirs, new Set(j.repos), root)];
  removePlaceholders(j.placeholders);
  // Folders that did not exist and now stand empty because of what was removed.
  if (done.length > 0) {
    for (const d of j.parents) {
      try {
        rmdirSync(d);
      } catch {
        // not empty (the command put other files there, which are its own business), or absent
      }
    }
  }
  done.push(...putBackPackageKeys(j.packages, dirs, root));
  return done;
}

/** At start, before any command or hook runs: undo what each journal of this project left by
 *  a deepcode that ended mid-command. `lines`: one per journal, for people; `changed`: a
 *  protected path had to be put back or removed (not only an empty stand-in). */
export function sweepJournals(root: string, home: string): { lines: string[]; changed: boolean } {
  const { journals, problems } = orphanJournals(journalDir(home, root));
  const out = problems.map((p) => `ignored an unreadable sandbox journal (${p})`);
  let changed = false;
  for (const { file, journal } of journals) {
    const done = undoJournal(journal);
    if (done.length > 0) changed = true;
    const stand = journal.placeholders.length > 0 ? [`removed the empty stand-in${journal.placeholders.length > 1 ? "s" : ""} ${journal.placeholders.map((p) => rel(root, p)).join(", ")}`] : [];
    const all = [...done, ...stand];
    if (all.length > 0) out.push(`deepcode ended while a sandboxed command started at ${journal.started} was running; its protected paths are put back: ${all.join("; ")}`);
    removeJournal(file);
  }
  return { lines: out, changed };
}

function rel(root: string, p: string): string {
  return p.startsWith(`${root}/`) ? p.slice(root.length + 1) : p;
}
