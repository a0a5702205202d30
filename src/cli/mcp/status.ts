// The MCP servers and their states, as `-p --output-format stream-json` lists them on its
// init line (Claude Code's `mcp_servers: [{name, status}]`): status is connected, pending
// (connecting), failed, needs-approval, needs-auth (a remote server waiting for sign-in) or disabled. Read from the mcp mod's own report
// (PluginApi.status), so it says what the mod knows at the moment it is asked.

import type { JsonValue } from "../../contract/index.js";

export interface McpServerStatus {
  name: string;
  status: string;
}

export function mcpServerList(app: { pluginStatus(id: string): JsonValue | undefined }): McpServerStatus[] {
  const r = app.pluginStatus("mcp");
  const list = r && typeof r === "object" && !Array.isArray(r) && Array.isArray(r.servers) ? r.servers : [];
  return list.flatMap((s) => (s && typeof s === "object" && !Array.isArray(s) && typeof s.name === "string" ? [{ name: s.name, status: String(s.status ?? "pending") }] : []));
}
