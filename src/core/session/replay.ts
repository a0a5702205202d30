// Rebuild a session's state from its records: the prefix exactly as stored, the current
// epoch's messages exactly as sent, and what a resumed turn needs to know.
//
// A rewind record starts a new epoch with the messages the log had when its turn ended: the
// replay keeps, for every completed turn, which epoch's messages it ended in and how many
// (`marks`), so the cut is exact across compactions too. Turns after the one rewound to are
// `rewound`: their lines stay in the file, they are no longer part of the conversation.

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
  /** The turn each announced tool was announced in (a rewind forgets later announcements). */
  announcedIn: Map<string, number>;
  /** Where each completed turn of the current line ended: that epoch's messages, how many. */
  marks: Map<number, TurnMark>;
  /** Turns a rewind took out of the conversation. */
  rewound: Set<number>;
  torn?: string;
  /** The last prefix record could not be read: the stored prefix is unknown (or an earlier,
   *  provisional one), so the session goes on with a prefix built anew. */
  prefixLost?: string;
  /** Results of calls, by call id, written when each call ended (`result` records). */
  results: Map<string, string>;
  /** Lines that could not be read, and what earlier resumes already repaired and said. */
  damagedLines: number[];
  repaired: { lines: number[]; dropped: number; answered: number; recovered: number };
}

/** Where a turn ended in the log: the first `length` messages of `messages` (its epoch's). */
export interface TurnMark {
  messages: readonly ChatMessage[];
  length: number;
  /** The prefix the turn's requests were sent with. */
  fingerprint?: string;
}

/** The log as it was when `turn` ended (turn 0: empty), or why there is no such point. */
export function logAt(marks: ReadonlyMap<number, TurnMark>, turn: number): ChatMessage[] | string {
  if (turn === 0) return [];
  const m = marks.get(turn);
  if (!m) return `turn ${turn} is not part of this conversation (it did not complete, or a rewind took it out)`;
  return m.messages.slice(0, m.length);
}

export function replay(s: LoadedSession): Replayed {
  const out: Replayed = { id: s.id, root: "", model: "", messages: [], epoch: 0, turns: 0, costUsd: 0, announced: new Set(), announcedIn: new Map(), marks: new Map(), rewound: new Set(), torn: s.torn, results: new Map(), damagedLines: [], repaired: { lines: [], dropped: 0, answered: 0, recovered: 0 } };
  let fingerprint: string | undefined;
  for (const r of s.records) {
    switch (r.t) {
      case "session":
        out.root = r.root;
        out.model = r.model;
        break;
      case "prefix":
        out.prefix = { system: r.system, tools: r.tools, sections: r.sections ?? [] };
        fingerprint = r.fingerprint;
        out.prefixLost = undefined;
        break;
      case "repaired":
        out.repaired = { lines: r.lines ?? [], dropped: r.dropped ?? 0, answered: r.answered ?? 0, recovered: r.recovered ?? 0 };
        break;
      case "damaged":
        out.damagedLines.push(r.line);
        if (r.type === "prefix") out.prefixLost = `line ${r.line} held the session's prefix (system prompt and tools) and could not be read`;
        break;
      case "result":
        out.results.set(r.callId, r.content);
        break;
      case "msg":
        out.messages.push(r.m);
        break;
      case "epoch":
        out.messages = [...r.messages];
        out.epoch++;
        if (typeof r.turns === "number") out.turns = Math.max(out.turns, r.turns);
        break;
      case "rewind": {
        const log = logAt(out.marks, r.turn);
        if (typeof log === "string") break; // a record this replay cannot place changes nothing
        out.messages = log;
        out.epoch++;
        for (const t of [...out.marks.keys()].filter((t) => t > r.turn)) {
          out.marks.delete(t);
          out.rewound.add(t);
        }
        for (const [tool, t] of out.announcedIn) {
          if (t <= r.turn) continue;
          out.announcedIn.delete(tool);
          out.announced.delete(tool);
        }
        break;
      }
      case "turn":
        out.turns = Math.max(out.turns, r.turn);
        out.costUsd += r.costUsd;
        out.marks.set(r.turn, { messages: out.messages, length: out.messages.length, fingerprint });
        break;
      case "usage":
        // A turn cut off by a crash has usage records but no turn record: the next turn is
        // numbered after it, so no two turns of a session (nor their ledger lines) share a number.
        out.turns = Math.max(out.turns, r.turn);
        break;
      case "model":
        out.model = r.model;
        break;
      case "announce":
        for (const t of r.tools) {
          out.announced.add(t);
          out.announcedIn.set(t, out.turns + 1);
        }
        break;
      default:
        break; // usage and display records do not shape the state
    }
  }
  return out;
}

export const INTERRUPTED_RESULT = "Interrupted: deepcode stopped before this call finished. Check the state before retrying.";

/** The log made valid for the API, the same way on every load (so a resumed session keeps
 *  sending the same bytes):
 *  - a tool result that answers no call of the assistant message before it (its call's line
 *    was damaged, or it is a second answer) is dropped — the API refuses a stray result;
 *  - a call left unanswered is answered right after the message that made it (where the API
 *    needs the answer): with its result as written when the call ended (`results`), else as
 *    interrupted. Calls go unanswered when the process died while they ran, or when a torn
 *    line lost a result. */
export function answerOrphans(messages: readonly ChatMessage[], results: ReadonlyMap<string, string> = new Map()): { messages: ChatMessage[]; answered: number; recovered: number; dropped: number } {
  const out: ChatMessage[] = [];
  let answered = 0;
  let recovered = 0;
  let dropped = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === "tool") {
      dropped++; // a result not right after the calls it could answer
      continue;
    }
    out.push(m);
    if (m.role !== "assistant" || !m.tool_calls?.length) continue;
    const pending = new Set(m.tool_calls.map((c) => c.id));
    const got = new Set<string>();
    let j = i + 1;
    for (; j < messages.length; j++) {
      const r = messages[j];
      if (r.role !== "tool") break;
      if (!pending.has(r.tool_call_id) || got.has(r.tool_call_id)) {
        dropped++;
        continue;
      }
      got.add(r.tool_call_id);
      out.push(r);
    }
    for (const c of m.tool_calls) {
      if (got.has(c.id)) continue;
      const kept = results.get(c.id);
      out.push({ role: "tool", tool_call_id: c.id, content: kept ?? INTERRUPTED_RESULT });
      if (kept === undefined) answered++;
      else recovered++;
    }
    i = j - 1;
  }
  return { messages: out, answered, recovered, dropped };
}
