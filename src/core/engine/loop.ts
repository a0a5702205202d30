// One user turn: two loops, both here.
//
// Loop 1 (runRounds) — model rounds: request → tool calls → request… Exit: a reply without tool
//   calls that the ending judge accepts (completed; an empty or unfinished one is reminded once,
//   then empty_reply/unfinished_reply), or a stop condition: max rounds, output cut 3 times
//   (output_truncated), content filter, interrupt, an API error, a call repeated after the
//   call-storm breaker (repeated_calls), a reply degenerated into repetition twice
//   (degenerate_output; never logged). A request over the context window is asked again once
//   with the turn's large messages bounded (context-limit.ts). Every exit returns exactly one
//   stop reason.
// Loop 2 (runTurn) — Stop-hook continuations around loop 1: a completed turn is announced
//   (turn.complete to the chain), and a hook may answer `continueWith` (Claude Code's
//   `decision: "block"`): its reason goes in as a user message and loop 1 runs again. Exit: loop 1
//   ended other than completed (not announced: the turn announces it); the hooks ask nothing
//   more; or they asked MAX_STOP_CONTINUATIONS (100) times already (a notice naming the ceiling).
// Around both: the turn (turn.ts: turn.start, the prompt, the turn's bill, the one turn.complete)
// and the driver (the REPL / -p) — turns, until the user stops.
// Invariants: every tool call in the log gets a result (no orphaned call can reach the API), and
// what is logged is what the API accepts back (prepareReply: unique ids, JSON arguments);
// what arrived before a failure stays in the log; errors are data, never an unwinding.

import type { AgentIdentity, BilledResponse, StopReason, StreamEvent, ToolCall, ToolOutput, TurnProfile, Usage } from "../../contract/index.js";
import { ZERO_USAGE, addUsage, modelNotServed } from "../../contract/index.js";
import type { Chain } from "../chain.js";
import type { CacheFirstContext } from "../context/context.js";
import { STORM_BY, STORM_STOP_BY } from "../repair/call-storm.js";
import { EndingJudge } from "../repair/endings.js";
import { degenerateReply } from "../repair/repetition.js";
import { callIdsOf } from "../session/ids.js";
import type { SessionRecord } from "../session/store.js";
import { isContextLimit } from "../context/context-limit.js";
import { closeFailedTurn, fitContext, type FitTried } from "./recover.js";
import { prepareReply } from "./reply.js";
import { interrupted, runCalls, type CallEnv } from "./tools.js";

export interface TurnDeps {
  chain: Chain;
  context: CacheFirstContext;
  sessionId: string;
  turn: number;
  profile: TurnProfile;
  /** A subagent's identity, carried on its requests. */
  who: { agent?: AgentIdentity };
  maxSteps: number;
  concurrency: number;
  signal: AbortSignal;
  callEnv: Omit<CallEnv, "step" | "cutOff">;
  emit(e: StreamEvent): void;
  /** A round's reply was billed (the model.request core priced it): book it in the session. */
  onBilled(step: number, model: string, billed: NonNullable<BilledResponse["billed"]>): void;
  /** The session's clock (its requests are priced at it). */
  now(): Date;
  /** Runs one of the session's own model requests (the session tells them from others'). */
  ownRequest<T>(request: () => Promise<T>): Promise<T>;
  beforeStep(step: number): Promise<void>;
  /** Keep a record in the session file that is not part of the log (raw arguments). */
  record(r: SessionRecord): void;
  /** A served model to go on with when the API answers that it does not serve `model` (a
   *  resumed session's model it has retired), switched to for the session; none: the error
   *  stands. */
  switchUnserved?(model: string): string | undefined;
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
const MAX_DEGENERATE_RETRIES = 1;
/** The ceiling on Stop-hook continuations in one turn. A loop a hook keeps (ralph-loop's
 *  `--max-iterations`, a completion promise) ends at its own limit below this; the budget gate
 *  (the cost engine's turn.complete) ends it sooner when the budget is spent. */
export const MAX_STOP_CONTINUATIONS = 100;

export interface StopDeps extends TurnDeps {
  /** Announce the turn as completed (turn.complete to the chain): what its hooks answer. */
  announce(end: TurnEnd): Promise<{ continueWith?: string } | void>;
}

/** Loop 2: the turn's rounds (loop 1), continued while a Stop hook asks. `announced`: the
 *  chain has had turn.complete for this end (only a completed end is announced here). */
export async function runTurn(d: StopDeps): Promise<{ end: TurnEnd; announced: boolean }> {
  let end = await runRounds(d);
  for (let again = 0; end.stopReason === "completed"; again++) {
    const after = await d.announce(end);
    if (!after?.continueWith) return { end, announced: true }; // exit: nothing more asked
    if (again === MAX_STOP_CONTINUATIONS) {
      const message = `a Stop hook asked to continue the turn a ${MAX_STOP_CONTINUATIONS + 1}st time; the turn ends here (deepcode's ceiling: ${MAX_STOP_CONTINUATIONS} continuations a turn)`;
      d.emit({ type: "notice", level: "warn", code: "stop-hook", message });
      return { end, announced: true }; // exit: asked too often
    }
    d.context.append({ role: "user", content: `[deepcode] A Stop hook asks you to continue: ${after.continueWith}` });
    const more = await runRounds(d);
    end = { ...more, steps: end.steps + more.steps, usage: addUsage(end.usage, more.usage), costUsd: end.costUsd + more.costUsd, text: [end.text, more.text].filter(Boolean).join("\n\n") };
  }
  return { end, announced: false }; // exit: loop 1 stopped other than completed
}

/** Loop 1: model rounds until the model stops asking for tools (exits: the header). */
async function runRounds(d: TurnDeps): Promise<TurnEnd> {
  let usage: Usage = { ...ZERO_USAGE };
  let costUsd = 0;
  let text = "";
  const endings = new EndingJudge(MAX_CONTINUATIONS);
  const loop = { requests: 0, costUsd: 0 };
  let step = 0;
  let rounds = 0; // model requests made: what `num_turns` reports
  let degenerateRetries = 0;
  const tried: FitTried = { bounded: false, compacted: false };
  const end = (stopReason: StopReason, error?: string): TurnEnd => {
    if (stopReason !== "completed") closeFailedTurn(d, stopReason, error);
    return { stopReason, text, steps: rounds, usage, costUsd, error, ...(loop.requests ? { loop } : {}) };
  };

  for (step = 1; ; step++) {
    if (d.signal.aborted) return end("interrupted");
    if (step > d.maxSteps) return end("max_turns", `stopped after ${d.maxSteps} model rounds`);
    await d.beforeStep(step);
    await d.chain.dispatch({ type: "turn.step", sessionId: d.sessionId, turn: d.turn, step });
    const built = await d.chain.dispatch({ type: "context.build", sessionId: d.sessionId, model: d.profile.model, step });
    let response;
    rounds++;
    try {
      response = await d.ownRequest(() => d.chain.dispatch({
        type: "model.request",
        sessionId: d.sessionId,
        turn: d.turn,
        step,
        ...(d.profile.tier !== undefined ? { tier: d.profile.tier } : {}),
        ...d.who,
        at: d.now().toISOString(),
        request: built.request,
        signal: d.signal,
        // A failing model.stream hook is reported by the chain; a delta it loses is only display.
        onDelta: (delta) => void d.chain.dispatch({ type: "model.stream", sessionId: d.sessionId, step, delta }).catch(() => undefined),
      }));
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      if (!d.signal.aborted && isContextLimit(why) && (await fitContext(d, tried))) continue;
      const to = !d.signal.aborted && modelNotServed(why) ? d.switchUnserved?.(d.profile.model) : undefined;
      if (to !== undefined) {
        d.emit({ type: "notice", level: "warn", code: "model-switched", message: `the API no longer serves ${d.profile.model}, the model this session was using; it continues on ${to} (the default model). -m NAME chooses another` });
        d.profile = { ...d.profile, model: to };
        continue;
      }
      return end(d.signal.aborted ? "interrupted" : "error", why);
    }
    // Billed by the model.request core; a reply without usage at an estimate, booked as such, and said.
    const billed = response.billed;
    const stepUsage = billed?.usage;
    const stepCost = billed?.costUsd ?? 0;
    if (billed) {
      d.onBilled(step, built.request.model, billed);
      usage = addUsage(usage, billed.usage);
      costUsd += stepCost;
    }
    const estimated = billed?.estimated ? billed.usage : undefined;
    // Judged as it arrived, before any repair rewrites it (a repeated markup token is residue
    // to the repairs, which would leave an empty reply that hides the loop).
    const looped = degenerateReply(response);
    if (!looped) response = await d.chain.dispatch({ type: "model.response", sessionId: d.sessionId, step, response, toolNames: d.callEnv.registry.list().map((t) => t.spec.name) });
    if (response.usageNote) d.emit({ type: "notice", level: "warn", code: "usage-repaired", message: response.usageNote });
    if (estimated) {
      const cost = stepCost > 0 ? ` ≈$${stepCost.toFixed(4)}` : "";
      d.emit({ type: "notice", level: "warn", code: "usage-estimated", message: `the API sent no token usage for this reply; deepcode estimated it from the text (≈${estimated.prompt_tokens} prompt, ≈${estimated.completion_tokens} completion tokens${cost}) and booked it in the usage ledger marked as estimated` });
    }
    if (looped) {
      // Kept out of the log and the answer: logged, it would be re-sent with every request.
      d.emit({ type: "model.response", step, finishReason: response.finishReason, usage: stepUsage, incomplete: response.incomplete?.reason, costUsd: stepCost, text: "", dropped: looped });
      if (degenerateRetries++ < MAX_DEGENERATE_RETRIES) {
        d.emit({ type: "notice", level: "warn", code: "degenerate-output", message: `${looped}; the reply was dropped, asking again` });
        continue;
      }
      return end("degenerate_output", `${looped}; the reply was dropped, again after a retry`);
    }
    const env: CallEnv = { ...d.callEnv, step, cutOff: response.finishReason === "length" };
    const note = (code: string, message: string): void => d.emit({ type: "notice", level: "warn", code, message });
    const keepRaw = (callId: string, raw: string): void => d.record({ t: "raw-arguments", callId, raw });
    const { message, ready } = await prepareReply(response.message, env, { keepReasoning: d.context.keepsReasoning(), taken: callIdsOf(d.context.messages), incomplete: !!response.incomplete, note, keepRaw });
    if (message.content || ready.length || !response.incomplete) d.context.append(message);
    if (message.content?.trim()) text += (text ? "\n\n" : "") + message.content;
    d.emit({ type: "model.response", step, finishReason: response.finishReason, usage: response.usage, incomplete: response.incomplete?.reason, costUsd: stepCost, text: message.content ?? "" });

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
    const results = new ResultsInOrder(ready.map((r) => r.call.id), d);
    const outcomes = await runCalls(
      ready,
      env,
      d.concurrency,
      (c: ToolCall, tool, input) => d.emit({ type: "tool.start", step, callId: c.id, tool, input }),
      (o) => {
        results.land(o.call.id, o.output);
        d.emit({ type: "tool.end", step, callId: o.call.id, tool: o.tool, output: o.output, durationMs: o.durationMs });
      },
    );
    for (const o of outcomes) results.land(o.call.id, o.output); // each lands once: a no-op for those landed above
    endings.progressed();
    const storm = outcomes.filter((o) => String(o.output.meta?.by ?? "").startsWith(STORM_BY));
    if (storm.length) Object.assign(loop, { requests: loop.requests + 1, costUsd: loop.costUsd + stepCost });
    if (storm.some((o) => o.output.meta?.by === STORM_STOP_BY)) return end("repeated_calls", `the model kept repeating a call that could not change anything (${loop.requests} rounds of repeats)`);
  }
}

/** Each call's result reaches the session file when the call ends, and the log in the order
 *  the model declared the calls (the order the next request sends them — the cache invariant):
 *  a result that is next in order is appended to the log at once; one that finished before an
 *  earlier call is kept as a `result` record until its turn (a kill -9 meanwhile leaves it for
 *  the resume, answerOrphans). */
class ResultsInOrder {
  private readonly done = new Map<string, ToolOutput>();
  private next = 0;

  constructor(
    private readonly order: readonly string[],
    private readonly d: Pick<TurnDeps, "context" | "record">,
  ) {}

  land(callId: string, output: ToolOutput): void {
    if (this.done.has(callId) || this.order.indexOf(callId) < this.next) return;
    this.done.set(callId, output);
    if (this.order[this.next] !== callId) this.d.record({ t: "result", callId, content: this.d.context.boundResult(output.content, output.maxBytes) });
    while (this.next < this.order.length && this.done.has(this.order[this.next])) {
      const id = this.order[this.next++];
      const o = this.done.get(id)!;
      this.d.context.appendToolResult(id, o.content, o.maxBytes);
    }
  }
}
