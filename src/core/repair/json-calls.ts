// Tool calls written as JSON text instead of as `tool_calls`: DeepSeek models sometimes "think"
// a call in `reasoning_content`, or write it in `content`, and stop. Shapes recognised (as
// publicly reported, and the OpenAI/Hermes shapes they imitate):
//
//   {"name": "Read", "arguments": {...}}          arguments may also be a JSON string
//   {"tool": "Read", "parameters": {...}}         also tool_name / input / args
//   {"function": {"name": "Read", "arguments": "..."}}   optionally with "type": "function"
//   [ call, call ]   and   {"tool_calls": [ call, ... ]}
//
// fenced (```json … ```) or not, optionally inside <tool_call>…</tool_call>. A recognised
// object must name a known tool and carry an arguments object: `{"name": "Read"}` alone is
// too likely to be data. Objects that are not calls are skipped whole (a call nested in an
// unrelated object is not one).

import type { JsonObject, JsonValue } from "../../contract/index.js";
import { isJsonObject } from "./canonical.js";
import type { FoundCall, ScanResult } from "./dsml.js";

const NAME_KEYS = ["name", "tool", "tool_name", "function"] as const;
const ARG_KEYS = ["arguments", "parameters", "input", "args"] as const;
/** A bound on the characters scanned in all, so a long reasoning full of unbalanced braces
 *  costs milliseconds, not seconds (each candidate may scan to the end of the text). */
const MAX_WORK = 4_000_000;

export function scavengeJsonCalls(text: string, known: (name: string) => boolean = () => true): ScanResult {
  const calls: FoundCall[] = [];
  const cuts: Array<[number, number]> = [];
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
    const found = callsIn(value, known);
    if (found.length > 0) {
      calls.push(...found);
      cuts.push(widen(text, i, end));
    }
    i = end;
  }
  if (cuts.length === 0) return { calls, rest: text };
  let rest = "";
  let at = 0;
  for (const [s, e] of cuts) {
    rest += text.slice(at, s);
    at = e;
  }
  return { calls, rest: rest + text.slice(at) };
}

/** The calls a parsed value stands for: all of them, or none (a list with one non-call in it
 *  is data, not a batch of calls). */
function callsIn(value: JsonValue, known: (name: string) => boolean): FoundCall[] {
  if (Array.isArray(value)) {
    const each = value.map((v) => asCall(v, known));
    return value.length > 0 && each.every((c) => c !== null) ? (each as FoundCall[]) : [];
  }
  if (isJsonObject(value) && Array.isArray(value.tool_calls)) return callsIn(value.tool_calls, known);
  const one = asCall(value, known);
  return one ? [one] : [];
}

function asCall(value: JsonValue, known: (name: string) => boolean): FoundCall | null {
  if (!isJsonObject(value)) return null;
  const fn = value.function;
  const source: JsonObject = isJsonObject(fn) ? fn : value;
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
  if (isJsonObject(v)) return v;
  if (typeof v !== "string") return null;
  try {
    const parsed = JSON.parse(v) as JsonValue;
    return isJsonObject(parsed) ? parsed : null;
  } catch {
    return null; // arguments given as a string that is not a JSON object: not a call
  }
}

/** Index just past the bracket matching the one at `from`, or -1 if it never closes. */
function matchingEnd(text: string, from: number): number {
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

/** Widen a removed span over a fence or <tool_call> wrapper that held only this JSON. */
function widen(text: string, start: number, end: number): [number, number] {
  const before = text.slice(0, start);
  const after = text.slice(end);
  const fence = /```[\w-]*[ \t]*\r?\n?\s*$/.exec(before);
  const fenceEnd = /^\s*```/.exec(after);
  if (fence && fenceEnd) return [fence.index, end + fenceEnd[0].length];
  const tag = /<tool_call>\s*$/.exec(before);
  const tagEnd = /^\s*<\/tool_call>/.exec(after);
  if (tag && tagEnd) return [tag.index, end + tagEnd[0].length];
  return [start, end];
}
