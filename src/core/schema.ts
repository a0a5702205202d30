// A small JSON Schema validator for tool arguments: the subset tool schemas use. Its errors
// are written for the model: which field, what was expected, what arrived, so a retry can fix
// it. Scalars that arrive as strings ("10", "true") are coerced where the schema wants a
// number or boolean — DeepSeek models often quote them, and refusing would only cost a round.
// Keywords it does not implement (`$ref`, `allOf`, `if`/`then`/`else`, `patternProperties`…)
// are not judged: a call is never refused for what the validator cannot check.

import type { JsonSchema, JsonValue } from "../contract/index.js";
import { MAX_JSON_DEPTH, valueDepth } from "../lib/json.js";

export interface Validation {
  ok: boolean;
  /** The input after coercions (only meaningful when ok). */
  value: JsonValue;
  errors: string[];
}

export function validate(schema: JsonSchema, value: JsonValue): Validation {
  // The checks below recurse: a value nested deeper than model input may be is refused whole.
  const depth = valueDepth(value, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH) return { ok: false, value, errors: [`arguments nest more than ${MAX_JSON_DEPTH} levels deep`] };
  const errors: string[] = [];
  const out = check(schema, value, "", errors);
  return { ok: errors.length === 0, value: out, errors };
}

/** One message for the model, listing every problem and the expected shape. */
export function describeErrors(tool: string, errors: string[], schema: JsonSchema): string {
  const required = schema.required?.length ? ` Required: ${schema.required.join(", ")}.` : "";
  const props = schema.properties ? ` Parameters: ${Object.entries(schema.properties).map(([k, s]) => `${k} (${typeName(s)})`).join(", ")}.` : "";
  return `Invalid arguments for ${tool}: ${errors.join("; ")}.${required}${props} Fix the arguments and call ${tool} again.`;
}

function check(s: JsonSchema, v: JsonValue, path: string, errors: string[]): JsonValue {
  const where = path || "arguments";
  if (s.anyOf || s.oneOf) {
    const options = (s.anyOf ?? s.oneOf) as JsonSchema[];
    for (const o of options) {
      const e: string[] = [];
      const r = check(o, v, path, e);
      if (e.length === 0) return r;
    }
    errors.push(`${where} matches none of the allowed shapes (${options.map(typeName).join(" | ")})`);
    return v;
  }
  if (s.const !== undefined && JSON.stringify(s.const) !== JSON.stringify(v)) {
    errors.push(`${where} must be ${JSON.stringify(s.const)}`);
    return v;
  }
  if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) {
    errors.push(`${where} must be one of ${s.enum.map((e) => JSON.stringify(e)).join(", ")}, got ${preview(v)}`);
    return v;
  }
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
  if (types.length > 0) {
    const coerced = coerce(types, v);
    if (!types.some((t) => isType(t, coerced))) {
      errors.push(`${where} must be ${types.join(" or ")}, got ${kindOf(v)} ${preview(v)}`);
      return v;
    }
    v = coerced;
  }
  if (typeof v === "string") {
    if (s.minLength !== undefined && v.length < s.minLength) errors.push(`${where} must be at least ${s.minLength} characters`);
    if (s.maxLength !== undefined && v.length > s.maxLength) errors.push(`${where} must be at most ${s.maxLength} characters`);
    if (s.pattern !== undefined && patternFails(s.pattern, v)) errors.push(`${where} must match /${s.pattern}/`);
  } else if (typeof v === "number") {
    if (s.minimum !== undefined && v < s.minimum) errors.push(`${where} must be ≥ ${s.minimum}, got ${v}`);
    if (s.maximum !== undefined && v > s.maximum) errors.push(`${where} must be ≤ ${s.maximum}, got ${v}`);
  } else if (Array.isArray(v)) {
    if (s.minItems !== undefined && v.length < s.minItems) errors.push(`${where} needs at least ${s.minItems} items`);
    if (s.maxItems !== undefined && v.length > s.maxItems) errors.push(`${where} allows at most ${s.maxItems} items`);
    if (s.items) return v.map((x, i) => check(s.items as JsonSchema, x, `${path}[${i}]`, errors));
  } else if (v !== null && typeof v === "object") {
    const out: Record<string, JsonValue> = {};
    for (const r of s.required ?? []) {
      if (v[r] === undefined || v[r] === null) errors.push(`${join(path, r)} is required${s.properties?.[r] ? ` (${typeName(s.properties[r])})` : ""}`);
    }
    for (const [k, x] of Object.entries(v)) {
      const ps = s.properties?.[k];
      // A null for an optional parameter that does not take null means "not given" (models
      // often write it so): left out rather than refused.
      if (ps && x === null && !s.required?.includes(k) && !takes(ps, null)) continue;
      if (ps) out[k] = check(ps, x, join(path, k), errors);
      else if (matchesPatternProperty(s, k)) out[k] = x; // judged by no keyword deepcode implements
      else if (s.additionalProperties === false) errors.push(`${join(path, k)} is not a parameter${s.properties ? ` (known: ${Object.keys(s.properties).join(", ")})` : ""}`);
      else if (typeof s.additionalProperties === "object") out[k] = check(s.additionalProperties, x, join(path, k), errors);
      else out[k] = x;
    }
    return out;
  }
  return v;
}

function takes(s: JsonSchema, v: JsonValue): boolean {
  const e: string[] = [];
  check(s, v, "", e);
  return e.length === 0;
}

/** A pattern deepcode cannot compile is not judged (never refuse what it cannot check). */
function patternFails(pattern: string, v: string): boolean {
  try {
    return !new RegExp(pattern, "u").test(v);
  } catch {
    return false; // not an ECMA-262 pattern this runtime compiles: skipped, as documented above
  }
}

/** A key that `patternProperties` (which deepcode does not validate further) accounts for. */
function matchesPatternProperty(s: JsonSchema, k: string): boolean {
  const pp = (s as { patternProperties?: unknown }).patternProperties;
  if (!pp || typeof pp !== "object") return false;
  return Object.keys(pp).some((p) => !patternFails(p, k));
}

function coerce(types: string[], v: JsonValue): JsonValue {
  if (typeof v !== "string" || types.includes("string")) return v;
  const t = v.trim();
  if ((types.includes("number") || types.includes("integer")) && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(t)) return Number(t);
  if (types.includes("boolean") && (t === "true" || t === "false")) return t === "true";
  return v;
}

function isType(t: string, v: JsonValue): boolean {
  switch (t) {
    case "string": return typeof v === "string";
    case "number": return typeof v === "number" && Number.isFinite(v);
    case "integer": return typeof v === "number" && Number.isInteger(v);
    case "boolean": return typeof v === "boolean";
    case "null": return v === null;
    case "array": return Array.isArray(v);
    case "object": return v !== null && typeof v === "object" && !Array.isArray(v);
    default: return true;
  }
}

function typeName(s: JsonSchema): string {
  if (s.enum) return s.enum.map((e) => JSON.stringify(e)).join("|");
  if (Array.isArray(s.type)) return s.type.join("|");
  return s.type ?? "any";
}

function kindOf(v: JsonValue): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

function preview(v: JsonValue): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}
