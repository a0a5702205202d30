// The summary index of one sessions folder (`<folder>/index.json`, 0600): each session's
// summary keyed by its id, with the file's size and mtime when it was summarised. It saves
// `-c`, `-r` and `/sessions` from parsing every transcript of the project; it is never the
// only truth — an entry is used only while its file's size and mtime still match, a missing,
// damaged or stale index is rebuilt from the files, and a session without an entry is read.

import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionSummary } from "./records.js";

const VERSION = 1;

export type IndexedSummary = Omit<SessionSummary, "file" | "modified">;

interface Entry {
  size: number;
  mtimeMs: number;
  summary: IndexedSummary;
}

export class SummaryIndex {
  private entries: Record<string, Entry> = Object.create(null) as Record<string, Entry>;
  private dirty = false;
  private readonly file: string;

  constructor(dir: string) {
    this.file = join(dir, "index.json");
    try {
      const j = JSON.parse(readFileSync(this.file, "utf8")) as { version?: number; sessions?: Record<string, Entry> };
      if (j.version === VERSION && j.sessions && typeof j.sessions === "object") Object.assign(this.entries, j.sessions);
    } catch {
      // no index yet, or a damaged one: it is rebuilt from the files as they are read
    }
  }

  /** The summary stored for `id`, if its file is still as it was then. */
  get(id: string, size: number, mtimeMs: number): IndexedSummary | undefined {
    const e = Object.hasOwn(this.entries, id) ? this.entries[id] : undefined;
    if (!e || e.size !== size || e.mtimeMs !== mtimeMs || typeof e.summary !== "object" || e.summary === null) return undefined;
    return e.summary;
  }

  set(id: string, size: number, mtimeMs: number, s: SessionSummary): void {
    const { file: _file, modified: _modified, ...summary } = s;
    this.entries[id] = { size, mtimeMs, summary };
    this.dirty = true;
  }

  /** Forget the sessions whose files are gone. */
  keepOnly(ids: ReadonlySet<string>): void {
    for (const id of Object.keys(this.entries)) {
      if (ids.has(id)) continue;
      delete this.entries[id];
      this.dirty = true;
    }
  }

  /** Write the index if it changed (a temp file renamed over it: a reader never sees half). */
  save(): void {
    if (!this.dirty) return;
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify({ version: VERSION, sessions: this.entries }), { mode: 0o600 });
      renameSync(tmp, this.file);
      this.dirty = false;
    } catch {
      // a folder that cannot take the index (read-only): the files stay the truth, read each time
    }
  }
}
