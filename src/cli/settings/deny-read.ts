// Claude Code's `sandbox.filesystem.denyRead` as what it means in deepcode: a read deny of its
// layer (load.ts adds these to the layer's rules), so the Read tool refuses the path and the
// sandbox hides it (PluginApi.readDenied) — one route from a denied path to both.

import { isObject } from "../../lib/json.js";
import type { Settings } from "./types.js";

/** A layer's `sandbox.filesystem.denyRead` entries as `Read(…)` rules: a path as the file system
 *  names it — absolute (`/srv/keys`), `~/…`, or relative to the project (`.secrets/**`). */
export function denyReadRules(settings: Settings): string[] {
  const box = settings.sandbox;
  const fsKeys = isObject(box) ? box.filesystem : undefined;
  const list = isObject(fsKeys) ? fsKeys.denyRead : undefined;
  if (!Array.isArray(list)) return [];
  return list.map((p) => (typeof p !== "string" || p === "" ? "" : `Read(${p.startsWith("/") && !p.startsWith("//") ? `/${p}` : p.startsWith("~") || p.startsWith("//") || p.startsWith("./") ? p : `./${p}`})`));
}
