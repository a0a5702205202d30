// The catalogue's payload and result shapes outside the gates (src/contract/events.ts
// re-exports them): the built context, a turn's profile, what a call writes, a rewind, system
// sections and tail notes, compaction, estimates, what the person is shown.

import type { ChatRequest, ModelResponse, Usage } from "./wire.js";
import type { StreamEvent } from "./stream.js";

export interface ContextZones {
  system: number;
  tools: number;
  log: number;
  tail: number;
}

export interface BuiltContext {
  /** The full request body to send (the provider adds `stream` and transport fields). */
  request: ChatRequest;
  /** Messages of the request that are new since the previous request (the new tail). */
  newMessages: number;
  /** Estimated tokens per zone; the log's part already sent is exact from usage. */
  zones: ContextZones;
  fingerprint: string;
}

/** A reply as the `model.request` core answers it: the provider's, and what it was billed —
 *  the usage `model.usage` priced (the API's, or deepcode's estimate when it sent none,
 *  `estimated`), the price the chain answered, and when. No `billed`: nothing was priced (the
 *  reply carried no usage and nothing arrived to estimate from, or a hook answered the request
 *  without making it). */
export interface BilledResponse extends ModelResponse {
  billed?: { usage: Usage; costUsd: number; costCny: number; at: string; estimated?: boolean };
}

/** How a turn talks to the model: a tier's settings (settings can map tiers to profiles). */
export interface TurnProfile {
  tier?: string;
  model: string;
  thinking?: "enabled" | "disabled";
  effort?: "low" | "high" | "max";
  maxTokens?: number;
  /** Set by a hook that chose this profile for a purpose other than the session's own work
   *  (`plan`: the planner tier of plan mode). The cost engine's auto-tier keeps such a turn out
   *  of its memory of the session's tier, so executing the plan stays on the session's tier. */
  purpose?: string;
}

/** The files a tool call is seen to write, before it runs (`tool.effects`). */
export interface ToolEffects {
  /** Absolute paths the call creates, changes, moves or removes (files or folders). */
  writes: string[];
  /** What cannot be seen, in words for the person (a program whose file effects are not
   *  known, a file named only at run time); empty when `writes` is everything it changes. */
  unknown: string[];
  /** The call changes nothing: a read-only tool, or a shell command every part of which only
   *  reads (known readers, no redirection that writes, nothing the reader is unsure of). */
  readOnly: boolean;
}

/** What `context.rewind` did to the conversation. */
export interface RewindResult {
  ok: boolean;
  /** Why it did not (no such turn, a turn already rewound, a turn running). */
  error?: string;
  /** The turn the conversation now ends with (0: before the first turn). */
  turn: number;
  /** The turns whose messages left the conversation (they stay in the transcript, marked). */
  rewound: number[];
  /** Messages in the log after the rewind. */
  messages: number;
  /** Things the person should know (the prefix changed since that turn, so it re-reads once). */
  notes: string[];
}

export interface SystemSection {
  /** Stable id (`base`, `environment`, `instructions:AGENTS.md` …), kept in a fixed order. */
  id: string;
  text: string;
  /** Said to the person, never sent to the model: what happened to the section on the way
   *  (an instructions file cut to its limit, and how to change the limit). The banner,
   *  `/context` and `deepcode doctor` show it. */
  note?: string;
}

export interface TailNote {
  id: string;
  text: string;
}

export interface CompactionResult {
  ok: boolean;
  tokensBefore: number;
  tokensAfter: number;
  error?: string;
}

export interface CostEstimate {
  tier: string;
  model: string;
  lowUsd: number;
  highUsd: number;
  taskClass: string;
}

export type RenderItem =
  | { kind: "stream"; event: StreamEvent }
  | { kind: "text"; text: string; level?: "info" | "warn" | "error" };
