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
