// A call to an MCP tool that cannot run now, answered before it reaches the registry (which
// would only say "Unknown tool"): its server is configured but not connected (failed, needs
// sign-in, awaiting approval …), no longer offers it, or was brought by another of the editor's
// sessions. The same answer whether the model calls the tool by name or through UseTool.

import type { Server } from "./server.js";

export interface Owners {
  servers: readonly Server[];
  sees(s: Server, sessionId: string): boolean;
}

/** The error for `tool` in `sessionId`, or undefined when it may run (or is not an MCP name). */
export function unavailable(tool: string, sessionId: string, o: Owners): string | undefined {
  if (!tool.startsWith("mcp__")) return undefined;
  const owner = o.servers.find((s) => s.tools.some((t) => t.name === tool));
  if (owner && !o.sees(owner, sessionId)) {
    return `${tool} is not this session's: MCP server ${owner.name} was brought by another of the editor's sessions. Do not call it here.`;
  }
  if (owner) return undefined;
  const s = o.servers.find((x) => tool.startsWith(`mcp__${x.part}__`));
  if (!s) return undefined;
  const why = s.state === "connected" ? `MCP server ${s.name} no longer offers it` : `MCP server ${s.name} is not connected (${s.describe()})`;
  return `${tool} is not available now: ${why}. Do not call it again in this state; tell the user or go on without it.`;
}
