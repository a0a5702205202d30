// The immutable prefix (zone 1) and the append-only log (zone 2).
//
// The prefix — system prompt and tool definitions — is computed once per session, serialised
// canonically and fingerprinted; it is persisted with the session and restored as stored on
// resume, so a resumed session sends the same bytes even if AGENTS.md or deepcode changed.
// The log only grows. Compaction does not edit it: it starts a new log (a new epoch).

import type { ChatMessage, SystemSection, ToolDefinition } from "../../contract/index.js";
import { canonicalize, sha256 } from "./canonical.js";

export interface Prefix {
  readonly system: string;
  readonly tools: readonly ToolDefinition[];
  readonly fingerprint: string;
}

export function buildPrefix(sections: readonly SystemSection[], tools: readonly ToolDefinition[]): Prefix {
  const system = sections
    .map((s) => s.text.trim())
    .filter((t) => t.length > 0)
    .join("\n\n");
  return restorePrefix(system, tools.map((t) => canonicalize(t)));
}

/** A prefix exactly as stored (tools already canonical, never re-serialised). */
export function restorePrefix(system: string, tools: readonly ToolDefinition[]): Prefix {
  const frozenTools = deepFreeze(tools.map((t) => t)) as readonly ToolDefinition[];
  return Object.freeze({ system, tools: frozenTools, fingerprint: fingerprintOf(system, frozenTools) });
}

export function fingerprintOf(system: string, tools: readonly ToolDefinition[]): string {
  return sha256(`${system}\u0000${JSON.stringify(tools)}`);
}

export class AppendOnlyLog {
  private readonly items: ChatMessage[] = [];
  /** A frozen copy handed out to readers, rebuilt after an append: no reader can edit the log. */
  private view: readonly ChatMessage[] = Object.freeze([]);

  constructor(readonly epoch: number, initial: readonly ChatMessage[] = []) {
    for (const m of initial) this.append(m);
  }

  /** Store a message as it will be sent. It is frozen: nothing may rewrite it later. */
  append(message: ChatMessage): ChatMessage {
    const stored = deepFreeze(message) as ChatMessage;
    this.items.push(stored);
    this.view = Object.freeze(this.items.slice());
    return stored;
  }

  get messages(): readonly ChatMessage[] {
    return this.view;
  }

  get length(): number {
    return this.items.length;
  }
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v as object)) deepFreeze(x);
  }
  return v;
}
