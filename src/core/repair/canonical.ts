// Small helpers the repairs share: a canonical form of a call (so "the same call" means the
// same tool with the same arguments whatever their key order), the one-line description of a
// call that `model.repair` events carry, and the dispatch of those events.

import type { JsonObject } from "../../contract/index.js";
import { canonicalJson } from "../../lib/json.js";
import type { Chain } from "../chain.js";

/** The identity of a call: tool name plus canonical arguments. */
export function callKey(tool: string, input: JsonObject): string {
  return `${tool}\u0000${canonicalJson(input)}`;
}

const VALUE_PREVIEW = 60;

/** `Read(file_path=src/a.ts, limit=20)`: what a person reads in a repair notice. Strings are
 *  shown bare, other values as JSON; long values are cut so a Write's content stays one line. */
export function describeCall(tool: string, input: JsonObject): string {
  const parts = Object.entries(input).map(([k, v]) => `${k}=${preview(typeof v === "string" ? v : JSON.stringify(v))}`);
  return `${tool}(${parts.join(", ")})`;
}

function preview(s: string): string {
  const one = s.replace(/\s+/g, " ");
  return one.length > VALUE_PREVIEW ? `${one.slice(0, VALUE_PREVIEW - 1)}…` : one;
}

/** Where repairs report, with the session and the model round (`step`) the repaired thing came
 *  from (the notice reaches that session's stream, a subagent's included). */
export class RepairLog {
  constructor(private readonly chain: Chain) {}

  async announce(kind: string, detail: string, step: number, sessionId: string): Promise<void> {
    try {
      await this.chain.dispatch({ type: "model.repair", sessionId, step, kind, detail });
    } catch {
      // A missing core answer or a failing observer of `model.repair` must not undo the
      // repair itself: the call still runs with the repaired arguments. Hook failures are
      // already reported by the chain; only the notice is lost.
    }
  }
}
