// Tool call ids that deepcode makes (a call recovered from text, an id the model left empty or
// used twice). They are random, so they stay unique across the session's whole life — resumes
// in new processes included — without any counter to persist: DeepSeek refuses a history in
// which two calls share an id. The model never sees ids (the chat template leaves them out), so
// a random one costs no cache.

import { randomBytes } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** `<tag>_<16 random letters and digits>`, e.g. `call_scav_k3V9…`. */
export function freshCallId(tag: string): string {
  let s = "";
  for (const b of randomBytes(16)) s += ALPHABET[b % ALPHABET.length];
  return `${tag}_${s}`;
}

/** Every tool call id of a log. */
export function callIdsOf(messages: ReadonlyArray<{ role: string; tool_calls?: ReadonlyArray<{ id: string }> }>): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) if (m.role === "assistant") for (const c of m.tool_calls ?? []) ids.add(c.id);
  return ids;
}
