// Subagents in the contract: who a subagent's session works for (AgentIdentity, carried by its
// events as `agent`), and what `agent.spawn` asks for and answers. The host answers the event
// (src/cli/spawn.ts); the Task tool (mods/agents) and any plugin dispatch it.

import type { Usage } from "./wire.js";
import type { StopReason, StreamEvent } from "./stream.js";

/** Who a session works for when it is a subagent; absent for the main agent. Events a
 *  subagent's engine dispatches carry it (`agent`), so hooks can tell its work apart: the
 *  REPL labels its permission questions, the usage ledger marks its requests. */
export interface AgentIdentity {
  /** The agent type (`explore`, an agent file's `name`). */
  name: string;
  /** What it was asked to do, in a few words (the Task call's `description`). */
  task: string;
  /** 1 for a subagent of the main agent, 2 for a subagent of that one… */
  depth: number;
  /** The session that spawned it. */
  parentSessionId: string;
  /** The main session at the top of the spawns, and its turn: where its cost is counted. */
  rootSessionId: string;
  rootTurn: number;
}

/** Start a subagent (`agent.spawn`): an engine session of its own, on the same chain (the same
 *  hooks, the same gate, the same person), that runs one turn with `prompt` and ends. */
export interface SpawnRequest {
  /** The calling session (a tool passes `ctx.sessionId`): the subagent's tools are at most what
   *  this session has now, and its depth is one more than this session's. */
  sessionId: string;
  /** The agent type: it labels the subagent's questions, marks its ledger lines, names its transcript. */
  name: string;
  /** What it is asked to do, in a few words. */
  task: string;
  prompt: string;
  /** Its system prompt (an agent file's body). The project's instruction layers (AGENTS.md…)
   *  are added to it by `context.system`'s hooks, as for every session. It is part of the
   *  subagent's cached prefix: keep it free of ids and times. */
  system: string;
  /** The tools it may have, by name (`mcp__server` for all of a server's); intersected with
   *  what the calling session has now (never more). Absent: all of those. */
  tools?: string[];
  /** Tools it must not have, taken out of what it would get (an agent file's `disallowedTools`). */
  disallowedTools?: string[];
  /** Only tools that change nothing (ToolSpec.readOnly) of what it would get. */
  readOnly?: boolean;
  /** The agent types it may spawn in turn (an agent file's `Agent(explore)`); absent: any. */
  agents?: string[];
  /** `inherit` (default: the calling turn's model), a tier name, or a model id. */
  model?: string;
  /** Model rounds for its turn (default: the host's). */
  maxTurns?: number;
  /** The tool call that asks for it: the parent's transcript links the subagent's under it. */
  callId?: string;
  /** Aborts the subagent (pass the calling turn's signal: Ctrl-C stops it with the turn). */
  signal?: AbortSignal;
  /** Each event of the subagent's turn, as it happens (for progress on the caller's line). */
  onEvent?: (event: StreamEvent) => void;
}

export interface SpawnResult {
  /** Set when nothing ran, saying why (too deep, a type the caller may not spawn, unknown
   *  calling session, interrupted while waiting for a free slot). */
  refused?: string;
  /** The subagent's session (its transcript), when it ran. */
  sessionId?: string;
  stopReason: StopReason;
  /** Its final message. */
  text: string;
  /** Model rounds it made. */
  steps: number;
  /** What its requests used and cost (also billed to the calling session's turn). */
  usage: Usage;
  costUsd: number;
  error?: string;
  /** The tools it had, and its model. */
  tools: string[];
  model: string;
}
