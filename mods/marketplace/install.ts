// Installing, updating and removing plugins. An install fetches the plugin's folder from its
// marketplace entry's source into a staging folder, checks what the entry pins (`sha256` of
// the files, or the git commit `sha`), shows what the plugin brings that can run code or
// loosen a rule and asks — `--yes-install` where nobody can be asked — then moves it into
// $DEEPCODE_HOME/plugins/installed/<id>/, records every file's sha256 in the lock, and enables
// it in the chosen scope. An update fetches again and shows what changes (files, hooks,
// servers, permissions) before it applies anything.

import { mkdirSync, renameSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join, relative, resolve, sep } from "node:path";
import type { Settings } from "./settings.js";
import { cloneAt } from "./git.js";
import { blockedByPolicy, marketPolicy } from "./enabled.js";
import { copyPlugin, digestOf, digestOfDir, drift, driftWords, recordFiles } from "./files.js";
import { readMarketplace, type MarketplaceEntry } from "./manifest.js";
import { addMarketplace, declaredMarketplaces, describeSource, PluginError, updateMarketplace } from "./marketplaces.js";
import { inert } from "../../src/lib/inert.js";
import { brings, bringsLines, readContents, RISKY, type Brings } from "./parts.js";
import { enabledIn, scopeFile, setEnabled, SCOPES, type Scope } from "./scope.js";
import { dataDir, installDir, PLUGIN_ID, pluginsDir, readKnown, readLock, changeLock, type InstallRecord, type KnownMarketplace } from "./store.js";

export interface Ui {
  say(line: string): void;
  /** Ask the person; false when they say no or nobody can answer (the caller says how to agree). */
  confirm(title: string, lines: string[]): Promise<boolean>;
}

export interface PluginCtx {
  home: string;
  root: string;
  /** The settings in force (trust applied): enabled state, the managed policy, declared marketplaces. */
  settings: Settings;
  ui: Ui;
}

interface Staged {
  dir: string;
  commit?: string;
  digest: string;
  cleanup(): void;
}

/** `name@marketplace`, or a bare name found in exactly one known (or declared) marketplace. */
async function resolveSpec(c: PluginCtx, spec: string): Promise<{ market: KnownMarketplace; entry: MarketplaceEntry; id: string }> {
  const m = PLUGIN_ID.exec(spec);
  let known = readKnown(c.home);
  if (m && !known[m[2]]) {
    const declared = declaredMarketplaces(c.settings).get(m[2]);
    if (!declared) throw new PluginError(`no marketplace named ${m[2]}: add it first (deepcode plugin marketplace add <path | git URL | owner/repo>)`);
    c.ui.say(`Adding marketplace ${m[2]} (${describeSource(declared.source)}, declared in ${declared.file})`);
    await addMarketplace(c.home, c.settings, declared.source);
    known = readKnown(c.home);
  }
  const candidates = m ? [known[m[2]]].filter(Boolean) : Object.values(known);
  const name = m ? m[1] : spec;
  const found: Array<{ market: KnownMarketplace; entry: MarketplaceEntry }> = [];
  for (const market of candidates) {
    const entry = readMarketplace(market.location).plugins.find((p) => p.name === name);
    if (entry) found.push({ market, entry });
  }
  if (found.length === 0) throw new PluginError(`no plugin ${spec} in ${m ? `marketplace ${m[2]}` : "any known marketplace"} (deepcode plugin list shows what is available)`);
  if (found.length > 1) throw new PluginError(`${name} is in several marketplaces (${found.map((f) => f.market.name).join(", ")}): say which, as ${name}@<marketplace>`);
  allowedMarket(c, found[0].market);
  return { ...found[0], id: `${name}@${found[0].market.name}` };
}

/** A marketplace added before the managed policy restricted them is held to it all the same. */
function allowedMarket(c: PluginCtx, market: KnownMarketplace): void {
  const blocked = blockedByPolicy(marketPolicy(c.settings), market.source);
  if (blocked) throw new PluginError(`cannot install from marketplace ${market.name}: ${blocked}`);
}

async function stage(home: string, market: KnownMarketplace, entry: MarketplaceEntry): Promise<Staged> {
  const base = join(pluginsDir(home), ".staging", randomBytes(6).toString("hex"));
  mkdirSync(base, { recursive: true, mode: 0o700 });
  const cleanup = (): void => rmSync(base, { recursive: true, force: true });
  try {
    const dir = join(base, "plugin");
    let commit = market.commit;
    const s = entry.source;
    if (s.kind === "path") {
      const from = resolve(market.location, s.path);
      const rel = relative(market.location, from);
      if (rel === ".." || rel.startsWith(`..${sep}`)) throw new PluginError(`${entry.name}'s source ${s.path} leaves its marketplace's folder`);
      copyPlugin(from, dir, market.location);
    } else {
      const clone = join(base, "clone");
      commit = await cloneAt(s.url, clone, { ref: s.ref, sha: s.sha });
      const from = s.subdir ? resolve(clone, s.subdir) : clone;
      if (s.subdir && relative(clone, from).startsWith("..")) throw new PluginError(`${entry.name}'s path ${s.subdir} leaves its repository`);
      copyPlugin(from, dir, clone);
    }
    const digest = digestOfDir(dir);
    if (entry.sha256 && entry.sha256 !== digest) {
      throw new PluginError(`${entry.name}'s files do not match the sha256 its marketplace pins (pinned ${entry.sha256}, the files have ${digest}): not installed`);
    }
    return { dir, commit, digest, cleanup };
  } catch (err) {
    cleanup();
    throw err;
  }
}

/** A plugin's parts are namespaced by plugin.json's name: it must be the marketplace entry's,
 *  or one plugin could pass for another (its /name:… commands, skills, agents, servers). */
function sameName(id: string, entry: MarketplaceEntry, name: string): void {
  if (name !== entry.name) throw new PluginError(`${id}'s plugin.json calls it "${name}", not ${entry.name} as its marketplace entry does: not installed (a plugin cannot take another plugin's name)`);
}

export async function installPlugin(c: PluginCtx, spec: string, scope: Scope): Promise<boolean> {
  const { market, entry, id } = await resolveSpec(c, spec);
  const lock = readLock(c.home);
  if (lock.plugins[id]) throw new PluginError(`${id} is already installed (deepcode plugin update ${id} fetches it again)`);
  const staged = await stage(c.home, market, entry);
  try {
    const final = installDir(c.home, id);
    const contents = readContents(staged.dir, { id, name: entry.name, data: dataDir(c.home, id), entry: entry.raw, installedAt: final });
    sameName(id, entry, contents.manifest.name);
    const b = brings(contents);
    const version = contents.manifest.version ?? entry.version;
    const risky = RISKY.some((k) => b[k].length > 0);
    c.ui.say(`${id}${version ? ` ${inert(version)}` : ""}${contents.manifest.description ? ` — ${inert(contents.manifest.description)}` : ""}`);
    c.ui.say(`from ${inert(describeSource(market.source))}${staged.commit ? ` at ${staged.commit.slice(0, 12)}` : ""}; sha256 ${staged.digest}${entry.sha256 ? " (as pinned)" : ""}`);
    const lines = bringsLines(b);
    for (const l of lines.length ? lines : ["  (no commands, hooks, servers, skills or agents)"]) c.ui.say(l);
    const title = `Install ${id}${risky ? " — it can run code on your machine (the lines marked !)" : ""}?`;
    if (!(await c.ui.confirm(title, lines))) return false;
    rmSync(final, { recursive: true, force: true });
    mkdirSync(join(pluginsDir(c.home), "installed"), { recursive: true, mode: 0o700 });
    renameSync(staged.dir, final);
    const files = recordFiles(final);
    const now = new Date().toISOString();
    changeLock(c.home, id, { id, name: entry.name, marketplace: market.name, version, source: entry.rawSource, entry: entry.raw, commit: staged.commit, digest: digestOf(files), installedAt: now, files });
    setEnabled(scopeFile(scope, c.root, c.home), id, true);
    c.ui.say(`Installed ${id} and enabled it (${scope} scope, ${scopeFile(scope, c.root, c.home)}). It loads when deepcode next starts.`);
    return true;
  } finally {
    staged.cleanup();
  }
}

export async function updatePlugin(c: PluginCtx, id: string): Promise<boolean> {
  const lock = readLock(c.home);
  const rec = lock.plugins[id];
  if (!rec) throw new PluginError(`${id} is not installed`);
  const market = readKnown(c.home)[rec.marketplace];
  if (!market) throw new PluginError(`${id}'s marketplace ${rec.marketplace} is no longer known: add it again to update the plugin`);
  allowedMarket(c, market);
  const fresh = (await updateMarketplace(c.home, c.settings, market.name)).market;
  const entry = readMarketplace(fresh.location).plugins.find((p) => p.name === rec.name);
  if (!entry) throw new PluginError(`${rec.name} is no longer in marketplace ${market.name}`);
  const staged = await stage(c.home, fresh, entry);
  try {
    const final = installDir(c.home, id);
    const data = dataDir(c.home, id);
    const next = readContents(staged.dir, { id, name: entry.name, data, entry: entry.raw, installedAt: final });
    sameName(id, entry, next.manifest.name);
    const newFiles = recordFiles(staged.dir);
    const changes = fileChanges(rec, newFiles);
    const version = next.manifest.version ?? entry.version;
    const tampered = drift(final, rec.files, true);
    // The entry counts too: where it defines the plugin's parts (no plugin.json, or strict:
    // false), a new hook in it is an update even with the files as they were.
    if (digestOf(newFiles) === rec.digest && !tampered && JSON.stringify(entry.raw) === JSON.stringify(rec.entry)) {
      c.ui.say(`${id} is up to date (${version ?? "no version"}, sha256 ${rec.digest.slice(0, 16)}…)`);
      return false;
    }
    let before: Brings;
    try {
      before = brings(readContents(final, { id, name: rec.name, data, entry: rec.entry }));
    } catch {
      before = { hooks: [], servers: [], native: [], permissions: [], commands: [], skills: [], agents: [] }; // the installed copy is broken: all is new
    }
    const lines = updateLines(changes, before, brings(next));
    if (tampered) lines.unshift(`! the installed files changed since install (${driftWords(tampered)}); this puts the marketplace's files back`);
    c.ui.say(`Update ${id} ${inert(rec.version ?? "?")} → ${inert(version ?? "?")}:`);
    for (const l of lines) c.ui.say(l);
    if (!(await c.ui.confirm(`Apply this update to ${id}?`, lines))) return false;
    const old = `${final}.old-${randomBytes(3).toString("hex")}`;
    renameSync(final, old);
    renameSync(staged.dir, final);
    rmSync(old, { recursive: true, force: true });
    const files = recordFiles(final);
    changeLock(c.home, id, { ...rec, version, source: entry.rawSource, entry: entry.raw, commit: staged.commit, digest: digestOf(files), updatedAt: new Date().toISOString(), files });
    c.ui.say(`Updated ${id}. It loads when deepcode next starts.`);
    return true;
  } finally {
    staged.cleanup();
  }
}

function fileChanges(rec: InstallRecord, now: Record<string, { sha256: string; mode: number }>): { changed: string[]; added: string[]; removed: string[] } {
  const out = { changed: [] as string[], added: [] as string[], removed: [] as string[] };
  for (const [p, f] of Object.entries(now)) {
    const was = rec.files[p];
    if (!was) out.added.push(p);
    else if (was.sha256 !== f.sha256 || was.mode !== f.mode) out.changed.push(p);
  }
  for (const p of Object.keys(rec.files)) if (!now[p]) out.removed.push(p);
  return out;
}

function updateLines(files: ReturnType<typeof fileChanges>, before: Brings, after: Brings): string[] {
  const lines: string[] = [];
  const list = (xs: string[]): string => xs.map(inert).join(", ");
  lines.push(`  files: ${[files.changed.length ? `changed ${list(files.changed)}` : "", files.added.length ? `added ${list(files.added)}` : "", files.removed.length ? `removed ${list(files.removed)}` : ""].filter(Boolean).join("; ") || "none"}`);
  const label: Record<keyof Brings, string> = { hooks: "hooks", servers: "MCP servers", native: "module", permissions: "permissions", commands: "commands", skills: "skills", agents: "agents" };
  for (const k of Object.keys(label) as Array<keyof Brings>) {
    const gone = before[k].filter((x) => !after[k].includes(x));
    const added = after[k].filter((x) => !before[k].includes(x));
    if (!gone.length && !added.length) {
      if (RISKY.includes(k)) lines.push(`  ${label[k]}: unchanged`);
      continue;
    }
    const mark = RISKY.includes(k) ? "!" : " ";
    for (const x of added) lines.push(`${mark} ${label[k]}: + ${x}`);
    for (const x of gone) lines.push(`  ${label[k]}: − ${x}`);
  }
  return lines;
}

export async function uninstallPlugin(c: PluginCtx, id: string, scope?: Scope): Promise<void> {
  const lock = readLock(c.home);
  if (!lock.plugins[id]) throw new PluginError(`${id} is not installed (deepcode plugin list)`);
  rmSync(installDir(c.home, id), { recursive: true, force: true });
  rmSync(dataDir(c.home, id), { recursive: true, force: true });
  changeLock(c.home, id, undefined);
  const cleared: string[] = [];
  for (const s of SCOPES) {
    if (s === "project" && scope !== "project") continue;
    const file = scopeFile(s, c.root, c.home);
    try {
      if (setEnabled(file, id, undefined)) cleared.push(file);
    } catch (err) {
      c.ui.say(`deepcode: ${(err as Error).message}: take ${id} out of its enabledPlugins yourself`);
    }
  }
  c.ui.say(`Uninstalled ${id}: its files, its data folder and its lock entry are gone${cleared.length ? `; enabledPlugins no longer names it in ${cleared.join(", ")}` : ""}.`);
  const project = scopeFile("project", c.root, c.home);
  if (scope !== "project" && setEnabledProbe(project, id)) c.ui.say(`${project} (shared with the repository) still enables it; pass --scope project to take it out there too.`);
}

function setEnabledProbe(file: string, id: string): boolean {
  try {
    return enabledIn(file, id) !== undefined;
  } catch {
    return false; // an unreadable project settings file: nothing to say about it here
  }
}

export function setPluginEnabled(c: PluginCtx, id: string, scope: Scope, value: boolean): void {
  if (!PLUGIN_ID.test(id)) throw new PluginError(`'${id}' is not a plugin id (<plugin>@<marketplace>)`);
  if (value && !readLock(c.home).plugins[id]) throw new PluginError(`${id} is not installed: deepcode plugin install ${id}`);
  const file = scopeFile(scope, c.root, c.home);
  setEnabled(file, id, value);
  c.ui.say(`${value ? "Enabled" : "Disabled"} ${id} in the ${scope} scope (${file}). This takes effect when deepcode next starts.`);
}

