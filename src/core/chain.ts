// The chain: one Koa-style middleware stack per event, in five tiers
// (prepend → user → append → builtin → core). The first hook registered in the first tier is
// outermost: it sees the event first and the result last. The core tier is the single tail.
//
// Contracts (DESIGN.md §1), each in one place:
// - the continuation (`run`, below): `next(e)` continues; calling it twice throws, and so does
//   calling it after the hook was answered for. A rewrite is a new frozen object. With no hooks
//   on an event, the core answer runs directly on the caller's object.
// - the gate policy (chain-gate.ts): on a gate event (tool.check, permission.ask, person.ask) a
//   throw, a timeout or a malformed result is a deny, and the tail answers the event's default
//   answer (`setGateDefault`, set once) or deny. Other events: a failing hook is reported and
//   skipped.
// - hook timing (watchdog.ts): a hook's time limit counts its own time only, not time spent
//   inside `next`.
// - the core tier (chain-cores.ts): the host's answers (`setCore`), each session's own
//   (`setSessionCores`) and each gate's default answer (`setGateDefault`), each set once.
//
// One chain, many sessions (a subagent is an engine session of its own): the hooks are one
// table for the whole process, so every session's calls pass the very same hooks — the
// permission gate, PreToolUse hooks, the fence, the sandbox, the budget gate, the usage ledger.
// Only the core tier is per session: an event whose `sessionId` names a session reaches that
// session's answer, so a second engine never replaces the first one's answers, and an event a
// hook dispatches on behalf of a session (a repair notice, a flushed delta) reaches that session
// wherever it is dispatched from. Hooks that keep state per session key it by `sessionId`.

import { CATALOGUE, ChainError, HookTimeoutError, TIERS, isEventName } from "../contract/index.js";
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
import { CoreTier, type SessionCores } from "./chain-cores.js";
import { GATE_POLICY, PLAIN_POLICY, RETHROW, SKIP } from "./chain-gate.js";
import type { ChainReport, GateDefault, GateEventName, Policy, Reporter } from "./chain-gate.js";
import { freezeEvent } from "./freeze.js";
import { checkPattern, compileMatcher, patternMatches, type CompiledMatcher } from "./matcher.js";
import { PAUSED, STOPPED, Watchdog } from "./watchdog.js";

export type { ChainReport, GateDefault, GateEventName } from "./chain-gate.js";
export type { SessionCores, SessionEventName } from "./chain-cores.js";

export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;

interface Entry {
  tier: number;
  seq: number;
  owner: string;
  pattern: string;
  matcher: CompiledMatcher | null;
  hook: AnyHook;
  timeoutMs: number;
}

type Ev = { readonly type: string } & Record<string, unknown>;
/** One dispatch through hooks: its event's name, hooks and policy. */
interface Dispatch {
  name: string;
  hooks: Entry[];
  policy: Policy;
}

export class Chain {
  private readonly entries: Entry[] = [];
  private readonly compiled = new Map<string, Entry[]>();
  private readonly tail = new CoreTier();
  private readonly reporters: Array<(r: ChainReport) => void> = [];
  private readonly watchdog = new Watchdog();
  private readonly reporter: Reporter = (r) => this.report(r);
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

  /** The host's answer to an event, once: a second answer is refused (replaceCore says a
   *  replacement is meant). Gate events cannot have one: their tail is deny (setGateDefault). */
  setCore<N extends EventName>(name: N, handler: (event: EventOf<N>) => Result<N> | Promise<Result<N>>): void {
    this.tail.setHost(name, handler, false);
  }

  /** The host's answer to an event, replacing the one set before (if any) on purpose. */
  replaceCore<N extends EventName>(name: N, handler: (event: EventOf<N>) => Result<N> | Promise<Result<N>>): void {
    this.tail.setHost(name, handler, true);
  }

  /** A gate's default answer, once, until the returned function is called: what its tail
   *  answers when no hook answered (the permission gate's rule-based decision on tool.check).
   *  Held to the gate's policy: a throw or a malformed answer is a deny. Hooks downstream of an
   *  outer hook see this answer, not a deny they would have to tell from a real one. */
  setGateDefault<N extends GateEventName>(name: N, answer: GateDefault<N>): Unsubscribe {
    return this.tail.setGateDefault(name, answer);
  }

  /** Whether a gate event's tail answers something other than deny (for `deepcode --events`). */
  hasGateDefault(name: EventName): boolean {
    return this.tail.hasGateDefault(name);
  }

  /** A session's own answers (an engine's), until the returned function is called. Events
   *  carrying this `sessionId` reach them before the host's cores. One set per session: a
   *  second is refused, naming the events it would answer twice. */
  setSessionCores(sessionId: string, cores: SessionCores): Unsubscribe {
    return this.tail.setSession(sessionId, cores);
  }

  hasCore(name: EventName): boolean {
    return this.tail.has(name);
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
    if (hooks.length === 0) return this.tail.answer(name, event as unknown as Ev, this.reporter) as Promise<Result<N>>;
    const d: Dispatch = { name, hooks, policy: CATALOGUE[name].gate ? GATE_POLICY : PLAIN_POLICY };
    return this.run(d, 0, freezeEvent(event as unknown as Ev)) as Promise<Result<N>>;
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

  /** The continuation (koa-compose's `dispatch(i)`): the first hook from `from` whose matcher
   *  takes `event` runs with `next` bound to the rest; past the last hook, the core tier. What
   *  its answer or failure becomes is the event's policy (chain-gate.ts); its time, the clock's
   *  (watchdog.ts). Two misuse guards: `next` twice, and `next` after the hook was answered for. */
  private run(d: Dispatch, from: number, event: Ev): Promise<unknown> {
    let i = from;
    while (i < d.hooks.length && d.hooks[i].matcher !== null && !d.hooks[i].matcher!(event)) i++;
    if (i === d.hooks.length) return this.tail.answer(d.name, event, this.reporter);
    const h = d.hooks[i];
    return new Promise((resolve, reject) => {
      let called = false;
      let downstream: Promise<unknown> | undefined;
      let failedBelow: unknown = NO_ERROR;
      const clock = this.watchdog.clock(h.timeoutMs, () => failed(new HookTimeoutError(h.owner, d.name, h.timeoutMs)));

      const next = (e?: Ev): Promise<unknown> => {
        if (called) throw new ChainError(`${h.owner} called next() twice on '${d.name}'`);
        // Past its time limit (or failed) the hook was already answered for — skipped, or
        // denied on a gate: continuing now would run the rest of the chain a second time.
        if (clock.state === STOPPED) throw new ChainError(`${h.owner} called next() on '${d.name}' after its time ran out`);
        const forward = rewritten(d.name, h.owner, event, e);
        called = true;
        clock.pause();
        downstream = this.run(d, i + 1, forward).then(
          (r) => (clock.resume(), r),
          (err: unknown) => {
            clock.resume();
            throw (failedBelow = err);
          },
        );
        return downstream;
      };
      const answered = (r: unknown): void => {
        const was = clock.stop();
        if (was === STOPPED) return;
        if (was === PAUSED) this.report({ level: "warn", owner: h.owner, event: d.name, message: "hook returned before its downstream finished (missing await on next()?)" });
        resolve(d.policy.answer(d.name, h.owner, r, this.reporter));
      };
      const failed = (err: unknown): void => {
        if (clock.stop() === STOPPED) return;
        // Downstream's own failure passing back through this hook is not this hook's.
        const f = err === failedBelow ? RETHROW : d.policy.failure(d.name, h.owner, err, this.reporter);
        if (f === RETHROW) reject(err);
        else resolve(f === SKIP ? (downstream ?? this.run(d, i + 1, event)) : f);
      };

      let r: unknown;
      try {
        r = h.hook(event as never, next as never);
      } catch (err) {
        failed(err);
        return;
      }
      if (r !== null && typeof r === "object" && typeof (r as PromiseLike<unknown>).then === "function") (r as PromiseLike<unknown>).then(answered, failed);
      else answered(r);
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

/** The event `next(e)` forwards: the hook's own when `e` is omitted or unchanged, else the
 *  rewrite, frozen — which must still be an event of the same name. */
function rewritten(name: string, owner: string, event: Ev, e: Ev | undefined): Ev {
  if (e === undefined || e === event) return event;
  if (e === null || typeof e !== "object" || e.type !== name) throw new ChainError(`${owner} rewrote '${name}' into something that is not a '${name}' event`);
  return freezeEvent(e);
}
