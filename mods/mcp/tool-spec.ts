// An MCP server's tool as a deepcode tool (ToolSpec): its description bounded, its input schema
// as the API takes it, and the permission stance every MCP tool has (it asks; the server's
// readOnlyHint only lets it run beside other concurrent calls).

import type { JsonValue, ToolContext, ToolOutput, ToolSpec } from "../../src/contract/index.js";
import type { McpTool } from "./client.js";
import type { JsonObject } from "./jsonrpc.js";
import { headersUsable } from "./headers.js";

const MAX_DESCRIPTION = 2048;

/** `name` is the tool's deepcode name (`mcp__<server>__<tool>`, names.ts); `call` runs it. */
export function mcpToolSpec(server: string, name: string, t: McpTool, call: (input: JsonObject, ctx: ToolContext) => Promise<ToolOutput>): ToolSpec {
  const annotations = t.annotations ?? {};
  const text = [t.title && t.title !== t.name ? `${t.title}.` : "", t.description ?? ""].filter(Boolean).join(" ").trim() || `The ${t.name} tool of the ${server} MCP server.`;
  return {
    name,
    description: text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text,
    inputSchema: schemaOf(t.inputSchema) as ToolSpec["inputSchema"],
    // MCP tools ask by default, whatever the server says; its readOnlyHint only lets the
    // call run alongside other concurrent calls.
    readOnly: false,
    concurrent: annotations.readOnlyHint === true,
    deferrable: true,
    run: (input, ctx) => call(input as JsonObject, ctx),
    preview: async (input) => `MCP server ${server} · tool ${t.name}${annotations.destructiveHint === true ? " (the server says it may be destructive)" : ""}\n${JSON.stringify(input, null, 2)}`,
  };
}

/** A tool's input schema as the server sent it (JSON Schema 2020-12: `$schema`, `$defs`,
 *  `$ref` left as references, composition and conditionals all kept — SEP-1613, SEP-2106);
 *  only a schema that is not an object schema at all is made one, as the API requires. */
export function schemaOf(s: JsonObject | undefined): { [k: string]: JsonValue } {
  const out: { [k: string]: JsonValue } = s && typeof s === "object" && !Array.isArray(s) ? { ...(s as { [k: string]: JsonValue }) } : {};
  if (out.type !== "object") out.type = "object";
  if (typeof out.properties !== "object" || out.properties === null || Array.isArray(out.properties)) out.properties = {};
  return out;
}

/** Whether a listed tool can be offered: one whose input schema carries headers it cannot send
 *  (headers.ts), or that runs only as a task (`execution.taskSupport: "required"`, MCP
 *  2025-11-25; deepcode does not make task-augmented calls, so every call of it would fail), is
 *  left out, said once per server and reason through `say`. */
export function usable(server: string, t: McpTool, told: Set<string>, say: (line: string) => void): boolean {
  const e = t.execution;
  if (e && typeof e === "object" && !Array.isArray(e) && e.taskSupport === "required") {
    const line = `MCP server ${server}: tool ${t.name} left out (it runs only as a task, execution.taskSupport "required", which deepcode does not support)`;
    if (!told.has(line)) {
      told.add(line);
      say(line);
    }
    return false;
  }
  return headersUsable(server, t, told, say);
}
