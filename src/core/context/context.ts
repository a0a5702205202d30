// The cache-first context (DESIGN.md §3): immutable prefix + append-only log + volatile tail.
//
// Invariant: request N+1 = request N + reply N + new tail, byte for byte, except where a named
// reason (compaction, reload, a thinking-mode switch) says otherwise. Because deepcode knows
// the bytes of its previous request, it can tell exactly where a request stopped extending the
// previous one and why — the miss explainer. A divergence without a named reason is a bug.
//
// The server caches per model, so "the previous request" is the previous request to the same
// model family: a session whose turns go to two models (plan mode's planner and the session's
// executor) keeps two lines of requests over one shared log, each extending its own.

import type { ChatMessage, ChatRequest, ModelCaps, ToolDefinition, Usage } from "../../contract/index.js";
import { reasoningRequired, withoutReasoning } from "../../contract/index.js";
import { AppendOnlyLog, type Prefix } from "./prefix.js";
import { boundResult, DEFAULT_RESULT_MAX_BYTES } from "./bound.js";
import { Calibration } from "./tokens.js";
import { estimateTokens } from "../tokens.js";

export interface BuildParams {
  model: string;
  thinking?: "enabled" | "disabled";
  effort?: "low" | "high" | "max";
  maxTokens?: number;
}

export type Zone = "system" | "tools" | "log";

export interface Divergence {
  /** Index into [system, tools, ...messages] of the first piece that differs. */
  piece: number;
  zone: Zone;
  /** Message index in the log, for zone "log". */
  message?: number;
  reason: string;
  /** False when nothing named explains it: an unexpected miss, which is a bug. */
  expected: boolean;
}

export interface RequestRecord {
  promptTokens: number;
  hitTokens: number;
  missTokens: number;
  completionTokens: number;
  /** Hits the previous request guarantees (its prompt, floored to the 64-token unit). */
  expectedHitTokens: number;
  divergence?: Divergence;
  /** Set when the API hit less than the prefix this request shares with the previous one. */
  unexpectedMiss?: string;
}

export interface Ledger {
  window: number;
  /** Tokens of the next request: exact for what was sent, estimated for the new delta. */
  nextPromptTokens: number;
  zones: { system: number; tools: number; log: number; tail: number };
  /** The last request's prompt, exactly as `usage` reported it (0 before the first). */
  lastPromptTokens: number;
  requests: readonly RequestRecord[];
  hitRate: number;
  fingerprint: string;
}

const UNIT = 64;

/** Tool definitions (JSON Schema with English descriptions) tokenise below the general
 *  estimator: measured 2026-12-01 on the built-in tools' canonical JSON, 1,157 DeepSeek V3
 *  tokens against an estimate of 1,472 (1,689 against 2,035 with the longer descriptions
 *  before). Without it the banner's prefix figure came out larger than the whole first
 *  request. The calibration from usage refines it after one request. */
const TOOL_SCHEMA_FACTOR = 0.79;

/** A piece of the rendered request: its bytes and its estimated tokens, computed once. */
interface Piece {
  json: string;
  tokens: number;
}

interface Sent {
  pieces: Piece[];
  model: string;
  /** The model's family: the server caches per family, so a switch across families misses all. */
  family: string;
  thinking: boolean;
  estimate: number;
  divergence?: Divergence;
}

export class CacheFirstContext {
  private log: AppendOnlyLog;
  private readonly pieceOf = new WeakMap<object, Piece>();
  private systemPiece?: Piece;
  /** The last request built (any model), and the one whose usage was last observed. */
  private sent?: Sent;
  private observed?: { pieces: number; promptTokens: number };
  /** The last request built and observed per model family: what its next request extends. */
  private readonly sentBy = new Map<string, Sent>();
  private readonly observedBy = new Map<string, { pieces: number; promptTokens: number }>();
  /** Named reasons for the divergence each family's next request will show; consumed by it. */
  private readonly reasons = new Map<string, string>();
  private readonly records: RequestRecord[] = [];
  private lastPrompt = 0;
  /** The prefix's zones as the last observed request measured them (exact, from usage), kept
   *  while the prefix stays the same: a compaction starts a new log, not a new prefix, so the
   *  system and tool figures do not fall back to estimates. */
  private prefixExact?: { fingerprint: string; system: number; tools: number };
  readonly calibration = new Calibration();

  constructor(
    private prefix: Prefix,
    private caps: ModelCaps,
    private readonly opts: { resultMaxBytes?: number; onAppend?: (m: ChatMessage) => void; capsOf?: (model: string) => ModelCaps } = {},
    log?: AppendOnlyLog,
  ) {
    this.log = log ?? new AppendOnlyLog(0);
  }

  get messages(): readonly ChatMessage[] {
    return this.log.messages;
  }
  get epoch(): number {
    return this.log.epoch;
  }
  get currentPrefix(): Prefix {
    return this.prefix;
  }
  get model(): ModelCaps {
    return this.caps;
  }

  /** The only way a message enters the log. */
  append(message: ChatMessage): ChatMessage {
    const stored = this.log.append(message);
    this.opts.onAppend?.(stored);
    return stored;
  }

  /** A tool result, bounded once here and never again. */
  appendToolResult(callId: string, content: string, toolMaxBytes?: number): ChatMessage {
    return this.append({ role: "tool", tool_call_id: callId, content: this.boundResult(content, toolMaxBytes) });
  }

  /** A tool result as `appendToolResult` would store it (for keeping it before its turn).
   *  `toolMaxBytes`: the tool's own larger bound (ToolOutput.maxBytes), if it has one. */
  boundResult(content: string, toolMaxBytes = 0): string {
    return boundResult(content, Math.max(this.opts.resultMaxBytes ?? DEFAULT_RESULT_MAX_BYTES, toolMaxBytes));
  }

  /** Assistant messages keep `reasoning_content` wherever a thinking request with tools would
   *  need it back, so a later switch of tier never has to rewrite the log. */
  keepsReasoning(): boolean {
    return this.caps.reasoningBackWithTools;
  }

  /** Name the reason for the divergence the next request will show (compaction, reload…):
   *  the next request of every model that has sent one, since each extends its own. */
  expectDivergence(reason: string): void {
    for (const family of this.sentBy.keys()) {
      const before = this.reasons.get(family);
      this.reasons.set(family, before && before !== reason ? `${before}, then ${reason}` : reason);
    }
  }

  /** Start a new log (compaction, a rewind): same prefix, new messages. The old log is not
   *  edited. */
  startEpoch(messages: readonly ChatMessage[], reason: string): void {
    this.log = new AppendOnlyLog(this.log.epoch + 1, messages);
    this.observed = undefined; // the last exact count no longer describes these pieces
    this.observedBy.clear();
    this.expectDivergence(reason);
  }

  /** About how many tokens the next request would be with `messages` as its log: what a
   *  compaction would leave, measured before it is applied. */
  estimateWith(messages: readonly ChatMessage[]): number {
    const z = this.zones(this.piecesOf([]));
    const log = messages.reduce((a, m) => a + this.piece(m).tokens + 3, 0);
    return z.system + z.tools + Math.round(log * this.calibration.ratio);
  }

  /** Replace the provisional prefix before anything was sent (the engine fixes the prefix at
   *  the session's first request): no request had it, so nothing misses and nothing is named. */
  fixPrefix(prefix: Prefix): void {
    if (this.sent) throw new Error("the prefix is fixed once a request was sent: replace it with a reason (replacePrefix)");
    this.prefix = prefix;
  }

  /** Replace the prefix on purpose (`/reload`). Everything after it will miss once. */
  replacePrefix(prefix: Prefix, reason: string): void {
    this.prefix = prefix;
    this.observed = undefined;
    this.observedBy.clear();
    this.expectDivergence(reason);
  }

  setModel(caps: ModelCaps): void {
    this.caps = caps;
  }

  /** The next request as it would be sent, without recording it as sent (the digest request
   *  of a compaction is built on it: it must not disturb the miss explainer). */
  peek(p: BuildParams): ChatRequest {
    return this.requestFor(p).request;
  }

  private requestFor(p: BuildParams): { request: ChatRequest; thinking: boolean } {
    const request: ChatRequest = { model: p.model, messages: [], tools: this.prefix.tools as ToolDefinition[] };
    if (p.thinking) request.thinking = { type: p.thinking };
    if (p.effort) request.reasoning_effort = p.effort;
    if (p.maxTokens) request.max_tokens = p.maxTokens;
    const thinking = reasoningRequired(this.capsFor(p.model), request);
    const system: ChatMessage = { role: "system", content: this.prefix.system };
    request.messages = [system, ...this.log.messages.map((m) => (thinking ? withReasoningOnce(m) : withoutReasoningOnce(m)))];
    return { request, thinking };
  }

  build(p: BuildParams): { request: ChatRequest; newMessages: number; divergence?: Divergence; zones: Ledger["zones"] } {
    const { request, thinking } = this.requestFor(p);
    const pieces = this.piecesOf(request.messages.slice(1));
    const family = this.capsFor(p.model).family;
    const last = this.sentBy.get(family);
    const divergence = this.compare(pieces, thinking, p.model, family);
    const zones = this.zones(pieces);
    const newMessages = last && !divergence ? pieces.length - last.pieces.length : request.messages.length - 1;
    this.sent = { pieces, model: p.model, family, thinking, estimate: zones.system + zones.tools + zones.log + zones.tail, divergence };
    this.sentBy.set(family, this.sent);
    return { request, newMessages, divergence, zones };
  }

  /** The capabilities of the model a request goes to (the session's, or a turn's other tier). */
  private capsFor(model: string): ModelCaps {
    return model === this.caps.model || !this.opts.capsOf ? this.caps : this.opts.capsOf(model);
  }

  /** Reconcile with the API's usage after a response; returns what it means for the cache. */
  observe(usage: Usage): RequestRecord {
    const sent = this.sent;
    const divergence = sent?.divergence;
    // The previous request to this model was persisted by the server in 64-token units, so a
    // request that extends it must hit at least that much.
    const mine = sent ? this.observedBy.get(sent.family) : undefined;
    const expectedHit = divergence || !mine ? 0 : Math.floor(mine.promptTokens / UNIT) * UNIT;
    const previous = mine?.promptTokens;
    const record: RequestRecord = {
      promptTokens: usage.prompt_tokens,
      hitTokens: usage.prompt_cache_hit_tokens,
      missTokens: usage.prompt_cache_miss_tokens,
      completionTokens: usage.completion_tokens,
      expectedHitTokens: expectedHit,
    };
    if (divergence) record.divergence = divergence;
    if (usage.prompt_cache_hit_tokens < expectedHit) {
      record.unexpectedMiss =
        `the request extended the previous one (${previous} tokens) but hit only ` +
        `${usage.prompt_cache_hit_tokens}: the server's cache lost that prefix`;
    }
    if (sent) {
      this.calibration.observe(sent.estimate, usage.prompt_tokens);
      this.observed = { pieces: sent.pieces.length, promptTokens: usage.prompt_tokens };
      this.observedBy.set(sent.family, this.observed);
      const z = this.zones(sent.pieces);
      this.prefixExact = { fingerprint: this.prefix.fingerprint, system: z.system, tools: z.tools };
    }
    this.lastPrompt = usage.prompt_tokens;
    this.records.push(record);
    return record;
  }

  ledger(): Ledger {
    const zones = this.zones(this.piecesOf(this.log.messages));
    const prompt = this.records.reduce((a, r) => a + r.promptTokens, 0);
    const hit = this.records.reduce((a, r) => a + r.hitTokens, 0);
    return {
      window: this.caps.contextWindow,
      nextPromptTokens: zones.system + zones.tools + zones.log + zones.tail,
      zones,
      lastPromptTokens: this.lastPrompt,
      requests: this.records,
      hitRate: prompt ? hit / prompt : 0,
      fingerprint: this.prefix.fingerprint,
    };
  }

  private piecesOf(messages: readonly ChatMessage[]): Piece[] {
    if (this.systemPiece?.json !== this.prefix.system) this.systemPiece = { json: this.prefix.system, tokens: estimateTokens(this.prefix.system) };
    return [this.systemPiece, this.piece(this.prefix.tools), ...messages.map((m) => this.piece(m))];
  }

  /** Tokens per zone. The pieces the last observed request sent add up to its exact
   *  `prompt_tokens`; pieces added since are estimated and calibrated. */
  private zones(pieces: Piece[]): Ledger["zones"] {
    const est = pieces.map((p) => p.tokens + 3);
    const ratio = this.calibration.ratio;
    const obs = this.observed && this.observed.pieces <= pieces.length ? this.observed : undefined;
    const tail = Math.round(est.slice(obs ? obs.pieces : 2).reduce((a, b) => a + b, 0) * ratio);
    if (!obs) {
      const exact = this.prefixExact?.fingerprint === this.prefix.fingerprint ? this.prefixExact : undefined;
      return { system: exact?.system ?? Math.round(est[0] * ratio), tools: exact?.tools ?? Math.round(est[1] * ratio), log: 0, tail };
    }
    const sentEst = est.slice(0, obs.pieces).reduce((a, b) => a + b, 0);
    const scale = obs.promptTokens / sentEst;
    const system = Math.round(est[0] * scale);
    const tools = Math.round(est[1] * scale);
    return { system, tools, log: obs.promptTokens - system - tools, tail };
  }

  private compare(pieces: Piece[], thinking: boolean, model: string, family: string): Divergence | undefined {
    const last = this.sentBy.get(family);
    const named = this.reasons.get(family);
    this.reasons.delete(family);
    // The first request to a model after requests to another has nothing cached, whatever the
    // bytes: it starts over (its later requests extend it, even with the other model between).
    if (!last) return this.sent ? { piece: 0, zone: "system", reason: `the model changed (${this.sent.model} → ${model}); the server caches per model`, expected: true } : undefined;
    let i = 0;
    const n = Math.min(last.pieces.length, pieces.length);
    while (i < n && (last.pieces[i] === pieces[i] || last.pieces[i].json === pieces[i].json)) i++;
    if (i === last.pieces.length) return undefined; // a pure extension
    const zone: Zone = i === 0 ? "system" : i === 1 ? "tools" : "log";
    // Name only what really explains the first differing piece: a switch of thinking is the
    // reason only when that piece differs by its reasoning_content alone.
    const reason =
      named ??
      (thinking !== last.thinking && i < pieces.length && sameButReasoning(last.pieces[i].json, pieces[i].json)
        ? `thinking ${thinking ? "turned on" : "turned off"}, so earlier replies are sent ${thinking ? "with" : "without"} their reasoning`
        : undefined);
    const d: Divergence = { piece: i, zone, reason: reason ?? "unexpected", expected: reason !== undefined };
    if (zone === "log") d.message = i - 2;
    return d;
  }

  private piece(v: object): Piece {
    let p = this.pieceOf.get(v);
    if (p === undefined) {
      const json = JSON.stringify(v);
      // The model sees a message's text, not its JSON (escapes would over-count); tool
      // definitions are rendered as JSON, so those are estimated as such.
      p = { json, tokens: Array.isArray(v) ? Math.ceil(estimateTokens(json) * TOOL_SCHEMA_FACTOR) : estimateTokens(textOf(v as ChatMessage)) };
      this.pieceOf.set(v, p);
    }
    return p;
  }
}

/** Two serialised messages that differ only in reasoning_content. */
function sameButReasoning(a: string, b: string): boolean {
  const strip = (json: string): string | undefined => {
    try {
      const { reasoning_content: _r, ...rest } = JSON.parse(json) as Record<string, unknown>;
      return JSON.stringify(rest);
    } catch {
      return undefined; // not a message (the tool definitions): not explained by reasoning
    }
  };
  const x = strip(a);
  return x !== undefined && x === strip(b);
}

function textOf(m: ChatMessage): string {
  if (m.role !== "assistant") return m.content;
  const calls = (m.tool_calls ?? []).map((c) => `${c.function.name} ${c.function.arguments}`).join("\n");
  return `${m.reasoning_content ?? ""}${m.content ?? ""}${calls}`;
}

const stripped = new WeakMap<ChatMessage, ChatMessage>();

/** The contract's withoutReasoning, memoised per stored message so its piece is computed once. */
function withoutReasoningOnce(m: ChatMessage): ChatMessage {
  if (m.role !== "assistant" || m.reasoning_content === undefined) return m;
  let s = stripped.get(m);
  if (!s) {
    s = Object.freeze(withoutReasoning(m));
    stripped.set(m, s);
  }
  return s;
}

const completed = new WeakMap<ChatMessage, ChatMessage>();

/** An assistant message with `reasoning_content` ("" where it had none: written while the
 *  session was on a model that does not think, or a note of deepcode's), as a thinking request
 *  with tools must send every one; memoised like withoutReasoningOnce. */
function withReasoningOnce(m: ChatMessage): ChatMessage {
  if (m.role !== "assistant" || m.reasoning_content !== undefined) return m;
  let s = completed.get(m);
  if (!s) {
    s = Object.freeze({ ...m, reasoning_content: "" });
    completed.set(m, s);
  }
  return s;
}
