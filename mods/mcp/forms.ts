// Elicitation forms: a server's `requestedSchema` (a flat object of primitive properties) as
// person.ask fields, and the person's answer back as the content the server gets — every
// field the person left empty takes its default (SEP-1034), values are of the schema's types.
// Where nobody can answer and the server's configuration says so (`"elicitation": "defaults"`),
// a form is answered with its defaults alone — only when every required field has one.

import type { JsonValue, PersonField } from "../../src/contract/index.js";
import type { JsonObject } from "./jsonrpc.js";
import { isObject } from "../../src/lib/json.js";

export function fieldsOf(schema: JsonObject): PersonField[] {
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const out: PersonField[] = [];
  for (const [name, raw] of Object.entries(props)) {
    if (!isObject(raw)) continue;
    const f: PersonField = { name, type: "string", required: required.has(name) };
    if (typeof raw.title === "string") f.title = raw.title;
    if (typeof raw.description === "string") f.description = raw.description;
    const many = raw.type === "array" && isObject(raw.items) ? enumOf(raw.items) : undefined;
    const choices = many ?? enumOf(raw);
    if (many) f.multiple = true;
    if (choices) {
      f.type = "enum";
      f.options = choices.values;
      if (choices.labels.some((l, i) => l !== choices.values[i])) f.optionLabels = choices.labels;
    } else if (raw.type === "number" || raw.type === "integer" || raw.type === "boolean") f.type = raw.type;
    if (raw.default !== undefined) f.default = raw.default as JsonValue;
    for (const k of ["minimum", "maximum", "minLength", "maxLength"] as const) if (typeof raw[k] === "number") f[k] = raw[k] as number;
    if (typeof raw.format === "string") f.format = raw.format;
    out.push(f);
  }
  return out;
}

/** The content for an accepted form: the person's values, typed; defaults for the rest. */
export function contentOf(fields: readonly PersonField[], values: Readonly<Record<string, JsonValue>>): { content: Record<string, JsonValue>; problems: string[] } {
  const content: Record<string, JsonValue> = {};
  const problems: string[] = [];
  for (const f of fields) {
    const given = values[f.name];
    const v = given === undefined || given === "" ? f.default : given;
    if (v === undefined || v === null) {
      if (f.required) problems.push(`${f.title ?? f.name} is required`);
      continue;
    }
    const typed = typedValue(f, v);
    if (typed === undefined) problems.push(`${f.title ?? f.name}: ${JSON.stringify(v)} is not ${f.type === "enum" ? `one of ${f.options?.join(", ")}` : `a ${f.type}`}`);
    else content[f.name] = typed;
  }
  return { content, problems };
}

/** A form answered without a person: every default (typed), or why it cannot be (a required
 *  field without a default, a default of the wrong type). */
export function defaultsOf(fields: readonly PersonField[]): { content: Record<string, JsonValue> } | { why: string } {
  const { content, problems } = contentOf(fields, {});
  const missing = fields.filter((f) => f.required && (f.default === undefined || f.default === null)).map((f) => f.title ?? f.name);
  if (missing.length) return { why: `${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} required and ${missing.length === 1 ? "has" : "have"} no default` };
  if (problems.length) return { why: problems.join("; ") };
  return { content };
}

function typedValue(f: PersonField, v: JsonValue): JsonValue | undefined {
  switch (f.type) {
    case "boolean":
      if (typeof v === "boolean") return v;
      if (typeof v === "string" && /^(y|yes|true|1)$/i.test(v.trim())) return true;
      if (typeof v === "string" && /^(n|no|false|0)$/i.test(v.trim())) return false;
      return undefined;
    case "number":
    case "integer": {
      const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
      if (!Number.isFinite(n) || (f.type === "integer" && !Number.isInteger(n))) return undefined;
      return n;
    }
    case "enum":
      if (f.multiple) {
        const list = Array.isArray(v) ? v : typeof v === "string" ? v.split(",").map((x) => x.trim()).filter(Boolean) : [];
        return list.length && list.every((x) => typeof x === "string" && f.options?.includes(x)) ? list : undefined;
      }
      return typeof v === "string" && f.options?.includes(v) ? v : undefined;
    default:
      return typeof v === "string" ? v : JSON.stringify(v);
  }
}

/** `enum` (with `enumNames`), or `oneOf` / `anyOf` of `{const, title}` (SEP-1330). */
function enumOf(raw: JsonObject): { values: string[]; labels: string[] } | undefined {
  if (Array.isArray(raw.enum)) {
    const values = raw.enum.map(String);
    const names = Array.isArray(raw.enumNames) ? raw.enumNames.map(String) : values;
    return { values, labels: values.map((v, i) => names[i] ?? v) };
  }
  const list = Array.isArray(raw.oneOf) ? raw.oneOf : Array.isArray(raw.anyOf) ? raw.anyOf : undefined;
  if (!list || !list.every((o) => isObject(o) && o.const !== undefined)) return undefined;
  const opts = list as JsonObject[];
  return { values: opts.map((o) => String(o.const)), labels: opts.map((o) => (typeof o.title === "string" ? o.title : String(o.const))) };
}

/** A form nobody can answer (-p): its defaults when the server's configuration says so
 *  (`defaults`) and every required field has one, else declined; either way said on stderr
 *  (`warn`), naming the server, and an answer given is also written to the server's log (`line`). */
export function unattendedAnswer(server: string, defaults: boolean, fields: readonly PersonField[], say: { warn(m: string): void; line(m: string): void }): JsonObject {
  if (!defaults) {
    say.warn(`MCP server ${server} asked for a form nobody can answer here: declined ("elicitation": "defaults" in its entry, or settings mcpElicitation, answers such forms with their defaults)`);
    return { action: "decline" };
  }
  const r = defaultsOf(fields);
  if ("why" in r) {
    say.warn(`MCP server ${server} asked for a form nobody can answer here: declined, as it cannot be answered with its defaults (${r.why})`);
    return { action: "decline" };
  }
  const line = `MCP server ${server} asked for a form nobody can answer here: answered with its defaults ("elicitation": "defaults"): ${JSON.stringify(r.content)}`;
  say.warn(line);
  say.line(line);
  return { action: "accept", content: r.content as JsonObject };
}
