// Which plugins are enabled: settings `enabledPlugins` ({"<plugin>@<marketplace>": true|false},
// as Claude Code writes it) in every layer, the later layer winning — user, project, local,
// flag, then the managed policy, whose word is final (a plugin it sets to false stays off, one
// it sets to true is on wherever it is installed). A project's own `true` counts only in a
// trusted project: workspace trust cuts it before this reads the layers.
//
// The managed policy also decides which marketplaces may be used: `strictKnownMarketplaces`
// (an allow-list of marketplace sources; empty allows none) and `blockedMarketplaces` (a deny
// list). Both are read from the managed layer only; nothing a user sets widens them.

import type { JsonValue } from "../../src/contract/index.js";
import type { Settings } from "./settings.js";
import { PLUGIN_ID } from "./store.js";
import { isObject } from "../../src/lib/json.js";
import { inert } from "../../src/lib/inert.js";

export interface Enabled {
  enabled: boolean;
  layer: string;
  file: string;
}

/** `problems`, when given, gets one line per key that is not a plugin id (it is skipped). */
export function enabledPlugins(settings: Settings, problems?: string[]): Map<string, Enabled> {
  const out = new Map<string, Enabled>();
  for (const l of settings.layers) {
    const map = l.settings.enabledPlugins;
    if (!isObject(map)) continue;
    for (const [id, v] of Object.entries(map)) {
      if (!PLUGIN_ID.test(id)) {
        problems?.push(`${l.file}: enabledPlugins: '${inert(id)}' is not a plugin id (<plugin>@<marketplace>); skipped`);
        continue;
      }
      if (typeof v === "boolean") out.set(id, { enabled: v, layer: l.name, file: l.file });
    }
  }
  return out;
}

export interface MarketPolicy {
  /** Undefined: no allow-list. */
  allow?: Array<{ [k: string]: JsonValue }>;
  block: Array<{ [k: string]: JsonValue }>;
}

export function marketPolicy(settings: Settings): MarketPolicy {
  const p: MarketPolicy = { block: [] };
  for (const l of settings.layers) {
    if (l.name !== "managed") continue;
    const allow = l.settings.strictKnownMarketplaces;
    if (Array.isArray(allow)) p.allow = [...(p.allow ?? []), ...allow.filter(isObject)];
    const block = l.settings.blockedMarketplaces;
    if (Array.isArray(block)) p.block.push(...block.filter(isObject));
  }
  return p;
}

/** Does the managed policy itself declare this marketplace — `extraKnownMarketplaces` of the
 *  managed layer under this name with this source, or an exact `strictKnownMarketplaces` source
 *  (a hostPattern is a whole host, not one marketplace)? Only then does a plugin the policy
 *  enables from it run in the managed (prepend) tier. */
export function managedMarketplace(settings: Settings, name: string, source: { [k: string]: JsonValue }): boolean {
  for (const l of settings.layers) {
    if (l.name !== "managed") continue;
    const extra = l.settings.extraKnownMarketplaces;
    if (isObject(extra) && Object.hasOwn(extra, name)) {
      const d = extra[name];
      if (isObject(d) && isObject(d.source) && sameSource(d.source, source)) return true;
    }
    const strict = l.settings.strictKnownMarketplaces;
    if (Array.isArray(strict) && strict.some((e) => isObject(e) && e.source !== "hostPattern" && sameSource(e, source))) return true;
  }
  return false;
}

/** Why the managed policy does not let this marketplace source be used, or undefined. */
export function blockedByPolicy(policy: MarketPolicy, source: { [k: string]: JsonValue }): string | undefined {
  const hit = policy.block.find((b) => sameSource(b, source));
  if (hit) return `the managed policy blocks this marketplace (blockedMarketplaces ${JSON.stringify(hit)})`;
  if (policy.allow && !policy.allow.some((a) => sameSource(a, source))) {
    return policy.allow.length === 0 ? "the managed policy allows no marketplaces (strictKnownMarketplaces is empty)" : "the managed policy allows only the marketplaces strictKnownMarketplaces lists, and this is not one of them";
  }
  return undefined;
}

/** A policy entry matches a source: the same kind and place (a github repo case-insensitively,
 *  a git URL or folder exactly), or `hostPattern`, a regular expression the whole of a git URL's host must
 *  match. `ref`/`path` in an entry must match too when the entry names them. */
function sameSource(entry: { [k: string]: JsonValue }, s: { [k: string]: JsonValue }): boolean {
  if (entry.source === "hostPattern" && typeof entry.hostPattern === "string") {
    const url = s.source === "github" ? `https://github.com/${String(s.repo)}` : typeof s.url === "string" ? s.url : "";
    try {
      return new RegExp(`^(?:${entry.hostPattern})$`).test(hostOf(url)); // the whole host, as an allow-list means
    } catch {
      return false; // a pattern that does not compile matches nothing (the allow-list stays closed)
    }
  }
  const kind = (x: { [k: string]: JsonValue }): string => (x.source === "url" ? "git" : String(x.source));
  if (kind(entry) !== kind(s)) return false;
  for (const k of ["ref", "path"] as const) if (entry[k] !== undefined && entry[k] !== s[k]) return false;
  if (s.source === "github") return typeof entry.repo === "string" && entry.repo.toLowerCase() === String(s.repo).toLowerCase();
  if (kind(s) === "git") return entry.url === s.url;
  if (s.source === "directory") return entry.path === s.path;
  return false;
}

function hostOf(url: string): string {
  const scp = /^[^@/]+@([^:/]+):/.exec(url);
  if (scp) return scp[1];
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}
