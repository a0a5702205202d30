// @ts-check
// DeepSeek's Chat Completions reply shapes (api-docs.deepseek.com, checked 2026-11-30).
// Stream: the first chunk opens the assistant message with an empty delta; reasoning deltas,
// then content deltas, then tool calls by index (the first chunk of a call carries id, type,
// name and empty arguments; later chunks only argument fragments); the final chunk carries
// finish_reason and the usage (usage rides on that chunk, never on a separate one); then
// `data: [DONE]`. In thinking mode every delta carries both content and reasoning_content, one
// of them null; in non-thinking mode reasoning_content never appears.
import { split } from "./script.mjs";

/**
 * @typedef {import("./script.mjs").NormalReply} NormalReply
 * @typedef {{ id: string, created: number, model: string, thinking: boolean, usage: import("./server.mjs").WireUsage }} Meta
 */

export const FINGERPRINT = "fp_sim_deepcode_0";

/** @param {unknown} chunk */
const sse = (chunk) => `data: ${JSON.stringify(chunk)}\n\n`;

/**
 * The SSE events of a streamed reply, `data: [DONE]` included.
 * @param {NormalReply} r
 * @param {Meta} meta
 * @returns {string[]}
 */
export function chunkEvents(r, meta) {
  /**
   * @param {object} delta
   * @param {string | null} [finish]
   * @param {boolean} [withUsage]
   */
  const chunk = (delta, finish = null, withUsage = false) => {
    /** @type {Record<string, unknown>} */
    const c = {
      id: meta.id,
      object: "chat.completion.chunk",
      created: meta.created,
      model: meta.model,
      system_fingerprint: FINGERPRINT,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    };
    if (withUsage) c.usage = meta.usage;
    return sse(c);
  };
  /** @param {string | null} content @param {string | null} reasoning */
  const text = (content, reasoning) => (meta.thinking ? { content, reasoning_content: reasoning } : { content });
  const events = [chunk(meta.thinking ? { role: "assistant", content: null, reasoning_content: "" } : { role: "assistant", content: "" })];
  if (r.reasoning !== null) for (const piece of split(r.reasoning, r.chunkSize)) events.push(chunk(text(null, piece)));
  for (const piece of split(r.content, r.chunkSize)) events.push(chunk(text(piece, null)));
  r.toolCalls.forEach((tc, index) => {
    const base = meta.thinking ? { content: null, reasoning_content: null } : { content: null };
    events.push(chunk({ ...base, tool_calls: [{ index, id: tc.id, type: "function", function: { name: tc.name, arguments: "" } }] }));
    for (const piece of split(tc.arguments, r.chunkSize)) {
      events.push(chunk({ ...base, tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  events.push(chunk(text("", null), r.finishReason, true));
  events.push("data: [DONE]\n\n");
  return events;
}

/**
 * The SSE events of a reply given as raw chunks (a corpus case replayed exactly as the API sent
 * it). An object chunk `{delta, finish_reason?, usage?}` becomes one `chat.completion.chunk`
 * with this reply's id, model and created; the first chunk that has a finish_reason carries the
 * billed usage unless it says `usage: false`. A string is sent verbatim (a keep-alive, a line
 * that is not JSON). `data: [DONE]` ends the stream unless the last chunk is the string "".
 * @param {import("./server.mjs").RawChunk[]} chunks
 * @param {Meta} meta
 * @returns {string[]}
 */
export function rawChunkEvents(chunks, meta) {
  let usageSent = false;
  const events = chunks.map((c) => {
    if (typeof c === "string") return c;
    const finish = c.finish_reason ?? null;
    /** @type {Record<string, unknown>} */
    const chunk = {
      id: meta.id,
      object: "chat.completion.chunk",
      created: meta.created,
      model: meta.model,
      system_fingerprint: FINGERPRINT,
      choices: [{ index: 0, delta: c.delta ?? {}, logprobs: null, finish_reason: finish }],
    };
    if (c.usage !== false && (typeof c.usage === "object" || (finish !== null && !usageSent))) {
      chunk.usage = typeof c.usage === "object" ? c.usage : meta.usage;
      usageSent = true;
    }
    return sse(chunk);
  });
  if (chunks[chunks.length - 1] !== "") events.push("data: [DONE]\n\n");
  return events;
}

/**
 * A `data:` line that is not JSON (a chunk cut in the middle), for the malformed-chunk fault.
 * @param {Meta} meta
 */
export function malformedChunk(meta) {
  return `data: {"id":"${meta.id}","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"\n\n`;
}

/**
 * The body of a non-streamed reply.
 * @param {NormalReply} r
 * @param {Meta} meta
 */
export function completionBody(r, meta) {
  /** @type {Record<string, unknown>} */
  const message = { role: "assistant", content: r.content };
  if (r.reasoning !== null) message.reasoning_content = r.reasoning;
  if (r.toolCalls.length > 0) {
    message.tool_calls = r.toolCalls.map((tc, index) => ({ index, id: tc.id, type: "function", function: { name: tc.name, arguments: tc.arguments } }));
  }
  return JSON.stringify({
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: r.finishReason }],
    usage: meta.usage,
    system_fingerprint: FINGERPRINT,
  });
}

const ERROR_TYPES = /** @type {Record<number, string>} */ ({
  400: "invalid_request_error",
  401: "authentication_error",
  402: "unknown_error",
  404: "invalid_request_error",
  422: "invalid_request_error",
  429: "rate_limit_error",
  500: "api_error",
  503: "service_unavailable_error",
});

/** Default messages per status: the texts DeepSeek sends where public error reports show them
 *  (401, 402, 400 reasoning), its error-code page's names for the others. */
export const ERROR_MESSAGES = /** @type {Record<number, string>} */ ({
  400: "Invalid Format",
  401: "Authentication Fails (no such user)",
  402: "Insufficient Balance",
  404: "Not Found",
  422: "Invalid Parameters",
  429: "Rate Limit Reached",
  500: "Server Error",
  503: "Server Overloaded",
});

/**
 * An error body of the OpenAI shape, as DeepSeek sends it.
 * @param {number} status
 * @param {string} [message]
 */
export function errorBody(status, message) {
  return JSON.stringify({
    error: {
      message: message ?? ERROR_MESSAGES[status] ?? "Error",
      type: ERROR_TYPES[status] ?? "api_error",
      param: null,
      code: "invalid_request_error",
    },
  });
}
