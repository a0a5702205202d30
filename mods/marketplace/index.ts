// The Claude Code marketplace as a mod: installed plugins (enabled in settings, allowed by the
// managed policy, their files as installed) and what they bring. At start-up a refused plugin
// is said, loudly, and the rest loads. It reports the enabled plugins' parts as its typed status
// (KnownStatus["marketplace"]: hooks, MCP servers, native modules, command folders), contributes
// their skill and agent folders pinned to their install lock, and adds `deepcode plugin …` and
// `/plugin …`. Placed before the hooks and mcp mods: they read its status while they register.

import type { Plugin } from "../../src/contract/index.js";
import { marketplaceReport, pluginSlashCommand } from "./assembly.js";
import { PLUGIN_HELP, runPlugin } from "./command.js";
import { pluginParts } from "./load.js";

const plugin: Plugin = {
  id: "marketplace",
  description: "Claude Code plugins and marketplaces: deepcode plugin …, /plugin …",
  placement: { before: ["hooks", "mcp"] },
  register(api) {
    const settings = api.settings;
    const parts = pluginParts({ home: api.home, settings });
    parts.problems.forEach((p) => api.log.warn(p));
    api.status(() => marketplaceReport(parts));
    // Skill and agent folders, as if each plugin had contributed them: named `<plugin>:<name>`.
    for (const d of parts.skillDirs) api.contribute("skills", d.dir, { name: d.name, pins: d.pins });
    for (const d of parts.agentDirs) api.contribute("agents", d.dir, { name: d.name, pins: d.pins, ...(d.files ? { files: d.files } : {}) });
    for (const d of parts.styleDirs) api.contribute("output-styles", d.dir, { name: d.name, pins: d.pins });
    api.command(pluginSlashCommand({ dispatch: (e) => api.dispatch(e), home: api.home, root: api.root, settings }));
    api.subcommand({
      name: "plugin",
      usage: "VERB …",
      description: PLUGIN_HELP.trimEnd(),
      run: (args) => runPlugin([...args], { home: api.home, root: api.root, settings }),
    });
  },
};

export default plugin;
