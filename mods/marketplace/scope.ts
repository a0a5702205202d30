// Writing `enabledPlugins` into a settings file of a scope, as `claude plugin install|enable|
// disable --scope` does: user (~/.deepcode/settings.json, the default), project
// (.deepcode/settings.json, shared with the repository), local (.deepcode/settings.local.json).
// The rest of the file is kept as it was (settings files are plain JSON: nothing else to lose).

import { existsSync, mkdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { withFileLock } from "../../src/lib/file-lock.js";
import { ConfigError, type JsonValue } from "../../src/contract/index.js";
import { readJsonFile, writeJsonFile } from "./store.js";
import { isObject } from "../../src/lib/json.js";

export const SCOPES = ["user", "project", "local"] as const;
export type Scope = (typeof SCOPES)[number];

export function scopeFile(scope: Scope, root: string, home: string): string {
  if (scope === "user") return join(home, "settings.json");
  return join(root, ".deepcode", scope === "project" ? "settings.json" : "settings.local.json");
}

/** The value `enabledPlugins[id]` has in this file (undefined: not set). */
export function enabledIn(file: string, id: string): boolean | undefined {
  const v = readJsonFile(file);
  const map = isObject(v) ? v.enabledPlugins : undefined;
  const x = isObject(map) && Object.hasOwn(map, id) ? map[id] : undefined;
  return typeof x === "boolean" ? x : undefined;
}

/** Set (or, with undefined, remove) `enabledPlugins[id]`; returns whether the file changed. */
export function setEnabled(file: string, id: string, value: boolean | undefined): boolean {
  // As the file is now, under its lock: another deepcode's edit of it since is kept.
  mkdirSync(dirname(file), { recursive: true, mode: 0o755 });
  return withFileLock(file, () => setEnabledNow(file, id, value));
}

function setEnabledNow(file: string, id: string, value: boolean | undefined): boolean {
  const v = readJsonFile(file) ?? {};
  if (!isObject(v)) throw new ConfigError("a settings file must be a JSON object", file);
  const map: { [k: string]: JsonValue } = isObject(v.enabledPlugins) ? { ...v.enabledPlugins } : {};
  if (value === undefined ? !Object.hasOwn(map, id) : Object.hasOwn(map, id) && map[id] === value) return false;
  if (value === undefined) delete map[id];
  else map[id] = value;
  const next: { [k: string]: JsonValue } = { ...v, enabledPlugins: map };
  if (Object.keys(map).length === 0) delete next.enabledPlugins;
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o644;
  writeJsonFile(file, next, mode, 0o755);
  return true;
}
