// The Anthropic-protocol wire: POST {base}/v1/messages with x-api-key and anthropic-version.
// DeepSeek serves it at https://api.deepseek.com/anthropic; other vendors speak it too. The
// OpenAI-shaped ChatRequest (what the context log stores) is translated here, so the rest of
// deepcode never knows which protocol is in use. Facts: Anthropic Messages API and streaming
// docs (platform.claude.com), DeepSeek "Anthropic API" guide (api-docs.deepseek.com), both
// checked 2026-11-30; DeepSeek ignores anthropic-version and maps unknown claude-* names.
//
// Translation (one direction only; the log stays OpenAI-shaped):
//   system messages          → `system` text blocks, in order
//   user / latest_reminder   → text blocks of a user turn (the reminder keeps its place,
//                              right before the user text it belongs to)
//   tool messages            → tool_result blocks of a user turn (ids the Messages API would
//                              refuse, from another server, mapped alike on both: anthropicId)
//   assistant                → [thinking block (reasoning_content with its reasoning_signature;
//                              unsigned reasoning, from the OpenAI protocol, is left out)]
//                              [text] [tool_use…]
//                              tool_use.input is the parsed arguments ({} if they do not parse)
//   consecutive turns of one role are merged (Anthropic alternates user/assistant)
//   tools → {name, description, input_schema}; tool_choice auto/none/required/named →
//   {type: auto|none|any|tool}; thinking → {type: enabled|disabled}; reasoning_effort →
//   output_config.effort; stop → stop_sequences; user_id → metadata.user_id;
//   max_tokens defaults to the model's maximum output (Anthropic requires it);
//   response_format has no Anthropic counterpart and is not sent.

import { createHash } from "node:crypto";
import type { ChatMessage, ChatRequest, JsonValue, ModelCaps, ToolChoice } from "../contract/index.js";
import { openAnthropicStream, anthropicWhole } from "./anthropic-reply.js";
import type { WireProtocol } from "./protocol.js";

export const ANTHROPIC_VERSION = "2023-06-01";

type Block =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string; signature?: string }
  | { type: "tool_use"; id: string; name: string; input: JsonValue }
  | { type: "tool_result"; tool_use_id: string; content: string };

interface Turn {
  role: "user" | "assistant";
  content: Block[];
}

export const anthropicProtocol: WireProtocol = {
  name: "anthropic",
  path: "/v1/messages",
  headers(apiKey, stream) {
    return {
      "x-api-key": apiKey,
      "anthropic-version": ANTHROPIC_VERSION,
      accept: stream ? "text/event-stream" : "application/json",
    };
  },
  body(req, stream, caps, thinking) {
    return JSON.stringify(toAnthropic(req, stream, caps, thinking));
  },
  openStream: openAnthropicStream,
  onWhole: anthropicWhole,
};

/** The Anthropic Messages body for a prepared ChatRequest. */
export function toAnthropic(req: ChatRequest, stream: boolean, caps: ModelCaps, thinking: boolean): Record<string, unknown> {
  const maxTokens = req.max_tokens ?? caps.maxOutput;
  const body: Record<string, unknown> = { model: req.model, max_tokens: maxTokens };
  const system = req.messages.filter((m) => m.role === "system").map((m) => ({ type: "text", text: m.content }));
  if (system.length > 0) body.system = system;
  body.messages = turnsOf(req.messages);
  if (req.tools && req.tools.length > 0) {
    body.tools = req.tools.map((t) => ({
      name: t.function.name,
      description: t.function.description,
      input_schema: t.function.parameters,
    }));
  }
  if (req.tool_choice !== undefined) body.tool_choice = choiceOf(req.tool_choice);
  // Sent when thinking is on, or when the request turns it off; otherwise the endpoint decides.
  // A tool loop whose last call came without a signed thinking block (begun on the OpenAI
  // protocol, resumed here mid-loop) cannot go on with thinking on — the endpoint wants that
  // turn to start with its signed thinking — so this one request turns it off.
  if (thinking && !unsignedLoop(req.messages)) body.thinking = { type: "enabled", budget_tokens: Math.max(1024, maxTokens - 1) };
  else if (thinking || req.thinking?.type === "disabled") body.thinking = { type: "disabled" };
  if (req.reasoning_effort) body.output_config = { effort: req.reasoning_effort };
  if (req.stop !== undefined) body.stop_sequences = typeof req.stop === "string" ? [req.stop] : req.stop;
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.top_p !== undefined) body.top_p = req.top_p;
  if (req.user_id !== undefined) body.metadata = { user_id: req.user_id };
  if (stream) body.stream = true;
  return body;
}

function turnsOf(messages: ChatMessage[]): Turn[] {
  const turns: Turn[] = [];
  const push = (role: Turn["role"], blocks: Block[]) => {
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const m of messages) {
    switch (m.role) {
      case "system":
        break;
      case "user":
      case "latest_reminder":
        push("user", [{ type: "text", text: m.content }]);
        break;
      case "tool":
        push("user", [{ type: "tool_result", tool_use_id: anthropicId(m.tool_call_id), content: m.content }]);
        break;
      case "assistant": {
        const blocks: Block[] = [];
        // The signature goes back with its block: the endpoint verifies it. Reasoning without
        // one (written on the OpenAI protocol, whose wire has no signatures) cannot be sent as
        // a thinking block, which the endpoint would refuse: it is left out, as Anthropic's
        // Messages API allows for an earlier turn's thinking.
        if (typeof m.reasoning_content === "string" && typeof m.reasoning_signature === "string" && m.reasoning_signature !== "") {
          blocks.push({ type: "thinking", thinking: m.reasoning_content, signature: m.reasoning_signature });
        }
        if (m.content) blocks.push({ type: "text", text: m.content });
        for (const tc of m.tool_calls ?? []) {
          blocks.push({ type: "tool_use", id: anthropicId(tc.id), name: tc.function.name, input: inputOf(tc.function.arguments) });
        }
        if (blocks.length === 0) blocks.push({ type: "text", text: "" });
        push("assistant", blocks);
        break;
      }
    }
  }
  return turns;
}

/** A tool_use id as the Messages API accepts it (`^[a-zA-Z0-9_-]+$`). Ids from the OpenAI
 *  protocol usually are (`call_00_…`); another server's (`functions.Read:0`) is mapped — the
 *  same way for the call and its result, and the same on every request (the cached prefix) —
 *  to its safe characters plus a short hash, so two ids never meet in one. */
export function anthropicId(id: string): string {
  if (/^[a-zA-Z0-9_-]+$/.test(id)) return id;
  return `${id.replace(/[^a-zA-Z0-9_-]/g, "_")}_${createHash("sha256").update(id).digest("hex").slice(0, 8)}`;
}

/** The request continues a tool loop (tool results after the last assistant message) whose
 *  calls came without a signed thinking block. */
function unsignedLoop(messages: readonly ChatMessage[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "assistant") continue;
    return !!m.tool_calls?.length && messages[i + 1]?.role === "tool" && !m.reasoning_signature;
  }
  return false;
}

function inputOf(args: string): JsonValue {
  try {
    const v = JSON.parse(args) as JsonValue;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? v : {};
  } catch {
    // Arguments that do not parse (a cut-off call) cannot be a tool_use input: send none.
    return {};
  }
}

function choiceOf(c: ToolChoice): Record<string, string> {
  if (c === "auto") return { type: "auto" };
  if (c === "none") return { type: "none" };
  if (c === "required") return { type: "any" };
  return { type: "tool", name: c.function.name };
}
