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

import { chmodSync, closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, join } from "node:path";
import { randomBytes } from "node:crypto";
import type { AgentIdentity, ChatMessage, StopReason, SystemSection, ToolDefinition, Usage } from "../../contract/index.js";

export type SessionRecord =
  /** `agent`: this session is a subagent's (its file lives in its root session's folder). */
  | { t: "session"; id: string; root: string; model: string; created: string; version: string; agent?: AgentIdentity }
  | { t: "prefix"; system: string; tools: ToolDefinition[]; sections: SystemSection[]; fingerprint: string; reason: string }
  /** Tools announced at the tail (reachable through the proxy tool). */
  | { t: "announce"; tools: string[] }
  | { t: "msg"; m: ChatMessage }
  /** Compaction: the log starts again with these messages (the old lines stay for the record). */
  | { t: "epoch"; reason: string; messages: ChatMessage[] }
  /** A rewind: the log starts again with the messages it had when `turn` ended (0: none), as
   *  the replay of the records before this one rebuilds them; the turns after it stay in the
   *  file, rewound. */
  | { t: "rewind"; turn: number; reason: string; at: string }
  /** `loop`: requests the model spent repeating calls the call-storm breaker suppressed. */
  | { t: "turn"; turn: number; prompt: string; stopReason: StopReason; usage: Usage; costUsd: number; at: string; durationMs: number; loop?: { requests: number; costUsd: number } }
  /** `via`: a request made for this session outside its own rounds (a subagent's run, an MCP
   *  server's sampling), so the session's totals hold everything it was billed. */
  | { t: "usage"; turn: number; step: number; model: string; usage: Usage; costUsd: number; at: string; via?: "agent" | "sampling" }
  /** How a tool call ended, for showing a resumed session as it happened (the log keeps only
   *  what the model saw). */
  | { t: "outcome"; callId: string; tool: string; outcome: "ok" | "denied" | "failed" | "suppressed" | "interrupted"; summary: string }
  /** Things shown to the person but not sent back to the model (e.g. reasoning it does not need). */
  | { t: "display"; kind: string; text: string }
  | { t: "model"; model: string }
  /** A call's arguments exactly as the model sent them, where the log holds other (valid) JSON. */
  | { t: "raw-arguments"; callId: string; raw: string }
  /** A subagent this session spawned: its transcript, relative to this project's sessions folder. */
  | { t: "agent"; id: string; name: string; task: string; callId?: string; file: string };

export interface LoadedSession {
  id: string;
  file: string;
  records: SessionRecord[];
  /** Set when the last line was torn and skipped. */
  torn?: string;
}

export interface SessionSummary {
  id: string;
  file: string;
  created: string;
  modified: number;
  firstPrompt: string;
  turns: number;
  /** Messages in the log (a session killed before its first turn ended has some, no turns). */
  messages: number;
  costUsd: number;
  model: string;
  /** The subagents this session spawned (its `agent` records), in order. */
  agents: Array<{ id: string; name: string; task: string; file: string }>;
}

/** `/home/me/src/app` → `-home-me-src-app`: one folder per project. */
export function projectKey(root: string): string {
  return root.replace(/[^A-Za-z0-9]/g, "-");
}

export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\..*$/, "").replace("T", "-");
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}

export class SessionStore {
  readonly dir: string;

  constructor(home: string, root: string, dir?: string) {
    this.dir = dir ?? join(home, "sessions", projectKey(root));
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

  /** Open a session file for appending (created 0600 if new). A file whose last line was torn
   *  (a crash mid-write) gets a newline first, so the next record starts a line of its own
   *  instead of being glued to the torn one and lost with it. */
  writer(id: string): SessionWriter {
    this.ensureDir();
    const file = this.fileOf(id);
    const fd = openSync(file, "a+", 0o600);
    try {
      const size = fstatSync(fd).size;
      const last = Buffer.alloc(1);
      if (size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a) writeSync(fd, "\n");
    } finally {
      closeSync(fd);
    }
    chmodSync(file, 0o600);
    return new SessionWriter(file);
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
    let torn: string | undefined;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (line.trim() === "") continue;
      try {
        records.push(JSON.parse(line) as SessionRecord);
      } catch {
        const last = lines.slice(i + 1).every((l) => l.trim() === "");
        torn = `${last ? "the last line" : `line ${i + 1}`} of ${file} was torn (${line.length} bytes) and was skipped`;
      }
    }
    return { id, file, records, torn };
  }

  /** Sessions of this project, newest first. */
  list(): SessionSummary[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith(".jsonl"));
    } catch {
      return []; // no sessions folder yet: no sessions
    }
    const out: SessionSummary[] = [];
    for (const name of names) {
      const id = name.slice(0, -6);
      try {
        out.push(summarise(this.load(id), statSync(join(this.dir, name)).mtimeMs));
      } catch {
        continue; // unreadable file: leave it out of the list rather than fail the listing
      }
    }
    return out.sort((a, b) => b.modified - a.modified);
  }

  /** The latest session with something in it (`-c`): an empty one has nothing to continue.
   *  A session killed during its first turn counts — its messages are there to resume. */
  latest(): SessionSummary | undefined {
    return this.list().find((s) => s.messages > 0);
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

/** Appends records through one open descriptor: each record is one write(2) of a whole line,
 *  so a kill -9 loses at most the line being written (a torn last line, skipped on load). */
export class SessionWriter {
  private fd: number | undefined;

  constructor(readonly file: string) {}

  append(record: SessionRecord): void {
    this.fd ??= openSync(this.file, "a", 0o600);
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
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
