// Marketplaces: `deepcode plugin marketplace add <path | git URL | owner/repo> | list | update
// | remove`. A folder is used where it is; a git repository (a URL, a local repository, or
// GitHub's `owner/repo` shorthand; `#ref` picks a branch or tag) is cloned with the person's
// git into $DEEPCODE_HOME/plugins/marketplaces/<name>/. The managed policy's
// strictKnownMarketplaces / blockedMarketplaces are checked before anything is fetched.
// Settings `extraKnownMarketplaces` ({name: {source: {…}}}, Claude Code's) declares
// marketplaces that `install` adds when a plugin from them is asked for.

import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join, resolve } from "node:path";
import type { JsonValue } from "../../src/contract/index.js";
import type { Settings } from "./settings.js";
import { blockedByPolicy, marketPolicy } from "./enabled.js";
import { cloneAt, git } from "./git.js";
import { githubUrl, marketplaceFile, readMarketplace, type MarketplaceFile } from "./manifest.js";
import { inert } from "../../src/lib/inert.js";
import { marketplaceDir, pluginsDir, readKnown, changeKnown, type KnownMarketplace } from "./store.js";
import { isObject } from "../../src/lib/json.js";

export type MarketSource = { [k: string]: JsonValue };

export class PluginError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PluginError";
  }
}

/** What the person typed after `marketplace add`, as Claude Code's marketplace source object. */
export function parseMarketArg(arg: string, cwd: string): MarketSource {
  const local = resolve(cwd, arg);
  if (existsSync(local)) {
    const st = statSync(local);
    if (st.isFile() && basename(local) === "marketplace.json") return { source: "directory", path: dirname(dirname(local)) };
    if (st.isDirectory() && existsSync(marketplaceFile(local))) return { source: "directory", path: local };
    if (st.isDirectory() && (existsSync(join(local, "HEAD")) || existsSync(join(local, ".git")))) return { source: "git", url: local };
    throw new PluginError(`${local} is neither a marketplace folder (with .claude-plugin/marketplace.json) nor a git repository`);
  }
  const [base, ref] = arg.split("#", 2);
  const withRef = (s: MarketSource): MarketSource => (ref ? { ...s, ref } : s);
  if (/^(https?|ssh|git|file):\/\//.test(base) || /^[^@\s/]+@[^:\s]+:/.test(base)) return withRef({ source: "git", url: base });
  if (/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/.test(base)) return withRef({ source: "github", repo: base });
  throw new PluginError(`'${arg}' is not a folder, a git URL or a GitHub owner/repo`);
}

/** A source in words, for a message (inert: a URL or path is someone else's text). */
export function describeSource(s: MarketSource): string {
  return inert(sourceWords(s));
}

function sourceWords(s: MarketSource): string {
  const ref = typeof s.ref === "string" ? `#${s.ref}` : "";
  if (s.source === "github") return `github ${String(s.repo)}${ref}`;
  if (s.source === "git" || s.source === "url") return `git ${String(s.url)}${ref}`;
  if (s.source === "directory") return `folder ${String(s.path)}`;
  return JSON.stringify(s);
}

function gitUrl(s: MarketSource): string | undefined {
  if (s.source === "github" && typeof s.repo === "string") return githubUrl(s.repo);
  if ((s.source === "git" || s.source === "url") && typeof s.url === "string") return s.url;
  return undefined;
}

export interface Added {
  market: KnownMarketplace;
  file: MarketplaceFile;
  replaced: boolean;
}

export async function addMarketplace(home: string, settings: Settings, source: MarketSource): Promise<Added> {
  const blocked = blockedByPolicy(marketPolicy(settings), source);
  if (blocked) throw new PluginError(`cannot add ${describeSource(source)}: ${blocked}`);
  const known = readKnown(home);
  const now = new Date().toISOString();
  const url = gitUrl(source);
  if (!url) {
    if (source.source !== "directory" || typeof source.path !== "string") throw new PluginError(`unsupported marketplace source ${JSON.stringify(source)} (a folder, git or github)`);
    const file = readMarketplace(source.path);
    const replaced = clash(known, file.name, source);
    known[file.name] = { name: file.name, source, location: source.path, addedAt: known[file.name]?.addedAt ?? now, updatedAt: now };
    changeKnown(home, file.name, known[file.name]);
    return { market: known[file.name], file, replaced };
  }
  const tmp = join(pluginsDir(home), "marketplaces", `.adding-${randomBytes(4).toString("hex")}`);
  mkdirSync(dirname(tmp), { recursive: true, mode: 0o700 });
  try {
    const commit = await cloneAt(url, tmp, { ref: typeof source.ref === "string" ? source.ref : undefined });
    const file = readMarketplace(tmp);
    const replaced = clash(known, file.name, source);
    const dir = marketplaceDir(home, file.name);
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
    known[file.name] = { name: file.name, source, location: dir, addedAt: known[file.name]?.addedAt ?? now, updatedAt: now, commit };
    changeKnown(home, file.name, known[file.name]);
    return { market: known[file.name], file: readMarketplace(dir), replaced };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A name already taken by another source is an error; the same source again is a refresh. */
function clash(known: Record<string, KnownMarketplace>, name: string, source: MarketSource): boolean {
  const had = known[name];
  if (!had) return false;
  if (JSON.stringify(had.source) === JSON.stringify(source)) return true;
  throw new PluginError(`a marketplace named ${name} is already added (${describeSource(had.source)}); remove it first (deepcode plugin marketplace remove ${name})`);
}

/** Fetch a marketplace again: held to the managed policy as an add is (it may have been added
 *  before the policy restricted marketplaces), and pulled with ext:: URLs refused as a clone is. */
export async function updateMarketplace(home: string, settings: Settings, name: string): Promise<{ market: KnownMarketplace; file: MarketplaceFile; before?: string }> {
  const known = readKnown(home);
  const m = known[name];
  if (!m) throw new PluginError(`no marketplace named ${name} (deepcode plugin marketplace list)`);
  const blocked = blockedByPolicy(marketPolicy(settings), m.source);
  if (blocked) throw new PluginError(`cannot update marketplace ${name}: ${blocked}`);
  const before = m.commit;
  if (gitUrl(m.source)) {
    await git(["-c", "protocol.ext.allow=never", "pull", "--ff-only", "--quiet"], m.location);
    m.commit = await git(["rev-parse", "HEAD"], m.location);
  }
  m.updatedAt = new Date().toISOString();
  changeKnown(home, name, m);
  return { market: m, file: readMarketplace(m.location), before };
}

export function removeMarketplace(home: string, name: string): KnownMarketplace {
  const known = readKnown(home);
  const m = known[name];
  if (!m) throw new PluginError(`no marketplace named ${name} (deepcode plugin marketplace list)`);
  if (m.location === marketplaceDir(home, name)) rmSync(m.location, { recursive: true, force: true });
  changeKnown(home, name, undefined);
  return m;
}

/** Marketplaces settings declare (`extraKnownMarketplaces`), by name, with the file that does. */
export function declaredMarketplaces(settings: Settings): Map<string, { source: MarketSource; file: string }> {
  const out = new Map<string, { source: MarketSource; file: string }>();
  for (const l of settings.layers) {
    const x = l.settings.extraKnownMarketplaces;
    if (!isObject(x)) continue;
    for (const [name, v] of Object.entries(x)) if (isObject(v) && isObject(v.source)) out.set(name, { source: v.source, file: l.file });
  }
  return out;
}
