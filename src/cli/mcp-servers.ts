// The MCP servers of this run and their state, for `-p`'s system/init line (Claude Code's
// `mcp_servers: [{ name, status }]`). The one place that answers it: deepcode has no MCP client
// yet, so the list is empty; the MCP work fills it from here.
import type { App } from "./assemble.js";

export function mcpServers(_app: App): Array<{ name: string; status: string }> {
  return [];
}
