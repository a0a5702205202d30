// MCP servers a front end brings for a session it opens (session.start's `mcpServers`: the
// editor's under `deepcode acp`). They are the person's own, like `--mcp-config` servers: no
// project approval, but the same reading as every source (configure/: `${VAR}` expansion that
// never hands out an API key, the minimal inherited environment, the managed allow and deny
// lists, the name rule) and the same permission gate for every call of their tools.

import type { JsonValue, PluginApi } from "../../src/contract/index.js";
import { readOptions, type ServerConfig } from "./config.js";
import { mcpModConfig } from "./configure/index.js";

export function broughtServers(api: Pick<PluginApi, "root" | "home" | "settings" | "host" | "trusted" | "log">, servers: Readonly<Record<string, JsonValue>>): ServerConfig[] {
  const h = api.host;
  const { config, problems } = mcpModConfig({
    root: api.root,
    home: api.home,
    env: h.env,
    settings: api.settings,
    trusted: api.trusted,
    mcpConfig: [JSON.stringify({ mcpServers: servers })],
    strict: true,
    secretEnv: h.secretEnv,
    additionalDirectories: h.additionalDirectories,
    logDir: h.sessionsDir,
    version: h.version,
  });
  const { options, problems: more } = readOptions(config);
  for (const p of [...problems, ...more]) api.log.warn(`the editor's MCP servers: ${p}`);
  for (const s of options.servers) if (!s.start) api.log.warn(`the editor's MCP server "${s.name}" does not start: ${s.why ?? "refused"}`);
  return options.servers.map((s) => ({ ...s, source: "the editor (session/new)" }));
}
