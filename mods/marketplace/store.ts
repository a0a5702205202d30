// Where plugins live, and the lock that says what was installed:
//
//   $DEEPCODE_HOME/plugins/
//     known_marketplaces.json        the marketplaces added (name → source, where it is on disk)
//     marketplaces/<name>/           a git marketplace's clone (a directory one stays where it is)
//     installed/<plugin>@<market>/   each installed plugin's files, copied at install
//     data/<plugin>@<market>/        ${CLAUDE_PLUGIN_DATA}: a plugin's own writable folder
//     lock.json                      per plugin: version, source, commit, and every file's sha256
//
// Files are written atomically (a temp file renamed over) with mode 0600: the lock is what
// start-up checks a plugin's files against, so only deepcode writes it.

import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { withFileLock } from "../../src/lib/file-lock.js";
import { writeWholeSync } from "../../src/lib/whole-file.js";
import { ConfigError, type JsonValue } from "../../src/contract/index.js";
import { JsonSyntaxError, parseJson } from "../../src/lib/json-parse.js";
import { isObject } from "../../src/lib/json.js";

export function pluginsDir(home: string): string {
  return join(home, "plugins");
}
export const lockFile = (home: string): string => join(pluginsDir(home), "lock.json");
export const knownFile = (home: string): string => join(pluginsDir(home), "known_marketplaces.json");
export const installDir = (home: string, id: string): string => join(pluginsDir(home), "installed", id);
export const dataDir = (home: string, id: string): string => join(pluginsDir(home), "data", id);
export const marketplaceDir = (home: string, name: string): string => join(pluginsDir(home), "marketplaces", name);

/** What the lock records of one installed file. */
export interface FileRecord {
  sha256: string;
  size: number;
  /** Permission bits (an executable script that lost or gained +x changed). */
  mode: number;
  /** When it was written at install: a file whose size, mtime, ctime and inode still match is
   *  not re-hashed at start. (A lock from before ctime and inode were recorded: every file is.) */
  mtimeMs: number;
  ctimeMs?: number;
  ino?: number;
  /** A symlink's target, when the file is a link (recorded by `deepcode plugin verify --accept`). */
  link?: string;
}

export interface InstallRecord {
  /** `<plugin>@<marketplace>`, the key settings `enabledPlugins` uses. */
  id: string;
  name: string;
  marketplace: string;
  version?: string;
  /** The marketplace entry's source, as written there. */
  source: JsonValue;
  /** The marketplace entry as it was at install: where the plugin has no plugin.json (or the
   *  entry says `strict: false`) it defines the plugin's parts, at every start. */
  entry?: { [k: string]: JsonValue };
  /** The git commit the files came from (a git source, or a git marketplace's clone). */
  commit?: string;
  /** sha256 over every file's sha256 and path (see digestOf in lock.ts). */
  digest: string;
  installedAt: string;
  updatedAt?: string;
  /** When the person last re-pinned files they changed (`deepcode plugin verify --accept`). */
  acceptedAt?: string;
  files: Record<string, FileRecord>;
}

export interface Lock {
  version: 1;
  plugins: Record<string, InstallRecord>;
}

export interface KnownMarketplace {
  name: string;
  /** Claude Code's marketplace source object: {source: "directory", path} | {source: "git", url, ref?} | {source: "github", repo, ref?}. */
  source: { [k: string]: JsonValue };
  /** The folder holding `.claude-plugin/marketplace.json`. */
  location: string;
  addedAt: string;
  updatedAt?: string;
  commit?: string;
}

export function readLock(home: string): Lock {
  const v = readJsonFile(lockFile(home));
  if (v === undefined) return { version: 1, plugins: byName({}) as Lock["plugins"] };
  if (!isObject(v) || !isObject(v.plugins)) throw new ConfigError("the plugin lock is not an object with \"plugins\"; reinstall the plugins (deepcode plugin install …)", lockFile(home));
  // Null-prototype maps: an id looked up in them (`constructor`, `__proto__`) finds only what the file holds.
  return { ...(v as unknown as Lock), plugins: byName(v.plugins) as unknown as Lock["plugins"] };
}

/** Set (or, with undefined, remove) one plugin's record in the lock as the file is now, under
 *  its lock: two deepcode processes installing at once each keep their plugin. */
export function changeLock(home: string, id: string, rec: InstallRecord | undefined): void {
  mkdirSync(dirname(lockFile(home)), { recursive: true, mode: 0o700 });
  withFileLock(lockFile(home), () => {
    const lock = readLock(home);
    if (rec === undefined) delete lock.plugins[id];
    else lock.plugins[id] = rec;
    writeJsonFile(lockFile(home), lock as unknown as JsonValue);
  });
}

export function readKnown(home: string): Record<string, KnownMarketplace> {
  const v = readJsonFile(knownFile(home));
  if (v === undefined) return byName({});
  if (!isObject(v)) throw new ConfigError("must be a JSON object of marketplaces by name", knownFile(home));
  return byName(v) as unknown as Record<string, KnownMarketplace>;
}

/** A copy of `o` without a prototype: every lookup keyed by settings or lock data goes through one. */
export function byName<T>(o: Readonly<Record<string, T>>): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const [k, x] of Object.entries(o)) Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
  return out;
}

/** Set (or remove) one marketplace in the known list as the file is now, under its lock. */
export function changeKnown(home: string, name: string, m: KnownMarketplace | undefined): void {
  mkdirSync(dirname(knownFile(home)), { recursive: true, mode: 0o700 });
  withFileLock(knownFile(home), () => {
    const known = readKnown(home);
    if (m === undefined) delete known[name];
    else known[name] = m;
    writeJsonFile(knownFile(home), known as unknown as JsonValue);
  });
}

/** A JSON file, or undefined when it does not exist; a malformed one is a ConfigError with its line. */
export function readJsonFile(file: string): JsonValue | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigError(`cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`, file);
  }
  try {
    return parseJson(text).value;
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw new ConfigError(err.message, file, err.line, err.column);
    throw err;
  }
}

/** Whole or not at all; a refused write names the file (src/lib/whole-file.ts). */
export function writeJsonFile(file: string, value: JsonValue, mode = 0o600, dirMode = 0o700): void {
  writeWholeSync(file, `${JSON.stringify(value, null, 2)}\n`, { mode, dirMode });
}


/** `<plugin>@<marketplace>`; both parts kebab-ish names (they become folder names). */
export const PLUGIN_ID = /^([A-Za-z0-9][A-Za-z0-9._-]*)@([A-Za-z0-9][A-Za-z0-9._-]*)$/;
export const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
