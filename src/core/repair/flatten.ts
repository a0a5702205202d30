// Schema flattening. DeepSeek models are known to drop fields of deeply nested parameter
// schemas, so a tool whose parameters nest deeper than two levels below the top (some
// property path has three or more segments, like `options.format.indent`) is offered with a
// flat schema instead: every property of a nested object becomes a top-level property named
// by its dot path. The tool itself never sees the flat form: `renest` turns the model's
// `{"options.format.indent": 2}` back into `{options: {format: {indent: 2}}}` before
// validation against the real schema.
//
// Rules:
// - Only plain objects are flattened: `properties` present and non-empty, no anyOf/oneOf,
//   `additionalProperties` not a schema (a map stays one property). Arrays of objects stay as
//   they are (one property with its `items`): a path cannot index into a list.
// - A flat path is required when it and every ancestor were required.
// - A leaf keeps its own description; the nearest described ancestor is added in brackets,
//   so what the parent object meant is not lost.
// - A schema with a property name containing "." is not flattened (its paths would be ambiguous).
// - Deterministic: properties in depth-first order of the original, every other key of the
//   top schema in its original place. The same schema gives the same bytes every time, which
//   the prompt cache depends on.

import type { JsonObject, JsonSchema, JsonValue } from "../../contract/index.js";
import { isObject } from "../../lib/json.js";

/** Paths longer than this many segments make a schema "deep". */
export const FLATTEN_DEPTH = 2;

export function flattenSchema(schema: JsonSchema): JsonSchema | null {
  if (!nestable(schema) || depth(schema) <= FLATTEN_DEPTH || hasDottedName(schema)) return null;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  collect(schema, "", true, undefined, properties, required);
  const flat: JsonSchema = {};
  for (const key of Object.keys(schema) as Array<keyof JsonSchema>) {
    if (key === "properties") flat.properties = properties;
    else if (key === "required") flat.required = required;
    else (flat as Record<string, unknown>)[key] = schema[key];
  }
  if (flat.required === undefined && required.length > 0) flat.required = required;
  return flat;
}

/** The flat paths (with their segments) of a deep schema; empty when it is not flattened. */
export function flatPaths(schema: JsonSchema): ReadonlyMap<string, string[]> {
  const cached = pathsCache.get(schema);
  if (cached) return cached;
  const flat = flattenSchema(schema);
  const out = new Map<string, string[]>();
  for (const path of Object.keys(flat?.properties ?? {})) {
    if (path.includes(".")) out.set(path, path.split("."));
  }
  pathsCache.set(schema, out);
  return out;
}

/** Schemas are built once per session and not changed after: their paths are worth keeping. */
const pathsCache = new WeakMap<JsonSchema, Map<string, string[]>>();

/** Re-nest an input written against the flat form of `schema`. Keys that are not flat paths
 *  of it (plain keys, already nested objects, unknown dotted keys) are kept as they are, so a
 *  nested input passes through unchanged and validation reports anything unknown. */
export function renest(input: JsonObject, schema: JsonSchema): JsonObject {
  const paths = flatPaths(schema);
  if (paths.size === 0 || !Object.keys(input).some((k) => paths.has(k))) return input;
  const out: JsonObject = {};
  const dotted: Array<[string, string[], JsonValue]> = [];
  for (const [key, value] of Object.entries(input)) {
    const segments = paths.get(key);
    if (segments) dotted.push([key, segments, value]);
    else out[key] = clone(value);
  }
  for (const [key, segments, value] of dotted) {
    let at: JsonObject = out;
    let ok = true;
    for (const seg of segments.slice(0, -1)) {
      const next = at[seg];
      if (next === undefined) at[seg] = {};
      else if (!isObject(next)) {
        ok = false; // the model also sent a non-object here: keep its dotted key for validation to report
        break;
      }
      at = at[seg] as JsonObject;
    }
    if (ok) at[segments[segments.length - 1]] = clone(value);
    else out[key] = clone(value);
  }
  return out;
}

/** The sub-schema at a parameter name, given either flat (`a.b.c`) or as a top-level key. */
export function propertySchema(schema: JsonSchema | undefined, name: string): JsonSchema | undefined {
  const direct = schema?.properties?.[name];
  if (direct !== undefined) return direct;
  let at = schema;
  for (const seg of name.split(".")) {
    at = at?.properties?.[seg];
    if (at === undefined) return undefined;
  }
  return at;
}

function nestable(s: JsonSchema): boolean {
  const isObject = s.type === "object" || (s.type === undefined && s.properties !== undefined);
  return (
    isObject &&
    s.properties !== undefined &&
    Object.keys(s.properties).length > 0 &&
    s.anyOf === undefined &&
    s.oneOf === undefined &&
    (s.additionalProperties === undefined || typeof s.additionalProperties === "boolean")
  );
}

/** Segments in the longest property path below `s`. */
function depth(s: JsonSchema): number {
  if (!nestable(s)) return 0;
  return 1 + Math.max(...Object.values(s.properties!).map(depth));
}

function hasDottedName(s: JsonSchema): boolean {
  if (!nestable(s)) return false;
  return Object.entries(s.properties!).some(([k, v]) => k.includes(".") || hasDottedName(v));
}

function collect(
  s: JsonSchema,
  prefix: string,
  requiredSoFar: boolean,
  context: string | undefined,
  properties: Record<string, JsonSchema>,
  required: string[],
): void {
  const req = new Set(s.required ?? []);
  for (const [key, child] of Object.entries(s.properties!)) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    const isRequired = requiredSoFar && req.has(key);
    if (nestable(child)) {
      const ctx = child.description !== undefined ? `${path}: ${child.description}` : context;
      collect(child, path, isRequired, ctx, properties, required);
      continue;
    }
    properties[path] = context === undefined ? child : describe(child, context);
    if (isRequired) required.push(path);
  }
}

function describe(leaf: JsonSchema, context: string): JsonSchema {
  const text = leaf.description !== undefined ? `${leaf.description} (in ${context})` : `(in ${context})`;
  return { ...leaf, description: text };
}

function clone(v: JsonValue): JsonValue {
  return v !== null && typeof v === "object" ? (structuredClone(v) as JsonValue) : v;
}
