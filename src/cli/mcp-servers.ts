// The MCP servers of this run and their state, for `-p`'s system/init line (Claude Code's
// `mcp_servers: [{ name, status }]`). The one place that answers it: the mcp mod's own report
// (src/cli/mcp/status.ts), so it says what the mod knows when the line is written — `pending`
// for a server still connecting, `needs-approval`, `disabled` (with its reason in `/mcp`).
import type { App } from "./assemble.js";
import { mcpServerList } from "./mcp/status.js";

export function mcpServers(app: App): Array<{ name: string; status: string }> {
  return mcpServerList(app);
}
