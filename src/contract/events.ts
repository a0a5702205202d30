// The closed event catalogue. Every call site in deepcode dispatches one of these through the
// chain; each is declared once here with its payload, its result and whether it is a gate.
// Adding an event: add it to `EventMap` and to `CATALOGUE` (the compiler checks both agree),
// then give it a core answer in the engine; until then dispatching it throws
// NotImplementedError naming it.

import type {
  ChatMessage,
  ChatRequest,
  JsonValue,
  ModelDelta,
  ModelResponse,
  ToolDefinition,
  Usage,
} from "./wire.js";
import type {
  FsReadRequest,
  FsReadResult,
  FsWriteRequest,
  FsWriteResult,
  HttpFetchRequest,
  HttpFetchResult,
  ProcessLaunch,
  ProcessLaunchRequest,
  ProcessRunRequest,
  ProcessRunResult,
  ToolOutput,
} from "./tool.js";
import type { StopReason } from "./stream.js";
import type { AgentIdentity, SpawnRequest, SpawnResult } from "./agents.js";
import type { AskAnswer, GateDecision, PersonAnswer, PersonQuestion, ToolDecision } from "./events-gates.js";
import type { BilledResponse, BuiltContext, CompactionResult, CostEstimate, RenderItem, RewindResult, SystemSection, TailNote, ToolEffects, TurnProfile } from "./events-payloads.js";

// The catalogue's shapes live by area in files of their own; they are part of this module.
export * from "./events-gates.js";
export * from "./events-payloads.js";

export interface EventMap {
  /** The main agent's sessions. A subagent's run is one `agent.spawn` (hooks wrap it), not a
   *  session.start … session.end pair. */
  /** `mcpServers`: servers the front end that opened the session brings for it, in .mcp.json's
   *  `mcpServers` shape (name → `{command, args, env}` or `{type: "http"|"sse", url, headers}`):
   *  the person's own, as `--mcp-config` servers are (`deepcode acp`: the editor's). */
  "session.start": { payload: { sessionId: string; root: string; resumed: boolean; model: string; mcpServers?: Readonly<Record<string, JsonValue>> }; result: void };
  "session.end": { payload: { sessionId: string; reason: string }; result: void };

  /** A prompt the user submitted; hooks expand @-mentions, add context or block it. */
  "prompt.submit": {
    payload: { sessionId: string; text: string };
    result: { text: string; blocked?: string; context?: string[] };
  };

  /** The system prompt's sections, gathered once per session (they form the cached prefix).
   *  The core answers the base prompt and the environment facts; mods add instruction files. */
  "context.system": {
    /** `tools`: the names of the tools this session has (a section about a tool can be left
     *  out where the tool is not); `agent`: set for a subagent's session. */
    payload: { sessionId: string; root: string; model: string; tools?: readonly string[]; agent?: AgentIdentity };
    result: { sections: SystemSection[] };
  };
  /** Per-turn facts for the volatile tail (date, files changed on disk, a changed AGENTS.md,
   *  late tools, budget warnings). They enter the log as new messages, never the prefix. */
  "context.tail": {
    payload: { sessionId: string; root: string; turn: number; resumed: boolean };
    result: { notes: TailNote[] };
  };
  /** Build the next request from the cache-first context (prefix, log, tail). */
  "context.build": { payload: { sessionId: string; model: string; step: number }; result: BuiltContext };
  /** The immutable prefix is about to change (reload, a new session's tools): never silent. */
  "context.prefix.changed": {
    payload: { sessionId: string; reason: string; before: string; after: string; tokens: number };
    result: void;
  };
  "context.compact": {
    payload: { sessionId: string; auto: boolean; instructions?: string };
    result: CompactionResult;
  };
  /** Cut the conversation back to the end of `turn` (0: before the first): a new epoch whose
   *  messages are that turn's log, exactly as its requests sent them (so the next request
   *  extends that turn's last request, still in the server's cache). The later turns stay in
   *  the transcript, marked as rewound; the prefix stays. The core answer is the engine's. */
  "context.rewind": { payload: { sessionId: string; turn: number }; result: RewindResult };

  /** One model round trip, for a session: `sessionId`, `turn` and `step` (0 outside the
   *  session's own rounds: a compaction's digest, an MCP server's sampling, a plugin's call),
   *  `tier` (the turn profile's) and `agent` (set in a subagent's session) say whose request it
   *  is. The core answer is the provider; once the reply is in, the core dispatches
   *  `model.usage` for it — the exact usage, or deepcode's estimate (`estimated`) when the API
   *  sent none — and answers the reply with what it was billed (`billed`). So every request,
   *  the engine's or a plugin's through `api.dispatch`, is priced and in the usage ledger
   *  exactly once, and no caller dispatches `model.usage` itself. A hook that answers without
   *  `next` made no request: nothing is billed. `at`: the instant it is priced at (ISO; the
   *  session's clock, so a session run on a fixed clock is priced on it), else when the reply came. */
  "model.request": {
    payload: { sessionId: string; turn: number; step: number; tier?: string; agent?: AgentIdentity; at?: string; request: ChatRequest; signal?: AbortSignal; onDelta?: (delta: ModelDelta) => void };
    result: BilledResponse;
  };
  /** A streamed piece of a reply, as it arrives. */
  "model.stream": { payload: { sessionId: string; step: number; delta: ModelDelta }; result: void };
  /** A repair was made to what the model sent (scavenged call, fixed JSON, suppressed repeat…).
   *  Dispatched by repair hooks so every repair is visible; the core forwards it to the stream. */
  "model.repair": { payload: { sessionId: string; step: number; kind: string; detail: string }; result: void };
  /** The usage of one request, as the API reported it. The core answer prices it exactly (the
   *  price in force at `at`); hooks observe it (the usage ledger, budgets, telemetry). Only the
   *  `model.request` core dispatches it, once per request. */
  "model.usage": {
    payload: { sessionId: string; turn: number; step: number; model: string; tier?: string; usage: Usage; at: string; agent?: AgentIdentity; /** The API sent no usage: deepcode estimated it from the text. */ estimated?: boolean };
    /** `savingUsd`: what this request's cache hits spared against paying for them as misses (the
     *  ledger's figure; absent where the price is unknown). */
    result: { costUsd: number; costCny: number; savingUsd?: number };
  };
  /** A whole reply before it enters the log; repair hooks rewrite it here. */
  "model.response": { payload: { sessionId: string; step: number; response: ModelResponse; toolNames: string[] }; result: ModelResponse };

  /** The tools offered to the model; hooks add, remove or reshape definitions. */
  "tool.list": { payload: { sessionId: string }; result: ToolDefinition[] };
  /** Turn a call's raw `arguments` string into its input, before validation. The core answer
   *  is JSON.parse; repair hooks fix truncated JSON and re-nest flattened schemas here, so the
   *  log keeps exactly what the model sent. */
  "tool.input": {
    payload: {
      sessionId: string;
      tool: string;
      arguments: string;
      callId: string;
      step: number;
      /** The reply hit the output limit: arguments may be cut, so never complete them by guessing. */
      cutOff: boolean;
    };
    result: { input: Record<string, JsonValue> } | { error: string };
  };
  /** The files a call would write, before it runs: from `file_path` for Write and Edit, from
   *  the shell reader for Bash (redirections, `sed -i`, `tee`, `cp`/`mv` targets…), nothing for
   *  a read-only tool, and "not known" for any other tool. `cwd` is where a shell command
   *  starts (default: the session's Bash folder). The core answer is assembly's. */
  "tool.effects": {
    payload: { sessionId: string; tool: string; input: Record<string, JsonValue>; cwd?: string };
    result: ToolEffects;
  };
  /** The permission gate. The core tail answers deny. */
  "tool.check": {
    payload: { sessionId: string; tool: string; input: Record<string, JsonValue>; callId: string; readOnly: boolean | null; step: number };
    result: GateDecision;
  };
  /** A permission decision, once final (ToolDecision): the gate dispatches one per decision,
   *  with the rule and layer that decided; observers only (the host's core answers nothing). */
  "tool.decided": { payload: ToolDecision; result: void };
  "tool.call": {
    payload: { sessionId: string; tool: string; input: Record<string, JsonValue>; callId: string; signal?: AbortSignal };
    result: ToolOutput;
  };
  /** A tool's output before it is bounded and enters the log. */
  "tool.result": {
    payload: { sessionId: string; tool: string; input: Record<string, JsonValue>; callId: string; output: ToolOutput };
    result: ToolOutput;
  };
  /** Ask a person. The core tail answers deny: no one to answer means no. */
  "permission.ask": {
    payload: {
      sessionId: string;
      /** The call asked about (absent for a question no call made). */
      callId?: string;
      tool: string;
      input: Record<string, JsonValue>;
      reason: string;
      /** What the person sees: the command, or the diff of the edit. */
      preview: string;
      /** What `a` would remember for this session (e.g. `Bash(npm test:*)`). */
      remember: string;
      /** Set when a subagent asks: the person sees which agent, doing what. */
      agent?: AgentIdentity;
      /** Who made the call ask (GateDecision.by: a rule with its layer, "secrets"…), when known. */
      by?: string;
    };
    result: AskAnswer;
  };
  /** Ask a person something that is not a tool call (PersonQuestion). A gate: the core tail,
   *  a failing hook and `-p` answer deny — no one to answer means no. */
  "person.ask": { payload: PersonQuestion; result: PersonAnswer };

  /** A turn is about to run with `profile`. Hooks may change the profile (a budget at 80%
   *  downgrades to a cheaper tier), refuse the turn (a budget at 100%), and say why in
   *  `notices` (they reach the person as notice events of the turn's stream). */
  "turn.start": {
    payload: { sessionId: string; turn: number; prompt: string; profile: TurnProfile; agent?: AgentIdentity };
    result: { profile?: TurnProfile; refuse?: { stopReason: StopReason; message: string }; notices?: string[] } | void;
  };
  "turn.step": { payload: { sessionId: string; turn: number; step: number }; result: void };
  /** A turn ended. Hooks may ask to go on (Claude Code's Stop hook `decision: block`). */
  "turn.complete": {
    payload: { sessionId: string; turn: number; stopReason: StopReason; usage: Usage; text: string; agent?: AgentIdentity };
    result: { continueWith?: string } | void;
  };

  /** Start a subagent (SpawnRequest) and run its turn to the end. The host answers (assembly):
   *  one depth limit for every spawner, the tools cut to the caller's, transcripts beside the
   *  caller's. Hooks see every spawn (and may refuse one by answering `refused`). */
  "agent.spawn": { payload: SpawnRequest; result: SpawnResult };

  "cost.estimate": {
    payload: { sessionId: string; prompt: string; messages: ChatMessage[] };
    result: CostEstimate[];
  };

  "fs.read": { payload: FsReadRequest; result: FsReadResult };
  "fs.write": { payload: FsWriteRequest; result: FsWriteResult };
  "process.run": { payload: ProcessRunRequest; result: ProcessRunResult };
  "process.launch": { payload: ProcessLaunchRequest; result: ProcessLaunch };
  "http.fetch": { payload: HttpFetchRequest; result: HttpFetchResult };

  /** Something to show a person; the core answer writes it to the terminal. */
  "ui.render": { payload: { item: RenderItem }; result: void };
}

export type EventName = keyof EventMap;
export type Payload<N extends EventName> = EventMap[N]["payload"];
export type Result<N extends EventName> = EventMap[N]["result"];
/** An event as dispatched: its payload with its name in `type`. */
export type EventOf<N extends EventName> = { readonly type: N } & Readonly<Payload<N>>;
export type AnyEvent = { [N in EventName]: EventOf<N> }[EventName];

export interface EventInfo {
  gate: boolean;
  summary: string;
}

const gate = (summary: string): EventInfo => ({ gate: true, summary });
const plain = (summary: string): EventInfo => ({ gate: false, summary });

export const CATALOGUE: { readonly [N in EventName]: EventInfo } = {
  "session.start": plain("a session began (new or resumed)"),
  "session.end": plain("a session ended"),
  "prompt.submit": plain("a user prompt, before it enters the log"),
  "context.system": plain("the system prompt's sections, gathered once per session"),
  "context.tail": plain("per-turn facts that enter the log at the tail"),
  "context.build": plain("build the next request from the cache-first context"),
  "context.prefix.changed": plain("the immutable prefix is about to change, with reason and cost"),
  "context.compact": plain("compact the log into one digest + the recent tail"),
  "context.rewind": plain("cut the conversation back to the end of a turn (a new epoch; the prefix stays)"),
  "model.request": plain("one model round trip for a session (the provider; its core dispatches model.usage)"),
  "model.stream": plain("a streamed piece of a reply"),
  "model.repair": plain("a repair of what the model sent, made visible"),
  "model.usage": plain("one request's usage, priced exactly (the usage ledger observes it)"),
  "model.response": plain("a whole reply, before it enters the log (repairs happen here)"),
  "tool.list": plain("the tool definitions offered to the model"),
  "tool.input": plain("turn a call's raw arguments into its input (JSON repair happens here)"),
  "tool.effects": plain("the files a tool call would write, before it runs (checkpoints, plan mode)"),
  "tool.check": gate("may this tool call run? allow / ask / deny"),
  "tool.decided": plain("a permission decision, once final: allowed or denied, by which rule of which layer (the audit observes it)"),
  "tool.call": plain("run a tool"),
  "tool.result": plain("a tool's output, before it enters the log"),
  "permission.ask": gate("ask a person; no one to answer means deny"),
  "person.ask": gate("ask a person a question that is not a tool call (approve, fill in a form); no one to answer means deny"),
  "turn.start": plain("a turn began"),
  "turn.step": plain("a model round within a turn began"),
  "turn.complete": plain("a turn ended, with its stop reason"),
  "agent.spawn": plain("start a subagent: an engine session of its own on the same chain, one turn"),
  "cost.estimate": plain("estimate a turn's cost per tier before it runs"),
  "fs.read": plain("read a file (every tool's reads go through here)"),
  "fs.write": plain("write a file atomically (the path fence sits here)"),
  "process.run": plain("run a process (the Bash sandbox sits here)"),
  "process.launch": plain("prepare a program deepcode starts itself: a hook, a stdio MCP server (the sandbox wraps it)"),
  "http.fetch": plain("an HTTP request made by a tool"),
  "ui.render": plain("show something to the person at the terminal"),
};

export const EVENT_NAMES = Object.keys(CATALOGUE) as EventName[];

export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(CATALOGUE, name);
}

/** Gate results must have this shape; anything else from a hook means deny. */
export function isGateResult(name: EventName, r: unknown): boolean {
  if (typeof r !== "object" || r === null) return false;
  const d = (r as { decision?: unknown }).decision;
  if (name === "permission.ask" || name === "person.ask") return d === "allow" || d === "deny";
  return d === "allow" || d === "ask" || d === "deny";
}

export function denyResult(reason: string, by: string): GateDecision & AskAnswer & PersonAnswer {
  return { decision: "deny", reason, by };
}
