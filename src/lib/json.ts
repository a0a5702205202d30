// JSON guards and the one canonical JSON form, shared by src and mods (src/lib: pure helpers
// any layer may import; they import only node:* and the contract's types).
import type { JsonValue } from "../contract/wire.js";

/** A plain object (not null, not an array). The value type `T` defaults to JsonValue: what
 *  JSON.parse or a settings file produced; pass `unknown` where the input is untrusted code's. */
export function isObject<T = JsonValue>(v: unknown): v is { [key: string]: T } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** JSON with object keys sorted at every level: equal values give equal strings whatever
 *  order their keys were written in (a digest of it survives a re-ordered file). */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
}

/** Freeze a JSON value and everything in it; returns it. */
export function deepFreeze<T extends JsonValue | { [key: string]: JsonValue }>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v as JsonValue);
    Object.freeze(value);
  }
  return value;
}

/** The string values of an object (settings `env`), others left out; undefined when none. */
export function stringRecord(v: JsonValue | undefined): Record<string, string> | undefined {
  if (!isObject(v)) return undefined;
  const out = Object.fromEntries(Object.entries(v).filter((kv): kv is [string, string] => typeof kv[1] === "string"));
  return Object.keys(out).length > 0 ? out : undefined;
}

/** How deep JSON from the model may nest (objects and arrays). Every walk of it (schema
 *  validation, rendering, stream-json, the transcript) recurses; 3,000 levels overflowed the
 *  stack (issue #37). No tool's arguments need more than a handful of levels; 64 leaves room
 *  for a notebook's metadata or an MCP tool's nested input. */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of `[`/`{` in JSON text, strings skipped, read without parsing; it stops
 *  counting past `stopAt`. Text that is not JSON gets a number too (brackets are brackets). */
export function textDepth(text: string, stopAt = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) {
        max = depth;
        if (max > stopAt) return max;
      }
    } else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  return max;
}

/** The nesting depth of a value (a scalar is 0), walked without recursion; it stops counting
 *  past `stopAt`. */
export function valueDepth(value: unknown, stopAt = Infinity): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== "object") continue;
    const here = d + 1;
    if (here > max) {
      max = here;
      if (max > stopAt) return max;
    }
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === "object") stack.push([child, here]);
  }
  return max;
}

/** `value` when it nests at most `limit` levels; else a copy in which what lies deeper is
 *  replaced by a short note, so a writer or renderer never recurses past the limit. */
export function boundDepth(value: JsonValue, limit = MAX_JSON_DEPTH): JsonValue {
  if (valueDepth(value, limit) <= limit) return value;
  const cut = (v: JsonValue, left: number): JsonValue => {
    if (v === null || typeof v !== "object") return v;
    if (left === 0) return `[nested deeper than ${limit} levels: not shown]`;
    if (Array.isArray(v)) return v.map((x) => cut(x, left - 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x, left - 1)]));
  };
  return cut(value, limit);
}

/** The message a tool call gets when its arguments nest too deep to be read. */
export function tooDeepMessage(tool: string, depth: number): string {
  return `The arguments for ${tool} nest ${depth} levels deep; deepcode reads at most ${MAX_JSON_DEPTH} levels of nesting. Call ${tool} again with flatter arguments (no tool needs such deep nesting).`;
}
