// Built-in mod: the MCP client. Every server the person configured (the mod gathers them itself
// from api.settings, api.host, api.trusted and the marketplace's status: configure/) is started in the background when the session starts (or when
// `/mcp` / `deepcode mcp` first asks) — never in the way of the first prompt, nor competing for
// the CPU with deepcode's own start-up — and its tools are registered as `mcp__<server>__<tool>` through `api.tool`, so a call
// is a `tool.call` like any other and the permission gate sees it first (MCP tools ask by
// default). How it stays invisible to the prompt cache: the engine fixes the prefix right
// before the session's first request, after `turn.start`, where this mod waits (at most
// `firstRequestWaitMs`) for servers still connecting; a server that connects later, or whose
// list changes, reaches the model through the UseTool proxy and a tail note.
//
//   turn.start     ask the person about project servers not yet approved (person.ask); on the
//                  first turn wait for connections; say what happened to servers (notices)
//   tool.list      past mcpToolIndexTokens, MCP tools go into UseTool's on-demand index (defer.ts)
//   tool.input     a call to a tool of a server that is gone gets an error that says why
//   prompt.submit  `@server:uri` resource mentions (resources.ts)
//   session.start  the session's id and model (sampling, the log beside the transcript); the
//                  servers the front end that opened it brought (brought.ts: the editor's)
//   session.end    every server is closed (stdio process groups ended, HTTP sessions deleted)
//
// Commands: `/mcp` (status.ts) and each server's prompts (prompts.ts); `deepcode mcp …`
// (command.ts, PluginApi.subcommand).

import type { JsonValue, Plugin } from "../../src/contract/index.js";
import { mcpSubcommand, type ConfigFlags } from "./command.js";
import { readOptions, type McpOptions } from "./config.js";
import { configFromApi } from "./configure/index.js";
import { McpMod } from "./mod.js";
import { broughtServers } from "./brought.js";

const plugin: Plugin = {
  id: "mcp",
  description: "MCP client: servers' tools, prompts and resources (stdio, Streamable HTTP, HTTP+SSE)",
  register(api) {
    const warned = new Set<string>();
    const options = (extra?: ConfigFlags): McpOptions => {
      const { config, problems: found } = configFromApi(api, extra);
      const { options: o, problems } = readOptions(config);
      for (const p of [...found, ...problems]) {
        if (warned.has(p)) continue; // said once: `deepcode mcp list --mcp-config …` computes again
        warned.add(p);
        api.log.warn(p);
      }
      return o;
    };
    const mod = new McpMod(api, options());
    mod.install();
    // Servers the front end that opened the session brought (the editor's: brought.ts).
    api.on("session.start", (e, next) => {
      if (e.mcpServers) mod.adopt(e.sessionId, broughtServers(api, e.mcpServers));
      return next();
    });
    const sub = mcpSubcommand({
      root: api.root,
      home: api.home,
      viaMod: (verb, rest, flags, ctx) => mod.fromShell(verb, rest, flags.mcpConfig || flags.strictMcpConfig ? options(flags) : undefined, ctx),
    });
    try {
      api.subcommand(sub);
    } catch (err) {
      // A host that runs no subcommands (an embedding, a test harness): the servers, tools and
      // `/mcp` work without `deepcode mcp`; said, not fatal.
      api.log.info(`deepcode mcp is not available here: ${(err as Error).message}`);
    }
  },
};

export default plugin;

/** The mod over a configuration given in configure/'s output shape (config.ts) rather than
 *  computed from settings: for tests that hand it its servers directly. Read at each register. */
export function withOptions(config: () => Readonly<Record<string, JsonValue>>): Plugin {
  return {
    id: "mcp",
    description: plugin.description,
    register(api) {
      const { options, problems } = readOptions(config());
      for (const p of problems) api.log.warn(p);
      new McpMod(api, options).install();
    },
  };
}
