// @ts-check
// The script: what the simulated model answers. One entry answers one chat request, chosen in
// this order: the next unconsumed entry of `replies`; else the first rule whose `when` matches
// the last message; else `respond(request, index)` when it returns something; else `default`;
// else a built-in one-liner. A fault entry is consumed like a reply. Requests the API would
// reject (bad key, bad body) never reach the script, so they consume nothing.
//
// Rules may echo what they matched: in a rule's reply, `$0`…`$9` inside any string (content,
// reasoning, tool call arguments) are replaced by `lastRegex`'s capture groups.
import { randomBytes } from "node:crypto";
import { textOf } from "./render.mjs";

const BUILTIN_DEFAULT = { content: "(simulator: the script has no reply for this request)" };
export const DEFAULT_REASONING = "Let me think about what is being asked.";

/**
 * @typedef {import("./server.mjs").Script} Script
 * @typedef {import("./server.mjs").ScriptEntry} ScriptEntry
 * @typedef {import("./server.mjs").Reply} Reply
 */

/**
 * A cursor over a script.
 * @param {Script} script
 */
export function createCursor(script) {
  let replyIndex = 0;
  let requestIndex = 0;
  return {
    /**
     * The entry that answers `json` (the request in OpenAI shape).
     * @param {any} json
     * @returns {Promise<ScriptEntry>}
     */
    async next(json) {
      const index = requestIndex++;
      const replies = script.replies ?? [];
      if (replyIndex < replies.length) return replies[replyIndex++];
      const last = Array.isArray(json.messages) ? json.messages[json.messages.length - 1] : undefined;
      for (const rule of script.rules ?? []) {
        const groups = matchRule(rule.when ?? {}, last);
        if (groups) return substitute(rule.reply, groups);
      }
      if (script.respond) {
        const r = await script.respond(json, index);
        if (r) return r;
      }
      return script.default ?? BUILTIN_DEFAULT;
    },
  };
}

/**
 * The capture groups when every condition of `when` holds for the last message, else null.
 * @param {import("./server.mjs").RuleWhen} when
 * @param {any} last
 * @returns {string[] | null}
 */
function matchRule(when, last) {
  if (!last) return null;
  const text = textOf(last.content);
  if (when.lastRole !== undefined && last.role !== when.lastRole) return null;
  if (when.lastContains !== undefined && !text.includes(when.lastContains)) return null;
  if (when.lastRegex !== undefined) {
    const m = (typeof when.lastRegex === "string" ? new RegExp(when.lastRegex) : when.lastRegex).exec(text);
    if (!m) return null;
    return Array.from(m, (g) => g ?? "");
  }
  return [];
}

/**
 * A deep copy of `value` with `$0`…`$9` in its strings replaced by `groups`.
 * @template T
 * @param {T} value
 * @param {string[]} groups
 * @returns {T}
 */
function substitute(value, groups) {
  if (groups.length === 0) return value;
  if (typeof value === "string") return /** @type {T} */ (value.replace(/\$(\d)/g, (all, d) => groups[Number(d)] ?? all));
  if (Array.isArray(value)) return /** @type {T} */ (value.map((v) => substitute(v, groups)));
  if (value && typeof value === "object") {
    return /** @type {T} */ (Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, groups)])));
  }
  return value;
}

/**
 * A random id suffix like DeepSeek's (letters and digits).
 * @param {number} n
 */
export function randomId(n) {
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let s = "";
  for (const b of randomBytes(n)) s += abc[b % abc.length];
  return s;
}

/**
 * @typedef {object} NormalReply the reply as the wire writers use it
 * @property {string | null} reasoning null when thinking is off
 * @property {string} content
 * @property {{ id: string, name: string, arguments: string }[]} toolCalls arguments exactly as sent
 * @property {string} finishReason
 * @property {number} chunkSize
 * @property {number} chunkDelayMs
 * @property {number} keepAliveMs
 * @property {number} keepAliveEveryMs
 */

/**
 * Fills in a reply's defaults for one request.
 * @param {Reply} r
 * @param {{ thinking: boolean, idPrefix?: string }} how `idPrefix` makes tool call ids (DeepSeek: `call_NN_`)
 * @returns {NormalReply}
 */
export function normalizeReply(r, { thinking, idPrefix }) {
  const toolCalls = (r.tool_calls ?? []).map((tc, i) => ({
    id: tc.id ?? (idPrefix ? `${idPrefix}${randomId(24)}` : `call_${String(i).padStart(2, "0")}_${randomId(24)}`),
    name: tc.name,
    arguments: tc.raw_arguments ?? JSON.stringify(tc.arguments ?? {}),
  }));
  return {
    reasoning: thinking ? (r.reasoning ?? DEFAULT_REASONING) : null,
    content: r.content ?? "",
    toolCalls,
    finishReason: r.finish_reason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
    chunkSize: Math.max(1, Math.floor(r.chunkSize ?? 8)),
    chunkDelayMs: r.chunkDelayMs ?? 0,
    keepAliveMs: r.keepAliveMs ?? 0,
    keepAliveEveryMs: Math.max(1, r.keepAliveEveryMs ?? 50),
  };
}

/**
 * The reply that raw chunks add up to (what the simulator bills, and what a following request
 * sends back): deltas assembled the way a client assembles them — tool calls by index, a piece
 * without an index continuing the last call.
 * @param {import("./server.mjs").RawChunk[]} chunks
 * @param {boolean} thinking
 * @returns {NormalReply}
 */
export function replyFromChunks(chunks, thinking) {
  let reasoning = "";
  let content = "";
  let finishReason = "stop";
  /** @type {Map<number, { id: string, name: string, arguments: string }>} */
  const calls = new Map();
  let last = 0;
  for (const c of chunks) {
    if (typeof c === "string") continue;
    const d = /** @type {any} */ (c.delta ?? {});
    if (typeof d.reasoning_content === "string") reasoning += d.reasoning_content;
    if (typeof d.content === "string") content += d.content;
    for (const tc of Array.isArray(d.tool_calls) ? d.tool_calls : []) {
      const index = typeof tc.index === "number" ? tc.index : last;
      last = index;
      const call = calls.get(index) ?? { id: "", name: "", arguments: "" };
      if (tc.id) call.id = tc.id;
      if (tc.function?.name) call.name = tc.function.name;
      if (typeof tc.function?.arguments === "string") call.arguments += tc.function.arguments;
      calls.set(index, call);
    }
    if (c.finish_reason) finishReason = c.finish_reason;
  }
  return {
    reasoning: thinking || reasoning ? reasoning : null,
    content,
    toolCalls: [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c),
    finishReason,
    chunkSize: 8,
    chunkDelayMs: 0,
    keepAliveMs: 0,
    keepAliveEveryMs: 50,
  };
}

/**
 * `text` cut into pieces of `size` characters (code points: a surrogate pair is never split).
 * @param {string} text
 * @param {number} size
 * @returns {string[]}
 */
export function split(text, size) {
  if (text.length === 0) return [];
  const chars = Array.from(text);
  /** @type {string[]} */
  const out = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

/**
 * The assistant message a following request sends back for this reply (OpenAI shape).
 * @param {NormalReply} r
 * @param {boolean} withReasoning
 */
export function replyAsMessage(r, withReasoning) {
  /** @type {any} */
  const m = { role: "assistant", content: r.content };
  if (withReasoning && r.reasoning !== null) m.reasoning_content = r.reasoning;
  if (r.toolCalls.length > 0) {
    m.tool_calls = r.toolCalls.map((tc) => ({ id: tc.id, type: "function", function: { name: tc.name, arguments: tc.arguments } }));
  }
  return m;
}
