// The call-storm breaker: DeepSeek models sometimes repeat the same call in a loop. The same
// call (tool name + arguments with keys sorted) for the third time within the last six calls
// is suppressed at the permission gate, with a reason written to the model.
//
// History is per session and starts over at each user turn. A mutating call (`readOnly ===
// false`) that was not denied may have changed the state, so it clears the entries of every
// other call: re-reading a file after an edit, or re-running the tests after a fix, is
// legitimate. Its own earlier entries stay, so repeating a mutating call with nothing in
// between is still a storm. A call with unknown read-onliness (`null`) clears nothing.
// Suppressed calls are recorded too: a fourth attempt is suppressed as well.
//
// Suppressing a call does not stop the spending: a model in a loop keeps asking (public
// reports: 61 requests for one repeated call). So once the breaker has tripped in a turn, the
// next suppressed repetition is denied `by: STORM_STOP_BY` with a note to the model, and the
// loop ends the turn there (stop reason `repeated_calls`): at most a handful of requests.

import type { GateDecision, JsonObject } from "../../contract/index.js";
import type { Chain } from "../chain.js";
import { callKey, describeCall, type RepairLog } from "./canonical.js";

export const STORM_WINDOW = 6;
export const STORM_LIMIT = 3;
export const STORM_BY = "repair:call-storm";
/** Who denies a repetition after the breaker already tripped this turn: the turn ends. */
export const STORM_STOP_BY = "repair:call-storm:stop";

interface Entry {
  key: string;
}

export class CallStormBreaker {
  private readonly sessions = new Map<string, Entry[]>();

  /** Record a call; returns how many times it has now been made within the window. */
  record(sessionId: string, tool: string, input: JsonObject): number {
    const key = callKey(tool, input);
    const history = this.sessions.get(sessionId) ?? [];
    const same = history.slice(-(STORM_WINDOW - 1)).filter((e) => e.key === key).length + 1;
    history.push({ key });
    if (history.length > STORM_WINDOW) history.splice(0, history.length - STORM_WINDOW);
    this.sessions.set(sessionId, history);
    return same;
  }

  /** A mutating call went through the gate: only its own repeats remain. */
  changed(sessionId: string, tool: string, input: JsonObject): void {
    const key = callKey(tool, input);
    const history = this.sessions.get(sessionId);
    if (history) this.sessions.set(sessionId, history.filter((e) => e.key === key));
  }

  reset(sessionId: string): void {
    this.sessions.delete(sessionId);
  }
}

export function stormReason(tool: string, times: number): string {
  return (
    `Not run: you have called ${tool} with these same arguments ${times} times in your last ${STORM_WINDOW} calls, ` +
    "and nothing has changed in between, so the result would not change. Do not repeat this call: " +
    "use the result you already have, try a different approach, or answer the user."
  );
}

/** The note the model reads when its repetition ends the turn. */
export function stormStopReason(tool: string): string {
  return (
    `Not run: you called ${tool} with these same arguments again after being told the result would not change. ` +
    "deepcode ends this turn here so the loop stops costing requests. When the user writes again, use the results you have or take a different approach."
  );
}

export function registerCallStorm(chain: Chain, log: RepairLog, owner: string): void {
  const breaker = new CallStormBreaker();
  const tripped = new Set<string>();
  chain.on("builtin", owner, "tool.check", null, async (e, next): Promise<GateDecision> => {
    // @-mention checks (src/cli/mentions.ts) are not the model's calls: they never count.
    if (e.callId.startsWith("mention-")) return next();
    const times = breaker.record(e.sessionId, e.tool, e.input);
    if (times >= STORM_LIMIT) {
      await log.announce("call-storm", `${describeCall(e.tool, e.input)} suppressed: call ${times} of the same in the last ${STORM_WINDOW}`, e.step, e.sessionId);
      if (tripped.has(e.sessionId)) return { decision: "deny", reason: stormStopReason(e.tool), by: STORM_STOP_BY };
      tripped.add(e.sessionId);
      return { decision: "deny", reason: stormReason(e.tool, times), by: STORM_BY };
    }
    const decision = await next();
    if (e.readOnly === false && decision.decision !== "deny") breaker.changed(e.sessionId, e.tool, e.input);
    return decision;
  });
  chain.on("builtin", owner, "turn.start", null, (e, next) => {
    breaker.reset(e.sessionId);
    tripped.delete(e.sessionId);
    return next();
  });
}
