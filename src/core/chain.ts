// The chain: one Koa-style middleware stack per event, in five tiers
// (prepend → user → append → builtin → core). The first hook registered in the first tier is
// outermost: it sees the event first and the result last. The core tier is the single tail.
//
// Contracts (DESIGN.md §1):
// - `next(e)` continues; calling it twice throws. A rewrite is a new frozen object.
// - With no hooks on an event, the core answer runs directly on the caller's object.
// - A hook's time limit counts its own time only, not time spent inside `next`.
// - Gate events (tool.check, permission.ask, person.ask): a throw, a timeout or a malformed
//   result is a deny, and the tail answers deny. Other events: a failing hook is reported and
//   skipped.
//
// One chain, many sessions (a subagent is an engine session of its own): the hooks are one
// table for the whole process, so every session's calls pass the very same hooks — the
// permission gate, PreToolUse hooks, the fence, the sandbox, the budget gate, the usage ledger.
// The core tier has two parts:
// - the host's cores (`setCore`): one answer per event for the process — the provider, the
//   side effects, the cost estimate, spawning an agent;
// - each session's cores (`setSessionCores`): what one engine answers for its own session
//   (its context, its tools, its stream). An event whose `sessionId` names such a session
//   reaches that session's answer; otherwise (or for an event the session does not answer) the
//   host's. So a second engine never replaces the first one's answers, and an event a hook
//   dispatches on behalf of a session (a repair notice, a flushed delta) reaches that session
//   wherever it is dispatched from. Hooks that keep state per session key it by `sessionId`.
// Engine events therefore carry a `sessionId`; dispatching one for a session no engine
// answers (and that no host core answers) throws NotImplementedError naming it.

import {
  CATALOGUE,
  ChainError,
  DeniedError,
  HookTimeoutError,
  NotImplementedError,
  TIERS,
  denyResult,
  isEventName,
  isGateResult,
} from "../contract/index.js";
import type {
  AnyHook,
  EventName,
  EventOf,
  EventPattern,
  Hook,
  HookOptions,
  Matcher,
  OnFunction,
  Result,
  Tier,
  Unsubscribe,
} from "../contract/index.js";
import { freezeEvent, preview } from "./freeze.js";
import { checkPattern, compileMatcher, patternMatches, type CompiledMatcher } from "./matcher.js";
import { Watchdog, type Frame } from "./watchdog.js";

export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;

export interface ChainReport {
  level: "warn" | "error";
  owner: string;
  event: string;
  message: string;
}

interface Entry {
  tier: number;
  seq: number;
  owner: string;
  pattern: string;
  matcher: CompiledMatcher | null;
  hook: AnyHook;
  timeoutMs: number;
}

type Core = (event: never) => unknown;
type Ev = { readonly type: string } & Record<string, unknown>;

/** Events whose payload names a session: the ones a session's engine can answer. */
export type SessionEventName = { [N in EventName]: "sessionId" extends keyof EventOf<N> ? N : never }[EventName];
/** One engine's answers for its own session (setSessionCores). */
export type SessionCores = { [N in SessionEventName]?: (event: EventOf<N>) => Result<N> | Promise<Result<N>> };

export class Chain {
  private readonly entries: Entry[] = [];
  private readonly compiled = new Map<string, Entry[]>();
  private readonly cores = new Map<string, Core>();
  private readonly sessions = new Map<string, ReadonlyMap<string, Core>>();
  private readonly reporters: Array<(r: ChainReport) => void> = [];
  private readonly watchdog = new Watchdog();
  private seq = 0;

  constructor(readonly defaultTimeoutMs = DEFAULT_HOOK_TIMEOUT_MS) {}

  /** Register a hook in a tier on behalf of `owner` (a plugin id, a mod id, "settings"…). */
  on<N extends EventName>(tier: Tier, owner: string, name: N, matcher: Matcher | null, hook: Hook<N>, options?: HookOptions): Unsubscribe;
  on(tier: Tier, owner: string, pattern: EventPattern, matcher: Matcher | null, hook: AnyHook, options?: HookOptions): Unsubscribe;
  on(tier: Tier, owner: string, pattern: string, matcher: Matcher | null, hook: AnyHook, options?: HookOptions): Unsubscribe;
  on(
    tier: Tier,
    owner: string,
    pattern: string,
    matcher: Matcher | null,
    hook: unknown,
    options: HookOptions = {},
  ): Unsubscribe {
    const tierIndex = TIERS.indexOf(tier);
    if (tierIndex < 0) throw new ChainError(`unknown tier '${tier}' (tiers: ${TIERS.join(", ")})`);
    checkPattern(pattern);
    if (typeof hook !== "function") throw new ChainError(`${owner}: hook for '${pattern}' is not a function`);
    const entry: Entry = {
      tier: tierIndex,
      seq: this.seq++,
      owner,
      pattern,
      matcher: matcher ? compileMatcher(matcher) : null,
      hook: hook as AnyHook,
      timeoutMs: options.timeoutMs ?? this.defaultTimeoutMs,
    };
    this.entries.push(entry);
    this.compiled.clear();
    return () => {
      const i = this.entries.indexOf(entry);
      if (i >= 0) {
        this.entries.splice(i, 1);
        this.compiled.clear();
      }
    };
  }

  /** The `on` function handed to a plugin: its tier and owner are fixed by the caller. */
  registrar(tier: Tier, owner: string): OnFunction {
    const on = (name: string, a: unknown, b?: unknown, c?: unknown): Unsubscribe => {
      if (typeof a === "function") return this.on(tier, owner, name, null, a as AnyHook, (b ?? {}) as HookOptions);
      return this.on(tier, owner, name, a as Matcher, b as AnyHook, (c ?? {}) as HookOptions);
    };
    return on as OnFunction;
  }

  /** The engine's own answer to an event. Gate events cannot have one: their tail is deny. */
  setCore<N extends EventName>(name: N, handler: (event: EventOf<N>) => Result<N> | Promise<Result<N>>): void {
    if (!isEventName(name)) throw new ChainError(`unknown event '${name}'`);
    if (CATALOGUE[name].gate) throw new ChainError(`'${name}' is a gate: its core answer is always deny`);
    this.cores.set(name, handler as Core);
  }

  /** A session's own answers (an engine's), until the returned function is called. Events
   *  carrying this `sessionId` reach them before the host's cores. One set per session. */
  setSessionCores(sessionId: string, cores: SessionCores): Unsubscribe {
    if (this.sessions.has(sessionId)) throw new ChainError(`session '${sessionId}' already has its core answers (two engines for one session?)`);
    const table = new Map<string, Core>();
    for (const [name, handler] of Object.entries(cores)) {
      if (!isEventName(name)) throw new ChainError(`unknown event '${name}'`);
      if (CATALOGUE[name].gate) throw new ChainError(`'${name}' is a gate: its core answer is always deny`);
      if (typeof handler === "function") table.set(name, handler as Core);
    }
    this.sessions.set(sessionId, table);
    return () => {
      if (this.sessions.get(sessionId) === table) this.sessions.delete(sessionId);
    };
  }

  hasCore(name: EventName): boolean {
    return CATALOGUE[name].gate || this.cores.has(name) || [...this.sessions.values()].some((t) => t.has(name));
  }

  onReport(fn: (r: ChainReport) => void): void {
    this.reporters.push(fn);
  }

  /** Who hooks an event, outermost first (for `deepcode --events`, `/tools` and tests). */
  hooksFor(name: EventName): Array<{ tier: Tier; owner: string; pattern: string }> {
    return this.hooks(name).map((e) => ({ tier: TIERS[e.tier], owner: e.owner, pattern: e.pattern }));
  }

  dispatch<N extends EventName>(event: EventOf<N>): Promise<Result<N>> {
    const name = event.type;
    let hooks: Entry[];
    try {
      hooks = this.hooks(name);
    } catch (err) {
      return Promise.reject(err);
    }
    if (hooks.length === 0) return this.core(name, event as unknown as Ev) as Promise<Result<N>>;
    return this.step(name, CATALOGUE[name].gate, hooks, 0, freezeEvent(event as unknown as Ev)) as Promise<Result<N>>;
  }

  private hooks(name: string): Entry[] {
    const cached = this.compiled.get(name);
    if (cached) return cached;
    if (!isEventName(name)) throw new ChainError(`unknown event '${name}' (deepcode --events lists them)`);
    const list = this.entries
      .filter((e) => patternMatches(e.pattern, name))
      .sort((a, b) => a.tier - b.tier || a.seq - b.seq);
    this.compiled.set(name, list);
    return list;
  }

  private core(name: string, event: Ev): Promise<unknown> {
    const id = this.sessions.size > 0 ? event.sessionId : undefined;
    const handler = (typeof id === "string" ? this.sessions.get(id)?.get(name) : undefined) ?? this.cores.get(name);
    if (handler === undefined) {
      if (CATALOGUE[name as EventName].gate) return Promise.resolve(denyResult("no rule or hook allowed it", "core"));
      const whose = typeof event.sessionId === "string" ? ` (for session '${event.sessionId}')` : "";
      return Promise.reject(new NotImplementedError(`event '${name}' has no core implementation${whose}`));
    }
    try {
      const r = (handler as (e: Ev) => unknown)(event);
      return r instanceof Promise ? r : Promise.resolve(r);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private step(name: string, gate: boolean, hooks: Entry[], from: number, event: Ev): Promise<unknown> {
    let i = from;
    while (i < hooks.length && hooks[i].matcher !== null && !hooks[i].matcher!(event)) i++;
    if (i === hooks.length) return this.core(name, event);
    return this.invoke(name, gate, hooks, i, event);
  }

  private invoke(name: string, gate: boolean, hooks: Entry[], i: number, event: Ev): Promise<unknown> {
    const h = hooks[i];
    return new Promise((resolve, reject) => {
      let nextCalled = false;
      let downstream: Promise<unknown> | undefined;
      let downstreamSettled = false;
      let downstreamError: unknown = NO_ERROR;
      let done = false;
      const frame: Frame = { deadline: 0, remaining: h.timeoutMs, expire: () => fail(new HookTimeoutError(h.owner, name, h.timeoutMs)) };

      const next = (e?: Ev): Promise<unknown> => {
        if (nextCalled) throw new ChainError(`${h.owner} called next() twice on '${name}'`);
        // Past its time limit (or failed) the hook was already answered for — skipped, or
        // denied on a gate: continuing now would run the rest of the chain a second time.
        if (done) throw new ChainError(`${h.owner} called next() on '${name}' after its time ran out`);
        let forward = event;
        if (e !== undefined && e !== event) {
          if (e === null || typeof e !== "object" || e.type !== name) {
            throw new ChainError(`${h.owner} rewrote '${name}' into something that is not a '${name}' event`);
          }
          forward = freezeEvent(e);
        }
        nextCalled = true;
        this.watchdog.pause(frame);
        downstream = this.step(name, gate, hooks, i + 1, forward).then(
          (r) => {
            downstreamSettled = true;
            if (!done) this.watchdog.start(frame);
            return r;
          },
          (err: unknown) => {
            downstreamSettled = true;
            downstreamError = err;
            if (!done) this.watchdog.start(frame);
            throw err;
          },
        );
        return downstream;
      };

      const finish = (r: unknown): void => {
        if (done) return;
        done = true;
        this.watchdog.stop(frame);
        if (nextCalled && !downstreamSettled) {
          this.report({ level: "warn", owner: h.owner, event: name, message: "hook returned before its downstream finished (missing await on next()?)" });
        }
        if (gate && !isGateResult(name as EventName, r)) {
          this.report({ level: "error", owner: h.owner, event: name, message: `malformed gate result ${preview(r)}: denied` });
          resolve(denyResult(`hook of ${h.owner} returned a malformed result`, h.owner));
          return;
        }
        resolve(r);
      };

      const fail = (err: unknown): void => {
        if (done) return;
        done = true;
        this.watchdog.stop(frame);
        if (err === downstreamError) {
          reject(err); // downstream's own failure passing back through this hook
          return;
        }
        if (err instanceof DeniedError && !gate) {
          reject(err); // a deliberate refusal, not a failure: the caller must see it
          return;
        }
        const why = err instanceof Error ? err.message : String(err);
        if (gate) {
          this.report({ level: "error", owner: h.owner, event: name, message: `hook failed (${why}): denied` });
          resolve(denyResult(`hook of ${h.owner} failed: ${why}`, h.owner));
          return;
        }
        this.report({ level: "error", owner: h.owner, event: name, message: `hook failed and was skipped: ${why}` });
        resolve(downstream ?? this.step(name, gate, hooks, i + 1, event));
      };

      this.watchdog.start(frame);
      let r: unknown;
      try {
        r = h.hook(event as never, next as never);
      } catch (err) {
        fail(err);
        return;
      }
      if (r !== null && typeof r === "object" && typeof (r as PromiseLike<unknown>).then === "function") {
        (r as PromiseLike<unknown>).then(finish, fail);
      } else {
        finish(r);
      }
    });
  }

  private report(r: ChainReport): void {
    if (this.reporters.length === 0) {
      process.stderr.write(`deepcode: [${r.level}] ${r.owner} on ${r.event}: ${r.message}\n`);
      return;
    }
    for (const fn of this.reporters) fn(r);
  }
}

const NO_ERROR = Symbol("no error");
