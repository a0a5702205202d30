// The engine: one session — what lives as long as the session. It owns the cache-first context
// and its log, the session file (persist.ts), the prefix and its reload, rewind, and billing
// (billing.ts); it gives the chain its core answers for the events it implements (cores.ts),
// and runs turns (`submit`) as a stream of typed events. What lives for one turn — turn.start,
// its bill, the one turn.complete — is a Turn (turn.ts); the turn's two loops are in loop.ts.

import type { AgentIdentity, ChatMessage, CompactionResult, JsonValue, ReadRecord, RewindResult, StreamEvent, TailNote, TurnProfile, Usage } from "../../contract/index.js";
import type { Chain } from "../chain.js";
import { CacheFirstContext, type Ledger } from "../context/context.js";
import { AppendOnlyLog, restorePrefix, type Prefix } from "../context/prefix.js";
import { createToolContext } from "../tool-context.js";
import { newSessionId, type SessionRecord, type SessionStore, type SessionWriter } from "../session/store.js";
import type { WriterHooks } from "../session/writer.js";
import { answerOrphans, replay, type TurnMark } from "../session/replay.js";
import { rewindLog } from "./rewind.js";
import { freshPrefix, gatherSections, type SectionSource } from "./sections.js";
import { sessionRecord, writerHooks, type SessionNow } from "./persist.js";
import { Turn, type TurnHost } from "./turn.js";
import { SessionBilling } from "./billing.js";
import { repairNotes } from "./resume.js";
import type { AgentLink, EngineOptions } from "./options.js";
import { PROXY_TOOL, runCall, type CallOutcome, type ToolRegistry } from "./tools.js";
import { TailState } from "./tail-state.js";
import { CompactionBreakers } from "./compaction.js";
import { sessionCores } from "./cores.js";
import { agentSections, baseSections } from "./system-prompt.js";
import { plural } from "../cost/index.js";

export type { AgentLink, EngineOptions } from "./options.js";

export class Engine {
  readonly chain: Chain;
  profile: TurnProfile;
  private context!: CacheFirstContext;
  private readonly tail = new TailState();
  private writer?: SessionWriter;
  private turn = 0;
  private resumed = false;
  private readonly reads = new Map<string, ReadRecord>();
  private readonly shell: { cwd: string };
  /** Where each completed turn ended in the log: what a rewind needs (`context.rewind`). */
  private marks = new Map<number, TurnMark>();
  private readonly breakers = new CompactionBreakers();
  /** Whether the prefix is fixed for good. A new session's prefix is provisional until its
   *  first turn (fixPrefix); a resumed one's was fixed by the process that started it. */
  private fixed = false;
  private unservedFallback: string | undefined; // see switchUnserved
  /** The running turn (turn.ts): its stream, signal, profile and bill. */
  private active?: Turn;
  /** What a resumed session noticed on load (a torn line, calls answered as interrupted). */
  readonly startNotes: string[] = [];
  private uninstall: () => void = () => undefined;
  private closed = false;
  private readonly billing: SessionBilling;

  private constructor(private readonly opts: EngineOptions, readonly sessionId: string) {
    this.chain = opts.chain;
    this.shell = { cwd: opts.cwd ?? opts.root };
    this.profile = { model: opts.model, ...opts.profile };
    this.billing = new SessionBilling({ record: (r) => this.record(r), now: () => this.now() });
    this.installCores();
  }

  /** For a subagent's engine: who it works for. */
  get identity(): AgentIdentity | undefined {
    return this.opts.agent?.identity;
  }
  /** The clock the session runs on when it is not the real one (a benchmark's fixed clock):
   *  its subagents run on it too, so their requests are priced at the session's time. */
  get clock(): (() => Date) | undefined {
    return this.opts.now;
  }
  /** `{ agent }` for a subagent's events, nothing for the main agent's. */
  private get who(): { agent?: AgentIdentity } {
    return this.opts.agent ? { agent: this.opts.agent.identity } : {};
  }

  static async start(opts: EngineOptions): Promise<Engine> {
    const e = new Engine(opts, newSessionId(opts.now?.()));
    const prefix = await e.freshPrefix();
    e.context = e.newContext(prefix, new AppendOnlyLog(0));
    e.writer = e.openWriter(opts.store);
    e.record(e.sessionRecord());
    e.record({ t: "prefix", system: prefix.system, tools: [...prefix.tools], sections: e.tail.sections, fingerprint: prefix.fingerprint, reason: "session start" });
    e.tail.prefixBuilt();
    if (!opts.agent) await e.chain.dispatch({ type: "session.start", sessionId: e.sessionId, root: opts.root, resumed: false, model: opts.model, ...(opts.mcpServers ? { mcpServers: opts.mcpServers } : {}) });
    return e;
  }

  /** Resume a stored session: the same prefix and log, so the next request extends the last.
   *  The session's lock is taken first (SessionBusyError names the process writing it). A
   *  damaged file is repaired as it loads (replay.ts): what cannot be kept is dropped with what
   *  depends on it, a lost prefix is built anew, and `startNotes` says what happened. */
  static async resume(opts: EngineOptions, id: string): Promise<Engine> {
    if (!opts.store) throw new Error("resuming needs a session store");
    const writer = opts.store.writer(id);
    try {
      return await Engine.resumeWith(opts, opts.store, id, writer);
    } catch (err) {
      writer.close();
      throw err;
    }
  }

  private static async resumeWith(opts: EngineOptions, store: SessionStore, id: string, writer: SessionWriter): Promise<Engine> {
    const state = replay(store.load(id));
    const e = new Engine({ ...opts, model: state.model || opts.model }, id);
    e.resumed = true;
    e.fixed = true;
    e.turn = state.turns;
    e.marks = state.marks;
    const repaired = answerOrphans(state.messages, state.results);
    e.writer = writer;
    writer.hooks = { ...writer.hooks, ...e.writerHooks() };
    if (state.torn) e.startNotes.push(state.torn);
    if (state.prefix && !state.prefixLost) {
      e.tail.restore(state.prefix.sections, state.announced, state.announcedIn);
      e.context = e.newContext(restorePrefix(state.prefix.system, state.prefix.tools), new AppendOnlyLog(state.epoch, repaired.messages));
    } else {
      // The messages are all there; only the prefix is unknown. A prefix built now keeps the
      // conversation (one request re-reads it) rather than losing the session.
      const prefix = await e.freshPrefix();
      e.tail.restore(e.tail.sections, state.announced, state.announcedIn);
      e.context = e.newContext(prefix, new AppendOnlyLog(state.epoch, repaired.messages));
      e.record({ t: "prefix", system: prefix.system, tools: [...prefix.tools], sections: e.tail.sections, fingerprint: prefix.fingerprint, reason: "rebuilt: the stored prefix could not be read" });
      e.startNotes.push(`${state.prefixLost ?? "the session file has no prefix record"}: the session goes on with the system prompt and tools as this deepcode builds them now, and keeps all ${plural(repaired.messages.length, "message")}; the next request re-reads the context once`);
    }
    if (opts.modelChosen && state.model && opts.model !== state.model) {
      e.setModel(opts.model);
      e.startNotes.push(`switched from ${state.model} to ${opts.model} (-m); the server caches per model, so the next request re-reads the context once`);
    } else if (state.model && opts.model !== state.model) e.unservedFallback = opts.model;
    const r = repairNotes(state, repaired);
    e.startNotes.push(...r.notes);
    if (r.record) e.record(r.record);
    await e.chain.dispatch({ type: "session.start", sessionId: id, root: opts.root, resumed: true, model: e.profile.model, ...(opts.mcpServers ? { mcpServers: opts.mcpServers } : {}) });
    return e;
  }

  private sessionRecord(): SessionRecord {
    return sessionRecord({ id: this.sessionId, root: this.opts.root, model: this.opts.model, version: this.opts.version, now: () => this.now(), who: this.who });
  }

  private openWriter(store: SessionStore | undefined): SessionWriter | undefined {
    const w = store?.writer(this.sessionId);
    if (w) w.hooks = { ...w.hooks, ...this.writerHooks() };
    return w;
  }

  private writerHooks(): WriterHooks {
    const now = (): SessionNow => ({ record: this.sessionRecord(), model: this.profile.model, prefix: this.context.currentPrefix, sections: this.tail.sections, messages: this.context.messages, turns: this.turn });
    return writerHooks(now, (message) => this.warn("session-file", message));
  }

  /** A warning for the person: in the running turn's stream, else with the next turn's. */
  private warn(code: string, message: string): void {
    if (this.active) this.active.emit({ type: "notice", level: "warn", code, message });
    else this.laterNotices.push({ code, message });
  }

  private laterNotices: Array<{ code: string; message: string }> = [];

  get busy(): boolean { return this.active !== undefined; }
  /** The Bash tool's working directory (it persists across calls). */
  get cwd(): string { return this.shell.cwd; }
  /** Where this session's calls keep their whole outputs (ctx.keepOutput); none without a store. */
  get outputsDir(): string | undefined { return this.opts.store?.outputsDir(this.sessionId); }
  get root(): string { return this.opts.root; }
  /** The session was resumed from disk (not started by this process). */
  get wasResumed(): boolean { return this.resumed; }
  get turns(): number { return this.turn; }
  get messages(): readonly ChatMessage[] { return this.context.messages; }
  /** The tools this session has (a subagent's are a view of its parent's). */
  get tools(): ToolRegistry { return this.opts.registry; }
  /** The running turn's profile, or the session's between turns. */
  get turnProfile(): TurnProfile { return this.active?.profile ?? this.profile; }
  get prefix(): Prefix { return this.context.currentPrefix; }
  /** What the system sections say to the person (an instructions file cut to its limit…). */
  get sectionNotes(): string[] { return this.tail.sections.flatMap((s) => (s.note ? [s.note] : [])); }
  ledger(): Ledger { return this.context.ledger(); }

  setModel(model: string): void {
    this.profile = { ...this.profile, model };
    this.context.setModel(this.opts.caps(model));
    this.record({ t: "model", model });
  }

  /** Run one user turn (turn.ts). The stream always ends with exactly one `turn.complete`. */
  submit(prompt: string, opts: { signal?: AbortSignal } = {}): AsyncIterable<StreamEvent> {
    if (this.active) throw new Error("a turn is already running");
    const turn = new Turn(this.turnHost(), ++this.turn, prompt, opts.signal ?? new AbortController().signal);
    this.active = turn;
    for (const n of this.laterNotices.splice(0)) turn.emit({ type: "notice", level: "warn", code: n.code, message: n.message });
    void turn.run().finally(() => {
      this.active = undefined;
      turn.events.close();
    });
    return turn.events;
  }

  /** What a turn needs of this session (turn.ts). */
  private turnHost(): TurnHost {
    const o = this.opts;
    const { chain, sessionId, who, context, profile, resumed, breakers } = this;
    return {
      chain, sessionId, who, context, profile, resumed, breakers,
      root: o.root, language: o.language, agent: !!o.agent, maxSteps: o.maxSteps ?? 100, concurrency: o.concurrency ?? 3, compaction: o.compaction ?? {},
      callEnv: { chain: this.chain, registry: o.registry, sessionId: this.sessionId, root: o.root, reads: this.reads, shell: this.shell, ...this.who },
      fixPrefix: () => (this.fixed ? Promise.resolve() : this.fixPrefix()),
      billing: this.billing,
      compact: (instructions, auto) => this.compact(instructions, auto),
      record: (r) => this.record(r),
      mark: (turn) => this.marks.set(turn, { messages: this.context.messages, length: this.context.messages.length, fingerprint: this.context.currentPrefix.fingerprint }),
      now: () => this.now(),
      switchUnserved: (model) => this.switchUnserved(model),
    };
  }

  /** A resumed session's model the API no longer serves: once, go on with this run's (settings `model`, else the default). */
  private switchUnserved(model: string): string | undefined {
    const to = this.unservedFallback;
    this.unservedFallback = undefined;
    if (to !== undefined && to !== model) this.setModel(to);
    return to !== model ? to : undefined;
  }

  /** The core answer of `context.tail`: what changed since the last turn. */
  private async tailNotes(): Promise<{ notes: TailNote[] }> {
    const fresh = await gatherSections(this.sectionSource);
    const r = this.tail.notes({ fresh, registered: this.opts.registry.list(), inPrefix: this.context.currentPrefix.tools, reads: this.reads, root: this.opts.root, turn: this.turn });
    if (r.announced.length) this.record({ t: "announce", tools: r.announced });
    return { notes: r.notes };
  }

  /** Compact now (`/compact [instructions]`, or automatically). Never loses the turn. */
  async compact(instructions?: string, auto = false): Promise<CompactionResult> {
    const r = await this.chain.dispatch({ type: "context.compact", sessionId: this.sessionId, auto, instructions });
    if (auto && !r.ok && r.error?.startsWith("nothing to compact")) return r; // not worth a notice: it will try again
    this.active?.emit(
      r.ok
        ? { type: "notice", level: "info", code: "compacted", message: `context compacted${auto ? " automatically" : ""}: ${r.tokensBefore} → ${r.tokensAfter} tokens` }
        : { type: "notice", level: "warn", code: "compaction-failed", message: `compaction failed, continuing uncompacted: ${r.error}` },
    );
    return r;
  }

  /** The prefix is built again right before the session's first request, after `turn.start`:
   *  tools that arrived since the session started (an MCP server that connected while the
   *  person typed, or one a turn.start hook waited for) are in it, not behind the proxy.
   *  Nothing was sent with the provisional prefix, so nothing misses; from here on the prefix
   *  never changes except by a named reason (/reload, which shows the cost first). */
  private async fixPrefix(): Promise<void> {
    this.fixed = true;
    const prefix = await this.freshPrefix();
    if (prefix.fingerprint === this.context.currentPrefix.fingerprint) return;
    this.context.fixPrefix(prefix);
    this.tail.prefixBuilt();
    this.record({ t: "prefix", system: prefix.system, tools: [...prefix.tools], sections: this.tail.sections, fingerprint: prefix.fingerprint, reason: "first request" });
  }

  /** What `/reload` would do: the prefix this deepcode would build now, and what it costs. */
  async reloadPreview(): Promise<{ changed: boolean; prefix: Prefix; tokens: number }> {
    const prefix = await this.freshPrefix(false);
    const changed = prefix.fingerprint !== this.context.currentPrefix.fingerprint;
    return { changed, prefix, tokens: changed ? this.context.ledger().nextPromptTokens : 0 };
  }

  /** Rebuild the prefix on purpose (`/reload`, after the person saw the cost). */
  async reload(): Promise<boolean> {
    const { changed, prefix, tokens } = await this.reloadPreview();
    if (!changed) return false;
    const before = this.context.currentPrefix.fingerprint;
    await this.chain.dispatch({ type: "context.prefix.changed", sessionId: this.sessionId, reason: "reload", before, after: prefix.fingerprint, tokens });
    this.context.replacePrefix(prefix, "reload");
    this.tail.prefixBuilt(true);
    this.fixed = true;
    this.record({ t: "prefix", system: prefix.system, tools: [...prefix.tools], sections: this.tail.sections, fingerprint: prefix.fingerprint, reason: "reload" });
    return true;
  }

  /** Cut the conversation back to the end of `turn` (`context.rewind`'s core answer): the
   *  log becomes exactly what it was then, as a new epoch named for the miss explainer. */
  rewind(turn: number): RewindResult {
    if (this.active) return { ok: false, error: "a turn is running", turn: this.turn, rewound: [], messages: this.context.messages.length, notes: [] };
    const r = rewindLog(this.marks, turn, this.context.messages, this.context.currentPrefix.fingerprint);
    if ("error" in r) return { ok: false, error: r.error, turn, rewound: [], messages: this.context.messages.length, notes: [] };
    this.marks = r.marks;
    this.context.startEpoch(r.messages, `rewind to turn ${turn}`);
    this.record({ t: "rewind", turn, reason: `rewind to turn ${turn}`, at: this.now().toISOString() });
    this.tail.rewindTo(turn);
    return { ok: true, turn, rewound: r.rewound, messages: r.messages.length, notes: r.notes };
  }

  /** Run a tool on the person's behalf (a custom command's !`cmd`), through the same pipeline
   *  as a model's call: tool.input → validation → tool.check → permission.ask → tool.call. */
  async runTool(tool: string, input: Record<string, JsonValue>, signal: AbortSignal = new AbortController().signal): Promise<CallOutcome> {
    const call = { id: `user_${++this.userCalls}`, type: "function" as const, function: { name: tool, arguments: JSON.stringify(input) } };
    return runCall(call, { chain: this.chain, registry: this.opts.registry, sessionId: this.sessionId, root: this.opts.root, signal, reads: this.reads, shell: this.shell, askLock: { tail: Promise.resolve() }, step: 0, cutOff: false });
  }

  private userCalls = 0;

  /** Add what a request outside this session's own model rounds cost (a subagent's run) to
   *  the running turn: its turn.complete, `-p`'s total_cost_usd and the REPL's status line
   *  count it. Between turns it is not added anywhere (the ledger has it either way). */
  billToTurn(usage: Usage, costUsd: number): void {
    this.active?.bill(usage, costUsd);
  }

  /** Book a request made for this session outside its own rounds (a subagent's run, an MCP
   *  server's sampling): a usage line in the session file, so a resumed session's totals (the
   *  status line, /status, `deepcode sessions`) hold what the ledger holds, and the running
   *  turn's cost. */
  book(via: "agent" | "sampling", model: string, usage: Usage, costUsd: number): void {
    this.billing.book(this.turn, via, model, usage, costUsd);
    this.billToTurn(usage, costUsd);
  }

  /** Link a subagent's transcript from this session's. */
  link(l: AgentLink): void {
    this.record({ t: "agent", ...l });
  }

  /** End the session (once: closing again does nothing). */
  async close(reason = "exit"): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      if (!this.opts.agent) await this.chain.dispatch({ type: "session.end", sessionId: this.sessionId, reason });
    } finally {
      this.uninstall();
      this.writer?.close();
    }
  }

  private get sectionSource(): SectionSource {
    return { chain: this.chain, sessionId: this.sessionId, root: this.opts.root, model: this.profile.model, who: this.who, registry: this.opts.registry, appendSystemPrompt: this.opts.appendSystemPrompt };
  }

  private async freshPrefix(adopt = true): Promise<Prefix> {
    const { prefix, sections } = await freshPrefix(this.sectionSource);
    if (adopt) this.tail.sections = sections;
    return prefix;
  }

  private newContext(prefix: Prefix, log: AppendOnlyLog): CacheFirstContext {
    return new CacheFirstContext(prefix, this.opts.caps(this.profile.model), { resultMaxBytes: this.opts.resultMaxBytes, onAppend: (m) => this.record({ t: "msg", m }), capsOf: this.opts.caps }, log);
  }

  private installCores(): void {
    this.uninstall = this.chain.setSessionCores(this.sessionId, sessionCores(this.chain, {
      context: () => this.context,
      turnProfile: () => this.turnProfile,
      running: () => this.active !== undefined,
      turnSignal: () => this.active?.signal,
      turn: () => this.turn,
      emit: (e) => this.active?.emit(e),
      billing: this.billing,
      who: this.who, now: () => this.now(),
      billToTurn: (usage, costUsd) => this.billToTurn(usage, costUsd),
      book: (via, model, usage, costUsd) => this.book(via, model, usage, costUsd),
      record: (r) => this.record(r),
      system: (root) => (this.opts.agent ? agentSections(root, this.opts.agent.identity.name, this.opts.agent.system) : baseSections(root)),
      tailNotes: () => this.tailNotes(),
      rewind: (turn) => this.rewind(turn),
      toolContext: (callId, signal) =>
        createToolContext(this.chain, {
          root: this.opts.root,
          sessionId: this.sessionId,
          callId,
          signal: signal ?? new AbortController().signal,
          reads: this.reads,
          shell: this.shell,
          progress: (p) => this.active?.emit({ type: "tool.progress", callId, ...p }),
          keepOutput: (id, text) => this.opts.store?.keepOutput(this.sessionId, id, text) ?? null,
        }),
      registry: this.opts.registry,
      prices: this.opts.prices,
      keepTurns: this.opts.compaction?.keepTurns ?? 1,
    }));
  }

  private record(r: SessionRecord): void {
    this.writer?.append(r);
  }

  private now(): Date {
    return this.opts.now?.() ?? new Date();
  }
}

export { PROXY_TOOL };
