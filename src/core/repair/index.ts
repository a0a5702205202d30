// Tool-call repair: builtin-tier hooks that make DeepSeek's known tool-calling quirks
// harmless, each repair made visible as a `model.repair` event (see the files of this folder
// for each quirk and what is done about it). The assembly calls `registerRepairs` before any
// other builtin-tier hook on these events, so the repairs are the outermost builtin hooks:
//
//   model.stream    markup held back from the display                (until the reply is judged)
//   model.response  reasoning before `</think>` moved out of content (think.ts), then
//                   scavenging of calls written as text            (rewrites the reply)
//   tool.list       schema flattening of deep schemas              (wraps the definitions)
//   tool.input      re-nesting of flat inputs (outer), then JSON repair (inner; wraps the parse)
//   tool.check      the call-storm breaker                          (may deny)
//   turn.start      the breaker's history starts over
//
// Re-nesting is not announced: flattening is how such tools are offered, not a repair.

import type { JsonSchema, ToolDefinition } from "../../contract/index.js";
import type { Chain } from "../chain.js";
import { registerCallStorm } from "./call-storm.js";
import { RepairLog } from "./canonical.js";
import { flattenSchema, renest } from "./flatten.js";
import { repairJson } from "./json-repair.js";
import { scavengeResponse } from "./scavenge.js";
import { freshCallId } from "../session/ids.js";
import { contentDelta, StreamHold } from "./stream-hold.js";
import { moveThinking } from "./think.js";
import { MAX_JSON_DEPTH, textDepth } from "../../lib/json.js";

export { describeCall } from "./canonical.js";
export { CallStormBreaker, STORM_BY, STORM_LIMIT, STORM_WINDOW } from "./call-storm.js";
export { parseDsml, type FoundCall, type ScanResult, type ScanOptions } from "./dsml.js";
export { flattenSchema, renest, FLATTEN_DEPTH } from "./flatten.js";
export { scavengeJsonCalls } from "./json-calls.js";
export { repairJson, type JsonRepair } from "./json-repair.js";
export { scavengeResponse, type ScavengeKind, type ScavengeOptions } from "./scavenge.js";

export const REPAIR_OWNER = "repair";
export const DEFAULT_MAX_SCAVENGED = 4;
/** How much of an unrepairable argument string is quoted back to the model. */
const QUOTE_CHARS = 200;

export interface RepairTool {
  name: string;
  inputSchema: JsonSchema;
  readOnly: boolean;
}

export interface RepairOptions {
  /** The session's tools, as registered (their real, unflattened schemas). */
  tools: () => ReadonlyArray<RepairTool>;
  /** At most this many calls are scavenged from one reply (default 4). */
  maxScavenged?: number;
}

export function registerRepairs(chain: Chain, opts: RepairOptions): void {
  const log = new RepairLog(chain);
  const owner = REPAIR_OWNER;
  const schemaOf = (tool: string): JsonSchema | undefined => opts.tools().find((t) => t.name === tool)?.inputSchema;

  // One hold per session: subagents stream at the same time as each other.
  const holds = new Map<string, StreamHold>();
  const holdOf = (sessionId: string): StreamHold => holds.get(sessionId) ?? holds.set(sessionId, new StreamHold()).get(sessionId)!;
  const flushing = new Set<string>();
  chain.on("builtin", owner, "model.stream", null, (e, next) => {
    if (flushing.has(e.sessionId) || e.delta.kind !== "content") return next();
    const now = holdOf(e.sessionId).content(e.step, e.delta.text);
    return now ? next({ ...e, delta: contentDelta(now) }) : undefined;
  });
  // Outermost on model.response: it sees the final answer, after every repair below it.
  chain.on("builtin", owner, "model.response", null, async (e, next) => {
    const r = await next();
    const rest = holdOf(e.sessionId).finish(e.step, r.message.content ?? "");
    if (rest) {
      flushing.add(e.sessionId);
      try {
        await chain.dispatch({ type: "model.stream", sessionId: e.sessionId, step: e.step, delta: contentDelta(rest) });
      } finally {
        flushing.delete(e.sessionId);
      }
    }
    return r;
  });
  chain.on("builtin", owner, "turn.complete", null, (e, next) => {
    holds.delete(e.sessionId);
    return next();
  });

  chain.on("builtin", owner, "model.response", null, async (e, next) => {
    const moved = moveThinking(e.response);
    if (moved === null) return next();
    await log.announce("reasoning-in-content", "moved the reasoning before </think> out of the answer", e.step, e.sessionId);
    return next({ ...e, response: moved });
  });

  chain.on("builtin", owner, "model.response", null, async (e, next) => {
    // The names offered this round; the registered tools stand in if the loop sent none.
    const toolNames = e.toolNames.length > 0 ? e.toolNames : opts.tools().map((t) => t.name);
    const fixed = scavengeResponse(e.response, {
      toolNames,
      schemaOf,
      max: opts.maxScavenged ?? DEFAULT_MAX_SCAVENGED,
      // Random: unique across the session's life, resumes included (DeepSeek refuses a
      // history with two calls of one id).
      nextId: () => freshCallId("call_scav"),
    });
    if (fixed === null) return next();
    for (const r of fixed.repairs) await log.announce(r.kind, r.detail, e.step, e.sessionId);
    return next({ ...e, response: fixed.response });
  });

  chain.on("builtin", owner, "tool.list", null, async (_e, next) => {
    const defs = await next();
    return defs.map((d): ToolDefinition => {
      const flat = flattenSchema(d.function.parameters);
      return flat === null ? d : { ...d, function: { ...d.function, parameters: flat } };
    });
  });

  chain.on("builtin", owner, "tool.input", null, async (e, next) => {
    const r = await next();
    if (!("input" in r)) return r;
    // Re-nest against the tool's registered schema: the same one tool.list flattened, and the
    // only one there is after a resume (tool.list is not dispatched again then).
    const schema = schemaOf(e.tool);
    return schema === undefined ? r : { input: renest(r.input, schema) };
  });

  chain.on("builtin", owner, "tool.input", null, async (e, next) => {
    const r = await next();
    if (!("error" in r)) return r;
    if (textDepth(e.arguments, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return r; // too deep to mend: the core said so
    const fixed = repairJson(e.arguments);
    if (fixed.ok && fixed.fixes.length === 0) return r; // it was valid JSON: the error is about something else
    if (fixed.ok && ((e.cutOff && fixed.fixes.some((f) => /^closed/.test(f))) || fixed.fixes.some((f) => CUT.test(f)))) {
      // The arguments were cut, not malformed: the reply hit the output limit, or they end in
      // the middle of a value whatever finish_reason said (some servers report a cut call as
      // `tool_calls`). Completing them would run a Write with half its content or half a
      // command; ask for the call again.
      return { error: cutOffMessage(e.tool, e.arguments, e.cutOff) };
    }
    if (fixed.ok) {
      await log.announce("json-repaired", `${e.tool}: ${fixed.fixes.join("; ")}`, e.step, e.sessionId);
      return { input: fixed.value };
    }
    return { error: retryMessage(e.tool, e.arguments, fixed.reason) };
  });

  registerCallStorm(chain, log, owner);
}

/** Repairs that mean the text stopped in the middle of a value: it was cut, not mistyped. */
const CUT = /^(closed an unterminated string|dropped a cut|dropped a dangling escape|completed the cut literal|read the cut|set the dangling key)/;

/** What the model reads when its call was cut off (by the output limit, or in transit). */
export function cutOffMessage(tool: string, args: string, byLimit = true): string {
  return (
    `This ${tool} call was cut off ${byLimit ? "by the output limit" : "before its arguments ended"} (${args.length} characters of arguments arrived), so it did not run. ` +
    `Send it again; if its content is large, split the work (write a shorter file first, then add to it with Edit).`
  );
}

/** What the model reads when its arguments could not be repaired: what was wrong, what it
 *  sent (the start of it), and what to do. */
export function retryMessage(tool: string, args: string, reason: string): string {
  const quoted = args.length > QUOTE_CHARS ? `${args.slice(0, QUOTE_CHARS)}… (${args.length} characters in all)` : args;
  return (
    `The arguments of this ${tool} call are not valid JSON and could not be repaired: ${reason}. ` +
    `You sent: ${quoted}\n` +
    `Retry the ${tool} call with its complete arguments as one valid JSON object.`
  );
}
