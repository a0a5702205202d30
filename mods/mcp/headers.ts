// The HTTP headers the 2026-07-28 revision asks of a client (SEP-2243): `Mcp-Method` on every
// POST, `Mcp-Name` naming what a `tools/call`, `prompts/get` or `resources/read` is about, and
// for a tool whose input schema marks parameters with `x-mcp-header: "Name"`, the values of
// those parameters mirrored into `Mcp-Param-Name` headers. A value goes as it is when it is
// printable ASCII without leading or trailing blanks, else as `=?base64?<UTF-8 bytes>?=`.
// A tool whose annotations are malformed cannot be called the way its server means, so it is
// left out (`headerParams` says why).

import type { Json, JsonObject } from "./jsonrpc.js";

/** The characters of an HTTP header name (RFC 9110 `token`). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The types a mirrored parameter may have: one header value each, exact. */
const PRIMITIVE = new Set(["string", "integer", "boolean"]);

/** Which parameter goes into which `Mcp-Param-*` header, or why the tool's annotations are
 *  malformed (then the tool must not be offered). */
export function headerParams(inputSchema: JsonObject | undefined): { ok: true; params: Map<string, string> } | { ok: false; why: string } {
  const params = new Map<string, string>();
  const props = inputSchema?.properties;
  if (!props || typeof props !== "object" || Array.isArray(props)) return { ok: true, params };
  const seen = new Map<string, string>();
  for (const [prop, s] of Object.entries(props)) {
    if (!s || typeof s !== "object" || Array.isArray(s) || !("x-mcp-header" in s)) continue;
    const name = s["x-mcp-header"];
    if (typeof name !== "string" || name === "") return { ok: false, why: `parameter ${prop}: x-mcp-header must be a non-empty header name` };
    if (!TOKEN.test(name)) return { ok: false, why: `parameter ${prop}: x-mcp-header ${JSON.stringify(name)} is not a valid header name (ASCII letters, digits and !#$%&'*+-.^_\`|~ only)` };
    // A nullable primitive (["string", "null"]) is still one value or none (nulls are left out).
    const types = (Array.isArray(s.type) ? s.type : [s.type]).filter((t) => !(Array.isArray(s.type) && t === "null"));
    if (types.length === 0 || !types.every((t) => typeof t === "string" && PRIMITIVE.has(t))) return { ok: false, why: `parameter ${prop}: x-mcp-header is allowed only on string, integer and boolean parameters, not ${JSON.stringify(s.type ?? "untyped")}` };
    const key = name.toLowerCase();
    const other = seen.get(key);
    if (other !== undefined) return { ok: false, why: `parameters ${other} and ${prop} both name header ${name} (header names ignore case)` };
    seen.set(key, prop);
    params.set(prop, name);
  }
  return { ok: true, params };
}

/** A value as a header value: as it is when safe, else base64 of its UTF-8 bytes. */
export function encodeHeaderValue(v: string): string {
  let safe = v === v.trim();
  for (let i = 0; safe && i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) safe = false;
  }
  return safe ? v : `=?base64?${Buffer.from(v, "utf8").toString("base64")}?=`;
}

/** The `Mcp-Param-*` headers for one call: null and absent values are left out. */
export function paramHeaders(params: Map<string, string>, args: JsonObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [prop, name] of params) {
    const v: Json | undefined = args[prop];
    if (v === undefined || v === null) continue;
    if (typeof v === "string") out[`Mcp-Param-${name}`] = encodeHeaderValue(v);
    else if (typeof v === "number" || typeof v === "boolean") out[`Mcp-Param-${name}`] = String(v);
  }
  return out;
}

/** `Mcp-Method` and, where the message names something, `Mcp-Name` for one outgoing message. */
export function standardHeaders(m: JsonObject): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof m.method !== "string") return out;
  out["mcp-method"] = encodeHeaderValue(m.method);
  const p = m.params && typeof m.params === "object" && !Array.isArray(m.params) ? m.params : {};
  const name = m.method === "resources/read" ? p.uri : m.method === "tools/call" || m.method === "prompts/get" ? p.name : undefined;
  if (typeof name === "string") out["mcp-name"] = encodeHeaderValue(name);
  return out;
}

/** Every header of the revision one POSTed message carries, on both HTTP transports
 *  (streamable.ts, legacy-sse.ts): the tool's `Mcp-Param-*` (`params`, from paramHeaders),
 *  `Mcp-Method` and `Mcp-Name`, and `MCP-Protocol-Version` once one is set (the client sets it
 *  before `initialize`, then to the version agreed). */
export function postHeaders(m: JsonObject, params: Readonly<Record<string, string>> | undefined, protocolVersion: string | undefined): Record<string, string> {
  return { ...params, ...standardHeaders(m), ...(protocolVersion ? { "mcp-protocol-version": protocolVersion } : {}) };
}

/** Whether a tool can be offered: one with malformed annotations cannot, and that is said
 *  through `say` once per tool and reason (`told` remembers). */
export function headersUsable(server: string, t: { name: string; inputSchema?: JsonObject }, told: Set<string>, say: (line: string) => void): boolean {
  const h = headerParams(t.inputSchema);
  if (h.ok) return true;
  const line = `MCP server ${server}: tool ${t.name} left out (${h.why})`;
  if (!told.has(line)) {
    told.add(line);
    say(line);
  }
  return false;
}
