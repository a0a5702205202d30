// What differs between the two wire protocols, behind one interface: the path, the headers,
// the request body, and how streamed events and whole replies feed the assembler.

import type { ChatRequest, FinishReason, ModelCaps, Usage } from "../contract/index.js";
import type { Assembler } from "./assemble.js";
import { AttemptFailure } from "./errors.js";
import type { SseEvent } from "../lib/sse.js";

export interface WireProtocol {
  readonly name: "openai" | "anthropic";
  /** Appended to the base URL's path. */
  readonly path: string;
  headers(apiKey: string, stream: boolean): Record<string, string>;
  /** The JSON body for a request that already went through prepareRequest. */
  body(req: ChatRequest, stream: boolean, caps: ModelCaps, thinking: boolean): string;
  /** A reader for one streamed reply (it may keep state across events): each event is fed
   *  in order; it answers "done" when the reply is complete and throws AttemptFailure for a
   *  malformed chunk or an error the server reports in the stream. */
  openStream(acc: Assembler): (ev: SseEvent) => "more" | "done";
  /** Feed a whole (non-streamed) reply. */
  onWhole(json: unknown, acc: Assembler): void;
}

export function malformed(detail: string): AttemptFailure {
  return new AttemptFailure("protocol", `the API sent a malformed chunk (${detail})`, false);
}

/** An error the server reported inside a 200 response: retryable while nothing has arrived. */
export function streamError(message: string): AttemptFailure {
  return new AttemptFailure("server", `the API reported an error mid-stream: ${message}`, true);
}

export function parseJson(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    throw malformed(`not JSON: ${data.slice(0, 80)}`);
  }
}


export function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

const FINISH: Readonly<Record<string, FinishReason>> = {
  stop: "stop",
  length: "length",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
  content_filter: "content_filter",
  insufficient_system_resource: "insufficient_system_resource",
};

/** An OpenAI-protocol finish_reason; an unknown one counts as a plain stop. */
export function finishOf(v: unknown): FinishReason | null {
  if (typeof v !== "string" || !v) return null;
  return FINISH[v] ?? "stop";
}

export function usage(prompt: number, completion: number, hit: number, miss: number, reasoning: number): Usage {
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    prompt_cache_hit_tokens: hit,
    prompt_cache_miss_tokens: miss,
    reasoning_tokens: reasoning,
  };
}
