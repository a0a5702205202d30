// A plugin's parts, each for the mechanism deepcode has for it: command folders for the custom
// command loader (as /<plugin>:<name>), skill and agent folders for the skills and agents mods,
// its hooks for the hooks mod, its MCP servers for the MCP configuration, and a native module
// for the plugin loader. `${CLAUDE_PLUGIN_ROOT}` / `${DEEPCODE_PLUGIN_ROOT}` (the installed
// folder) and `${CLAUDE_PLUGIN_DATA}` / `${DEEPCODE_PLUGIN_DATA}` (its writable data folder)
// are expanded in hook commands and server configurations; hook commands also get them in
// their environment, as Claude Code's do.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { ConfigError, type JsonValue } from "../../src/contract/index.js";
import { listField, parseFrontmatter } from "../../src/lib/frontmatter.js";
import { parseAgentFile, parseSkillFile } from "../../src/lib/claude-files.js";
import { mdFilesBelow } from "../../src/lib/md-files.js";
import { loadPluginCommands, type PluginCommandSource } from "../../src/lib/command-files.js";
import { bangCommands } from "../../src/lib/command-text.js";
import { readManifest, type Obj, type PluginManifest } from "./manifest.js";
import { readJsonFile } from "./store.js";
import { isObject } from "../../src/lib/json.js";
import { inert } from "../../src/lib/inert.js";
import { expandVars, pluginVars } from "../../src/lib/plugin-vars.js";

export interface PluginContents {
  manifest: PluginManifest;
  root: string;
  commands: PluginCommandSource[];
  skillDirs: string[];
  /** Agent folders (every `*.md` below), and folders of which plugin.json lists single files. */
  agentDirs: Array<{ dir: string; files?: string[] }>;
  /** Claude Code's hooks object (events → groups), expanded; null when it has none. */
  hooks: { files: string[]; hooks: Obj } | null;
  /** MCP servers by name, expanded; each with the file it came from. */
  servers: Array<{ name: string; file: string; config: Obj }>;
  native?: string;
  /** The variables expanded (and put in hook commands' environment). */
  vars: Record<string, string>;
  /** Whether something that runs (a hook, an MCP server) may use `${CLAUDE_PLUGIN_DATA}`: its
   *  folder is created when the plugin loads (a hook script reads it from its environment). */
  needsData: boolean;
}

export { pluginVars };

/** Read what the plugin folder at `root` holds. Throws ConfigError naming the file that is wrong. */
/** `installedAt`: where the folder will be once installed (it is read from `root`, a staging
 *  copy, while an install or update is being decided); the variables expand to it. */
export function readContents(root: string, o: { id: string; name: string; data: string; entry?: Obj; installedAt?: string }): PluginContents {
  const manifest = readManifest(root, { name: o.name, entry: o.entry });
  const vars = pluginVars(o.installedAt ?? root, o.data);
  const isDir = (p: string): boolean => existsSync(p) && statSync(p).isDirectory();
  const commands: PluginCommandSource[] = [];
  for (const p of [join(root, "commands"), ...manifest.commands]) {
    if (isDir(p)) commands.push({ plugin: o.id, prefix: manifest.name, dir: p });
    else if (existsSync(p) && p.endsWith(".md")) commands.push({ plugin: o.id, prefix: manifest.name, file: p });
  }
  const hookSources: Array<{ file: string; value: JsonValue }> = [];
  const defaultHooks = join(root, "hooks", "hooks.json");
  for (const h of existsSync(defaultHooks) && !manifest.hooks.includes(defaultHooks) ? [defaultHooks, ...manifest.hooks] : manifest.hooks) {
    if (typeof h !== "string") hookSources.push({ file: manifest.file, value: h });
    else hookSources.push({ file: h, value: required(h) });
  }
  const hooks: Obj = {};
  for (const { file, value } of hookSources) {
    if (!isObject(value)) throw new ConfigError("a hooks file must be a JSON object ({\"hooks\": {\"PreToolUse\": […]}})", file);
    const events = isObject(value.hooks) ? value.hooks : value;
    for (const [event, groups] of Object.entries(events)) {
      if (event === "description") continue;
      if (!Array.isArray(groups)) throw new ConfigError(`hooks.${event} must be a list of {matcher, hooks}`, file);
      hooks[event] = [...((hooks[event] as JsonValue[] | undefined) ?? []), ...(expand(groups, vars) as JsonValue[])];
    }
  }
  const servers: PluginContents["servers"] = [];
  const defaultMcp = join(root, ".mcp.json");
  for (const m of existsSync(defaultMcp) && !manifest.mcpServers.includes(defaultMcp) ? [defaultMcp, ...manifest.mcpServers] : manifest.mcpServers) {
    const file = typeof m === "string" ? m : manifest.file;
    const value = typeof m === "string" ? required(m) : m;
    if (!isObject(value)) throw new ConfigError("an MCP configuration must be a JSON object", file);
    const map = isObject(value.mcpServers) ? value.mcpServers : value;
    for (const [name, cfg] of Object.entries(map)) {
      if (!isObject(cfg)) throw new ConfigError(`MCP server "${name}" must be an object`, file);
      servers.push({ name, file, config: expand(cfg, vars) as Obj });
    }
  }
  return {
    manifest,
    root,
    commands,
    skillDirs: skillPlaces(root, manifest.skills, isDir),
    agentDirs: agentPlaces(root, manifest.agents, isDir),
    hooks: Object.keys(hooks).length ? { files: hookSources.map((h) => h.file), hooks } : null,
    servers,
    native: manifest.native,
    vars,
    needsData: Object.keys(hooks).length > 0 || servers.length > 0,
  };
}

/** Where a plugin's skills are: its `skills/` folder and the paths its manifest adds — except
 *  that a manifest naming single skills inside `skills/` (Anthropic's skills marketplace:
 *  `"skills": ["./skills/pdf"]`) gets those skills only. Claude Code scans the whole folder as
 *  well there, so every plugin of that marketplace loads every skill of the repository; the
 *  author's list is what they meant. */
function skillPlaces(root: string, listed: readonly string[], isDir: (p: string) => boolean): string[] {
  const def = join(root, "skills");
  const picks = listed.some((p) => relative(def, p) !== "" && !relative(def, p).startsWith("..") && existsSync(join(p, "SKILL.md")));
  return [...new Set([...(picks ? [] : [def]), ...listed])].filter(isDir);
}

/** Where a plugin's agents are: its `agents/` folder and the paths its manifest adds, each a
 *  folder or an agent file (VoltAgent's `"agents": ["./api-designer.md", …]`, as commands may
 *  list files); listed files are grouped by their folder, which contributes only those. */
function agentPlaces(root: string, listed: readonly string[], isDir: (p: string) => boolean): PluginContents["agentDirs"] {
  const dirs = [...new Set([join(root, "agents"), ...listed.filter(isDir)])].map((dir) => ({ dir }));
  const files = new Map<string, string[]>();
  for (const p of listed) {
    if (isDir(p) || !/\.md$/i.test(p) || !existsSync(p)) continue;
    files.set(dirname(p), [...(files.get(dirname(p)) ?? []), p]);
  }
  return [...dirs.filter((d) => isDir(d.dir)), ...[...files].map(([dir, list]) => ({ dir, files: list }))];
}

function required(file: string): JsonValue {
  const v = readJsonFile(file);
  if (v === undefined) throw new ConfigError("the plugin names this file, but it is not there", file);
  return v;
}

/** `${CLAUDE_PLUGIN_ROOT}` and the other plugin variables in every string of `v`. */
export function expand(v: JsonValue, vars: Readonly<Record<string, string>>): JsonValue {
  if (typeof v === "string") return expandVars(v, vars);
  if (Array.isArray(v)) return v.map((x) => expand(x, vars));
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expand(x, vars)]));
  return v;
}

/** The MCP server name a plugin's server gets: Claude Code's `plugin_<plugin>_<server>`. */
export function pluginServerName(plugin: string, server: string): string {
  return `plugin_${plugin}_${server}`;
}

/** What a plugin brings, in words, by kind. `hooks`, `servers`, `native` and `permissions`
 *  (commands with allowed-tools or !`cmd` lines, skills with allowed-tools) can run code or loosen a rule: an install
 *  asks about them, an update shows how they change. */
export interface Brings {
  hooks: string[];
  servers: string[];
  native: string[];
  permissions: string[];
  commands: string[];
  skills: string[];
  agents: string[];
}

export const RISKY: ReadonlyArray<keyof Brings> = ["hooks", "servers", "native", "permissions"];

export function brings(c: PluginContents): Brings {
  const b: Brings = { hooks: [], servers: [], native: [], permissions: [], commands: [], skills: [], agents: [] };
  for (const [event, groups] of Object.entries(c.hooks?.hooks ?? {})) {
    for (const g of Array.isArray(groups) ? groups : []) {
      const matcher = isObject(g) && typeof g.matcher === "string" && g.matcher ? ` (${g.matcher})` : "";
      for (const h of isObject(g) && Array.isArray(g.hooks) ? g.hooks : []) {
        b.hooks.push(`${event}${matcher} hook: ${isObject(h) && typeof h.command === "string" ? h.command : JSON.stringify(h)}`);
      }
    }
  }
  for (const s of c.servers) b.servers.push(`MCP server ${pluginServerName(c.manifest.name, s.name)}: ${serverText(s.config)}`);
  if (c.native) b.native.push(`a deepcode module, loaded into deepcode itself: ${relative(c.root, c.native)}`);
  const { commands } = loadPluginCommands(c.commands, { parseFrontmatter, listField });
  for (const cmd of commands) {
    b.commands.push(`/${cmd.name}`);
    if (cmd.allowedTools?.length) b.permissions.push(`command /${cmd.name} allows ${cmd.allowedTools.join(", ")} while it runs`);
    const bangs = bangCommands(cmd.body);
    if (bangs.length) b.permissions.push(`command /${cmd.name} runs ${bangs.map((x) => `\`${x}\``).join(", ")}`);
  }
  // Only what loads is listed, by the name it loads as (the skills and agents mods read the
  // files the same way): a skill by its folder, an agent by its header's name.
  const seen = new Set<string>();
  for (const { dir, name } of skillFolders(c.skillDirs)) {
    const parsed = parseSkillFile(readText(join(dir, "SKILL.md")), name);
    if (!parsed.ok || parsed.value.name === "list" || seen.has(parsed.value.name)) continue;
    seen.add(parsed.value.name);
    b.skills.push(parsed.value.displayName ? `${parsed.value.name} (${parsed.value.displayName})` : parsed.value.name);
    // A skill's allowed-tools run without asking while it is in use, and the model can load
    // a skill itself (unless disable-model-invocation): a loosening, shown as one.
    if (parsed.value.allowedTools.length) {
      const who = parsed.value.modelInvocable ? "the model can load it itself" : "when you load it";
      b.permissions.push(`skill ${manifestPrefix(c)}${parsed.value.name} allows ${parsed.value.allowedTools.join(", ")} while it is in use (${who})`);
    }
  }
  // Agent files' `tools` only narrow what a subagent gets (the rules still ask): not listed here.
  for (const d of c.agentDirs) {
    for (const file of mdFilesBelow(d.dir, d.files)) {
      const parsed = parseAgentFile(readText(file), basename(file).replace(/\.md$/i, ""));
      if (parsed.ok && !b.agents.includes(parsed.value.name)) b.agents.push(parsed.value.name);
    }
  }
  // Every line is someone else's text (a command, an argument, a file name): inert before it
  // is printed on a consent screen.
  for (const k of Object.keys(b) as Array<keyof Brings>) b[k] = b[k].map(inert);
  return b;
}

/** The lines an install shows: what can run code or loosen a rule first, then the rest. */
export function bringsLines(b: Brings): string[] {
  const lines: string[] = [];
  const verb: Partial<Record<keyof Brings, string>> = { hooks: "runs a", servers: "starts", native: "loads", permissions: "" };
  for (const k of RISKY) for (const x of b[k]) lines.push(`! ${verb[k] ? `${verb[k]} ` : ""}${x}`);
  if (b.commands.length) lines.push(`  commands: ${b.commands.join(", ")}`);
  if (b.skills.length) lines.push(`  skills: ${b.skills.join(", ")}`);
  if (b.agents.length) lines.push(`  agents: ${b.agents.join(", ")}`);
  return lines;
}

function manifestPrefix(c: PluginContents): string {
  return `${c.manifest.name}:`;
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return ""; // unreadable: the skills mod reports it when it loads the folder
  }
}

/** The skill folders of a plugin's skill places: a place holding a SKILL.md is one skill, any
 *  other place's sub-folders with one are (the skills mod's rule, mods/skills/load.ts). */
function skillFolders(places: readonly string[]): Array<{ dir: string; name: string }> {
  const out: Array<{ dir: string; name: string }> = [];
  for (const d of places) {
    if (existsSync(join(d, "SKILL.md"))) out.push({ dir: d, name: basename(d) });
    else for (const n of names(d)) if (!n.startsWith(".") && existsSync(join(d, n, "SKILL.md"))) out.push({ dir: join(d, n), name: n });
  }
  return out;
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return []; // an unreadable folder lists nothing
  }
}

function serverText(cfg: Obj): string {
  if (typeof cfg.url === "string") return cfg.url;
  const args = Array.isArray(cfg.args) ? cfg.args.map(String) : [];
  return [String(cfg.command ?? "?"), ...args].join(" ");
}
