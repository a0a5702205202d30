// Anthropic replies back into the shared assembler: the whole message (non-streamed) and the
// event stream (message_start, content_block_start / _delta / _stop with text_delta,
// thinking_delta, input_json_delta, message_delta with stop_reason and usage, message_stop,
// ping, error). Facts: Anthropic streaming docs (platform.claude.com), checked 2026-11-30.
//
// Usage mapping (Anthropic semantics, which DeepSeek's /anthropic follows as far as its guide
// says: `input_tokens` counts only the input that was not read from cache):
//   prompt_tokens            = input_tokens + cache_read_input_tokens + cache_creation_input_tokens
//   prompt_cache_hit_tokens  = cache_read_input_tokens
//   prompt_cache_miss_tokens = prompt_tokens − hit
//   completion_tokens        = output_tokens (thinking included)
//   reasoning_tokens         = output_tokens_details.reasoning_tokens when a server reports it,
//                              else 0 (the Anthropic format has no such count)
// message_start carries the input side; message_delta the final output_tokens (cumulative).

import type { FinishReason, Usage } from "../contract/index.js";
import type { Assembler } from "./assemble.js";
import { malformed, num, parseJson, str, streamError, usage } from "./protocol.js";
import { isObject } from "../lib/json.js";
import type { SseEvent } from "../lib/sse.js";

const STOP: Readonly<Record<string, FinishReason>> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
};

function stopOf(v: unknown): FinishReason | null {
  if (typeof v !== "string" || !v) return null;
  return STOP[v] ?? "stop";
}

/** Raw usage fields, merged as they arrive (later events carry the final counts). */
type RawUsage = Record<string, unknown>;

function usageOf(u: RawUsage): Usage {
  const hit = num(u.cache_read_input_tokens);
  const prompt = num(u.input_tokens) + hit + num(u.cache_creation_input_tokens);
  const details = isObject(u.output_tokens_details) ? u.output_tokens_details : {};
  return usage(prompt, num(u.output_tokens), hit, prompt - hit, num(details.reasoning_tokens));
}

export function anthropicWhole(json: unknown, acc: Assembler): void {
  if (!isObject(json)) throw malformed("the reply is not an object");
  if (json.type === "error") throw streamError(errorText(json.error));
  acc.meta(json.id, json.model);
  if (!Array.isArray(json.content)) throw malformed("the reply has no content list");
  let calls = 0;
  for (const block of json.content) {
    if (!isObject(block)) throw malformed("a content block is not an object");
    if (block.type === "text") acc.content(str(block.text) ?? "");
    else if (block.type === "thinking") {
      acc.reasoning(str(block.thinking) ?? "");
      acc.signature(str(block.signature) ?? "");
    } else if (block.type === "tool_use") {
      acc.toolCall(calls++, { id: str(block.id), name: str(block.name), args: JSON.stringify(block.input ?? {}) });
    }
  }
  acc.finish(stopOf(json.stop_reason) ?? (calls > 0 ? "tool_calls" : "stop"));
  if (isObject(json.usage)) acc.usage(usageOf(json.usage));
}

/** A reader for one Anthropic event stream. Block indexes are the server's; tool calls get
 *  their own 0-based index, in order, as on the OpenAI wire. */
export function openAnthropicStream(acc: Assembler): (ev: SseEvent) => "more" | "done" {
  const toolIndex = new Map<number, number>();
  let raw: RawUsage = {};
  const mergeUsage = (u: unknown) => {
    if (!isObject(u)) return;
    raw = { ...raw, ...Object.fromEntries(Object.entries(u).filter(([, v]) => v !== null && v !== undefined)) };
    acc.usage(usageOf(raw));
  };

  return (ev) => {
    const data = parseJson(ev.data);
    if (!isObject(data)) throw malformed("an event is not an object");
    const type = str(data.type) ?? ev.event;
    switch (type) {
      case "message_start": {
        const m = isObject(data.message) ? data.message : {};
        acc.meta(m.id, m.model);
        mergeUsage(m.usage);
        return "more";
      }
      case "content_block_start": {
        const index = num(data.index);
        const block = isObject(data.content_block) ? data.content_block : {};
        if (block.type === "text") acc.content(str(block.text) ?? "");
        else if (block.type === "thinking") {
          acc.reasoning(str(block.thinking) ?? "");
          acc.signature(str(block.signature) ?? "");
        } else if (block.type === "tool_use") {
          const ordinal = toolIndex.size;
          toolIndex.set(index, ordinal);
          const input = isObject(block.input) && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : "";
          acc.toolCall(ordinal, { id: str(block.id), name: str(block.name), args: input });
        }
        return "more";
      }
      case "content_block_delta": {
        const index = num(data.index);
        const delta = isObject(data.delta) ? data.delta : {};
        if (delta.type === "text_delta") acc.content(str(delta.text) ?? "");
        else if (delta.type === "thinking_delta") acc.reasoning(str(delta.thinking) ?? "");
        else if (delta.type === "input_json_delta") {
          const ordinal = toolIndex.get(index);
          if (ordinal === undefined) throw malformed(`input_json_delta for block ${index}, which is not a tool_use`);
          acc.toolCall(ordinal, { args: str(delta.partial_json) ?? "" });
        }
        else if (delta.type === "signature_delta") acc.signature(str(delta.signature) ?? "");
        return "more";
      }
      case "message_delta": {
        const delta = isObject(data.delta) ? data.delta : {};
        acc.finish(stopOf(delta.stop_reason));
        mergeUsage(data.usage);
        return "more";
      }
      case "message_stop":
        if (!acc.finished) acc.finish(acc.hasToolCalls ? "tool_calls" : "stop");
        return "done";
      case "error":
        throw streamError(errorText(data.error));
      default:
        // ping, content_block_stop, and event types added later: nothing to assemble.
        return "more";
    }
  };
}

function errorText(e: unknown): string {
  if (isObject(e) && typeof e.message === "string") return e.message;
  return JSON.stringify(e ?? "unknown error").slice(0, 200);
}
