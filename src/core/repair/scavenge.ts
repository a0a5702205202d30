// Scavenging: a reply that ended (`finish_reason` stop, or null when the stream ended early)
// with no `tool_calls`, but whose text holds tool calls the model meant to make, is rewritten
// into the reply it should have been, before it enters the log. Where calls are looked for:
//
// 1. `content`: DSML markup first; if there is none, JSON call objects.
// 2. `reasoning_content`, only when `content` is empty: the model "thought" the call and
//    stopped. With visible content, reasoning is left alone: it often holds example or
//    rejected calls. DSML in reasoning counts too (same failure, other channel).
//
// Only registered tool names count; duplicates (same name, same canonical arguments) are
// dropped; at most `max` calls are kept (the rest are dropped silently: the log then shows
// only the calls that ran). The recognised markup is cut out of `content`, the prose kept;
// content left empty becomes null. Reasoning is never rewritten.

import type { JsonSchema, ModelResponse, ToolCall } from "../../contract/index.js";
import { callKey, describeCall } from "./canonical.js";
import { parseDsml, type FoundCall, type ScanOptions } from "./dsml.js";
import { propertySchema } from "./flatten.js";
import { scavengeJsonCalls } from "./json-calls.js";

export type ScavengeKind = "scavenged-dsml" | "scavenged-json-content" | "scavenged-json-reasoning";

export interface ScavengeOptions {
  toolNames: ReadonlyArray<string>;
  /** The parameter schema of a tool, to type DSML values written without `string="…"`. */
  schemaOf?: (tool: string) => JsonSchema | undefined;
  /** At most this many calls are kept. */
  max: number;
  /** A fresh tool call id (`call_scav_<n>`). */
  nextId: () => string;
}

export interface Scavenged {
  response: ModelResponse;
  repairs: Array<{ kind: ScavengeKind; detail: string }>;
}

/** The rewritten reply and one repair per kept call, or null when there is nothing to do. */
export function scavengeResponse(response: ModelResponse, opts: ScavengeOptions): Scavenged | null {
  const msg = response.message;
  if (msg.tool_calls !== undefined && msg.tool_calls.length > 0) return null;
  if (response.finishReason !== "stop" && response.finishReason !== null) return null;
  const names = new Set(opts.toolNames);
  const scan: ScanOptions = {
    known: (name) => names.has(name),
    paramType: (tool, param) => propertySchema(opts.schemaOf?.(tool), param)?.type,
  };

  const content = msg.content ?? "";
  let found: FoundCall[];
  let kind: ScavengeKind;
  let where = "";
  let newContent: string | null;
  if (content.trim() !== "") {
    const dsml = parseDsml(content, scan);
    const hit = dsml.calls.length > 0 ? dsml : scavengeJsonCalls(content, scan.known);
    if (hit.calls.length === 0) return null;
    found = hit.calls;
    kind = dsml.calls.length > 0 ? "scavenged-dsml" : "scavenged-json-content";
    const rest = hit.rest.replace(/\n{3,}/g, "\n\n").trim();
    newContent = rest === "" ? null : rest;
  } else {
    const reasoning = msg.reasoning_content ?? "";
    if (reasoning.trim() === "") return null;
    const dsml = parseDsml(reasoning, scan);
    const hit = dsml.calls.length > 0 ? dsml : scavengeJsonCalls(reasoning, scan.known);
    if (hit.calls.length === 0) return null;
    found = hit.calls;
    kind = dsml.calls.length > 0 ? "scavenged-dsml" : "scavenged-json-reasoning";
    if (dsml.calls.length > 0) where = " from reasoning";
    newContent = null;
  }

  const seen = new Set<string>();
  const calls = found.filter((c) => {
    const key = callKey(c.name, c.input);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }).slice(0, Math.max(0, opts.max));
  if (calls.length === 0) return null;

  const toolCalls: ToolCall[] = calls.map((c) => ({
    id: opts.nextId(),
    type: "function",
    function: { name: c.name, arguments: JSON.stringify(c.input) },
  }));
  return {
    response: { ...response, message: { ...msg, content: newContent, tool_calls: toolCalls }, finishReason: "tool_calls" },
    repairs: calls.map((c) => ({ kind, detail: `${describeCall(c.name, c.input)}${where}` })),
  };
}
