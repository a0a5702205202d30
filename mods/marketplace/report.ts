// `deepcode plugin list` and `deepcode plugin verify`: what is installed, whether it is enabled
// (and by which settings file), whether its files are as installed, and what the known
// marketplaces offer besides.

import { lstatSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { digestOf, drift, driftWords, recordFiles, type Drift } from "./files.js";
import { enabledPlugins } from "./enabled.js";
import { readMarketplace } from "./manifest.js";
import { declaredMarketplaces, describeSource } from "./marketplaces.js";
import type { PluginCtx } from "./install.js";
import { brings, bringsLines, readContents } from "./parts.js";
import { inert } from "../../src/lib/inert.js";
import { dataDir, installDir, readKnown, readLock, changeLock, type InstallRecord } from "./store.js";

export function listPlugins(c: PluginCtx): void {
  const lock = readLock(c.home);
  const enabled = enabledPlugins(c.settings);
  const ids = Object.keys(lock.plugins).sort();
  if (ids.length === 0) c.ui.say("No plugins installed.");
  for (const id of ids) {
    const rec = lock.plugins[id];
    const e = enabled.get(id);
    const state = e ? `${e.enabled ? "enabled" : "disabled"} (${e.layer}${e.layer === "managed" ? ", forced" : ""})` : "not enabled";
    const changed = drift(installDir(c.home, id), rec.files);
    const integrity = changed ? `FILES CHANGED since install (${driftWords(changed)}): refused at start` : `${Object.keys(rec.files).length} files as installed`;
    c.ui.say(`${e?.enabled && !changed ? "✓" : "·"} ${id} ${inert(rec.version ?? "")}`.trimEnd());
    c.ui.say(`    ${state}; ${integrity}; sha256 ${rec.digest}`);
    c.ui.say(`    ${summary(c, id, rec.name, rec.entry)}`);
  }
  const known = readKnown(c.home);
  const available: string[] = [];
  for (const m of Object.values(known)) {
    let entries;
    try {
      entries = readMarketplace(m.location).plugins;
    } catch (err) {
      available.push(`  ${m.name}: cannot be read (${(err as Error).message})`);
      continue;
    }
    for (const p of entries) if (!lock.plugins[`${p.name}@${m.name}`]) available.push(`  ${p.name}@${m.name}${p.version ? ` ${inert(p.version)}` : ""}${p.description ? ` — ${inert(p.description)}` : ""}`);
  }
  if (available.length) c.ui.say(["", "Available (deepcode plugin install <name>@<marketplace>):", ...available].join("\n"));
}

export function listMarketplaces(c: PluginCtx): void {
  const known = readKnown(c.home);
  const names = Object.keys(known).sort();
  if (names.length === 0) c.ui.say("No marketplaces added (deepcode plugin marketplace add <path | git URL | owner/repo>).");
  for (const n of names) {
    const m = known[n];
    let count: string;
    try {
      count = String(readMarketplace(m.location).plugins.length);
    } catch (err) {
      count = `unreadable: ${(err as Error).message}`;
    }
    c.ui.say(`${n}  ${describeSource(m.source)}${m.commit ? ` at ${m.commit.slice(0, 12)}` : ""}  (${count} plugins)`);
  }
  for (const [name, d] of declaredMarketplaces(c.settings)) {
    if (!known[name]) c.ui.say(`${name}  ${describeSource(d.source)}  (declared in ${d.file}; not added yet — installing one of its plugins adds it)`);
  }
}

/** Hash every file of the named (or every) installed plugin against the lock, and say file by
 *  file what changed; true when all match. `accept` (the person's own act, named plugins only):
 *  re-pin each changed plugin to its files as they are now, so it loads again. */
export function verifyPlugins(c: PluginCtx, ids: readonly string[], accept = false): boolean {
  const lock = readLock(c.home);
  const which = ids.length ? ids : Object.keys(lock.plugins).sort();
  if (which.length === 0) c.ui.say("No plugins installed.");
  let ok = true;
  for (const id of which) {
    const rec = lock.plugins[id];
    if (!rec) {
      c.ui.say(`✗ ${inert(id)}: not installed`);
      ok = false;
      continue;
    }
    const dir = installDir(c.home, id);
    const d = drift(dir, rec.files, true);
    if (!d) {
      c.ui.say(`✓ ${id}: all ${Object.keys(rec.files).length} files match the lock (sha256 ${rec.digest})`);
      continue;
    }
    c.ui.say(`✗ ${id}: its files changed since ${rec.acceptedAt ? "they were last accepted" : "install"}:`);
    for (const line of changeLines(dir, d)) c.ui.say(`    ${line}`);
    if (!accept) {
      ok = false;
      c.ui.say(`  deepcode refuses to load it. If you changed it on purpose: deepcode plugin verify ${id} --accept; to go back to what was installed: deepcode plugin update ${id}`);
      continue;
    }
    const files = recordFiles(dir);
    lock.plugins[id] = { ...rec, files, digest: digestOf(files), acceptedAt: new Date().toISOString() };
    changeLock(c.home, id, lock.plugins[id]);
    c.ui.say(`  Accepted: the lock now pins these ${Object.keys(files).length} files (sha256 ${lock.plugins[id].digest}); ${id} loads when deepcode next starts.`);
    const now = bringsOf(c, id, rec);
    if (now.length) c.ui.say(["  What it brings now:", ...now.map((l) => `  ${l}`)].join("\n"));
  }
  return ok;
}

/** One line per changed file, each kind together; a symlink shows where it points. */
function changeLines(dir: string, d: Drift): string[] {
  const show = (rel: string): string => {
    const p = join(dir, rel);
    try {
      if (lstatSync(p).isSymbolicLink()) return `${inert(rel)} -> ${inert(readlinkSync(p))} (a symlink)`;
    } catch {
      // gone since the walk: shown by its name alone
    }
    return inert(rel);
  };
  return [...d.added.map((r) => `added     ${show(r)}`), ...d.modified.map((r) => `modified  ${show(r)}`), ...d.missing.map((r) => `removed   ${inert(r)}`)];
}

function bringsOf(c: PluginCtx, id: string, rec: InstallRecord): string[] {
  try {
    return bringsLines(brings(readContents(installDir(c.home, id), { id, name: rec.name, data: dataDir(c.home, id), entry: rec.entry })));
  } catch (err) {
    return [`cannot be read: ${(err as Error).message} (it will not load until that is fixed)`];
  }
}

/** One line of what an installed plugin brings (counts, and its commands, skills and agents by name). */
function summary(c: PluginCtx, id: string, name: string, entry: InstallRecord["entry"]): string {
  let b;
  try {
    b = brings(readContents(installDir(c.home, id), { id, name, data: dataDir(c.home, id), entry }));
  } catch (err) {
    return `cannot be read: ${(err as Error).message}`;
  }
  const parts = [
    b.commands.length ? `commands ${b.commands.join(", ")}` : "",
    b.skills.length ? `skills ${b.skills.join(", ")}` : "",
    b.agents.length ? `agents ${b.agents.join(", ")}` : "",
    b.hooks.length ? `${b.hooks.length} hook${b.hooks.length === 1 ? "" : "s"}` : "",
    b.servers.length ? `${b.servers.length} MCP server${b.servers.length === 1 ? "" : "s"}` : "",
    b.native.length ? "a deepcode module" : "",
  ].filter(Boolean);
  return parts.length ? parts.join("; ") : "nothing deepcode loads";
}
