// The editor's MCP servers (session/new and session/load `mcpServers`: stdio, http, sse) in
// .mcp.json's `mcpServers` shape, for PluginApi.sessions (the mcp mod starts them as the
// person's own; mods/mcp/brought.ts).

import type { JsonValue } from "../../src/contract/index.js";
import { INVALID_PARAMS, RpcError } from "./rpc.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Undefined when the editor brings none. Bad entries are an error naming the entry. */
export function mcpServersOf(list: unknown): Record<string, JsonValue> | undefined {
  if (list === undefined || list === null) return undefined;
  if (!Array.isArray(list)) throw new RpcError(INVALID_PARAMS, "'mcpServers' must be an array");
  if (list.length === 0) return undefined;
  const out: Record<string, JsonValue> = {};
  list.forEach((raw: unknown, i) => {
    const bad = (why: string): never => {
      throw new RpcError(INVALID_PARAMS, `mcpServers[${i}]${isObj(raw) && typeof raw.name === "string" ? ` ("${raw.name}")` : ""}: ${why}`);
    };
    if (!isObj(raw)) return bad("must be an object");
    const name = typeof raw.name === "string" && raw.name ? raw.name : bad("needs a non-empty 'name'");
    if (name in out) bad("a second server of that name");
    const type = raw.type === undefined ? "stdio" : raw.type;
    if (type === "http" || type === "sse") {
      if (typeof raw.url !== "string" || !raw.url) return bad("needs a 'url'");
      out[name] = { type, url: raw.url, headers: pairs(raw.headers, "headers", bad) };
    } else if (type === "stdio") {
      if (typeof raw.command !== "string" || !raw.command) return bad("needs a 'command'");
      const args = raw.args === undefined ? [] : Array.isArray(raw.args) && raw.args.every((a) => typeof a === "string") ? (raw.args as string[]) : bad("'args' must be an array of strings");
      out[name] = { command: raw.command, args, env: pairs(raw.env, "env", bad) };
    } else bad(`unknown type '${String(type)}' (stdio, http or sse)`);
  });
  return out;
}

/** ACP's `[{name, value}]` lists as an object. */
function pairs(v: unknown, what: string, bad: (why: string) => never): Record<string, string> {
  if (v === undefined) return {};
  if (!Array.isArray(v)) return bad(`'${what}' must be an array of {name, value}`);
  const out: Record<string, string> = {};
  for (const p of v) {
    if (!isObj(p) || typeof p.name !== "string" || typeof p.value !== "string") return bad(`'${what}' must be an array of {name, value}`);
    out[p.name] = p.value;
  }
  return out;
}
