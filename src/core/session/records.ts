// The shapes of a session file's records and of a session's summary, shared by store.ts,
// writer.ts and index-file.ts (types only, so none of them imports another for a type).

import type { AgentIdentity, ChatMessage, StopReason, SystemSection, ToolDefinition, Usage } from "../../contract/index.js";

export type SessionRecord =
  /** `agent`: this session is a subagent's (its file lives in its root session's folder). */
  /** `forkedFrom`: the session this one is a copy of (`--fork-session`). */
  | { t: "session"; id: string; root: string; model: string; created: string; version: string; agent?: AgentIdentity; forkedFrom?: string }
  | { t: "prefix"; system: string; tools: ToolDefinition[]; sections: SystemSection[]; fingerprint: string; reason: string }
  /** Tools announced at the tail (reachable through the proxy tool). */
  | { t: "announce"; tools: string[] }
  | { t: "msg"; m: ChatMessage }
  /** Compaction: the log starts again with these messages (the old lines stay for the record).
   *  `turns`: the turns the session had (a file written again after it was deleted). */
  | { t: "epoch"; reason: string; messages: ChatMessage[]; turns?: number }
  /** A rewind: the log starts again with the messages it had when `turn` ended (0: none), as
   *  the replay of the records before this one rebuilds them; the turns after it stay in the
   *  file, rewound. */
  | { t: "rewind"; turn: number; reason: string; at: string }
  /** `loop`: requests the model spent repeating calls the call-storm breaker suppressed. */
  | { t: "turn"; turn: number; prompt: string; stopReason: StopReason; usage: Usage; costUsd: number; at: string; durationMs: number; loop?: { requests: number; costUsd: number } }
  /** `via`: a request made for this session outside its own rounds (a subagent's run, an MCP
   *  server's sampling), so the session's totals hold everything it was billed. */
  | { t: "usage"; turn: number; step: number; model: string; usage: Usage; costUsd: number; at: string; via?: "agent" | "sampling"; estimated?: boolean }
  /** How a tool call ended, for showing a resumed session as it happened (the log keeps only
   *  what the model saw). */
  | { t: "outcome"; callId: string; tool: string; outcome: "ok" | "denied" | "failed" | "suppressed" | "interrupted"; summary: string }
  /** Things shown to the person but not sent back to the model (e.g. reasoning it does not need). */
  | { t: "display"; kind: string; text: string }
  | { t: "model"; model: string }
  /** A call's arguments exactly as the model sent them, where the log holds other (valid) JSON. */
  | { t: "raw-arguments"; callId: string; raw: string }
  /** A subagent this session spawned: its transcript, relative to this project's sessions folder. */
  | { t: "agent"; id: string; name: string; task: string; callId?: string; file: string }
  /** A call's result, written the moment the call ended: the log takes results in the order
   *  the model declared its calls, so one that finished before an earlier call is kept here
   *  until its turn comes — a kill -9 in between does not turn a finished call into an
   *  interrupted one on resume. */
  | { t: "result"; callId: string; content: string }
  /** What a resume repaired and said (damaged lines, results dropped, calls answered): a later
   *  resume repairs the same way and says only what is new. */
  | { t: "repaired"; lines: number[]; dropped: number; answered: number; recovered: number }
  /** Never written: `load` puts one where a line could not be read, with what the line's
   *  surviving start says it was (`type`, and the message `role`), for the replay to repair. */
  | { t: "damaged"; line: number; bytes: number; last: boolean; type?: string; role?: string };

export interface LoadedSession {
  id: string;
  file: string;
  records: SessionRecord[];
  /** What was skipped as unreadable, for the person (one sentence). */
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
