// What the chain makes of a hook's answer or failure, per kind of event (DESIGN.md §1).
//
// Gate events (tool.check, permission.ask, person.ask) fail closed:
// - a hook that throws, overruns its time limit or answers something that is not a gate result
//   is a deny, signed with the hook's owner, and reported;
// - the core tail answers the event's default answer (Chain.setGateDefault) when one is set,
//   else deny; a default that throws or answers malformed is a deny too;
// - a downstream deny stays a deny: the chain never turns a result into an allow — only a hook
//   (or the default) can answer allow, and an outer hook sees what the inner ones answered.
// Other events: a failing hook is reported and skipped (the rest of the chain runs as if it had
// passed the event on), except a DeniedError, a deliberate refusal the caller must see.

import { DeniedError, denyResult, isGateResult } from "../contract/index.js";
import type { EventName, EventOf, Result } from "../contract/index.js";
import { preview } from "./freeze.js";

export interface ChainReport {
  level: "warn" | "error";
  owner: string;
  event: string;
  message: string;
}
export type Reporter = (r: ChainReport) => void;

/** The events whose tail is deny. `CATALOGUE[name].gate` says the same at run time. */
export type GateEventName = "tool.check" | "permission.ask" | "person.ask";
/** A gate's default answer: what the tail answers when no hook answered (setGateDefault). */
export type GateDefault<N extends GateEventName = GateEventName> = (event: EventOf<N>) => Result<N> | Promise<Result<N>>;

/** A failing hook's event runs on without it (`Policy.failure`). */
export const SKIP = Symbol("skip the hook");
/** A failing hook's error reaches the caller (`Policy.failure`). */
export const RETHROW = Symbol("rethrow");

export interface Policy {
  /** What a hook's answer `r` becomes. */
  answer(name: string, owner: string, r: unknown, report: Reporter): unknown;
  /** What a hook's failure becomes: SKIP, RETHROW, or the result to answer with. */
  failure(name: string, owner: string, err: unknown, report: Reporter): unknown;
}

const why = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export const GATE_POLICY: Policy = {
  answer(name, owner, r, report) {
    if (isGateResult(name as EventName, r)) return r;
    report({ level: "error", owner, event: name, message: `malformed gate result ${preview(r)}: denied` });
    return denyResult(`hook of ${owner} returned a malformed result`, owner);
  },
  failure(name, owner, err, report) {
    report({ level: "error", owner, event: name, message: `hook failed (${why(err)}): denied` });
    return denyResult(`hook of ${owner} failed: ${why(err)}`, owner);
  },
};

export const PLAIN_POLICY: Policy = {
  answer: (_name, _owner, r) => r,
  failure(name, owner, err, report) {
    if (err instanceof DeniedError) return RETHROW;
    report({ level: "error", owner, event: name, message: `hook failed and was skipped: ${why(err)}` });
    return SKIP;
  },
};

/** The core tail of a gate event: its default answer if it has one, else deny (by "core"). */
export async function gateTail(name: string, event: unknown, answer: ((event: never) => unknown) | undefined, report: Reporter): Promise<unknown> {
  if (answer === undefined) return denyResult("no rule or hook allowed it", "core");
  let r: unknown;
  try {
    r = await answer(event as never);
  } catch (err) {
    report({ level: "error", owner: "core", event: name, message: `the default answer failed (${why(err)}): denied` });
    return denyResult(`the default answer failed: ${why(err)}`, "core");
  }
  if (isGateResult(name as EventName, r)) return r;
  report({ level: "error", owner: "core", event: name, message: `malformed default answer ${preview(r)}: denied` });
  return denyResult("the default answer was malformed", "core");
}
