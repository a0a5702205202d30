// The on-demand tool index: when a session has too many tools to send each one's definition in
// every request (the MCP mod decides: mods/mcp/defer.ts), the prefix carries instead, in the
// `UseTool` proxy's description, one line per such tool — its name and the first line of what
// it does. The model calls `UseTool {"name"}` to be given a tool's full definition (a tool
// result, so it enters the append-only log once), then `UseTool {"name", "input"}` to call it.
//
// The index is written here and read here only: the engine reads it back from the prefix's
// proxy definition (stored with the session, so a resumed session knows the same index) to
// tell an indexed tool from a late one. Byte-stable: the entries are sorted by name, and
// nothing about a session (time, ids, server state) goes into it.

import type { ToolDefinition } from "../contract/wire.js";

/** The stable proxy's name (its base definition is the engine's: src/core/engine/tools.ts). */
export const PROXY_TOOL = "UseTool";

const MARK = "Tools available on demand (not listed in full):";
const LINE_MAX = 120;

export interface IndexEntry {
  name: string;
  description: string;
}

/** One line of an index entry: the description's first sentence or line, bounded. */
export function indexLine(e: IndexEntry): string {
  const first = e.description.split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
  const sentence = /^(.+?[.!?])(\s|$)/.exec(first)?.[1] ?? first;
  const line = sentence.length > LINE_MAX ? `${sentence.slice(0, LINE_MAX - 1)}…` : sentence;
  return `- ${e.name}${line ? `: ${line}` : ""}`;
}

/** The proxy definition with an index of `entries` (sorted by name) in its description; its
 *  `input` becomes optional (without it, the call answers with the tool's definition). */
export function withIndex(proxy: ToolDefinition, entries: readonly IndexEntry[]): ToolDefinition {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const f = proxy.function;
  const params = f.parameters as { [k: string]: unknown };
  const description = [
    f.description,
    "",
    MARK,
    `Call ${PROXY_TOOL} with {"name": "<tool>"} alone to be given its parameters, then with {"name": "<tool>", "input": {…}} to run it.`,
    ...sorted.map(indexLine),
  ].join("\n");
  return { type: "function", function: { name: f.name, description, parameters: { ...params, required: ["name"] } as ToolDefinition["function"]["parameters"] } };
}

/** The names a prefix's proxy lists on demand (empty when it has no index). */
export function indexedNames(tools: readonly ToolDefinition[]): Set<string> {
  const proxy = tools.find((t) => t.function.name === PROXY_TOOL);
  const out = new Set<string>();
  const text = proxy?.function.description ?? "";
  const at = text.indexOf(`\n${MARK}\n`);
  if (at < 0) return out;
  for (const line of text.slice(at + MARK.length + 2).split("\n")) {
    const m = /^- ([A-Za-z0-9_-]{1,64})(?::|$)/.exec(line);
    if (m) out.add(m[1]);
  }
  return out;
}
