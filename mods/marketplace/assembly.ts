// What the marketplace mod hands the rest of deepcode from the enabled plugins (load.ts
// `pluginParts`), as its typed status (KnownStatus["marketplace"]): hook layers for the hooks mod,
// servers for the MCP configuration, native modules for the plugin loader (assemble.ts decides
// their tier), command folders for the custom-command loader; and `/plugin` for the REPL.
// Skill and agent folders go out through api.contribute (index.ts).

import type { CommandSpec, KnownStatus, PluginApi } from "../../src/contract/index.js";
import { isObject } from "../../src/lib/json.js";
import { splitArgs } from "../../src/lib/command-text.js";
import type { Settings } from "./settings.js";
import { runPluginVerbs } from "./command.js";
import type { PluginParts } from "./load.js";
import { pluginServerName } from "./parts.js";
import { inert, inertLines } from "../../src/lib/inert.js";

/** The enabled plugins as the mods that run their parts read them (api.statusOf("marketplace")):
 *  their hooks (the hooks mod makes each a layer of its own), their MCP servers. */
export function marketplaceReport(parts: PluginParts): KnownStatus["marketplace"] {
  return {
    plugins: parts.plugins.map((p) => ({
      id: p.id,
      managed: p.tier === "managed",
      hooks: p.contents.hooks && isObject(p.contents.hooks.hooks) ? { files: [...p.contents.hooks.files], hooks: p.contents.hooks.hooks, env: { ...p.contents.vars } } : null,
      servers: p.contents.servers.map((s) => ({ name: pluginServerName(p.contents.manifest.name, s.name), file: s.file, config: s.config })),
      native: p.contents.native ?? null,
    })),
    commands: parts.commands.map((c) => ({ plugin: c.plugin, prefix: c.prefix, ...(c.dir === undefined ? {} : { dir: c.dir }), ...(c.file === undefined ? {} : { file: c.file }), pins: { ...(c.pins ?? {}) }, vars: { ...(c.vars ?? {}) } })),
  };
}

/** `/plugin …` in the REPL: the same verbs as `deepcode plugin`, asking through person.ask. */
export function pluginSlashCommand(o: { dispatch: PluginApi["dispatch"]; home: string; root: string; settings: Settings }): CommandSpec {
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
          const a = await o.dispatch({ type: "person.ask", sessionId: ctx.sessionId, kind: "plugin.install", from: "plugins", title: inert(title), detail: [] });
          return a.decision === "allow";
        },
      }));
    },
  };
}
