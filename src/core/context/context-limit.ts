// A request the API refused as longer than the model's context window (400, "This model's
// maximum context length is N tokens. However, you requested M tokens…"; OpenManus#79). The
// session must be able to go on — in this turn and after `-c` — so the messages that made it
// too long are bounded: a large user or tool message (a huge tool result, a pasted file) is
// replaced by its first KEEP characters and a note saying what was cut and how to ask for less.
// Call ids, roles and order stay as they were, so every call keeps its result. The log is
// append-only, so this is a new epoch with a named reason, recorded in the session file like a
// compaction's. The loop escalates (recover.ts): the tail after the last assistant message,
// then the whole current turn (a first turn has nothing older to compact), then a compaction
// (whose digest request sends the history with every large message bounded, `boundAll`, never
// the same too-long request again), then every large message of the log.

import type { ChatMessage } from "../../contract/index.js";

/** Messages above this many characters are what a context-limit recovery drops. */
const LARGE = 2_000;

/** The API said the request does not fit the model's context window. */
export function isContextLimit(message: string): boolean {
  return /maximum context length|context length exceeded|context_length_exceeded|exceeds the (?:model's )?context (?:window|length)|prompt is too long|reduce the length of the messages/i.test(message);
}

/** What was cut, for the person: "the Read result of 12000 characters", "your message of …". */
export interface Bounded {
  messages: ChatMessage[];
  /** One phrase per message cut, e.g. "the Read result of 12000 characters to its first 600". */
  cut: string[];
  /** Whether the person's own prompt was one of them. */
  prompt: boolean;
}

/** How many characters of a cut message are kept (its start), in the tail and the turn. */
export const KEEP = 600;

/** The log with the tail's large messages bounded (after the last assistant message: the
 *  latest tool results, or the turn's prompt); null when nothing there is large. */
export function boundTail(messages: readonly ChatMessage[]): Bounded | null {
  let last = messages.length - 1;
  while (last >= 0 && messages[last].role !== "assistant") last--;
  return boundFrom(messages, last + 1, LARGE, KEEP, true);
}

/** The log with every large message of the current turn bounded (from `from`, the turn's
 *  start): an earlier result of this turn is what made it too long, and the turn may be the
 *  session's first, with nothing older to compact. Call ids and pairs stay as they were. */
export function boundTurn(messages: readonly ChatMessage[], from: number): Bounded | null {
  return boundFrom(messages, Math.max(0, from), LARGE, KEEP, true);
}

/** Every large user or tool message bounded, wherever it stands: what a digest request sends
 *  when the whole history no longer fits (the digest needs the gist, not every byte), and the
 *  last resort of a turn when compacting could not help. */
export function boundAll(messages: readonly ChatMessage[], large = DIGEST_LARGE, keep = 300): Bounded | null {
  return boundFrom(messages, 0, large, keep);
}

/** What a digest request bounds: it needs each result's gist, so more is cut than in the tail. */
const DIGEST_LARGE = 500;

/** `keepDigest`: a compaction's digest (the whole earlier conversation in one message) is not
 *  cut by the tail or turn steps; only the last resort, `boundAll`, may. */
function boundFrom(messages: readonly ChatMessage[], from: number, large: number, keep: number, keepDigest = false): Bounded | null {
  const out = [...messages];
  const cut: string[] = [];
  let prompt = false;
  for (let i = from; i < out.length; i++) {
    const m = out[i];
    if ((m.role !== "tool" && m.role !== "user") || m.content.length <= large || isCutNote(m.content)) continue;
    if (keepDigest && m.role === "user" && m.content.startsWith(DIGEST_HEAD)) continue;
    const size = m.content.length;
    const head = m.content.slice(0, keep);
    if (m.role === "tool") {
      const tool = toolNameOf(out, i, m.tool_call_id);
      out[i] = { ...m, content: `[deepcode] This ${tool} result (${size} characters) was cut to its first ${keep} characters: with all of it the request exceeded the model's context window. Its start:\n${head}\n…\nAsk for less: a narrower range, a filter, or the head or tail of the output.` };
      cut.push(`the ${tool} result of ${size} characters to its first ${keep}`);
    } else {
      const own = !m.content.startsWith("[deepcode]");
      prompt ||= own;
      out[i] = { ...m, content: `[deepcode] This message (${size} characters) was cut to its first ${keep} characters: with all of it the request exceeded the model's context window. Its start:\n${head}\n…` };
      cut.push(`${own ? "your message" : "a note"} of ${size} characters to its first ${keep}`);
    }
  }
  return cut.length ? { messages: out, cut, prompt } : null;
}

/** How compaction's digest message begins (compact.ts). */
const DIGEST_HEAD = "[deepcode] Digest of the earlier conversation";

/** A message this file wrote already: cutting it again would only lose its start. */
function isCutNote(content: string): boolean {
  return content.startsWith("[deepcode] This ") && content.includes(" was cut to its first ");
}

/** The tool a result answers, from the assistant message that made the call. */
function toolNameOf(messages: readonly ChatMessage[], at: number, callId: string): string {
  for (let i = at - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "assistant") continue;
    const c = m.tool_calls?.find((t) => t.id === callId);
    if (c) return c.function.name;
  }
  return "tool";
}
