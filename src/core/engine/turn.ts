// One turn of a session: what lives from `submit` until its turn.complete — its number, prompt,
// signal and profile, its stream of events, and its bill (its rounds, plus what was billed to
// it: a compaction's digest, a subagent's run). The session (engine.ts) outlives it and owns
// the context, the session file and the prefix; the two loops of the turn are in loop.ts.
// turn.complete reaches the chain from `announce` and the stream from `complete`, nowhere else.

import type { AgentIdentity, BilledResponse, CompactionResult, JsonValue, StreamEvent, TurnProfile, Usage } from "../../contract/index.js";
import { ZERO_USAGE, addUsage } from "../../contract/index.js";
import type { Chain } from "../chain.js";
import type { CacheFirstContext } from "../context/context.js";
import type { SessionRecord } from "../session/store.js";
import type { SessionBilling } from "./billing.js";
import { formatMoney, plural } from "../cost/index.js";
import { Channel } from "./channel.js";
import { CompactionBreakers, DEFAULT_BETWEEN_TURNS, DEFAULT_THRESHOLD } from "./compaction.js";
import { runTurn, type TurnEnd } from "./loop.js";
import { appendTurnStart } from "./tail.js";
import type { CallEnv } from "./tools.js";

type Complete = Extract<StreamEvent, { type: "turn.complete" }>;
type Billed = NonNullable<BilledResponse["billed"]>;

/** What a turn needs of its session, for the turn's whole length. */
export interface TurnHost {
  chain: Chain;
  sessionId: string;
  who: { agent?: AgentIdentity };
  context: CacheFirstContext;
  /** The session's profile as the turn starts (turn.start hooks may give the turn another). */
  profile: TurnProfile;
  root: string;
  language?: string;
  /** A subagent's turn: its prompt is the calling model's, so no prompt.submit. */
  agent: boolean;
  resumed: boolean;
  maxSteps: number;
  concurrency: number;
  callEnv: Omit<CallEnv, "step" | "cutOff" | "signal" | "askLock">;
  compaction: { threshold?: number; betweenTurns?: number; window?: number };
  breakers: CompactionBreakers;
  /** Fix a new session's prefix before its first request (nothing when already fixed). */
  fixPrefix(): Promise<void>;
  /** The session's account: books what the model.request core billed; tells its own requests. */
  billing: Pick<SessionBilling, "record" | "ownRequest">;
  compact(instructions: undefined, auto: true): Promise<CompactionResult>;
  record(r: SessionRecord): void;
  /** The turn ended: where the log stands is what a rewind to it needs. */
  mark(turn: number): void;
  /** See TurnDeps.switchUnserved (loop.ts). */
  switchUnserved?(model: string): string | undefined;
  now(): Date;
}

export class Turn {
  /** The profile the turn runs with (the session's until turn.start answers). */
  profile: TurnProfile;
  readonly events = new Channel<StreamEvent>();
  private extra = { usage: { ...ZERO_USAGE } as Usage, costUsd: 0 };
  private readonly started = performance.now();
  private firstRound = true;
  private completed = false;

  constructor(
    private readonly h: TurnHost,
    readonly turn: number,
    private readonly prompt: string,
    readonly signal: AbortSignal,
  ) {
    this.profile = h.profile;
  }

  /** An event for the turn's stream; a tool's end is also kept in the session file. */
  emit(e: StreamEvent): void {
    if (e.type === "tool.end") this.h.record({ t: "outcome", callId: e.callId, tool: e.tool, outcome: outcomeOf(e.output), summary: e.output.summary ?? e.tool });
    this.events.push(e);
  }

  /** Add a request made outside the turn's own rounds to what the turn cost. */
  bill(usage: Usage, costUsd: number): void {
    this.extra = { usage: addUsage(this.extra.usage, usage), costUsd: this.extra.costUsd + costUsd };
  }

  /** Run the turn; the stream ends with exactly one turn.complete whatever happens. */
  async run(): Promise<void> {
    try {
      await this.play();
    } catch (err) {
      this.complete(completeEvent(this.h.sessionId, this.turn, emptyEnd(err), 0));
    }
  }

  private async play(): Promise<void> {
    const { h, turn, prompt } = this;
    const begin = await h.chain.dispatch({ type: "turn.start", sessionId: h.sessionId, turn, prompt, profile: h.profile, ...h.who });
    this.profile = begin?.profile ?? h.profile;
    this.emit({ type: "turn.start", sessionId: h.sessionId, turn, prompt });
    for (const message of begin?.notices ?? []) this.emit({ type: "notice", level: "warn", code: "turn-start", message });
    if (begin?.refuse) return this.finish({ ...emptyEnd(begin.refuse.message), stopReason: begin.refuse.stopReason });
    await h.fixPrefix();
    const submitted = h.agent ? { text: prompt } : await h.chain.dispatch({ type: "prompt.submit", sessionId: h.sessionId, text: prompt });
    if (submitted.blocked) return this.finish(emptyEnd(`prompt blocked: ${submitted.blocked}`));
    const tail = await h.chain.dispatch({ type: "context.tail", sessionId: h.sessionId, root: h.root, turn, resumed: h.resumed });
    appendTurnStart(h.context, h.now(), h.language, submitted.text, [...tail.notes, ...(submitted.context ?? []).map((text, i) => ({ id: `hook-${i}`, text }))]);
    const { end, announced } = await runTurn({
      chain: h.chain,
      context: h.context,
      sessionId: h.sessionId,
      turn,
      profile: this.profile,
      maxSteps: h.maxSteps,
      concurrency: h.concurrency,
      signal: this.signal,
      callEnv: { ...h.callEnv, signal: this.signal, askLock: { tail: Promise.resolve() } },
      emit: (e) => this.emit(e),
      who: h.who,
      onBilled: (step, model, billed) => this.onBilled(step, model, billed),
      ownRequest: (request) => h.billing.ownRequest(request),
      now: () => h.now(),
      beforeStep: (step) => this.maybeCompact(step),
      record: (r) => h.record(r),
      announce: (e) => this.announce(e),
      switchUnserved: (model) => {
        const to = h.switchUnserved?.(model);
        if (to !== undefined) this.profile = { ...this.profile, model: to };
        return to;
      },
    });
    return announced ? this.finishAnnounced(end) : this.finish(end);
  }

  private announce(end: TurnEnd): Promise<{ continueWith?: string } | void> {
    return this.h.chain.dispatch({ type: "turn.complete", sessionId: this.h.sessionId, turn: this.turn, stopReason: end.stopReason, usage: end.usage, text: end.text, ...this.h.who });
  }

  /** Ends a turn that hooks have not heard end yet: records it, tells them (turn.complete), completes. */
  private async finish(turnEnd: TurnEnd): Promise<void> {
    const { end, durationMs } = this.recordEnd(turnEnd);
    await this.announce(end);
    this.complete(completeEvent(this.h.sessionId, this.turn, end, durationMs));
  }

  /** Ends a turn whose end runTurn already announced (a completed end: Stop hooks were asked whether to go on). */
  private finishAnnounced(turnEnd: TurnEnd): void {
    const { end, durationMs } = this.recordEnd(turnEnd);
    this.complete(completeEvent(this.h.sessionId, this.turn, end, durationMs));
  }

  /** The turn's record in the log, and its loop notice; the end as the stream reports it. */
  private recordEnd(turnEnd: TurnEnd): { end: TurnEnd; durationMs: number } {
    const { h, turn } = this;
    const durationMs = Math.round(performance.now() - this.started);
    // A compaction's digest request within the turn is part of what the turn cost.
    const end = { ...turnEnd, usage: addUsage(turnEnd.usage, this.extra.usage), costUsd: turnEnd.costUsd + this.extra.costUsd };
    h.record({ t: "turn", turn, prompt: this.prompt, stopReason: end.stopReason, usage: end.usage, costUsd: end.costUsd, at: h.now().toISOString(), durationMs, ...(end.loop ? { loop: end.loop } : {}) });
    h.mark(turn);
    if (end.loop) {
      this.emit({ type: "notice", level: "warn", code: "call-loop", message: `the model repeated a suppressed call in ${plural(end.loop.requests, "request")}, costing ${formatMoney(end.loop.costUsd, "USD")}` });
    }
    return { end, durationMs };
  }

  /** The one place the stream gets turn.complete (once: a second is dropped). */
  private complete(e: Complete): void {
    if (this.completed) return;
    this.completed = true;
    this.events.push(e);
  }

  /** A model round's bill: booked, then its usage reconciled with the context (the miss explainer). */
  private onBilled(step: number, model: string, billed: Billed): void {
    this.h.billing.record(this.turn, step, model, billed);
    const r = this.h.context.observe(billed.usage);
    if (r.divergence && !r.divergence.expected) {
      this.emit({ type: "notice", level: "warn", code: "cache-divergence", message: `unexpected cache miss: the request stopped extending the previous one at ${r.divergence.zone}${r.divergence.message !== undefined ? ` message ${r.divergence.message}` : ""}` });
    } else if (r.divergence) {
      this.emit({ type: "notice", level: "info", code: "cache-divergence", message: `cache: ${r.divergence.reason}; this request re-read ${r.missTokens} tokens` });
    }
    if (r.unexpectedMiss) this.emit({ type: "notice", level: "warn", code: "cache-miss", message: r.unexpectedMiss });
  }

  private async maybeCompact(step: number): Promise<void> {
    const c = this.h.compaction;
    const window = c.window ?? this.h.context.model.contextWindow;
    const threshold = c.threshold ?? DEFAULT_THRESHOLD;
    // Before the turn's first round (not again when a Stop hook continues it): the lower mark.
    const first = step === 1 && this.firstRound;
    if (first) this.firstRound = false;
    const mark = first ? Math.min(threshold, c.betweenTurns ?? DEFAULT_BETWEEN_TURNS) : threshold;
    if (!this.h.breakers.due(this.turn, this.h.context.ledger().nextPromptTokens, mark * window)) return;
    this.h.breakers.record(this.turn, await this.h.compact(undefined, true));
  }
}

function completeEvent(sessionId: string, turn: number, end: TurnEnd, durationMs: number): Complete {
  const e: Complete = { type: "turn.complete", sessionId, turn, stopReason: end.stopReason, text: end.text, steps: end.steps, usage: end.usage, costUsd: end.costUsd, durationMs };
  if (end.error) e.error = end.error;
  return e;
}

function outcomeOf(o: { isError?: boolean; summary?: string; meta?: Record<string, JsonValue> }): "ok" | "denied" | "failed" | "suppressed" | "interrupted" {
  if (o.meta?.outcome === "denied" || o.meta?.outcome === "suppressed") return o.meta.outcome;
  if (!o.isError) return "ok";
  return o.summary?.endsWith(": interrupted") ? "interrupted" : "failed";
}

function emptyEnd(err: unknown): TurnEnd {
  return { stopReason: "error", text: "", steps: 0, usage: { ...ZERO_USAGE }, costUsd: 0, error: err instanceof Error ? err.message : String(err) };
}
