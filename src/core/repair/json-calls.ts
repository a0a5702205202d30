// Tool calls written as JSON text instead of as `tool_calls`: DeepSeek models sometimes "think"
// a call in `reasoning_content`, or write it in `content`, and stop. Shapes recognised (as
// publicly reported, and the OpenAI/Hermes shapes they imitate):
//
//   {"name": "Read", "arguments": {...}}          arguments may also be a JSON string
//   {"tool": "Read", "parameters": {...}}         also tool_name / input / args
//   {"function": {"name": "Read", "arguments": "..."}}   optionally with "type": "function"
//   [ call, call ]   and   {"tool_calls": [ call, ... ]}   and   {"function_call": call}
//
// fenced (```json … ```) or not, optionally inside <tool_call>…</tool_call>, <function>…</function>,
// <tool>…</tool> (a stray `</parameter>` before the closer included) or [TOOL_REQUEST]…
// [END_TOOL_REQUEST]; the wrapper goes with the call. A recognised
// object must name a known tool and carry an arguments object: `{"name": "Read"}` alone is
// too likely to be data. Objects that are not calls are skipped whole (a call nested in an
// unrelated object is not one).

import type { JsonObject, JsonValue } from "../../contract/index.js";
import { MAX_JSON_DEPTH, isObject, valueDepth } from "../../lib/json.js";
import { withoutBlocks, type Block, type FoundCall, type ScanResult } from "./dsml.js";

const NAME_KEYS = ["name", "tool", "tool_name", "function"] as const;
const ARG_KEYS = ["arguments", "parameters", "input", "args"] as const;
/** A bound on the characters scanned in all, so a long reasoning full of unbalanced braces
 *  costs milliseconds, not seconds (each candidate may scan to the end of the text). */
const MAX_WORK = 4_000_000;

export function scavengeJsonCalls(text: string, known: (name: string) => boolean = () => true): ScanResult {
  return withoutBlocks(text, jsonBlocks(text, known));
}

/** JSON call objects of a text, each with the wrapper that held only it. */
export function jsonBlocks(text: string, known: (name: string) => boolean = () => true): Block[] {
  const blocks: Block[] = [];
  let work = 0;
  let i = 0;
  while (i < text.length && work < MAX_WORK) {
    const c = text[i];
    if (c !== "{" && c !== "[") {
      i++;
      continue;
    }
    const end = matchingEnd(text, i);
    work += (end < 0 ? text.length : end) - i;
    if (end < 0) {
      i++;
      continue;
    }
    let value: JsonValue;
    try {
      value = JSON.parse(text.slice(i, end)) as JsonValue;
    } catch {
      i++; // not JSON from here: an inner brace may still start an object
      continue;
    }
    // A call nested too deep to walk is no call deepcode can run: left as text.
    const found = valueDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH ? [] : callsIn(value, known);
    if (found.length > 0) {
      const [start, stop] = widen(text, i, end);
      blocks.push({ start, end: stop, calls: found });
    }
    i = end;
  }
  return blocks;
}

/** The calls a parsed value stands for: all of them, or none (a list with one non-call in it
 *  is data, not a batch of calls). */
function callsIn(value: JsonValue, known: (name: string) => boolean): FoundCall[] {
  if (Array.isArray(value)) {
    const each = value.map((v) => asCall(v, known));
    return value.length > 0 && each.every((c) => c !== null) ? (each as FoundCall[]) : [];
  }
  if (isObject(value) && Array.isArray(value.tool_calls)) return callsIn(value.tool_calls, known);
  if (isObject(value) && isObject(value.function_call)) return callsIn(value.function_call, known);
  const one = asCall(value, known);
  return one ? [one] : [];
}

function asCall(value: JsonValue, known: (name: string) => boolean): FoundCall | null {
  if (!isObject(value)) return null;
  const fn = value.function;
  const source: JsonObject = isObject(fn) ? fn : value;
  let name: string | undefined;
  for (const k of NAME_KEYS) {
    const v = source[k];
    if (typeof v === "string") {
      name = v.trim();
      break;
    }
  }
  if (name === undefined || !known(name)) return null;
  for (const k of ARG_KEYS) {
    if (!(k in source)) continue;
    const input = argumentsObject(source[k]);
    return input ? { name, input } : null;
  }
  return null;
}

function argumentsObject(v: JsonValue): JsonObject | null {
  if (isObject(v)) return v;
  if (typeof v !== "string") return null;
  try {
    const parsed = JSON.parse(v) as JsonValue;
    return isObject(parsed) && valueDepth(parsed, MAX_JSON_DEPTH) <= MAX_JSON_DEPTH ? parsed : null;
  } catch {
    return null; // arguments given as a string that is not a JSON object: not a call
  }
}

/** Index just past the bracket matching the one at `from`, or -1 if it never closes. */
export function matchingEnd(text: string, from: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === "{" || c === "[") {
      depth++;
    } else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Wrappers a call is written in: the opener before it, the closer after it. */
const WRAPPERS: Array<[RegExp, RegExp]> = [
  [/```[\w-]*[ \t]*\r?\n?\s*$/, /^\s*```/],
  [/<tool_call>\s*$/, /^\s*<\/tool_call>/],
  [/<function>\s*$/, /^\s*<\/function>/],
  [/<tool>\s*$/, /^\s*(?:<\/parameter>\s*)?<\/tool>/],
  [/\[TOOL_REQUEST\]\s*$/, /^\s*\[END_TOOL_REQUEST\]/],
];

/** Widen a removed span over a wrapper that held only this JSON, and over a `<|eot_id|>` after it. */
function widen(text: string, start: number, end: number): [number, number] {
  const before = text.slice(0, start);
  const after = text.slice(end);
  for (const [open, close] of WRAPPERS) {
    const o = open.exec(before);
    const c = close.exec(after);
    if (o && c) return [o.index, end + c[0].length];
  }
  const eot = /^\s*<\|eot_id\|>/.exec(after);
  return [start, eot ? end + eot[0].length : end];
}
