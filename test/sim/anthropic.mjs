// @ts-check
// The Anthropic Messages protocol at /anthropic/v1/messages, as DeepSeek serves it
// (api-docs.deepseek.com/guides/anthropic_api, checked 2026-11-30). A request is translated
// into the equivalent Chat Completions request, so the same script answers it and the same
// canonical rendering bills it and keys the cache:
//   system (string, or text blocks: one system message per block) → leading system messages;
//   tools [{name, description, input_schema}] → [{type:"function", function:{name, description,
//     parameters}}] (keys in that order); user text blocks → one user message (texts joined);
//   tool_result blocks → tool messages (before the user text of the same message);
//   assistant thinking → reasoning_content (its `signature` required and checked: the one this
//     simulator issued for that text; a turn without one has reasoning_content "", except the
//     turn whose tool results end the request, which must start with it when thinking is on),
//     text → content, tool_use → tool_calls with
//     arguments = JSON.stringify(input); thinking {type} → thinking {type}; tool_choice
//     auto/any/tool/none → auto/required/named/none; metadata.user_id → user_id.
// Model names: DeepSeek's own names as on the OpenAI side; claude-opus* → deepseek-v4-pro,
// other claude* → deepseek-flash; anything else is 400.
// Usage: `input_tokens` is the uncached part (prompt_cache_miss_tokens) and
// `cache_read_input_tokens` the cached part, following Anthropic's own convention that input
// tokens exclude cache reads (DeepSeek's compatibility page lists the fields without defining
// them); `cache_creation_input_tokens` is 0: DeepSeek's cache is written for free.
import { createHash } from "node:crypto";
import { split } from "./script.mjs";
import { MODELS } from "./validate.mjs";

/**
 * @typedef {import("./script.mjs").NormalReply} NormalReply
 * @typedef {{ id: string, model: string, usage: import("./server.mjs").WireUsage }} Meta
 */

/** @param {any} content @returns {string} */
function blocksText(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b) => (b && b.type === "text" && typeof b.text === "string" ? b.text : "")).join("");
}

/**
 * The DeepSeek model an Anthropic-side model name is served by, or null when unknown.
 * @param {unknown} name
 */
export function mapModel(name) {
  if (typeof name !== "string") return null;
  if (Object.hasOwn(MODELS, name)) return name;
  if (name.startsWith("claude-opus")) return "deepseek-v4-pro";
  if (name.startsWith("claude")) return "deepseek-flash";
  return null;
}

/**
 * Translates a Messages request into the equivalent Chat Completions request.
 * @param {any} body
 * @returns {{ json: any } | { error: string }}
 */
export function toChatRequest(body) {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return { error: "invalid request body: expected a JSON object" };
  const model = mapModel(body.model);
  if (!model) return { error: "Model Not Exist" };
  if (typeof body.max_tokens !== "number") return { error: "max_tokens: Field required" };
  if (!Array.isArray(body.messages) || body.messages.length === 0) return { error: "messages: at least one message is required" };
  /** @type {any[]} */
  const messages = [];
  if (typeof body.system === "string") messages.push({ role: "system", content: body.system });
  else if (Array.isArray(body.system)) for (const b of body.system) messages.push({ role: "system", content: blocksText([b]) });
  for (const [i, m] of body.messages.entries()) {
    if (m?.role !== "user" && m?.role !== "assistant") return { error: `messages.${i}.role: Input should be 'user' or 'assistant'` };
    /** @type {any[] | null} */
    const blocks = typeof m.content === "string" ? [{ type: "text", text: m.content }] : Array.isArray(m.content) ? m.content : null;
    if (!blocks) return { error: `messages.${i}.content: Field required` };
    if (m.role === "user") {
      for (const b of blocks) {
        if (b?.type === "tool_result") messages.push({ role: "tool", tool_call_id: b.tool_use_id, content: blocksText(b.content) });
      }
      const texts = blocks.filter((b) => b?.type === "text");
      if (texts.length > 0 || !blocks.some((b) => b?.type === "tool_result")) messages.push({ role: "user", content: blocksText(texts) });
    } else {
      /** @type {any} */
      const a = { role: "assistant", content: blocksText(blocks) };
      const thinking = blocks.filter((b) => b?.type === "thinking");
      for (const [j, b] of blocks.entries()) {
        if (b?.type !== "thinking") continue;
        if (typeof b.signature !== "string") return { error: `messages.${i}.content.${j}.thinking.signature: Field required` };
        if (b.signature !== signatureOf(String(b.thinking ?? ""))) return { error: `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block` };
      }
      if (thinking.length > 0) a.reasoning_content = thinking.map((b) => String(b.thinking ?? "")).join("");
      // An assistant turn without a thinking block is taken as one that had no reasoning (as
      // Anthropic's Messages API takes an earlier turn's thinking left out); but a turn the
      // request continues — its tool results are the last message — must start with its
      // thinking block when thinking is on ("a final assistant message must start with a
      // thinking block"): that reasoning is the one the model needs for the next step.
      else {
        const last = i === body.messages.length - 2 && Array.isArray(body.messages[i + 1]?.content) && body.messages[i + 1].content.some((/** @type {any} */ b) => b?.type === "tool_result");
        if (last && body.thinking?.type !== "disabled" && blocks.some((b) => b?.type === "tool_use")) {
          return { error: `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${blocks[0]?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.` };
        }
        a.reasoning_content = "";
      }
      const uses = blocks.filter((b) => b?.type === "tool_use");
      for (const [j, b] of blocks.entries()) {
        if (b?.type === "tool_use" && !/^[a-zA-Z0-9_-]+$/.test(String(b.id))) return { error: `messages.${i}.content.${j}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'` };
      }
      if (uses.length > 0) {
        a.tool_calls = uses.map((b) => ({ id: b.id, type: "function", function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } }));
      }
      messages.push(a);
    }
  }
  /** @type {any} */
  const json = { model, messages };
  if (Array.isArray(body.tools) && body.tools.length > 0) {
    json.tools = body.tools.map((/** @type {any} */ t) => ({
      type: "function",
      function: { name: t?.name, description: t?.description ?? "", parameters: t?.input_schema ?? {} },
    }));
  }
  const choice = body.tool_choice?.type;
  if (choice === "auto" || choice === "none") json.tool_choice = choice;
  else if (choice === "any") json.tool_choice = "required";
  else if (choice === "tool") json.tool_choice = { type: "function", function: { name: body.tool_choice.name } };
  if (body.thinking?.type === "enabled" || body.thinking?.type === "disabled") json.thinking = { type: body.thinking.type };
  if (typeof body.metadata?.user_id === "string") json.user_id = body.metadata.user_id;
  json.max_tokens = body.max_tokens;
  json.stream = body.stream === true;
  return { json };
}

const STOP = /** @type {Record<string, string>} */ ({
  stop: "end_turn",
  length: "max_tokens",
  tool_calls: "tool_use",
  content_filter: "refusal",
  insufficient_system_resource: "end_turn",
});

/** @param {string} finish */
export const stopReason = (finish) => STOP[finish] ?? "end_turn";

/** @param {import("./server.mjs").WireUsage} u */
function usageOf(u) {
  return {
    input_tokens: u.prompt_cache_miss_tokens,
    output_tokens: u.completion_tokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: u.prompt_cache_hit_tokens,
  };
}

/** @param {NormalReply} r */
function toolInput(r) {
  return r.toolCalls.map((tc) => {
    try {
      return JSON.parse(tc.arguments);
    } catch {
      return {}; // malformed scripted arguments: the stream carries them raw; a whole body cannot
    }
  });
}

/**
 * The signature of a thinking block: derived from its text, so a block sent back is verified
 * without state (as the real endpoint verifies its own signatures). A client that drops it, or
 * sends a block whose text changed, is refused.
 * @param {string} thinking
 */
export function signatureOf(thinking) {
  return `sig_${createHash("sha256").update(`sim:${thinking}`).digest("base64url").slice(0, 43)}`;
}

/**
 * The body of a non-streamed Messages reply.
 * @param {NormalReply} r
 * @param {Meta} meta
 */
export function messageBody(r, meta) {
  /** @type {object[]} */
  const content = [];
  if (r.reasoning !== null) content.push({ type: "thinking", thinking: r.reasoning, signature: signatureOf(r.reasoning) });
  if (r.content || r.toolCalls.length === 0) content.push({ type: "text", text: r.content });
  const inputs = toolInput(r);
  r.toolCalls.forEach((tc, i) => content.push({ type: "tool_use", id: tc.id, name: tc.name, input: inputs[i] }));
  return JSON.stringify({
    id: meta.id,
    type: "message",
    role: "assistant",
    model: meta.model,
    content,
    stop_reason: stopReason(r.finishReason),
    stop_sequence: null,
    usage: usageOf(meta.usage),
  });
}

/** @param {string} type @param {object} data */
const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/**
 * The SSE events of a streamed Messages reply, message_stop included.
 * @param {NormalReply} r
 * @param {Meta} meta
 * @returns {string[]}
 */
export function messageEvents(r, meta) {
  const usage = usageOf(meta.usage);
  const events = [
    event("message_start", {
      message: {
        id: meta.id, type: "message", role: "assistant", model: meta.model, content: [],
        stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 0 },
      },
    }),
  ];
  let index = 0;
  /** @param {object} block @param {object[]} deltas */
  const block = (block, deltas) => {
    events.push(event("content_block_start", { index, content_block: block }));
    for (const delta of deltas) events.push(event("content_block_delta", { index, delta }));
    events.push(event("content_block_stop", { index }));
    index++;
  };
  if (r.reasoning !== null) {
    const deltas = split(r.reasoning, r.chunkSize).map((thinking) => ({ type: "thinking_delta", thinking }));
    block({ type: "thinking", thinking: "" }, [...deltas, { type: "signature_delta", signature: signatureOf(r.reasoning) }]);
  }
  if (r.content || r.toolCalls.length === 0) {
    block({ type: "text", text: "" }, split(r.content, r.chunkSize).map((text) => ({ type: "text_delta", text })));
  }
  for (const tc of r.toolCalls) {
    block(
      { type: "tool_use", id: tc.id, name: tc.name, input: {} },
      split(tc.arguments, r.chunkSize).map((partial_json) => ({ type: "input_json_delta", partial_json })),
    );
  }
  events.push(event("message_delta", { delta: { stop_reason: stopReason(r.finishReason), stop_sequence: null }, usage }));
  events.push(event("message_stop", {}));
  return events;
}

/** An event whose `data:` is not JSON, for the malformed-chunk fault. */
export const MALFORMED_EVENT = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\n\n';

const ERROR_TYPES = /** @type {Record<number, string>} */ ({
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  404: "not_found_error",
  422: "invalid_request_error",
  429: "rate_limit_error",
  500: "api_error",
  503: "overloaded_error",
});

/**
 * An error body of the Anthropic shape (`error.message` and `error.type`, as in the OpenAI one).
 * @param {number} status
 * @param {string} message
 */
export function anthropicErrorBody(status, message) {
  return JSON.stringify({ type: "error", error: { type: ERROR_TYPES[status] ?? "api_error", message } });
}
