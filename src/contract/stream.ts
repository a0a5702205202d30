// What `engine.submit(prompt)` yields: a typed stream the CLI renders and `--output-format
// stream-json` prints one per line. Every turn ends with exactly one `turn.complete`.

import type { JsonValue } from "./wire.js";
import type { ModelDelta, Usage, FinishReason } from "./wire.js";
import type { ToolOutput } from "./tool.js";

export const STOP_REASONS = [
  "completed",
  "max_turns",
  "output_truncated",
  "content_filter",
  "interrupted",
  "error",
  "budget_exhausted",
  /** The model sent no answer (empty, whitespace, or reasoning only), again after a reminder. */
  "empty_reply",
  /** The answer stopped where a tool call should follow ("Now let me read the file:"), again after a reminder. */
  "unfinished_reply",
  /** The model kept repeating a call the call-storm breaker had already suppressed. */
  "repeated_calls",
  /** The model's reply degenerated into one unit repeated over and over, again after a retry. */
  "degenerate_output",
] as const;
export type StopReason = (typeof STOP_REASONS)[number];

export type NoticeLevel = "info" | "warn" | "error";

export type StreamEvent =
  | { type: "turn.start"; sessionId: string; turn: number; prompt: string }
  | { type: "model.delta"; step: number; delta: ModelDelta }
  | {
      type: "model.response";
      step: number;
      finishReason: FinishReason | null;
      usage?: Usage;
      incomplete?: string;
      costUsd?: number;
      /** The reply's answer text as it entered the log, after repairs (reasoning moved out of
       *  it, markup taken as calls); "" for a reply kept out of the log. The streamed deltas
       *  may have shown more. */
      text?: string;
      /** Why the whole reply was kept out of the log (degenerate repetition), for a display
       *  that streamed it: it says what it showed that the session does not hold. */
      dropped?: string;
    }
  | { type: "tool.start"; step: number; callId: string; tool: string; input: JsonValue }
  /** A running call's progress (ToolContext.progress), for its line on screen. */
  | { type: "tool.progress"; callId: string; message?: string; progress?: number; total?: number; output?: string }
  | { type: "tool.end"; step: number; callId: string; tool: string; output: ToolOutput; durationMs: number }
  | { type: "repair"; kind: string; detail: string }
  | { type: "notice"; level: NoticeLevel; code: string; message: string }
  | {
      type: "turn.complete";
      sessionId: string;
      turn: number;
      stopReason: StopReason;
      /** The assistant's final text for this turn (all steps' text, in order). */
      text: string;
      steps: number;
      usage: Usage;
      costUsd: number;
      durationMs: number;
      error?: string;
    };
