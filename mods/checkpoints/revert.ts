// Putting files back: the changes of a set of turns, undone together (`/undo`: the last turn;
// `/rewind N`: every turn after N). For each path those turns touched, the target is its state
// before the earliest of them changed it, and the state it should have now is the one the
// latest of them left. A path whose state on disk is not that (the person or another program
// changed it since) is a conflict: it is not overwritten unless the caller says so — and so is a
// path whose end state was never recorded, when it is not already as the target.

import { readFileSync } from "node:fs";
import { relative, isAbsolute } from "node:path";
import { entryOf, isText, lineChanges, restoreEntry, stateOf, swappedFolder, type Entry } from "./files.js";
import type { CheckpointStore, TurnInfo } from "./store.js";

export interface RevertItem {
  path: string;
  target: Entry | null;
  /** The earliest turn of the set that changed it. */
  turn: number;
  conflict: boolean;
  /** Already as the target: nothing to do. */
  same: boolean;
}

export interface RevertPlan {
  turns: number[];
  items: RevertItem[];
  /** What those turns did that checkpoints could not see. */
  unseen: Array<{ turn: number; what: string }>;
  /** Turns of the set whose checkpoints the store's bound dropped. */
  dropped: number[];
  /** Journal lines that could not be read and may hold changes of these turns (turn: unknown
   *  when the line does not say): those changes are not put back. */
  damaged: Array<{ line: number; turn?: number }>;
}

export function planRevert(turns: TurnInfo[], damagedAnywhere: readonly number[] = []): RevertPlan {
  const byPath = new Map<string, { first: TurnInfo; last: TurnInfo }>();
  const kept = turns.filter((t) => !t.dropped).sort((a, b) => a.turn - b.turn);
  for (const t of kept) {
    for (const path of t.before.keys()) {
      const seen = byPath.get(path);
      byPath.set(path, { first: seen?.first ?? t, last: t });
    }
  }
  const items: RevertItem[] = [];
  for (const [path, { first, last }] of byPath) {
    const target = first.before.get(path) ?? null;
    const now = stateOf(path);
    const expected = last.after.get(path);
    const same = now === stateOfEntry(target, path);
    // No end state recorded (a crash, a change between turns, a path the store never saw end):
    // nothing says the content on disk is the turns' own, so it is a conflict too (fail closed).
    items.push({ path, target, turn: first.turn, same, conflict: !same && (expected === undefined || now !== expected) });
  }
  return {
    turns: kept.map((t) => t.turn),
    items: order(items),
    unseen: turns.flatMap((t) => t.unseen.map((what) => ({ turn: t.turn, what }))),
    dropped: turns.filter((t) => t.dropped).map((t) => t.turn),
    damaged: [...turns.flatMap((t) => (t.damaged ?? []).map((line) => ({ line, turn: t.turn }))), ...damagedAnywhere.map((line) => ({ line }))],
  };
}

/** A target's fingerprint as stateOf would give it once restored (folders: unknown here). */
function stateOfEntry(e: Entry | null, path: string): string | null | undefined {
  if (e === null) return null;
  if (e.kind === "file") return `file:${e.hash}:${e.mode}`;
  if (e.kind === "link") return `link:${e.target}`;
  return entryOf(path)?.kind === "dir" ? stateOf(path) : undefined; // a folder that is still a folder counts as itself
}

/** Folders to create first (shallow to deep), then files and links, then removals (deep
 *  to shallow), so nothing is written into a folder about to be removed. */
function order(items: RevertItem[]): RevertItem[] {
  const depth = (p: string): number => p.split("/").length;
  const dirs = items.filter((i) => i.target?.kind === "dir").sort((a, b) => depth(a.path) - depth(b.path));
  const files = items.filter((i) => i.target !== null && i.target.kind !== "dir");
  const removals = items.filter((i) => i.target === null).sort((a, b) => depth(b.path) - depth(a.path));
  return [...dirs, ...files, ...removals];
}

export interface Applied {
  restored: Array<{ path: string; what: string }>;
  kept: string[];
  failed: Array<{ path: string; error: string }>;
}

/** Put the plan's paths back; `overwrite(path)` decides each conflict. */
export async function applyRevert(store: CheckpointStore, plan: RevertPlan, root: string, overwrite: (item: RevertItem) => Promise<boolean>): Promise<Applied> {
  const out: Applied = { restored: [], kept: [], failed: [] };
  for (const item of plan.items) {
    if (item.same) continue;
    if (item.conflict && !(await overwrite(item))) {
      out.kept.push(shown(root, item.path));
      continue;
    }
    const what = describe(store, item);
    // Checked at write time, right before it: a folder on the way swapped for a symlink since.
    const swapped = swappedFolder(root, item.path);
    if (swapped) {
      out.failed.push({ path: shown(root, item.path), error: swapped });
      continue;
    }
    try {
      restoreEntry(item.path, item.target, (h) => store.read(h));
      out.restored.push({ path: shown(root, item.path), what });
    } catch (err) {
      out.failed.push({ path: shown(root, item.path), error: err instanceof Error ? err.message : String(err) });
    }
  }
  return out;
}

/** What restoring it does, in a few words: `restored (−3 +1 lines)`, `removed (created in turn 4)`. */
function describe(store: CheckpointStore, item: RevertItem): string {
  const now = entryOf(item.path);
  const t = item.target;
  if (t === null) return `removed (created in turn ${item.turn})`;
  if (t.kind === "dir") return now === null ? "folder re-created" : "folder restored";
  if (t.kind === "link") return `link to ${t.target} restored`;
  if (now === null) return `re-created (${lines(store.read(t.hash))})`;
  if (now.kind !== "file") return "restored";
  try {
    const before = store.read(t.hash);
    const current = readFileSync(item.path);
    if (!isText(before) || !isText(current)) return "restored (binary)";
    const c = lineChanges(current.toString("utf8"), before.toString("utf8"));
    return c.removed === 0 && c.added === 0 ? "restored (mode)" : `restored (−${c.removed} +${c.added} lines)`;
  } catch {
    return "restored"; // the summary only: a file unreadable for its diff is still put back
  }
}

function lines(b: Buffer): string {
  if (!isText(b)) return `${b.length} bytes`;
  const n = b.toString("utf8").split("\n").length - (b.toString("utf8").endsWith("\n") ? 1 : 0);
  return `${n} line${n === 1 ? "" : "s"}`;
}

export function shown(root: string, p: string): string {
  const rel = relative(root, p);
  return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? p : rel;
}
