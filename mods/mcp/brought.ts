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

/** Which open sessions brought each of the front end's servers: an editor's threads each bring
 *  their own, and a server is the sessions' that brought it — its tools are offered to them (and
 *  to the subagents working for them), refused to the others, and it ends with the last of them.
 *  Servers the person configured are every session's. */
export class BroughtServers<S> {
  private readonly owners = new Map<S, Set<string>>();
  /** A subagent's session → the main session it works for (turn.start's `agent`). */
  private readonly rootOf = new Map<string, string>();

  has(s: S): boolean {
    return this.owners.has(s);
  }

  add(s: S, sessionId: string): void {
    const set = this.owners.get(s) ?? new Set<string>();
    set.add(sessionId);
    this.owners.set(s, set);
  }

  /** The session ended: the servers no open session brings any more (to stop). */
  drop(sessionId: string): S[] {
    const gone: S[] = [];
    for (const [s, set] of this.owners) {
      if (!set.delete(sessionId) || set.size > 0) continue;
      this.owners.delete(s);
      gone.push(s);
    }
    return gone;
  }

  /** May this session (or a subagent of it) use the server's tools? */
  sees(s: S, sessionId: string): boolean {
    const set = this.owners.get(s);
    return !set || set.has(this.rootOf.get(sessionId) ?? sessionId);
  }

  agent(sessionId: string, root: string | undefined): void {
    if (root === undefined) this.rootOf.delete(sessionId);
    else this.rootOf.set(sessionId, root);
  }
}
