// Claude Code's plugin and marketplace files, read as their authors write them.
//
// `.claude-plugin/plugin.json` (optional: without it the folder's name and the marketplace
// entry stand in): `name` (kebab-case), `version`, `description`, `author` (a string or
// {name, email, url}), and paths that add to the default folders — `commands`, `agents`,
// `skills` (a path or a list of them), `hooks` (a path to a hooks.json, or the hooks object
// inline), `mcpServers` (a path to a .mcp.json-style file, or the servers inline). Paths are
// relative to the plugin's root, start with `./`, and may not leave it. deepcode's own key:
// `deepcode` names a native module (`{ id, register(api) }`), a path or `{ "module": path }`.
//
// `.claude-plugin/marketplace.json`: `name`, `owner` ({name, email}), `metadata.pluginRoot`
// (the folder bare plugin sources are in), `plugins[]` with `name`, `source`, `version`,
// `description` … A source is a relative folder (`./plugins/x`) or an object:
// {source: "github", repo, ref?, sha?} | {source: "url", url, ref?, sha?} |
// {source: "git-subdir", url, path, ref?, sha?}. deepcode's own key on an entry: `sha256`, the
// digest the plugin's files must have (files.ts digestOf) — a mismatch refuses the install.
// Unknown keys are left alone, as Claude Code does.

import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { ConfigError, type JsonValue } from "../../src/contract/index.js";
import { readJsonFile } from "./store.js";
import { isObject } from "../../src/lib/json.js";

export type Obj = { [k: string]: JsonValue };

export interface PluginManifest {
  name: string;
  version?: string;
  description?: string;
  author?: string;
  commands: string[];
  agents: string[];
  skills: string[];
  /** Paths of hooks files, or the hooks object inline. */
  hooks: Array<string | Obj>;
  mcpServers: Array<string | Obj>;
  /** deepcode's native module, relative to the root. */
  native?: string;
  /** Where each thing came from (for messages). */
  file: string;
}

export function manifestFile(root: string): string {
  return join(root, ".claude-plugin", "plugin.json");
}

/** A plugin's manifest; `fallback` (the marketplace entry) stands in where plugin.json is absent. */
export function readManifest(root: string, fallback: { name: string; entry?: Obj }): PluginManifest {
  const file = manifestFile(root);
  const v = readJsonFile(file);
  if (v !== undefined && !isObject(v)) throw new ConfigError("plugin.json must be a JSON object", file);
  // An entry with `strict: false` (Claude Code) defines the plugin's parts itself, with or
  // without a plugin.json; otherwise the entry only fills in what plugin.json leaves out.
  const entry = fallback.entry ?? {};
  const m: Obj = v === undefined || entry.strict === false ? { ...(v ?? {}), ...entry } : { ...entry, ...v };
  const where = v === undefined ? `${fallback.name} (its marketplace entry)` : file;
  const name = typeof m.name === "string" && m.name ? m.name : fallback.name;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new ConfigError(`"name" must be letters, digits, . _ and - (not ${JSON.stringify(name)})`, where);
  const paths = (key: string): string[] => {
    const x = m[key];
    if (x === undefined) return [];
    const list = Array.isArray(x) ? x : [x];
    return list.map((p) => {
      if (typeof p !== "string") throw new ConfigError(`"${key}" must be a path or a list of paths`, where);
      return inside(root, p, key, where);
    });
  };
  const pathsOrObjects = (key: string): Array<string | Obj> => {
    const x = m[key];
    if (x === undefined) return [];
    if (isObject(x)) return [x];
    return (Array.isArray(x) ? x : [x]).map((p) => {
      if (isObject(p)) return p;
      if (typeof p !== "string") throw new ConfigError(`"${key}" must be a path, a list of paths, or an object`, where);
      return inside(root, p, key, where);
    });
  };
  const native = m.deepcode;
  const nativePath = typeof native === "string" ? native : isObject(native) && typeof native.module === "string" ? native.module : undefined;
  if (native !== undefined && nativePath === undefined) throw new ConfigError('"deepcode" must name the module: a path, or {"module": path}', where);
  return {
    name,
    version: typeof m.version === "string" ? m.version : undefined,
    description: typeof m.description === "string" ? m.description : undefined,
    author: typeof m.author === "string" ? m.author : isObject(m.author) && typeof m.author.name === "string" ? m.author.name : undefined,
    commands: paths("commands"),
    agents: paths("agents"),
    skills: paths("skills"),
    hooks: pathsOrObjects("hooks"),
    mcpServers: pathsOrObjects("mcpServers"),
    native: nativePath === undefined ? undefined : inside(root, nativePath, "deepcode", where),
    file: where,
  };
}

/** `p` resolved against `root`; it must stay inside (no `..` out, no absolute path elsewhere). */
export function inside(root: string, p: string, key: string, where: string): string {
  const abs = resolve(root, p);
  const rel = relative(root, abs);
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new ConfigError(`"${key}" path ${JSON.stringify(p)} leaves the plugin's folder`, where);
  return abs;
}

export type PluginSource =
  | { kind: "path"; path: string }
  | { kind: "git"; url: string; ref?: string; sha?: string; subdir?: string };

export interface MarketplaceEntry {
  name: string;
  version?: string;
  description?: string;
  source: PluginSource;
  /** The source as written (recorded in the lock). */
  rawSource: JsonValue;
  sha256?: string;
  raw: Obj;
}

export interface MarketplaceFile {
  name: string;
  owner?: string;
  description?: string;
  plugins: MarketplaceEntry[];
  file: string;
  /** Entries that cannot be used, each with why (the rest of the marketplace still works). */
  problems: string[];
}

export function marketplaceFile(dir: string): string {
  return join(dir, ".claude-plugin", "marketplace.json");
}

export function readMarketplace(dir: string): MarketplaceFile {
  const file = marketplaceFile(dir);
  const v = readJsonFile(file);
  if (v === undefined) throw new ConfigError("no .claude-plugin/marketplace.json here: a marketplace is a folder (or git repository) with that file", file);
  if (!isObject(v)) throw new ConfigError("marketplace.json must be a JSON object", file);
  if (typeof v.name !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(v.name)) throw new ConfigError('"name" must be the marketplace\'s name (letters, digits, . _ -)', file);
  if (!Array.isArray(v.plugins)) throw new ConfigError('"plugins" must be a list of plugin entries', file);
  const meta = isObject(v.metadata) ? v.metadata : {};
  const pluginRoot = typeof meta.pluginRoot === "string" ? meta.pluginRoot : undefined;
  const problems: string[] = [];
  const plugins: MarketplaceEntry[] = [];
  v.plugins.forEach((p, i) => {
    const at = `plugins[${i}]`;
    if (!isObject(p) || typeof p.name !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(p.name)) return void problems.push(`${file}: ${at} needs a "name" (letters, digits, . _ -)`);
    const source = sourceOf(p.source, pluginRoot);
    if (typeof source === "string") return void problems.push(`${file}: ${at} (${p.name}): ${source}`);
    const sha = p.sha256;
    if (sha !== undefined && (typeof sha !== "string" || !/^[0-9a-f]{64}$/i.test(sha))) return void problems.push(`${file}: ${at} (${p.name}): "sha256" must be 64 hex digits`);
    plugins.push({
      name: p.name,
      version: typeof p.version === "string" ? p.version : undefined,
      description: typeof p.description === "string" ? p.description : undefined,
      source,
      rawSource: p.source ?? null,
      sha256: typeof sha === "string" ? sha.toLowerCase() : undefined,
      raw: p,
    });
  });
  const owner = isObject(v.owner) && typeof v.owner.name === "string" ? v.owner.name : typeof v.owner === "string" ? v.owner : undefined;
  const description = typeof v.description === "string" ? v.description : typeof meta.description === "string" ? meta.description : undefined;
  return { name: v.name, owner, description, plugins, file, problems };
}

/** A plugin entry's source; a string is why it cannot be used. */
function sourceOf(s: JsonValue | undefined, pluginRoot: string | undefined): PluginSource | string {
  if (typeof s === "string") {
    if (s.startsWith("./") || s.startsWith("../") || s === ".") return { kind: "path", path: s };
    if (/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(s)) return { kind: "path", path: pluginRoot ? `${pluginRoot.replace(/\/$/, "")}/${s}` : `./${s}` };
    return `source ${JSON.stringify(s)} is neither a relative folder (./…) nor a source object`;
  }
  if (!isObject(s)) return 'needs a "source" (a relative folder like "./plugins/x", or {"source": "github", "repo": …})';
  const pins = { ref: typeof s.ref === "string" ? s.ref : undefined, sha: typeof s.sha === "string" ? s.sha : undefined };
  if (pins.sha !== undefined && !/^[0-9a-f]{40}$/i.test(pins.sha)) return '"sha" must be a full 40-digit commit';
  switch (s.source) {
    case "github":
      if (typeof s.repo !== "string" || !/^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/.test(s.repo)) return 'a github source needs "repo": "owner/name"';
      return { kind: "git", url: githubUrl(s.repo), ...pins };
    case "url":
    case "git":
      if (typeof s.url !== "string" || !s.url) return `a ${s.source} source needs "url"`;
      return { kind: "git", url: s.url, ...pins };
    case "git-subdir": {
      const url = typeof s.url === "string" ? s.url : typeof s.repo === "string" ? githubUrl(s.repo) : undefined;
      if (!url || typeof s.path !== "string") return 'a git-subdir source needs "url" (or "repo") and "path"';
      return { kind: "git", url, subdir: s.path, ...pins };
    }
    case "npm":
    case "pip":
      return `${s.source} sources are not supported by deepcode (use a git or relative source)`;
    default:
      return `unknown source type ${JSON.stringify(s.source ?? null)} (github, url, git-subdir, or a relative folder)`;
  }
}

/** GitHub's `owner/repo` shorthand, as the URL git clones. */
export function githubUrl(repo: string): string {
  return `https://github.com/${repo}.git`;
}
