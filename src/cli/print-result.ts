// The result object of `deepcode -p --output-format json` (and the last line of stream-json), in
// Claude Code's headless shape, so tools written for Claude Code read it unchanged:
//
//   { type: "result", subtype: "success" | "error_max_turns" | "error_during_execution",
//     is_error, result, session_id, num_turns, duration_ms, duration_api_ms, total_cost_usd,
//     usage: { input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens,
//              …DeepSeek's own: prompt_tokens, completion_tokens, prompt_cache_hit_tokens,
//              prompt_cache_miss_tokens, reasoning_tokens },
//     permission_denials: [{ tool_name, tool_use_id, tool_input, reason }],
//     stop_reason (deepcode's: completed, max_turns, …), errors? (when is_error), uuid }
//
// Usage names mapped from DeepSeek's: input_tokens are the prompt tokens billed as cache misses
// (Anthropic counts cache reads apart from input), cache_read_input_tokens the cache hits, and
// cache_creation_input_tokens 0 (DeepSeek does not bill writing the cache). `result` is the
// final assistant message: the text after the turn's last tool round.

import { randomUUID } from "node:crypto";
import type { JsonValue, StopReason, StreamEvent, Usage } from "../contract/index.js";
import { ZERO_USAGE } from "../contract/index.js";
import { roundCost } from "../core/cost/index.js";

export type ResultSubtype = "success" | "error_max_turns" | "error_during_execution";

export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: Record<string, JsonValue>;
  reason: string;
}

export interface ClaudeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export interface ResultObject {
  type: "result";
  subtype: ResultSubtype;
  is_error: boolean;
  result: string;
  session_id: string;
  num_turns: number;
  duration_ms: number;
  duration_api_ms: number;
  total_cost_usd: number;
  usage: ClaudeUsage & Usage;
  permission_denials: PermissionDenial[];
  stop_reason: StopReason;
  errors?: string[];
  uuid: string;
}

/** Claude Code's usage names for a DeepSeek usage, beside DeepSeek's own. */
export function claudeUsage(u: Usage): ClaudeUsage & Usage {
  return {
    input_tokens: u.prompt_cache_miss_tokens,
    output_tokens: u.completion_tokens,
    cache_read_input_tokens: u.prompt_cache_hit_tokens,
    cache_creation_input_tokens: 0,
    prompt_tokens: u.prompt_tokens,
    completion_tokens: u.completion_tokens,
    prompt_cache_hit_tokens: u.prompt_cache_hit_tokens,
    prompt_cache_miss_tokens: u.prompt_cache_miss_tokens,
    reasoning_tokens: u.reasoning_tokens,
  };
}

export function subtypeOf(stop: StopReason): ResultSubtype {
  return stop === "completed" ? "success" : stop === "max_turns" ? "error_max_turns" : "error_during_execution";
}

/** What one turn's events add up to, for its result object. */
export class TurnFacts {
  readonly denials: PermissionDenial[] = [];
  private readonly inputs = new Map<string, Record<string, JsonValue>>();
  /** Text since the last tool round: the final assistant message once the turn ends. */
  private finalText: string[] = [];
  private stepText = "";

  handle(ev: StreamEvent): void {
    switch (ev.type) {
      case "model.delta":
        if (ev.delta.kind === "content") this.stepText += ev.delta.text;
        return;
      case "model.response": {
        // The logged answer when the engine says it (a repair may have taken text out of what
        // streamed: reasoning before </think>, a degenerate reply); else what streamed.
        const text = ev.text ?? this.stepText;
        if (text) this.finalText.push(text);
        this.stepText = "";
        return;
      }
      case "tool.start":
        this.finalText = []; // text before a tool round introduced it; it is not the answer
        this.inputs.set(ev.callId, ev.input as Record<string, JsonValue>);
        return;
      case "tool.end": {
        const meta = ev.output.meta;
        if (meta?.outcome === "denied") {
          this.denials.push({ tool_name: ev.tool, tool_use_id: ev.callId, tool_input: this.inputs.get(ev.callId) ?? {}, reason: typeof meta.reason === "string" ? meta.reason : "denied" });
        }
        return;
      }
      default:
        return;
    }
  }

  /** The final assistant message (what arrived of it, for a turn cut short). */
  get result(): string {
    return [...this.finalText, ...(this.stepText ? [this.stepText] : [])].join("\n\n");
  }
}

export interface ResultInput {
  final: Extract<StreamEvent, { type: "turn.complete" }>;
  facts: TurnFacts;
  sessionId: string;
  durationMs: number;
  apiMs: number;
}

export function resultObject(r: ResultInput): ResultObject {
  const { final } = r;
  const out: ResultObject = {
    type: "result",
    subtype: subtypeOf(final.stopReason),
    is_error: final.stopReason !== "completed",
    result: r.facts.result,
    session_id: r.sessionId,
    num_turns: final.steps,
    duration_ms: r.durationMs,
    duration_api_ms: r.apiMs,
    total_cost_usd: roundCost(final.costUsd),
    usage: claudeUsage(final.usage),
    permission_denials: r.facts.denials,
    stop_reason: final.stopReason,
    uuid: randomUUID(),
  };
  if (final.stopReason !== "completed") out.errors = [final.error ?? final.stopReason];
  return out;
}

/** The result object of a run that failed before any request (no key, a broken settings file):
 *  json and stream-json still print exactly one result, so a script reads why. */
export function failedBeforeStart(message: string, durationMs: number, sessionId = ""): ResultObject {
  return {
    type: "result",
    subtype: "error_during_execution",
    is_error: true,
    result: "",
    session_id: sessionId,
    num_turns: 0,
    duration_ms: durationMs,
    duration_api_ms: 0,
    total_cost_usd: 0,
    usage: claudeUsage({ ...ZERO_USAGE }),
    permission_denials: [],
    stop_reason: "error",
    errors: [message],
    uuid: randomUUID(),
  };
}
