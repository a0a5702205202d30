// The transcript hooks get as `transcript_path`: the session in Claude Code's JSONL format, so
// that a hook written for Claude Code reads it as it would there (ralph-wiggum's Stop hook takes
// the last line holding `"role":"assistant"` and joins its `.message.content[] | select(.type ==
// "text") | .text`).
//
// It is a view derived from deepcode's own session file (`<sessions>/<id>.jsonl`, or
// `<sessions>/<main>/<id>.jsonl` for a subagent) and holds nothing that file does not: what
// deepcode keeps out of its transcript (the API key, reasoning it does not send back) stays out
// of this one. It lives at `<sessions>/claude-code/<id>.jsonl` (folder 0700, file 0600), and is
// brought up to date before every hook command runs and at the end of every turn; the first
// time a process touches it, it is written anew from the whole session file.
//
// Records written, one JSON object per line, compact (fields common to every record:
// `type`, `uuid`, `parentUuid` (the record before it; null after a compaction), `sessionId`,
// `timestamp` (when deepcode converted it), `cwd`, `version` (deepcode's), `userType:
// "external"`, `isSidechain` (true in a subagent's, with `agentId`)):
//   {type:"user", message:{role:"user", content:"text"}}                a prompt
//   {type:"user", isMeta:true, message:{role:"user", content:"text"}}   a note deepcode added
//   {type:"assistant", message:{id, type:"message", role:"assistant", model, content:[
//       {type:"thinking", thinking, signature}, {type:"text", text},
//       {type:"tool_use", id, name, input}], stop_reason:"tool_use"|"end_turn", stop_sequence:null}}
//   {type:"user", message:{role:"user", content:[{type:"tool_result", tool_use_id, content}]},
//       toolUseResult:"text"}                                           a tool's result
//   {type:"system", subtype:"compact_boundary", content, level:"info"}  compaction (the
//       conversation's messages as they are after it follow)
//   {type:"system", subtype:"informational", content, level:"info"}     a rewind (the next
//       record's parentUuid is the last record of the turn it went back to)
// Not written: token usage per message, summaries, file-history snapshots.

import { randomUUID } from "node:crypto";
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ChatMessage, JsonValue } from "../../src/contract/index.js";
import { isObject } from "../../src/lib/json.js";

type Obj = Record<string, unknown>;

/** One converted session: where it reads, where it writes, how far it got. */
class Conversion {
  private offset = 0;
  private parent: string | null = null;
  private model = "";
  private version = "";
  /** The last record's uuid at the end of each turn (for a rewind). */
  private readonly turnEnds = new Map<number, string | null>();
  private turns = 0;

  constructor(
    readonly source: string,
    readonly target: string,
    private readonly base: { sessionId: string; cwd: string; agent: boolean },
  ) {
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    writeFileSync(target, "", { mode: 0o600 }); // anew in each process (see the top)
  }

  sync(): void {
    let fd: number;
    try {
      fd = openSync(this.source, "r");
    } catch {
      return; // no session file yet (nothing was said): the transcript stays empty
    }
    let text: string;
    try {
      const size = fstatSync(fd).size;
      if (size < this.offset) this.offset = 0; // written again from the start (writer.ts re-seeds it)
      if (size === this.offset) return;
      const buf = Buffer.alloc(size - this.offset);
      let got = 0;
      while (got < buf.length) {
        const n = readSync(fd, buf, got, buf.length - got, this.offset + got);
        if (n === 0) break;
        got += n;
      }
      const end = buf.lastIndexOf(0x0a, got - 1);
      if (end < 0) return; // no whole line yet
      text = buf.subarray(0, end + 1).toString("utf8");
      this.offset += end + 1;
    } finally {
      closeSync(fd);
    }
    const out: string[] = [];
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      let r: unknown;
      try {
        r = JSON.parse(line);
      } catch {
        continue; // a torn line of the session file: deepcode's own resume repairs it
      }
      if (isObject(r as JsonValue)) this.record(r as Obj, out);
    }
    if (out.length) appendFileSync(this.target, out.join(""), { mode: 0o600 });
  }

  private record(r: Obj, out: string[]): void {
    switch (r.t) {
      case "session":
        this.model = String(r.model ?? "");
        this.version = String(r.version ?? "");
        return;
      case "model":
        this.model = String(r.model ?? this.model);
        return;
      case "msg":
        if (isObject(r.m as JsonValue)) this.message(r.m as ChatMessage, out);
        return;
      case "turn":
        this.turns = typeof r.turn === "number" ? r.turn : this.turns + 1;
        this.turnEnds.set(this.turns, this.parent);
        return;
      case "epoch": {
        this.parent = null;
        this.emit(out, { type: "system", subtype: "compact_boundary", content: `Conversation compacted (${String(r.reason ?? "compaction")})`, level: "info" });
        for (const m of Array.isArray(r.messages) ? r.messages : []) if (isObject(m as JsonValue)) this.message(m as ChatMessage, out);
        return;
      }
      case "rewind": {
        const turn = typeof r.turn === "number" ? r.turn : 0;
        this.parent = this.turnEnds.get(turn) ?? null;
        this.emit(out, { type: "system", subtype: "informational", content: `Conversation rewound to the end of turn ${turn}`, level: "info" });
        return;
      }
      default:
        return; // usage, outcomes, display…: not part of Claude Code's transcript
    }
  }

  private message(m: ChatMessage, out: string[]): void {
    switch (m.role) {
      case "user":
        this.emit(out, { type: "user", message: { role: "user", content: m.content } });
        return;
      case "latest_reminder":
        this.emit(out, { type: "user", isMeta: true, message: { role: "user", content: m.content } });
        return;
      case "tool":
        this.emit(out, { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: m.tool_call_id, content: m.content }] }, toolUseResult: m.content });
        return;
      case "assistant": {
        const content: Obj[] = [];
        if (m.reasoning_content) content.push({ type: "thinking", thinking: m.reasoning_content, signature: m.reasoning_signature ?? "" });
        if (m.content) content.push({ type: "text", text: m.content });
        for (const c of m.tool_calls ?? []) content.push({ type: "tool_use", id: c.id, name: c.function.name, input: inputOf(c.function.arguments) });
        const message = { id: `msg_${randomUUID().replace(/-/g, "")}`, type: "message", role: "assistant", model: this.model, content, stop_reason: m.tool_calls?.length ? "tool_use" : "end_turn", stop_sequence: null };
        this.emit(out, { type: "assistant", message });
        return;
      }
      default:
        return; // the system prompt is not part of the transcript
    }
  }

  private emit(out: string[], fields: Obj): void {
    const uuid = randomUUID();
    const rec = {
      parentUuid: this.parent,
      isSidechain: this.base.agent,
      ...(this.base.agent ? { agentId: this.base.sessionId } : {}),
      userType: "external",
      cwd: this.base.cwd,
      sessionId: this.base.sessionId,
      version: this.version,
      ...fields,
      uuid,
      timestamp: new Date().toISOString(),
    };
    this.parent = uuid;
    out.push(`${JSON.stringify(rec)}\n`);
  }
}

function inputOf(args: string): unknown {
  try {
    const v: unknown = JSON.parse(args);
    return typeof v === "object" && v !== null ? v : {};
  } catch {
    return {}; // the log keeps the arguments the API accepted; unreadable ones stay out
  }
}

/** One conversion per target file in this process: both hooks-mod instances (managed and
 *  settings) share it, so a record is never written twice. */
const conversions = new Map<string, Conversion>();

/** The Claude Code transcript of a session: `sessionsDir/claude-code/<id>.jsonl`. */
export function claudeTranscriptPath(sessionsDir: string, sessionId: string): string {
  return join(sessionsDir, "claude-code", `${sessionId}.jsonl`);
}

/** Bring the Claude Code transcript of `sessionId` (read from `source`) up to date. Never
 *  throws: a transcript that cannot be written must not stop a hook (it gets the path anyway,
 *  and `error` says why, for the person). */
export function syncClaudeTranscript(sessionsDir: string, sessionId: string, source: string, o: { cwd: string; agent: boolean }): { path: string; error?: string } {
  const target = claudeTranscriptPath(sessionsDir, sessionId);
  try {
    let c = conversions.get(target);
    if (!c || c.source !== source) conversions.set(target, (c = new Conversion(source, target, { sessionId, cwd: o.cwd, agent: o.agent })));
    c.sync();
    return { path: target };
  } catch (err) {
    return { path: target, error: `the Claude Code transcript ${target} could not be written (${err instanceof Error ? err.message : String(err)})` };
  }
}

/** Forget a session's conversion (its session ended). */
export function forgetClaudeTranscript(sessionsDir: string, sessionId: string): void {
  conversions.delete(claudeTranscriptPath(sessionsDir, sessionId));
}
