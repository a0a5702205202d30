// What assemble.ts hands each mechanism from the enabled plugins (load.ts `pluginParts`):
// hook layers for the hooks mod, servers for the MCP configuration, native modules for the
// plugin loader, and `/plugin` for the REPL. Commands go to the custom-command loader through
// `app.pluginParts.commands`; skill and agent folders reach the skills and agents mods as the
// host's contributions (assemble.ts), as a native plugin's api.contribute would.

import type { CommandSpec, JsonValue, KnownStatus } from "../../contract/index.js";
import { isObject } from "../../lib/json.js";
import type { Chain } from "../../core/chain.js";
import { splitArgs } from "../commands/custom.js";
import type { LoadedSettings } from "../settings/types.js";
import { runPluginVerbs } from "./command.js";
import type { PluginParts } from "./load.js";
import { pluginServerName } from "./parts.js";
import { inert, inertLines } from "../../lib/inert.js";

/** The enabled plugins as the mods that run their parts read them (api.statusOf("marketplace")):
 *  their hooks (the hooks mod makes each a layer of its own), their MCP servers. */
export function marketplaceReport(parts: PluginParts): KnownStatus["marketplace"] {
  return {
    plugins: parts.plugins.map((p) => ({
      id: p.id,
      managed: p.tier === "managed",
      hooks: p.contents.hooks && isObject(p.contents.hooks.hooks) ? { files: [...p.contents.hooks.files], hooks: p.contents.hooks.hooks, env: { ...p.contents.vars } } : null,
      servers: p.contents.servers.map((s) => ({ name: pluginServerName(p.contents.manifest.name, s.name), file: s.file, config: s.config })),
    })),
  };
}

export function pluginMcpServers(parts: PluginParts): Array<{ name: string; file: string; raw: { [k: string]: JsonValue } }> {
  return parts.plugins.flatMap((p) => p.contents.servers.map((s) => ({ name: pluginServerName(p.contents.manifest.name, s.name), file: s.file, raw: s.config })));
}

/** Native modules (`deepcode` in plugin.json): user tier, or prepend for a managed plugin. */
export function pluginModules(parts: PluginParts): Array<{ specifier: string; tier: "user" | "prepend"; id: string }> {
  return parts.plugins.filter((p) => p.contents.native).map((p) => ({ specifier: p.contents.native!, tier: p.tier === "managed" ? "prepend" : "user", id: p.id }));
}

/** `/plugin …` in the REPL: the same verbs as `deepcode plugin`, asking through person.ask. */
export function pluginSlashCommand(o: { chain: Chain; home: string; root: string; settings: LoadedSettings }): CommandSpec {
  return {
    name: "plugin",
    args: "[list | install NAME@MARKET | update | verify | enable | disable | uninstall | marketplace …]",
    description: "Claude Code plugins and marketplaces (changes load when deepcode next starts)",
    complete: (p, words) =>
      (words.length === 0 ? ["list", "install", "update", "verify", "enable", "disable", "uninstall", "marketplace", "digest", "help"] : words[0] === "marketplace" && words.length === 1 ? ["add", "list", "update", "remove"] : []).filter((x) => x.startsWith(p)),
    run: async (ctx) => {
      await runPluginVerbs(splitArgs(ctx.args), { home: o.home, root: o.root, settings: o.settings }, (yes) => ({
        // The same last defence as the terminal's (command.ts): every line made inert.
        say: (line) => ctx.print(inertLines(line)),
        // What it brings was just printed (say): the question itself is one line.
        confirm: async (title) => {
          if (yes) return true;
          const a = await o.chain.dispatch({ type: "person.ask", sessionId: ctx.sessionId, kind: "plugin.install", from: "plugins", title: inert(title), detail: [] });
          return a.decision === "allow";
        },
      }));
    },
  };
}
