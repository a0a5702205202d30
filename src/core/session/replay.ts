// Rebuild a session's state from its records: the prefix exactly as stored, the current
// epoch's messages exactly as sent, and what a resumed turn needs to know.

import type { ChatMessage, SystemSection, ToolDefinition } from "../../contract/index.js";
import type { LoadedSession } from "./store.js";

export interface Replayed {
  id: string;
  root: string;
  model: string;
  prefix?: { system: string; tools: ToolDefinition[]; sections: SystemSection[] };
  messages: ChatMessage[];
  epoch: number;
  turns: number;
  costUsd: number;
  announced: Set<string>;
  torn?: string;
}

export function replay(s: LoadedSession): Replayed {
  const out: Replayed = { id: s.id, root: "", model: "", messages: [], epoch: 0, turns: 0, costUsd: 0, announced: new Set(), torn: s.torn };
  for (const r of s.records) {
    switch (r.t) {
      case "session":
        out.root = r.root;
        out.model = r.model;
        break;
      case "prefix":
        out.prefix = { system: r.system, tools: r.tools, sections: r.sections ?? [] };
        break;
      case "msg":
        out.messages.push(r.m);
        break;
      case "epoch":
        out.messages = [...r.messages];
        out.epoch++;
        break;
      case "turn":
        out.turns = Math.max(out.turns, r.turn);
        out.costUsd += r.costUsd;
        break;
      case "model":
        out.model = r.model;
        break;
      case "announce":
        for (const t of r.tools) out.announced.add(t);
        break;
      default:
        break; // usage and display records do not shape the state
    }
  }
  return out;
}

/** Tool calls of the last assistant message that have no result yet (the process died
 *  while they ran). Earlier calls are always answered: results are written in order. */
export function unansweredCalls(messages: readonly ChatMessage[]): string[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === "tool") continue;
    if (m.role !== "assistant" || !m.tool_calls?.length) return [];
    const answered = new Set(messages.slice(i + 1).map((x) => (x.role === "tool" ? x.tool_call_id : "")));
    return m.tool_calls.map((c) => c.id).filter((id) => !answered.has(id));
  }
  return [];
}
