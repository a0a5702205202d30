// Start-up: the installed plugins that are enabled and intact, and their parts. A plugin whose
// files changed since install (a modified, added or missing file), whose marketplace the
// managed policy does not allow, or whose folder cannot be read is refused — said loudly, with
// what is wrong — and everything else loads. The check is stat-first: a file whose size, mode,
// mtime, ctime and inode are as installed is not read again (`deepcode plugin verify` hashes
// every file).

import { existsSync } from "node:fs";
import { join } from "node:path";
import { byName, readKnown, readLock, dataDir, installDir, type InstallRecord } from "./store.js";
import { drift, driftWords } from "./files.js";
import { blockedByPolicy, enabledPlugins, managedMarketplace, marketPolicy } from "./enabled.js";
import { readContents, type PluginContents } from "./parts.js";
import { ensureDataDir } from "../../src/lib/plugin-vars.js";
import { inert } from "../../src/lib/inert.js";
import type { PluginCommandSource } from "../../src/lib/command-files.js";
import type { Settings } from "./settings.js";

export interface LoadedPlugin {
  id: string;
  record: InstallRecord;
  contents: PluginContents;
  /** "managed": the managed policy enables it and declares its marketplace (by source, in its
   *  own extraKnownMarketplaces or strictKnownMarketplaces) — its hooks and module run in the
   *  prepend tier. An id alone is not enough: any repository can call itself that marketplace. */
  tier: "user" | "managed";
}

/** What the enabled plugins contribute, part by part, for assembly to hand to each mechanism. */
export interface PluginParts {
  plugins: LoadedPlugin[];
  /** Plugins refused or broken, each in one loud line (start-up prints them). */
  problems: string[];
  commands: PluginCommandSource[];
  /** For the skills mod (as contributions, assemble.ts): each enabled, verified plugin's skill
   *  folders (SKILL.md per sub-folder, Claude Code's format), namespaced by plugin. */
  skillDirs: Array<{ plugin: string; name: string; dir: string; pins: Readonly<Record<string, string>> }>;
  /** For the agents mod, the same way: each enabled, verified plugin's agent folders (one .md per agent), or the files plugin.json lists. */
  agentDirs: Array<{ plugin: string; name: string; dir: string; files?: string[]; pins: Readonly<Record<string, string>> }>;
  /** Enabled plugins' `output-styles/` folders (the output-styles mod reads them). */
  styleDirs: Array<{ name: string; dir: string; pins: Readonly<Record<string, string>> }>;
}

export function pluginParts(o: { home: string; settings: Settings }): PluginParts {
  const parts = collect(o);
  // A problem may quote a plugin's own text (a JSON key in its hooks file): printed inert.
  parts.problems = parts.problems.map(inert);
  return parts;
}

function collect(o: { home: string; settings: Settings }): PluginParts {
  const parts: PluginParts = { plugins: [], problems: [], commands: [], skillDirs: [], agentDirs: [], styleDirs: [] };
  const enabled = enabledPlugins(o.settings, parts.problems);
  if (enabled.size === 0) return parts;
  let lock;
  let known;
  try {
    lock = readLock(o.home);
    known = readKnown(o.home);
  } catch (err) {
    parts.problems.push(`no plugin loads: ${(err as Error).message}`);
    return parts;
  }
  const policy = marketPolicy(o.settings);
  const loaded: LoadedPlugin[] = [];
  for (const [id, state] of enabled) {
    if (!state.enabled) continue;
    const record = lock.plugins[id];
    if (!record) {
      parts.problems.push(`plugin ${id} is enabled (${state.file}) but not installed: deepcode plugin install ${id}`);
      continue;
    }
    const market = known[record.marketplace];
    const blocked = market ? blockedByPolicy(policy, market.source) : policy.allow ? "its marketplace is no longer known, and the managed policy allows only listed marketplaces" : undefined;
    if (blocked) {
      parts.problems.push(`plugin ${id} is NOT loaded: ${blocked}`);
      continue;
    }
    const dir = installDir(o.home, id);
    const changed = drift(dir, record.files);
    if (changed) {
      parts.problems.push(`plugin ${id} is NOT loaded: its files changed since it was installed (${driftWords(changed)}). deepcode plugin verify ${id} lists each change. If you changed them on purpose, deepcode plugin verify ${id} --accept re-pins them; if you did not, something else did: reinstall with deepcode plugin update ${id} (or uninstall it)`);
      continue;
    }
    let contents: PluginContents;
    try {
      contents = readContents(dir, { id, name: record.name, data: dataDir(o.home, id), entry: record.entry });
    } catch (err) {
      parts.problems.push(`plugin ${id} did not load: ${(err as Error).message}; the rest keeps working`);
      continue;
    }
    // Its parts are namespaced by plugin.json's name (/<name>:cmd, <name>:skill,
    // plugin_<name>_<server>): it must be the name it was installed as.
    if (contents.manifest.name !== record.name) {
      parts.problems.push(`plugin ${id} is NOT loaded: its plugin.json calls it "${contents.manifest.name}", not ${record.name}; a plugin cannot take another's name (its commands, skills, agents and servers would pass for that plugin's)`);
      continue;
    }
    let tier: LoadedPlugin["tier"] = "user";
    if (state.layer === "managed") {
      if (market && managedMarketplace(o.settings, record.marketplace, market.source)) tier = "managed";
      else parts.problems.push(`plugin ${id} is enabled by the managed policy, but its marketplace ${record.marketplace} is not one the policy declares (extraKnownMarketplaces or strictKnownMarketplaces): it loads in the user tier, not before the person's own hooks`);
    }
    if (contents.needsData) {
      try {
        ensureDataDir(contents.vars);
      } catch (err) {
        parts.problems.push(`plugin ${id}: its data folder ${contents.vars.CLAUDE_PLUGIN_DATA} cannot be created (${(err as Error).message}); what it writes there will fail`);
      }
    }
    loaded.push({ id, record, contents, tier });
  }
  // Two plugins with one name would share /<name>:… and plugin_<name>_…: neither loads.
  const named = new Map<string, string[]>();
  for (const p of loaded) named.set(p.contents.manifest.name, [...(named.get(p.contents.manifest.name) ?? []), p.id]);
  for (const p of loaded) {
    const same = named.get(p.contents.manifest.name)!;
    if (same.length > 1) {
      if (same[0] === p.id) parts.problems.push(`plugins ${same.join(" and ")} are NOT loaded: they have the same name, ${p.contents.manifest.name}, and would share its commands, skills, agents and servers; disable all but one (deepcode plugin disable ID)`);
      continue;
    }
    // Its files' hashes from the lock, by path: the loaders that read its commands, skills and
    // agents again mid-session (/reload, each turn) skip a file that no longer matches.
    const base = installDir(o.home, p.id);
    const pins = byName(Object.fromEntries(Object.entries(p.record.files).map(([rel, f]) => [join(base, rel), f.sha256])));
    parts.plugins.push(p);
    parts.commands.push(...p.contents.commands.map((c) => ({ ...c, pins, vars: p.contents.vars })));
    parts.skillDirs.push(...p.contents.skillDirs.map((dir) => ({ plugin: p.id, name: p.contents.manifest.name, dir, pins })));
    parts.agentDirs.push(...p.contents.agentDirs.map((d) => ({ plugin: p.id, name: p.contents.manifest.name, ...d, pins })));
    const styles = join(p.contents.root, "output-styles");
    if (existsSync(styles)) parts.styleDirs.push({ name: p.contents.manifest.name, dir: styles, pins });
  }
  return parts;
}
