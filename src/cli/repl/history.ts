// Prompt history: <home>/history/<project>.jsonl, one JSON string per line (multi-line
// prompts survive), newest last, deduplicated (an entry typed again moves to the end), at most
// 1000 entries. A history that cannot be read or written never stops the REPL.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { withFileLock } from "../../lib/file-lock.js";
import { writeWholeSync } from "../../lib/whole-file.js";
import { legacySessionFolderKey, sessionFolderKey } from "../../core/session/folder-key.js";

const MAX = 1000;

export class History {
  readonly file: string;
  private entries: string[];

  constructor(home: string, root: string) {
    this.file = join(home, "history", `${sessionFolderKey(root)}.jsonl`);
    // The history kept under the old key (sessions/project-key.ts) until this file exists.
    this.entries = existsSync(this.file) ? load(this.file) : load(join(home, "history", `${legacySessionFolderKey(root)}.jsonl`));
  }

  /** For readline: newest first, one line each (a multi-line prompt shows joined). */
  forReadline(): string[] {
    return [...this.entries].reverse().map((e) => e.replace(/\n/g, " "));
  }

  all(): readonly string[] {
    return this.entries;
  }

  add(entry: string): void {
    const text = entry.trim();
    if (!text) return;
    const had = this.entries.includes(text);
    this.entries = [...this.entries.filter((e) => e !== text), text].slice(-MAX);
    try {
      mkdirSync(join(this.file, ".."), { recursive: true, mode: 0o700 });
      // Under the file's lock, as a rewrite is: an append between another REPL's read and
      // its rewrite would be lost.
      withFileLock(this.file, () => {
        if (had || this.entries.length === MAX || !existsSync(this.file)) this.rewrite(text);
        else appendFileSync(this.file, `${JSON.stringify(text)}\n`, { mode: 0o600 });
      });
    } catch {
      // History is a convenience: a read-only home must not break the REPL.
    }
  }

  /** The file rewritten whole (an entry moved to the end, or the oldest dropped) from what it
   *  holds now (called under its lock): entries another REPL of this project added since this one read
   *  it are kept, and a full disk leaves the old file as it was. */
  private rewrite(text: string): void {
    const base = existsSync(this.file) ? load(this.file) : this.entries;
    this.entries = [...base.filter((e) => e !== text), text].slice(-MAX);
    writeWholeSync(this.file, this.entries.map((e) => JSON.stringify(e)).join("\n") + "\n", { mode: 0o600 });
  }
}

function load(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return []; // no history yet
  }
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line) as unknown;
      if (typeof v === "string") out.push(v);
    } catch {
      continue; // a torn line (a crash while writing) is skipped
    }
  }
  const seen = new Set<string>();
  return out.reverse().filter((e) => (seen.has(e) ? false : (seen.add(e), true))).reverse().slice(-MAX);
}
