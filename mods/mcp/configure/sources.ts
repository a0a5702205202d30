// Where MCP servers are configured, in Claude Code's format (`{"mcpServers": {name: {…}}}`),
// and the files `deepcode mcp add|remove` write. Scopes, narrowest first (a name in a narrower
// scope wins — except that a project's server never replaces one of the person's: a project
// entry whose name any other scope has is left out, said naming both files, so an untrusted
// `.mcp.json` cannot switch the person's server off by taking its name):
//   flag     --mcp-config FILE|JSON (repeatable; with --strict-mcp-config the only source)
//   local    ~/.deepcode/mcp.json  projects.<project's real path>.mcpServers (yours, this project),
//            then Claude Code's ~/.claude.json  projects.<project's path>.mcpServers
//   project  <root>/.mcp.json  (the repository's: needs trust, and each server your approval)
//   user     ~/.deepcode/mcp.json  mcpServers, then ~/.claude.json  mcpServers, and settings.json
//            `mcpServers` (yours, every project)
// deepcode's own file comes before Claude Code's in a scope, so its server wins a shared name.
// ~/.claude.json is Claude Code's file: one that does not parse is named in `problems` and left out.
//   plugin   an enabled plugin's .mcp.json (the marketplace's status), named plugin_<plugin>_<server>
// A settings layer's `mcpServers` counts as its layer's scope (project and local layers as the
// project's, the managed policy's as the administrator's).

import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { ConfigError, type JsonValue, type SettingsView } from "../../../src/contract/index.js";
import { JsonSyntaxError, parseJson } from "../../../src/lib/json-parse.js";
import { isObject } from "../../../src/lib/json.js";
import { projectStoreKey } from "../../../src/lib/project-store.js";

export type Scope = "local" | "project" | "user" | "flag" | "settings" | "plugin";

export interface Configured {
  name: string;
  scope: Scope;
  file: string;
  raw: { [k: string]: JsonValue };
}

export interface SourceOptions {
  root: string;
  home: string;
  settings: Pick<SettingsView, "layers">;
  mcpConfig?: string[];
  strict?: boolean;
  /** Enabled plugins' servers, already named and with ${CLAUDE_PLUGIN_ROOT} expanded. */
  pluginServers?: ReadonlyArray<{ name: string; file: string; raw: { [k: string]: JsonValue } }>;
  /** The person's home folder, where Claude Code keeps `~/.claude.json` (default os.homedir()). */
  userHome?: string;
}

/** Claude Code's own file of the person's MCP servers (user scope, and per project). */
export function claudeMcpFile(userHome: string = homedir()): string {
  return join(userHome, ".claude.json");
}

export function userMcpFile(home: string): string {
  return join(home, "mcp.json");
}

export function projectMcpFile(root: string): string {
  return join(root, ".mcp.json");
}

/** Every configured server, one per name (the narrowest scope's), in a stable order. A
 *  malformed file of the person's own is a ConfigError (fix it); the project's `.mcp.json`
 *  is a stranger's file: malformed, it is named in `problems` and deepcode goes on. */
export function configuredServers(o: SourceOptions): { servers: Configured[]; problems: string[] } {
  const problems: string[] = [];
  const found: Configured[] = [];
  const add = (scope: Scope, file: string, servers: { [k: string]: JsonValue } | undefined): void => {
    for (const [name, raw] of Object.entries(servers ?? {})) {
      if (raw && typeof raw === "object" && !Array.isArray(raw)) found.push({ name, scope, file, raw });
      else throw new ConfigError(`MCP server "${name}" must be an object ({"command": …} or {"type": "http", "url": …})`, file);
    }
  };
  for (const [i, c] of (o.mcpConfig ?? []).entries()) {
    const text = c.trimStart().startsWith("{") ? c : undefined;
    const file = text ? `--mcp-config #${i + 1}` : resolve(c);
    add("flag", file, serversOf(text ?? readRequired(file), file));
  }
  if (!o.strict) {
    const home = readOptional(userMcpFile(o.home));
    const user = home ? (parsed(home, userMcpFile(o.home)) as { [k: string]: JsonValue }) : {};
    const projects = isObject(user.projects) ? user.projects : {};
    const mine = projects[projectStoreKey(o.root)];
    add("local", userMcpFile(o.home), isObject(mine) && isObject(mine.mcpServers) ? mine.mcpServers : undefined);
    const claude = claudeServers(o, problems);
    add("local", claude.file, claude.local);
    try {
      const project = readOptional(projectMcpFile(o.root));
      if (project !== undefined) add("project", projectMcpFile(o.root), serversOf(project, projectMcpFile(o.root)));
    } catch (err) {
      problems.push(`${(err as Error).message}; its MCP servers are left out`);
    }
    add("user", userMcpFile(o.home), isObject(user.mcpServers) ? user.mcpServers : undefined);
    add("user", claude.file, claude.user);
    for (const p of o.pluginServers ?? []) add("plugin", p.file, { [p.name]: p.raw });
    for (const layer of o.settings.layers) {
      const s = layer.settings.mcpServers;
      if (!isObject(s)) continue;
      add(layer.name === "user" ? "user" : layer.name === "project" || layer.name === "local" ? "project" : layer.name === "flag" ? "flag" : "settings", layer.file, s);
    }
  }
  const order: Scope[] = ["flag", "local", "project", "user", "plugin", "settings"];
  const byName = new Map<string, Configured>();
  const theirs = new Map<string, Configured>();
  for (const c of found) if (c.scope !== "project" && !theirs.has(c.name)) theirs.set(c.name, c);
  for (const c of found.sort((a, b) => order.indexOf(a.scope) - order.indexOf(b.scope))) {
    const mine = theirs.get(c.name);
    if (c.scope === "project" && mine) {
      problems.push(`${c.file}: the MCP server "${c.name}" is left out: ${mine.file} (${mine.scope}) has a server of that name, which a project's cannot replace; give the project's another name`);
      continue;
    }
    if (!byName.has(c.name)) byName.set(c.name, c);
  }
  return { servers: [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), problems };
}

/** `~/.claude.json`'s servers: top-level `mcpServers` (user) and `projects[<root>].mcpServers`
 *  (local; Claude Code keys a project by the path it was started in, so the root as given and
 *  its real path are both looked up). Entries that are not objects are skipped here, said once. */
function claudeServers(o: SourceOptions, problems: string[]): { file: string; user?: { [k: string]: JsonValue }; local?: { [k: string]: JsonValue } } {
  const file = claudeMcpFile(o.userHome);
  let v: JsonValue;
  try {
    const text = readOptional(file);
    if (text === undefined) return { file };
    // Claude Code keeps much else here (megabytes of per-project history): the plain parser is
    // ~10× faster than the one that tracks positions, which only runs to name a syntax error.
    try {
      v = JSON.parse(text) as JsonValue;
    } catch {
      v = parsed(text, file);
    }
  } catch (err) {
    problems.push(`${(err as Error).message} (Claude Code's file: its MCP servers are left out)`);
    return { file };
  }
  if (!isObject(v)) return { file };
  const projects = isObject(v.projects) ? v.projects : {};
  const mine = [o.root, projectStoreKey(o.root)].map((k) => (Object.hasOwn(projects, k) ? projects[k] : undefined)).find(isObject);
  const objects = (m: JsonValue | undefined, where: string): { [k: string]: JsonValue } | undefined => {
    if (!isObject(m)) return undefined;
    const out: { [k: string]: JsonValue } = {};
    for (const [name, raw] of Object.entries(m)) {
      if (isObject(raw)) out[name] = raw;
      else problems.push(`${file}: ${where}.${name} is not a server object (skipped)`);
    }
    return out;
  };
  return { file, user: objects(v.mcpServers, "mcpServers"), local: objects(mine?.mcpServers, `projects[${o.root}].mcpServers`) };
}

/** The servers of an `{"mcpServers": …}` file (or a bare map of servers, as some tools write). */
export function serversOf(text: string, file: string): { [k: string]: JsonValue } {
  const v = parsed(text, file);
  if (!isObject(v)) throw new ConfigError("an MCP configuration must be a JSON object with \"mcpServers\"", file);
  if (v.mcpServers === undefined) return {};
  if (!isObject(v.mcpServers)) throw new ConfigError("\"mcpServers\" must be an object of servers by name", file);
  return v.mcpServers;
}

export function parsed(text: string, file: string): JsonValue {
  try {
    return parseJson(text).value;
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw new ConfigError(err.message, file, err.line, err.column);
    throw err;
  }
}

function readRequired(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new ConfigError(`--mcp-config: cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`, file);
  }
}

export function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigError(`cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`, file);
  }
}
