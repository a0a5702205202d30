// The OpenAI-protocol wire (DeepSeek's own): POST /chat/completions, Bearer auth, SSE chunks
// `data: {"object":"chat.completion.chunk",…}` ending `data: [DONE]`. Wire facts from
// api-docs.deepseek.com "Create Chat Completion" (checked 2026-11-30): tool calls stream by
// index (the first piece has id, type, name and arguments "", later ones argument fragments);
// usage rides on the final chunk; reasoning_tokens sit in completion_tokens_details.

import type { AssistantMessage, ChatRequest, Usage } from "../contract/index.js";
import type { Assembler } from "./assemble.js";
import { finishOf, malformed, num, parseJson, str, streamError, usage } from "./protocol.js";
import { isObject } from "../lib/json.js";
import type { WireProtocol } from "./protocol.js";
import type { SseEvent } from "../lib/sse.js";

export const openaiProtocol: WireProtocol = {
  name: "openai",
  path: "/chat/completions",
  headers(apiKey, stream) {
    return { authorization: `Bearer ${apiKey}`, accept: stream ? "text/event-stream" : "application/json" };
  },
  body(req: ChatRequest, stream: boolean) {
    // The Anthropic protocol's thinking signature is not part of this wire.
    const messages = req.messages.some((m) => m.role === "assistant" && m.reasoning_signature !== undefined)
      ? req.messages.map((m) => (m.role === "assistant" && m.reasoning_signature !== undefined ? dropSignature(m) : m))
      : req.messages;
    const out: ChatRequest = { ...req, messages, stream };
    if (stream) out.stream_options = { include_usage: true };
    else delete out.stream_options;
    return JSON.stringify(out);
  },
  openStream(acc) {
    return (ev) => onChunk(ev, acc);
  },
  onWhole(json, acc) {
    if (!isObject(json)) throw malformed("the reply is not an object");
    if (json.error !== undefined) throw streamError(errorText(json.error));
    acc.meta(json.id, json.model);
    const choice = Array.isArray(json.choices) ? json.choices[0] : undefined;
    if (!isObject(choice) || !isObject(choice.message)) throw malformed("the reply has no message");
    feedMessage(choice.message, acc);
    acc.finish(finishOf(choice.finish_reason));
    if (isObject(json.usage)) acc.usage(usageOf(json.usage), totalOf(json.usage));
    finishIfUnsaid(acc);
  },
};

function onChunk(ev: SseEvent, acc: Assembler): "more" | "done" {
  if (ev.data.trim() === "[DONE]") {
    finishIfUnsaid(acc);
    return "done";
  }
  const chunk = parseJson(ev.data);
  if (!isObject(chunk)) throw malformed("not an object");
  if (chunk.error !== undefined) throw streamError(errorText(chunk.error));
  acc.meta(chunk.id, chunk.model);
  const choices = chunk.choices;
  if (choices !== undefined && choices !== null && !Array.isArray(choices)) throw malformed("choices is not a list");
  for (const choice of choices ?? []) {
    if (!isObject(choice)) throw malformed("a choice is not an object");
    if (isObject(choice.delta)) feedMessage(choice.delta, acc);
    acc.finish(finishOf(choice.finish_reason));
  }
  if (isObject(chunk.usage)) acc.usage(usageOf(chunk.usage), totalOf(chunk.usage));
  return "more";
}

/** One delta (streamed) or one whole message: the same fields. */
function feedMessage(m: Record<string, unknown>, acc: Assembler): void {
  const reasoning = str(m.reasoning_content);
  if (reasoning) acc.reasoning(reasoning);
  const content = str(m.content);
  if (content) acc.content(content);
  if (m.tool_calls === undefined || m.tool_calls === null) return;
  if (!Array.isArray(m.tool_calls)) throw malformed("tool_calls is not a list");
  m.tool_calls.forEach((tc: unknown, position) => {
    if (!isObject(tc)) throw malformed("a tool call is not an object");
    const fn = isObject(tc.function) ? tc.function : {};
    const index = typeof tc.index === "number" ? tc.index : position;
    acc.toolCall(index, { id: str(tc.id), name: str(fn.name), args: str(fn.arguments) });
  });
}

/** A stream that ended with [DONE] but said no finish_reason still finished. */
function finishIfUnsaid(acc: Assembler): void {
  if (acc.finished) return;
  acc.finish(acc.hasToolCalls ? "tool_calls" : "stop");
}

/** Normalise wire usage: hit/miss fall back to prompt_tokens_details.cached_tokens (other
 *  vendors), reasoning_tokens are lifted out of completion_tokens_details. */
export function usageOf(u: Record<string, unknown>): Usage {
  const prompt = num(u.prompt_tokens);
  const details = isObject(u.prompt_tokens_details) ? u.prompt_tokens_details : {};
  const hit = u.prompt_cache_hit_tokens !== undefined ? num(u.prompt_cache_hit_tokens) : num(details.cached_tokens);
  const miss = u.prompt_cache_miss_tokens !== undefined ? num(u.prompt_cache_miss_tokens) : Math.max(0, prompt - hit);
  const completionDetails = isObject(u.completion_tokens_details) ? u.completion_tokens_details : {};
  return usage(prompt, num(u.completion_tokens), hit, miss, num(completionDetails.reasoning_tokens));
}

/** total_tokens when the wire sent one (checked against the other counts: usage-check.ts). */
function totalOf(u: Record<string, unknown>): number | undefined {
  return typeof u.total_tokens === "number" ? u.total_tokens : undefined;
}

function errorText(e: unknown): string {
  if (typeof e === "string") return e;
  if (isObject(e) && typeof e.message === "string") return e.message;
  return JSON.stringify(e).slice(0, 200);
}

function dropSignature(m: AssistantMessage): AssistantMessage {
  const { reasoning_signature: _s, ...rest } = m;
  return rest;
}
