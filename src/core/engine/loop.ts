// One user turn: model rounds until the model stops asking for tools.
//
// Loop 1 (here) — model rounds. Exit: a reply without tool calls that the ending judge accepts
//   (completed; an empty or unfinished one is reminded once, then empty_reply/unfinished_reply),
//   or a stop condition: max rounds, output cut 3 times (output_truncated), content filter,
//   interrupt, an API error, a call repeated after the call-storm breaker (repeated_calls).
//   Every exit returns exactly one stop reason; the caller emits turn.complete.
// Loop 2 (the REPL / -p driver) — turns, until the user stops.
// Invariants: every tool call in the log gets a result (no orphaned call can reach the API), and
// what is logged is what the API accepts back (prepareReply: unique ids, JSON arguments);
// what arrived before a failure stays in the log; errors are data, never an unwinding.

import type { StopReason, StreamEvent, ToolCall, TurnProfile, Usage } from "../../contract/index.js";
import { ZERO_USAGE, addUsage } from "../../contract/index.js";
import type { Chain } from "../chain.js";
import type { CacheFirstContext } from "../context/context.js";
import { STORM_BY, STORM_STOP_BY } from "../repair/call-storm.js";
import { EndingJudge } from "../repair/endings.js";
import { callIdsOf } from "../session/ids.js";
import type { SessionRecord } from "../session/store.js";
import { prepareReply } from "./reply.js";
import { interrupted, runCalls, type CallEnv } from "./tools.js";
import { estimateUsage, replyArrived } from "./usage-estimate.js";

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
  /** `estimated`: the API sent no usage; this one is deepcode's estimate (usage-estimate.ts). */
  onUsage(step: number, usage: Usage, estimated?: boolean): Promise<number>;
  beforeStep(step: number): Promise<void>;
  /** Keep a record in the session file that is not part of the log (raw arguments). */
  record(r: SessionRecord): void;
}

export interface TurnEnd {
  stopReason: StopReason;
  text: string;
  steps: number;
  usage: Usage;
  costUsd: number;
  error?: string;
  /** Rounds whose calls the call-storm breaker suppressed, and what those requests cost. */
  loop?: { requests: number; costUsd: number };
}

const MAX_CONTINUATIONS = 3;

export async function runTurn(d: TurnDeps): Promise<TurnEnd> {
  let usage: Usage = { ...ZERO_USAGE };
  let costUsd = 0;
  let text = "";
  const endings = new EndingJudge(MAX_CONTINUATIONS);
  const loop = { requests: 0, costUsd: 0 };
  let step = 0;
  let rounds = 0; // model requests made: what `num_turns` reports
  const end = (stopReason: StopReason, error?: string): TurnEnd => ({ stopReason, text, steps: rounds, usage, costUsd, error, ...(loop.requests ? { loop } : {}) });

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
        onDelta: (delta) => void d.chain.dispatch({ type: "model.stream", sessionId: d.sessionId, step, delta }).catch(() => undefined),
      });
    } catch (err) {
      return end(d.signal.aborted ? "interrupted" : "error", err instanceof Error ? err.message : String(err));
    }
    response = await d.chain.dispatch({ type: "model.response", sessionId: d.sessionId, step, response, toolNames: d.callEnv.registry.list().map((t) => t.spec.name) });
    // A reply without usage is billed all the same: estimated, booked as estimated, and said.
    const estimated = !response.usage && replyArrived(response) ? estimateUsage(built.request, response) : undefined;
    const stepUsage = response.usage ?? estimated;
    const stepCost = stepUsage ? await d.onUsage(step, stepUsage, estimated !== undefined) : 0;
    if (stepUsage) {
      usage = addUsage(usage, stepUsage);
      costUsd += stepCost;
    }
    if (estimated) {
      const cost = stepCost > 0 ? ` ≈$${stepCost.toFixed(4)}` : "";
      d.emit({ type: "notice", level: "warn", code: "usage-estimated", message: `the API sent no token usage for this reply; deepcode estimated it from the text (≈${estimated.prompt_tokens} prompt, ≈${estimated.completion_tokens} completion tokens${cost}) and booked it in the usage ledger marked as estimated` });
    }
    const env: CallEnv = { ...d.callEnv, step, cutOff: response.finishReason === "length" };
    const note = (code: string, message: string): void => d.emit({ type: "notice", level: "warn", code, message });
    const keepRaw = (callId: string, raw: string): void => d.record({ t: "raw-arguments", callId, raw });
    const { message, ready } = await prepareReply(response.message, env, { keepReasoning: d.context.keepsReasoning(), taken: callIdsOf(d.context.messages), incomplete: !!response.incomplete, note, keepRaw });
    if (message.content || ready.length || !response.incomplete) d.context.append(message);
    if (message.content?.trim()) text += (text ? "\n\n" : "") + message.content;
    d.emit({ type: "model.response", step, finishReason: response.finishReason, usage: response.usage, incomplete: response.incomplete?.reason, costUsd: stepCost });

    if (response.incomplete) {
      for (const r of ready) d.context.appendToolResult(r.call.id, interrupted(r.call).output.content);
      return end(d.signal.aborted ? "interrupted" : "error", `the reply ended early: ${response.incomplete.reason}`);
    }
    if (response.finishReason === "content_filter") return end("content_filter", "the API's content filter stopped the reply");
    if (response.finishReason === "insufficient_system_resource") return end("error", "the API ran out of resources for this reply; try again");
    if (ready.length === 0) {
      const ending = endings.judge(response.finishReason, message);
      if (ending.kind === "complete") return end("completed");
      if (ending.kind === "stop") return end(ending.reason, ending.error);
      d.emit({ type: "notice", level: "info", code: ending.code, message: ending.notice });
      d.context.append({ role: "user", content: ending.prompt });
      continue;
    }
    const outcomes = await runCalls(
      ready,
      env,
      d.concurrency,
      (c: ToolCall, tool, input) => d.emit({ type: "tool.start", step, callId: c.id, tool, input }),
      (o) => d.emit({ type: "tool.end", step, callId: o.call.id, tool: o.tool, output: o.output, durationMs: o.durationMs }),
    );
    for (const o of outcomes) d.context.appendToolResult(o.call.id, o.output.content);
    endings.progressed();
    const storm = outcomes.filter((o) => String(o.output.meta?.by ?? "").startsWith(STORM_BY));
    if (storm.length) Object.assign(loop, { requests: loop.requests + 1, costUsd: loop.costUsd + stepCost });
    if (storm.some((o) => o.output.meta?.by === STORM_STOP_BY)) return end("repeated_calls", `the model kept repeating a call that could not change anything (${loop.requests} rounds of repeats)`);
  }
}
