// One user turn: model rounds until the model stops asking for tools.
//
// Loop 1 (here) — model rounds. Exit: a reply without tool calls (completed), or a stop
//   condition: max rounds, output cut 3 times (output_truncated), content filter, interrupt,
//   an API error. Every exit returns exactly one stop reason; the caller emits turn.complete.
// Loop 2 (the REPL / -p driver) — turns, until the user stops.
// Invariants: every tool call in the log gets a result (no orphaned call can reach the API);
// what arrived before a failure stays in the log; errors are data, never an unwinding.

import type { AssistantMessage, StopReason, StreamEvent, ToolCall, TurnProfile, Usage } from "../../contract/index.js";
import { ZERO_USAGE, addUsage } from "../../contract/index.js";
import type { Chain } from "../chain.js";
import type { CacheFirstContext } from "../context/context.js";
import { interrupted, runCalls, type CallEnv } from "./tools.js";

export interface TurnDeps {
  chain: Chain;
  context: CacheFirstContext;
  sessionId: string;
  turn: number;
  profile: TurnProfile;
  maxSteps: number;
  concurrency: number;
  signal: AbortSignal;
  callEnv: Omit<CallEnv, "step" | "cutOff">;
  emit(e: StreamEvent): void;
  /** Record a request's usage; resolves to its exact cost in USD. */
  onUsage(step: number, usage: Usage): Promise<number>;
  beforeStep(step: number): Promise<void>;
}

export interface TurnEnd {
  stopReason: StopReason;
  text: string;
  steps: number;
  usage: Usage;
  costUsd: number;
  error?: string;
}

const MAX_CONTINUATIONS = 3;

export async function runTurn(d: TurnDeps): Promise<TurnEnd> {
  let usage: Usage = { ...ZERO_USAGE };
  let costUsd = 0;
  let text = "";
  let continuations = 0;
  let nudged = false;
  let step = 0;
  let rounds = 0; // model requests made: what `num_turns` reports
  const end = (stopReason: StopReason, error?: string): TurnEnd => ({ stopReason, text, steps: rounds, usage, costUsd, error });

  for (step = 1; ; step++) {
    if (d.signal.aborted) return end("interrupted");
    if (step > d.maxSteps) return end("max_turns", `stopped after ${d.maxSteps} model rounds`);
    await d.beforeStep(step);
    await d.chain.dispatch({ type: "turn.step", sessionId: d.sessionId, turn: d.turn, step });
    const built = await d.chain.dispatch({ type: "context.build", sessionId: d.sessionId, model: d.profile.model, step });
    let response;
    rounds++;
    try {
      response = await d.chain.dispatch({
        type: "model.request",
        request: built.request,
        signal: d.signal,
        // A failing model.stream hook is reported by the chain; a delta it loses is only display.
        onDelta: (delta) => void d.chain.dispatch({ type: "model.stream", step, delta }).catch(() => undefined),
      });
    } catch (err) {
      return end(d.signal.aborted ? "interrupted" : "error", err instanceof Error ? err.message : String(err));
    }
    response = await d.chain.dispatch({ type: "model.response", step, response, toolNames: d.callEnv.registry.list().map((t) => t.spec.name) });
    const stepCost = response.usage ? await d.onUsage(step, response.usage) : 0;
    if (response.usage) {
      usage = addUsage(usage, response.usage);
      costUsd += stepCost;
    }
    const message = logged(response.message, d.context.keepsReasoning());
    const calls = message.tool_calls ?? [];
    if (message.content || calls.length || !response.incomplete) d.context.append(message);
    if (message.content) text += (text ? "\n\n" : "") + message.content;
    d.emit({ type: "model.response", step, finishReason: response.finishReason, usage: response.usage, incomplete: response.incomplete?.reason, costUsd: stepCost });

    if (response.incomplete) {
      for (const c of calls) d.context.appendToolResult(c.id, interrupted(c).output.content);
      return end(d.signal.aborted ? "interrupted" : "error", `the reply ended early: ${response.incomplete.reason}`);
    }
    if (response.finishReason === "content_filter") return end("content_filter", "the API's content filter stopped the reply");
    if (response.finishReason === "insufficient_system_resource") return end("error", "the API ran out of resources for this reply; try again");
    if (calls.length === 0) {
      if (response.finishReason === "length") {
        if (continuations++ >= MAX_CONTINUATIONS) return end("output_truncated", `the reply hit the output limit ${MAX_CONTINUATIONS + 1} times`);
        d.emit({ type: "notice", level: "info", code: "continuation", message: `reply cut by the output limit; continuing (${continuations}/${MAX_CONTINUATIONS})` });
        d.context.append({ role: "user", content: "[deepcode] Your reply was cut off by the output limit. Continue exactly where you stopped." });
        continue;
      }
      if (!message.content && step > 1 && !nudged) {
        nudged = true; // an empty reply after tool results: a known quirk; ask once
        d.emit({ type: "notice", level: "info", code: "empty-reply", message: "the model sent an empty reply; asking it to continue" });
        d.context.append({ role: "user", content: "[deepcode] Your last reply was empty. Continue with the task, or give your final answer." });
        continue;
      }
      return end("completed");
    }
    const outcomes = await runCalls(
      calls,
      { ...d.callEnv, step, cutOff: response.finishReason === "length" },
      d.concurrency,
      (c: ToolCall, tool, input) => d.emit({ type: "tool.start", step, callId: c.id, tool, input }),
      (o) => d.emit({ type: "tool.end", step, callId: o.call.id, tool: o.tool, output: o.output, durationMs: o.durationMs }),
    );
    for (const o of outcomes) d.context.appendToolResult(o.call.id, o.output.content);
  }
}

/** The assistant message as the log keeps it: reasoning kept (as a string) only where the
 *  model needs it back, tool calls without an id or name dropped (they cannot be answered). */
function logged(m: AssistantMessage, keepReasoning: boolean): AssistantMessage {
  const calls = (m.tool_calls ?? []).filter((c) => c.id && c.function?.name);
  const out: AssistantMessage = { role: "assistant", content: m.content ?? (calls.length ? null : "") };
  if (keepReasoning) out.reasoning_content = m.reasoning_content ?? "";
  if (calls.length) out.tool_calls = calls.map((c) => ({ id: c.id, type: "function", function: { name: c.function.name, arguments: c.function.arguments ?? "" } }));
  return out;
}
