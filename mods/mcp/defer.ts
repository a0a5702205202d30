// Hundreds of MCP tools: past a threshold, MCP tools load on demand. The prefix then carries,
// instead of each MCP tool's definition, an index in the UseTool proxy's description (a name
// and one line each: src/lib/tool-index.ts); `UseTool {"name"}` gives a definition when the
// model needs it. The decision is made where the prefix is built (`tool.list`, once per
// session: the engine stores the prefix and a resume restores it as stored), so the cached
// prefix never changes during a session or across resumes.
//
// The threshold is in prefix tokens (`mcpToolIndexTokens`, default DEFAULT_INDEX_TOKENS): an
// MCP tool definition is paid in every request of the session (at the cache-hit price), while an
// indexed tool costs one extra round the first time it is used (the whole context again at the
// hit price, ≈20–30k tokens in a working session, plus its definition). At 5k tokens of
// definitions (≈50 tools of a typical server) the index (≈20 tokens a tool) saves ≈4k tokens a
// request, ≈120k over a 30-request session: about what the three or four extra rounds for the
// tools the model actually uses cost. Below that, sending them in full is cheaper; above, the
// index is. (deepcode's own prefix is ≈1.5k tokens; 110 tools of the kind ≈10k.)
// Whatever the tokens, more than MAX_TOOLS definitions in all (the API refuses more) are indexed.

import type { ToolDefinition } from "../../src/contract/index.js";
import { estimateTokens } from "../../src/lib/tokens.js";
import { PROXY_TOOL, withIndex } from "../../src/lib/tool-index.js";

export const DEFAULT_INDEX_TOKENS = 5_000;
/** The API's limit on tools in one request. */
export const MAX_TOOLS = 128;

export interface Deferral {
  tools: ToolDefinition[];
  /** How many MCP tools went into the index (0: none), and what their definitions weigh. */
  indexed: number;
  tokens: number;
}

/** `defs` (tool.list's answer) with the MCP tools in the proxy's index when they weigh more
 *  than `maxTokens` or there are too many tools in all; else unchanged. */
export function deferTools(defs: readonly ToolDefinition[], isMcp: (name: string) => boolean, maxTokens: number): Deferral {
  const mcp = defs.filter((d) => isMcp(d.function.name));
  const tokens = mcp.length ? estimateTokens(JSON.stringify(mcp)) : 0;
  const proxy = defs.find((d) => d.function.name === PROXY_TOOL);
  if (mcp.length === 0 || !proxy || (tokens <= maxTokens && defs.length <= MAX_TOOLS)) return { tools: [...defs], indexed: 0, tokens };
  const rest = defs.filter((d) => d !== proxy && !isMcp(d.function.name));
  const entries = mcp.map((d) => ({ name: d.function.name, description: d.function.description }));
  return { tools: [...rest, withIndex(proxy, entries)], indexed: mcp.length, tokens };
}
