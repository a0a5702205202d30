// Where a rewind cuts the log (`context.rewind`): the marks of completed turns say which
// messages each turn ended with; the turns after the one chosen leave the conversation. The
// messages are the stored (frozen) objects themselves, so the next request renders them to the
// same bytes as that turn's last request did.

import type { ChatMessage } from "../../contract/index.js";
import { logAt, type TurnMark } from "../session/replay.js";

export function rewindLog(marks: ReadonlyMap<number, TurnMark>, turn: number, current: readonly ChatMessage[], fingerprint: string): { messages: ChatMessage[]; marks: Map<number, TurnMark>; rewound: number[]; notes: string[] } | { error: string } {
  if (!Number.isInteger(turn) || turn < 0) return { error: `not a turn number: ${turn}` };
  const log = logAt(marks, turn);
  if (typeof log === "string") return { error: log };
  const rewound = [...marks.keys()].filter((t) => t > turn).sort((a, b) => a - b);
  // A turn that failed before it completed left messages but no mark: rewinding to the last
  // completed turn takes those out.
  if (rewound.length === 0 && log.length === current.length) return { error: `turn ${turn} is the last turn of the conversation: nothing to rewind` };
  const kept = new Map([...marks].filter(([t]) => t <= turn));
  // The prefix stays the current one: after a /reload since that turn, that turn's requests
  // were sent with another, so the next request re-reads the context once.
  const then = marks.get(turn)?.fingerprint;
  const notes = then !== undefined && then !== fingerprint ? [`the prefix changed since turn ${turn} (/reload), so the next request re-reads the context once`] : [];
  return { messages: log, marks: kept, rewound, notes };
}
