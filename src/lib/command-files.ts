// Custom command files (Claude Code's `commands/*.md` format) read into commands: names from
// paths, the frontmatter, a plugin's pins and variables. Pure of the host: the CLI's loader
// (src/cli/commands/custom.ts) adds the places and the secret check; the marketplace mod lists
// what an installed plugin's commands would do (its install screen). The rules are described
// in src/cli/commands/custom.ts.

import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { FrontmatterValue, listField, parseFrontmatter } from "./frontmatter.js";

/** The frontmatter reader (src/lib/frontmatter.ts), handed in by the caller (the custom-command
 *  loader, the marketplace), so a test can read files with another. */
export interface CommandFormat {
  parseFrontmatter: typeof parseFrontmatter;
  listField: typeof listField;
}
import { readOwnFile, type SecretCheck } from "./own-file.js";
import type { OwnFileRead } from "../contract/index.js";
import { ensureDataDir, expandVars, usesData, type PluginVars } from "./plugin-vars.js";

export interface CustomCommand {
  /** Without the leading slash; `git:commit` for `git/commit.md`. */
  name: string;
  /** Claude Code's name for a file in a sub-folder: its own name (`/commit` for `git/commit.md`,
   *  `/ccusage-daily` for `ccusage/ccusage-daily.md`), which runs it too — unless a command is
   *  called that, or another sub-folder file of higher precedence has the same own name
   *  (`collect` says which file keeps it). Not for a plugin's commands (`/<plugin>:<name>`). */
  alias?: string;
  description: string;
  argumentHint?: string;
  /** Permission rules (Claude Code's `allowed-tools`), e.g. `Bash(git status:*)`. */
  allowedTools?: string[];
  model?: string;
  /** The prompt template, without the frontmatter. */
  body: string;
  file: string;
  scope: "project" | "user" | "plugin";
  /** The plugin (`name@marketplace`) it came from. */
  plugin?: string;
  /** Which tool's folder it came from. */
  origin: "deepcode" | "claude";
  /** A plugin's command: its installed folder, where its `@${CLAUDE_PLUGIN_ROOT}/…` references
   *  are read from (expand.ts attaches them; the mentions hook reads only the project). */
  pluginRoot?: string;
}

/** A plugin's command folder (`dir`) or single command file (`file`), namespaced by `prefix`. */
export interface PluginCommandSource {
  plugin: string;
  prefix: string;
  dir?: string;
  file?: string;
  /** The sha256 of every file the plugin installed, by absolute path: a command file not
   *  listed, or changed since, is skipped when the commands are read again (/reload). */
  pins?: Readonly<Record<string, string>>;
  /** The plugin's variables (`${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}`), expanded in its
   *  commands' bodies and `allowed-tools`, as Claude Code does. */
  vars?: PluginVars;
}

const KNOWN_KEYS = new Set(["description", "argument-hint", "allowed-tools", "model"]);
/** Every key of Claude Code's command format: inside a lenient continuation only these start the next key. */
const COMMAND_FORMAT_KEYS = [...KNOWN_KEYS, "disable-model-invocation", "hide-from-slash-command-tool", "hooks"];
const CLAUDE_MODEL = /^(claude[-\w.]*|haiku|sonnet|opus|opusplan|inherit)$/i;
/** How deep sub-folders are followed (a guard against symlink loops too). */
const MAX_DEPTH = 8;

/** Only the commands of these plugin sources (what an install shows it brings). */
export function loadPluginCommands(sources: readonly PluginCommandSource[], format: CommandFormat): { commands: CustomCommand[]; warnings: string[] } {
  return collect(pluginPlaces(sources), new Set(), format);
}

export interface Place {
  dir: string;
  scope: CustomCommand["scope"];
  origin: CustomCommand["origin"];
  prefix?: string;
  plugin?: string;
  file?: string;
  pins?: Readonly<Record<string, string>>;
  vars?: PluginVars;
  /** Where its files must really lie (readOwnFile): the project for the project's commands. */
  within?: string[];
}

/** A command file larger than this is skipped (its body becomes a prompt). */
export const MAX_COMMAND_BYTES = 1024 * 1024;

export function pluginPlaces(sources: readonly PluginCommandSource[]): Place[] {
  return sources.map((s) => ({ dir: s.dir ?? dirname(s.file ?? ""), file: s.file, scope: "plugin", origin: "claude", prefix: s.prefix, plugin: s.plugin, pins: s.pins, vars: s.vars, within: [s.dir ?? dirname(s.file ?? "")] }));
}

export function collect(places: readonly Place[], reserved: ReadonlySet<string>, format: CommandFormat, secret?: SecretCheck): { commands: CustomCommand[]; warnings: string[] } {
  const byName = new Map<string, CustomCommand>();
  const warnings: string[] = [];
  const seenDirs = new Set<string>();
  for (const place of places) {
    const key = place.file ?? place.dir;
    if (seenDirs.has(key)) continue; // home === userHome/.deepcode and the like
    seenDirs.add(key);
    for (const file of place.file ? [place.file] : markdownFiles(place.dir)) {
      const own = relative(place.dir, file).replace(/\.md$/i, "").split(/[\\/]/).join(":");
      let name = place.prefix ? `${place.prefix}:${own}` : own;
      const held = byName.get(name);
      if (held && place.scope === "project" && held.scope !== "project") {
        const theirs = `/${name}`;
        name = `project:${name}`;
        warnings.push(`${file}: ${theirs} is ${held.scope === "plugin" ? `plugin ${held.plugin ?? ""}'s` : "your own"} command (${held.file}), which a project cannot replace; this file is /${name}`);
      }
      if (/\s/.test(name)) {
        warnings.push(`${file}: a command name cannot contain spaces; skipped`);
        continue;
      }
      if (reserved.has(name)) {
        warnings.push(`${file}: /${name} is a built-in command; this file is skipped`);
        continue;
      }
      if (byName.has(name)) continue; // a higher-precedence file already claimed the name
      const read = (): OwnFileRead => readOwnFile(file, { within: place.within, maxBytes: MAX_COMMAND_BYTES }, secret);
      const cmd = readCommand(read, format, file, name, place.scope, place.origin, warnings, place.pins);
      if (cmd && place.plugin) cmd.plugin = place.plugin;
      if (cmd && place.vars) withPluginVars(cmd, place.vars, warnings);
      if (cmd) byName.set(name, cmd);
    }
  }
  aliases([...byName.values()], warnings);
  const commands = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { commands, warnings };
}

/** Claude Code's names for sub-folder commands (CustomCommand.alias), in precedence order (the
 *  person's before a project's, then path order): the first file claims its own name; a later
 *  one with the same own name keeps only its folder form, said once naming both files. */
function aliases(commands: readonly CustomCommand[], warnings: string[]): void {
  const names = new Set(commands.map((c) => c.name));
  const held = new Map<string, CustomCommand>();
  for (const c of commands) {
    if (c.scope === "plugin" || !c.name.includes(":")) continue;
    const own = c.name.slice(c.name.lastIndexOf(":") + 1);
    if (c.name.startsWith("project:") || names.has(own)) continue;
    const first = held.get(own);
    if (first) {
      warnings.push(`${c.file}: /${own} is also ${first.file}, which keeps that name; this file is /${c.name}`);
      continue;
    }
    held.set(own, c);
    c.alias = own;
  }
}

function readCommand(read: () => OwnFileRead, format: CommandFormat, file: string, name: string, scope: CustomCommand["scope"], origin: CustomCommand["origin"], warnings: string[], pins?: Readonly<Record<string, string>>): CustomCommand | undefined {
  // The Read tool's identity checks (src/core/own-file.ts): a project's command file linked to
  // ~/.ssh/id_rsa, a FIFO, a huge file is skipped with the reason.
  const r = read();
  if (!r.ok) {
    if (!r.missing) warnings.push(`${r.reason}; /${name} is skipped`);
    return undefined;
  }
  if (r.truncated) {
    warnings.push(`${file}: ${r.size} bytes, more than a command file may (${MAX_COMMAND_BYTES}); /${name} is skipped`);
    return undefined;
  }
  const data = r.data;
  if (pins && pins[file] !== createHash("sha256").update(data).digest("hex")) {
    warnings.push(`${file}: ${pins[file] ? "changed" : "added"} since its plugin was installed; /${name} is skipped (deepcode plugin verify)`);
    return undefined;
  }
  const text = data.toString("utf8");
  const fm = format.parseFrontmatter(text, { keys: COMMAND_FORMAT_KEYS });
  if (fm.unclosed) {
    // Registering it would send its header as the prompt: it is left out, and said so.
    warnings.push(`${file}:1: the frontmatter opened with --- is never closed, so /${name} is not registered; close the header with a --- line (then /reload)`);
    return undefined;
  }
  for (const p of fm.problems) warnings.push(`${file}:${p.line}: ${p.message}`);
  // Claude Code reads a value that runs on unindented lines; so does deepcode, saying so in
  // its own folders (a Claude Code file's owner is not told about what Claude Code accepts).
  if (origin === "deepcode") for (const l of fm.lenient) warnings.push(`${file}:${l.line}: ${l.key} continues on unindented lines; read as one value (indent them to make it plain YAML)`);
  const cmd: CustomCommand = { name, description: "", body: fm.body.replace(/^\s*\n/, ""), file, scope, origin };
  for (const [key, v] of fm.fields) {
    const where = `${file}:${v.line}`;
    switch (key) {
      case "description":
        cmd.description = text1(v);
        break;
      case "argument-hint":
        // `argument-hint: [message]` is a hint shown as written, not a list.
        cmd.argumentHint = Array.isArray(v.value) ? v.raw : v.value;
        break;
      case "allowed-tools":
        cmd.allowedTools = format.listField(v);
        break;
      case "hooks":
        // Claude Code runs these while the command is active; deepcode does not (yet): said, so a
        // guard the author meant is not thought to run.
        warnings.push(`${where}: hooks: in a command's header are not run by deepcode; /${name} runs without them (settings hooks run for every command)`);
        break;
      case "model": {
        const model = text1(v);
        if (CLAUDE_MODEL.test(model)) warnings.push(`${where}: model '${model}' is a Claude model; ignored (the session's model is used)`);
        else if (model) cmd.model = model;
        break;
      }
      default:
        if (origin === "deepcode" && !KNOWN_KEYS.has(key)) warnings.push(`${where}: unknown key '${key}' (known: ${[...KNOWN_KEYS].join(", ")}); ignored`);
    }
  }
  if (!cmd.description) cmd.description = firstLine(cmd.body);
  return cmd;
}

/** A plugin's command with its variables expanded in the body and `allowed-tools`; the data
 *  folder made when the body names it. */
function withPluginVars(cmd: CustomCommand, vars: PluginVars, warnings: string[]): void {
  if (usesData(cmd.body)) {
    try {
      ensureDataDir(vars);
    } catch (err) {
      warnings.push(`${cmd.file}: the plugin's data folder ${vars.CLAUDE_PLUGIN_DATA} cannot be created (${(err as Error).message})`);
    }
  }
  cmd.body = expandVars(cmd.body, vars);
  if (cmd.allowedTools) cmd.allowedTools = cmd.allowedTools.map((t) => expandVars(t, vars));
  cmd.pluginRoot = vars.CLAUDE_PLUGIN_ROOT;
}

function text1(v: FrontmatterValue): string {
  return (Array.isArray(v.value) ? v.value.join(", ") : v.value).trim();
}

/** The body's first non-empty line, without heading marks, cut to one screen line. */
function firstLine(body: string): string {
  const line = body.split("\n").map((l) => l.replace(/^\s*#+\s*/, "").trim()).find(Boolean) ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** `*.md` files below `dir` in name order (files of a folder before its sub-folders). */
function markdownFiles(dir: string, depth = 0): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return []; // no such folder (the common case) or unreadable: no commands from here
  }
  const files: string[] = [];
  const dirs: string[] = [];
  for (const n of names) {
    if (n.startsWith(".")) continue;
    const p = join(dir, n);
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory(); // follows symlinks: linked command folders work
    } catch {
      continue; // a dangling symlink: nothing to load
    }
    if (isDir) dirs.push(p);
    else if (/\.md$/i.test(n)) files.push(p);
  }
  if (depth < MAX_DEPTH) for (const d of dirs) files.push(...markdownFiles(d, depth + 1));
  return files;
}
