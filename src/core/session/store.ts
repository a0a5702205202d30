// Sessions on disk: `<home>/sessions/<project>/<id>.jsonl`, one record per line, appended as
// things happen (folder 0700, file 0600). The log's messages are stored exactly as sent, and
// the prefix exactly as first built, so a resumed session rebuilds byte-identical requests.
// A torn last line (a crash, kill -9) is skipped on load and reported; nothing before it is
// lost. No record ever holds the API key: nothing that carries it is written here.
//
// Subagents' sessions live beside their main session, in a folder named after it:
// `<project>/<main id>/<subagent id>.jsonl` (every level of nesting in the same folder), and
// each is linked from the session that spawned it by an `agent` record. `list()` and `-c` see
// main sessions only.

import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, join } from "node:path";
import { randomBytes } from "node:crypto";
import { migrateLegacySessions, sessionFolderKey } from "./folder-key.js";
import type { Usage } from "../../contract/index.js";
import { acquireLock, lockHolder, releaseLock, type LockHolder } from "./lock.js";
import { SessionWriter } from "./writer.js";
import { SummaryIndex } from "./index-file.js";
import type { LoadedSession, SessionRecord, SessionSummary } from "./records.js";

export { SessionWriter } from "./writer.js";
export { SessionBusyError, type LockHolder } from "./lock.js";

export type { LoadedSession, SessionRecord, SessionSummary } from "./records.js";

export { sessionFolderKey } from "./folder-key.js";

export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\..*$/, "").replace("T", "-");
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}

export class SessionStore {
  readonly dir: string;

  constructor(home: string, root: string, dir?: string) {
    this.dir = dir ?? join(home, "sessions", sessionFolderKey(root));
    if (dir === undefined) migrateLegacySessions(home, root, this.dir);
  }

  /** Where the subagents of main session `rootId` are kept: `<dir>/<rootId>/`. */
  agents(rootId: string): SessionStore {
    this.fileOf(rootId); // checks the id
    return new SessionStore("", "", join(this.dir, rootId));
  }

  /** One session's summary (throws when there is no such session). */
  summary(id: string): SessionSummary {
    return summarise(this.load(id), statSync(this.fileOf(id)).mtimeMs);
  }

  private ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
  }

  fileOf(id: string): string {
    if (!/^[A-Za-z0-9_.-]+$/.test(id)) throw new Error(`not a session id: '${id}'`);
    return join(this.dir, `${id}.jsonl`);
  }

  /** Where the lock naming the process that writes session `id` is kept. */
  lockFileOf(id: string): string {
    return join(this.dir, `${basename(this.fileOf(id), ".jsonl")}.lock`);
  }

  /** Who writes session `id` now, when that is another live process. */
  holder(id: string): LockHolder | undefined {
    return lockHolder(this.lockFileOf(id));
  }

  /** Open a session for appending, as its one writer: takes its lock (SessionBusyError names
   *  the process holding it), released when the writer closes. The file is created 0600 on the
   *  first record; a file whose last line was torn gets a newline first, so the next record
   *  starts a line of its own instead of being glued to the torn one and lost with it. */
  writer(id: string): SessionWriter {
    this.ensureDir();
    const file = this.fileOf(id);
    const lock = this.lockFileOf(id);
    acquireLock(lock, id);
    const w = new SessionWriter(file, {
      closed: () => releaseLock(lock),
      reopened: () => {
        try {
          acquireLock(lock, id);
        } catch {
          // another process took the session while its file was gone: the warning says the file was written again; the lock stays theirs
        }
      },
    });
    return w;
  }

  /** A copy of session `id` under a new id (`--fork-session`): every record the file holds,
   *  the first `session` record naming the new id and where it came from. The copy resumes
   *  to the same prefix and log, so its first request hits the original's cache. */
  fork(id: string): string {
    const loaded = this.load(id);
    const to = newSessionId();
    this.ensureDir();
    const fd = openSync(this.fileOf(to), "wx", 0o600);
    try {
      let named = false;
      for (const r of loaded.records) {
        if (r.t === "damaged") continue;
        const out = r.t === "session" && !named ? { ...r, id: to, forkedFrom: id } : r;
        if (r.t === "session") named = true;
        writeSync(fd, `${JSON.stringify(out)}\n`);
      }
    } finally {
      closeSync(fd);
    }
    return to;
  }

  load(id: string): LoadedSession {
    const file = this.fileOf(id);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      throw new Error(`no session '${id}' in ${this.dir}`);
    }
    const lines = text.split("\n");
    const records: SessionRecord[] = [];
    const damaged: Array<{ line: number; text: string }> = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (line.trim() === "") continue;
      let r: unknown;
      try {
        r = JSON.parse(line);
      } catch {
        r = undefined;
      }
      if (r !== null && typeof r === "object" && typeof (r as { t?: unknown }).t === "string" && (r as { t: string }).t !== "damaged") {
        records.push(r as SessionRecord);
        continue;
      }
      const last = lines.slice(i + 1).every((l) => l.trim() === "");
      const type = /^\{"t":"([a-z-]+)"/.exec(line)?.[1];
      const role = type === "msg" ? /^\{"t":"msg","m":\{"role":"([a-z]+)"/.exec(line)?.[1] : undefined;
      records.push({ t: "damaged", line: i + 1, bytes: line.length, last, ...(type ? { type } : {}), ...(role ? { role } : {}) });
      damaged.push({ line: i + 1, text: `${last ? "the last line" : `line ${i + 1}`} of ${file}${type ? ` (a ${type} record${role ? `, ${role}` : ""})` : ""} was torn and skipped` });
    }
    const said = new Set(records.flatMap((r) => (r.t === "repaired" && Array.isArray(r.lines) ? r.lines : [])));
    const news = damaged.filter((d) => !said.has(d.line));
    const torn = news.length ? news.map((d) => d.text).join("; ") : undefined;
    return { id, file, records, torn };
  }

  /** Sessions of this project, newest first. Summaries come from the folder's index where
   *  a file is unchanged since it was summarised (index-file.ts); the others are read. */
  list(): SessionSummary[] {
    const index = new SummaryIndex(this.dir);
    const out: SessionSummary[] = [];
    for (const f of this.files()) {
      const s = this.summaryOf(f, index);
      if (s) out.push(s);
    }
    index.keepOnly(new Set(this.files().map((f) => f.id)));
    index.save();
    return out;
  }

  /** The latest session with something in it that no other process is writing (`-c`): an
   *  empty one has nothing to continue. A session killed during its first turn counts — its
   *  messages are there to resume. Only the newest files are read (by mtime, through the
   *  index), not the whole folder. `held: true` takes a session held by another process too
   *  (to fork it). `skipped` hears about each newer session passed over
   *  because another process holds it. */
  latest(skipped?: (s: SessionSummary, holder: LockHolder) => void, o: { held?: boolean; lost?: ReadonlySet<string> } = {}): SessionSummary | undefined {
    const index = new SummaryIndex(this.dir);
    try {
      for (const f of this.files()) {
        const s = this.summaryOf(f, index);
        if (!s || s.messages === 0 || o.lost?.has(s.id)) continue;
        const holder = o.held ? undefined : this.holder(s.id);
        if (!holder) return s;
        skipped?.(s, holder);
      }
      return undefined;
    } finally {
      index.save();
    }
  }

  /** The folder's main session files, newest first (by mtime). */
  private files(): Array<{ id: string; size: number; mtimeMs: number }> {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith(".jsonl"));
    } catch {
      return []; // no sessions folder yet: no sessions
    }
    const out: Array<{ id: string; size: number; mtimeMs: number }> = [];
    for (const name of names) {
      try {
        const st = statSync(join(this.dir, name));
        if (st.isFile()) out.push({ id: name.slice(0, -6), size: st.size, mtimeMs: st.mtimeMs });
      } catch {
        continue; // removed while listing
      }
    }
    return out.sort((a, b) => b.mtimeMs - a.mtimeMs);
  }

  private summaryOf(f: { id: string; size: number; mtimeMs: number }, index: SummaryIndex): SessionSummary | undefined {
    const known = index.get(f.id, f.size, f.mtimeMs);
    if (known) return { ...known, file: this.fileOf(f.id), modified: f.mtimeMs };
    try {
      const s = summarise(this.load(f.id), f.mtimeMs);
      index.set(f.id, f.size, f.mtimeMs, s);
      return s;
    } catch {
      return undefined; // unreadable file: leave it out of the list rather than fail the listing
    }
  }

  /** Delete a session's file, and its subagents' with it. */
  delete(id: string): void {
    unlinkSync(this.fileOf(id));
    rmSync(join(this.dir, id), { recursive: true, force: true });
    rmSync(this.outputsDir(id), { recursive: true, force: true });
  }

  /** The folder beside a session where its calls' whole outputs are kept (keepOutput). */
  outputsDir(id: string): string {
    return join(this.dir, `${basename(this.fileOf(id), ".jsonl")}.outputs`);
  }

  /** Keep a call's whole output in the session's outputs folder (0700), in a new file (0600,
   *  never one that exists: a name taken, even by a symlink, gets a suffix); returns its path. */
  keepOutput(id: string, callId: string, text: string): string {
    this.ensureDir();
    const dir = this.outputsDir(id);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const stem = callId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 80) || "output";
    for (let n = 1; ; n++) {
      const file = join(dir, `${stem}${n === 1 ? "" : `-${n}`}.txt`);
      let fd: number;
      try {
        fd = openSync(file, "wx", 0o600);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "EEXIST" && n < 100) continue;
        throw err;
      }
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      return file;
    }
  }
}

/** What a session's requests cost and used, from its usage records: every request priced,
 *  compaction digests and turns cut off by a crash included. The one source of a session's
 *  cost (`/sessions`, `/status`, `deepcode sessions`). */
export function usageTotals(records: readonly SessionRecord[]): { requests: number; usage: Usage; costUsd: number } {
  const usage: Usage = { prompt_tokens: 0, completion_tokens: 0, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 0, reasoning_tokens: 0 };
  let requests = 0;
  let costUsd = 0;
  for (const r of records) {
    if (r.t !== "usage") continue;
    requests++;
    costUsd += r.costUsd;
    for (const k of Object.keys(usage) as Array<keyof Usage>) usage[k] += r.usage[k] ?? 0;
  }
  return { requests, usage, costUsd };
}

function summarise(s: LoadedSession, modified: number): SessionSummary {
  let created = "";
  let model = "";
  let firstPrompt = "";
  let turns = 0;
  let costUsd = 0;
  let messages = 0;
  let firstUserText = "";
  const agents: SessionSummary["agents"] = [];
  for (const r of s.records) {
    if (r.t === "agent") agents.push({ id: r.id, name: r.name, task: r.task, file: r.file });
    if (r.t === "msg") {
      messages++;
      if (!firstUserText && r.m.role === "user" && !r.m.content.startsWith("[deepcode]")) firstUserText = r.m.content;
    }
    if (r.t === "session") {
      created = r.created;
      model = r.model;
    } else if (r.t === "turn") {
      turns++;
      if (!firstPrompt) firstPrompt = r.prompt;
    } else if (r.t === "usage") costUsd += r.costUsd;
    else if (r.t === "model") model = r.model;
  }
  return { id: s.id, file: s.file, created, modified, firstPrompt: firstPrompt || firstUserText, turns, messages, costUsd, model, agents };
}
