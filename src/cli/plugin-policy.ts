// The managed policy's say over native plugins (issue #42, item 6). A native plugin is code in
// deepcode's own process: once imported it can do anything deepcode can (read any file through
// node:fs, start programs), so the only control that holds is whether it is imported at all.
// This decides that before anything is imported:
//   - `allowManagedPluginsOnly: true`: no plugin from a person's or a project's settings (nor the
//     native module of a Claude Code plugin they enabled) loads; the policy's own still do.
//   - `allowedPlugins`: such a plugin loads only when an entry names it — its path (relative to
//     the policy file; symlinks followed), and when the entry gives `sha256`, the entry file's
//     content must have that hash (an entry with `sha256` alone matches that content anywhere).
//   - the policy's own plugins (`plugins` in the policy, `{ "path", "sha256" }` for integrity)
//     fail closed: a hash that differs, or a module that cannot be found or loaded, stops
//     deepcode with the policy file named (assemble.ts), instead of running without it.
// A refused plugin is named at start with the key that refused it; deepcode runs without it.

import { createHash } from "node:crypto";
import { readFileSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, type Tier } from "../contract/index.js";
import { isObject } from "../lib/json.js";
import type { LoadedSettings } from "./settings/index.js";

export interface PluginItem {
  specifier: string;
  /** The folder a relative specifier is read from (its settings file's). */
  base: string;
  tier: Tier | undefined;
  source: string;
  /** Listed by the managed policy (or a Claude Code plugin it enables): fails closed. */
  managed: boolean;
  /** The policy's integrity hash for a managed item (`{ "path", "sha256" }`). */
  sha256?: string;
  /** The policy file that listed a managed item. */
  policyFile?: string;
}

interface Allowed {
  path: string | null;
  sha256: string | null;
}

export interface PluginPolicy {
  /** What may be imported; `refused` lines are said at start; `fatal` stops deepcode. */
  check(items: readonly PluginItem[]): { load: PluginItem[]; refused: string[]; fatal?: ConfigError };
}

export function pluginPolicy(settings: Pick<LoadedSettings, "layers">): PluginPolicy {
  const managed = settings.layers.filter((l) => l.name === "managed");
  const onlyManaged = managed.find((l) => l.settings.allowManagedPluginsOnly === true)?.file;
  let listFile: string | undefined;
  const allowed: Allowed[] = [];
  for (const l of managed) {
    const list = l.settings.allowedPlugins;
    if (!Array.isArray(list)) continue;
    listFile ??= l.file;
    for (const e of list) {
      const path = typeof e === "string" ? e : isObject(e) && typeof e.path === "string" ? e.path : null;
      const sha256 = isObject(e) && typeof e.sha256 === "string" ? e.sha256.toLowerCase() : null;
      if (path !== null || sha256 !== null) allowed.push({ path: path === null ? null : realOr(resolve(dirname(l.file), path)), sha256 });
    }
  }
  return {
    check(items) {
      const load: PluginItem[] = [];
      const refused: string[] = [];
      for (const item of items) {
        const path = locate(item.specifier, item.base);
        if (item.managed) {
          const problem = item.sha256 === undefined ? null : integrity(path, item.sha256);
          if (problem) {
            const why = `the managed policy's plugin ${item.source} ${problem}: deepcode does not start without it`;
            return { load, refused, fatal: new ConfigError(`${why} (an administrator must fix the policy or the plugin)`, item.policyFile) };
          }
          load.push(item);
          continue;
        }
        if (onlyManaged) {
          refused.push(`plugin ${item.source} not loaded: the managed policy allows only its own plugins (allowManagedPluginsOnly in ${onlyManaged})`);
          continue;
        }
        if (listFile && !allowed.some((a) => fits(a, path))) {
          const how = path === null ? " (it cannot be found)" : " with this path and content";
          refused.push(`plugin ${item.source} not loaded: the managed policy's allowedPlugins (${listFile}) does not list it${how}`);
          continue;
        }
        load.push(item);
      }
      return { load, refused };
    },
  };
}

/** Why a managed plugin's file fails its integrity check, or null when it passes. */
function integrity(path: string | null, sha256: string): string | null {
  if (path === null) return "cannot be found";
  return hashOf(path) === sha256.toLowerCase() ? null : "does not have the sha256 the policy gives";
}

function fits(a: Allowed, path: string | null): boolean {
  if (path === null) return false;
  if (a.path !== null && a.path !== path) return false;
  return a.sha256 === null || hashOf(path) === a.sha256;
}

/** The file a specifier loads, symlinks followed (as importPlugin resolves it), or null. */
function locate(specifier: string, base: string): string | null {
  try {
    if (specifier.startsWith(".") || isAbsolute(specifier)) return realpathSync(resolve(base, specifier));
    const url = import.meta.resolve(specifier);
    return url.startsWith("file:") ? realpathSync(fileURLToPath(url)) : null;
  } catch {
    return null; // not there, or a package that does not resolve: nothing an entry can name
  }
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path; // an entry for a file not there yet: compared as written
  }
}

function hashOf(path: string): string | null {
  try {
    return createHash("sha256").update(readFileSync(path)).digest("hex");
  } catch {
    return null; // unreadable: no hash matches
  }
}
