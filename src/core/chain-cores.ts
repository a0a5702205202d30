// The core tier: the single tail of every event's chain, and where its answer comes from.
//
// - the host's cores (`setCore`): one answer per event for the process — the provider, the
//   side effects, the cost estimate, spawning an agent; `replaceCore` when a replacement is
//   meant (the REPL's renderer over assembly's);
// - each session's cores (`setSessionCores`): what one engine answers for its own session (its
//   context, its tools, its stream). An event whose `sessionId` names such a session reaches
//   that session's answer; otherwise (or for an event the session does not answer) the host's;
// - a gate's default answer (`setGateDefault`): what a gate's tail answers when no hook did
//   (chain-gate.ts holds it to the gate policy); without one the tail denies.
// Each is set once: a second answer for the same event (and session) is a ChainError naming it.
// An event nobody answers throws NotImplementedError naming it (and the session it was for).

import { CATALOGUE, ChainError, NotImplementedError, isEventName } from "../contract/index.js";
import type { EventName, EventOf, Result, Unsubscribe } from "../contract/index.js";
import { gateTail, type Reporter } from "./chain-gate.js";

type Core = (event: never) => unknown;
type Ev = { readonly type: string } & Record<string, unknown>;

/** Events whose payload names a session: the ones a session's engine can answer. */
export type SessionEventName = { [N in EventName]: "sessionId" extends keyof EventOf<N> ? N : never }[EventName];
/** One engine's answers for its own session (setSessionCores). */
export type SessionCores = { [N in SessionEventName]?: (event: EventOf<N>) => Result<N> | Promise<Result<N>> };

export class CoreTier {
  private readonly host = new Map<string, Core>();
  private readonly sessions = new Map<string, ReadonlyMap<string, Core>>();
  private readonly gateDefaults = new Map<string, Core>();

  setHost(name: string, handler: unknown, replace: boolean): void {
    checkCore(name, handler);
    if (!replace && this.host.has(name)) throw new ChainError(`'${name}' already has its core answer (replaceCore replaces it on purpose)`);
    this.host.set(name, handler as Core);
  }

  setGateDefault(name: string, answer: unknown): Unsubscribe {
    if (!isEventName(name) || !CATALOGUE[name].gate) throw new ChainError(`'${name}' is not a gate: it has no default answer (setCore)`);
    if (typeof answer !== "function") throw new ChainError(`the default answer of '${name}' is not a function`);
    if (this.gateDefaults.has(name)) throw new ChainError(`'${name}' already has its default answer`);
    this.gateDefaults.set(name, answer as Core);
    return () => {
      if (this.gateDefaults.get(name) === answer) this.gateDefaults.delete(name);
    };
  }

  hasGateDefault(name: string): boolean {
    return this.gateDefaults.has(name);
  }

  setSession(sessionId: string, cores: SessionCores): Unsubscribe {
    const before = this.sessions.get(sessionId);
    if (before) {
      const twice = Object.keys(cores).filter((n) => before.has(n));
      const named = (twice.length ? twice : [...before.keys()]).map((n) => `'${n}'`).join(", ") || "no events";
      throw new ChainError(`session '${sessionId}' already has its core answers (${named}; two engines for one session?)`);
    }
    const table = new Map<string, Core>();
    for (const [name, handler] of Object.entries(cores)) {
      checkCore(name, handler, true);
      if (typeof handler === "function") table.set(name, handler as Core);
    }
    this.sessions.set(sessionId, table);
    return () => {
      if (this.sessions.get(sessionId) === table) this.sessions.delete(sessionId);
    };
  }

  has(name: EventName): boolean {
    return CATALOGUE[name].gate || this.host.has(name) || [...this.sessions.values()].some((t) => t.has(name));
  }

  /** The tail's answer to `event`: its session's core, else the host's, else (for a gate) the
   *  gate's default or deny; an event nobody answers rejects with NotImplementedError. */
  answer(name: string, event: Ev, report: Reporter): Promise<unknown> {
    const id = this.sessions.size > 0 ? event.sessionId : undefined;
    const handler = (typeof id === "string" ? this.sessions.get(id)?.get(name) : undefined) ?? this.host.get(name);
    if (handler === undefined) {
      if (CATALOGUE[name as EventName].gate) return gateTail(name, event, this.gateDefaults.get(name), report);
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
}

/** A core answer may be set for a declared, non-gate event, and must be a function. */
function checkCore(name: string, handler: unknown, optional = false): void {
  if (!isEventName(name)) throw new ChainError(`unknown event '${name}'`);
  if (CATALOGUE[name].gate) throw new ChainError(`'${name}' is a gate: its core answer is always deny (setGateDefault)`);
  if (typeof handler !== "function" && !(optional && handler === undefined)) throw new ChainError(`the core answer of '${name}' is not a function`);
}
