// The DeepSeek Chat Completions wire format (OpenAI protocol), as the API documents it
// (api-docs.deepseek.com, checked 2026-11-30). These are the shapes the context log stores
// and the provider sends: what the model sees is what the transcript records.

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A JSON Schema subset: what tool parameters use and what our validator understands. */
export interface JsonSchema {
  type?: "object" | "array" | "string" | "number" | "integer" | "boolean" | "null" | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: JsonValue[];
  const?: JsonValue;
  additionalProperties?: boolean | JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  default?: JsonValue;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface SystemMessage { role: "system"; content: string }
export interface UserMessage { role: "user"; content: string }
/** DeepSeek's per-turn reminder role, placed right before the user message it belongs to. */
export interface ReminderMessage { role: "latest_reminder"; content: string }
export interface AssistantMessage {
  role: "assistant";
  content: string | null;
  /** Kept only where the model requires it back (see the provider's capability table). */
  reasoning_content?: string;
  /** The Anthropic protocol's signature of the reasoning (its thinking block): the endpoint
   *  requires it back with the block. Never sent on the OpenAI protocol. */
  reasoning_signature?: string;
  tool_calls?: ToolCall[];
}
export interface ToolMessage { role: "tool"; tool_call_id: string; content: string }

export type ChatMessage = SystemMessage | UserMessage | ReminderMessage | AssistantMessage | ToolMessage;
export type Role = ChatMessage["role"];

export interface ToolDefinition {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema; strict?: boolean };
}

export type ToolChoice = "none" | "auto" | "required" | { type: "function"; function: { name: string } };

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
  thinking?: { type: "enabled" | "disabled" };
  reasoning_effort?: "low" | "high" | "max";
  max_tokens?: number;
  response_format?: { type: "text" | "json_object" };
  stop?: string | string[];
  stream?: boolean;
  stream_options?: { include_usage: boolean };
  temperature?: number;
  top_p?: number;
  user_id?: string;
}

export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "insufficient_system_resource";

/** Usage, normalised from the wire (`completion_tokens_details.reasoning_tokens` is lifted). */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_cache_hit_tokens: number;
  prompt_cache_miss_tokens: number;
  reasoning_tokens: number;
}

export const ZERO_USAGE: Readonly<Usage> = Object.freeze({
  prompt_tokens: 0,
  completion_tokens: 0,
  prompt_cache_hit_tokens: 0,
  prompt_cache_miss_tokens: 0,
  reasoning_tokens: 0,
});

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    prompt_cache_hit_tokens: a.prompt_cache_hit_tokens + b.prompt_cache_hit_tokens,
    prompt_cache_miss_tokens: a.prompt_cache_miss_tokens + b.prompt_cache_miss_tokens,
    reasoning_tokens: a.reasoning_tokens + b.reasoning_tokens,
  };
}

/** One streamed piece of a reply, as the provider hands it on while the reply arrives. */
export type ModelDelta =
  | { kind: "content"; text: string }
  | { kind: "reasoning"; text: string }
  | { kind: "tool_call"; index: number; id?: string; name?: string; argumentsDelta: string }
  | { kind: "retry"; attempt: number; delayMs: number; reason: string };

/** A whole reply. `incomplete` is set when the stream ended early: what arrived is kept. */
export interface ModelResponse {
  id?: string;
  model?: string;
  message: AssistantMessage;
  finishReason: FinishReason | null;
  usage?: Usage;
  /** The wire's usage did not add up and `usage` is its repair: what was changed, in words. */
  usageNote?: string;
  incomplete?: { reason: string };
  /** Earlier attempts of this request that the API answered in part before the stream was cut
   *  and deepcode asked again: the API bills each of them, so they are booked too (estimated). */
  dropped?: ModelResponse[];
}

/** What deepcode must know of a model to talk to it correctly: one row per model name, kept
 *  in the provider's capability table (src/providers/capabilities.ts) and handed to the
 *  engine by the CLI, so the context never hard-codes a model's quirks. */
export interface ModelCaps {
  /** The name as sent on the wire. */
  model: string;
  /** The model it is billed and served as (aliases route here), e.g. `deepseek-flash`. */
  family: string;
  protocol: "openai" | "anthropic";
  /** Thinks unless the request says `thinking: {type: "disabled"}`. */
  thinkingByDefault: boolean;
  /** With tools and thinking on, every earlier assistant message's `reasoning_content` must go back. */
  reasoningBackWithTools: boolean;
  /** Accepts the `latest_reminder` role for per-turn facts. */
  reminderRole: boolean;
  contextWindow: number;
  maxOutput: number;
}

/** Whether a request to this model thinks: on by default where the model thinks by default,
 *  unless the request says disabled; on when the request says enabled. */
export function thinkingOn(caps: ModelCaps, req: Pick<ChatRequest, "thinking">): boolean {
  if (req.thinking?.type === "disabled") return false;
  if (req.thinking?.type === "enabled") return true;
  return caps.thinkingByDefault;
}

/** The one rule for `reasoning_content` in earlier assistant messages (DeepSeek, checked
 *  2026-11-30): with tools and thinking on, every one must be sent back, or the API answers
 *  400; otherwise it is ignored, so it is not sent. The context and the provider both use this. */
export function reasoningRequired(caps: ModelCaps, req: Pick<ChatRequest, "thinking" | "tools">): boolean {
  return caps.reasoningBackWithTools && thinkingOn(caps, req) && (req.tools?.length ?? 0) > 0;
}

/** An assistant message without its reasoning (what goes back when reasoningRequired says no);
 *  every other message unchanged. A new object: stored messages are frozen. */
export function withoutReasoning(m: ChatMessage): ChatMessage {
  if (m.role !== "assistant" || (m.reasoning_content === undefined && m.reasoning_signature === undefined)) return m;
  const { reasoning_content: _dropped, reasoning_signature: _signature, ...rest } = m;
  return rest;
}
