// A request the API refused as longer than the model's context window (400, "This model's
// maximum context length is N tokens. However, you requested M tokens…"; OpenManus#79). The
// session must be able to go on — in this turn and after `-c` — so the messages that made it
// too long are bounded: every large user or tool message after the last assistant message (a
// huge tool result, a pasted file) is replaced by a note saying what was dropped and how to ask
// for less. The log is append-only, so this is a new epoch with a named reason, recorded in the
// session file like a compaction's; nothing else of the history changes. When nothing in the
// tail is large (the history as a whole is too long), the loop compacts, and the digest request
// then sends the history with every large message bounded (`boundAll`), never the same
// too-long request again.

import type { ChatMessage } from "../../contract/index.js";

/** Messages above this many characters are what a context-limit recovery drops. */
const LARGE = 2_000;

/** The API said the request does not fit the model's context window. */
export function isContextLimit(message: string): boolean {
  return /maximum context length|context length exceeded|context_length_exceeded|exceeds the (?:model's )?context (?:window|length)|prompt is too long|reduce the length of the messages/i.test(message);
}

/** The log with the tail's large messages bounded, and what was dropped; null when nothing is
 *  large enough to drop. */
export function boundTail(messages: readonly ChatMessage[]): { messages: ChatMessage[]; dropped: string } | null {
  let last = messages.length - 1;
  while (last >= 0 && messages[last].role !== "assistant") last--;
  return boundFrom(messages, last + 1, LARGE, 600);
}

/** Every large user or tool message bounded, wherever it stands: what a digest request sends
 *  when the whole history no longer fits (the digest needs the gist, not every byte). */
export function boundAll(messages: readonly ChatMessage[]): { messages: ChatMessage[]; dropped: string } | null {
  return boundFrom(messages, 0, DIGEST_LARGE, 300);
}

/** What a digest request bounds: it needs each result's gist, so more is cut than in the tail. */
const DIGEST_LARGE = 500;

function boundFrom(messages: readonly ChatMessage[], from: number, large: number, keep: number): { messages: ChatMessage[]; dropped: string } | null {
  const out = [...messages];
  const what: string[] = [];
  for (let i = from; i < out.length; i++) {
    const m = out[i];
    if ((m.role !== "tool" && m.role !== "user") || m.content.length <= large) continue;
    const size = m.content.length;
    const head = m.content.slice(0, keep);
    const note =
      m.role === "tool"
        ? `[deepcode] This tool result (${size} characters) was dropped: with it the request exceeded the model's context window. Its start was:\n${head}\n…\nAsk for less: a narrower range, a filter, or the head or tail of the output.`
        : `[deepcode] This message (${size} characters) was dropped: with it the request exceeded the model's context window. Its start was:\n${head}\n…`;
    out[i] = { ...m, content: note };
    what.push(`${m.role === "tool" ? "a tool result" : "a user message"} of ${size} characters`);
  }
  return what.length ? { messages: out, dropped: what.join(", ") } : null;
}
