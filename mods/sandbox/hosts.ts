// The host list of settings `sandbox.network.allowedDomains` (Claude Code's shape): which
// entries are valid, how the layers combine, and whether a requested host is on the list.
//
// An entry is a host name in lowercase letters, digits, hyphens and dots (`example.com`), a
// wildcard for the subdomains of one (`*.example.com`: `a.example.com`, `a.b.example.com`, not
// `example.com` itself), or an IPv4 literal; any of them may end in `:port` to allow that
// port only. Entries are lowercased when read; anything else (a URL, a path, a bare `*`, an
// empty string) is left out with a warning naming the settings file.
//
// A requested host matches only in its canonical form: lowercase, no trailing dot, no userinfo,
// no IPv6 or numeric tricks (`0x7f.1`, `2130706433`). Anything else is refused rather than
// normalised: the proxy judges the name before it resolves or connects anything.
//
// Layers: the lists of every layer add up (user, project, local, `--settings`), unless the
// managed policy bounds them — a managed layer that sets `allowedDomains`, or sets
// `allowManagedDomainsOnly: true` (Claude Code's key), makes the managed lists the only ones.

import type { JsonValue, SettingsLayerView } from "../../src/contract/index.js";
import { isObject } from "../../src/lib/json.js";

export interface HostRule {
  /** The host name (without `*.`) or IPv4 literal. */
  host: string;
  /** `*.host`: subdomains of `host` only. */
  wildcard: boolean;
  /** Only this port, when set. */
  port?: number;
}

const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const NAME_RE = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const IPV4_RE = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** A host name or IPv4 literal as the proxy accepts it (canonical form), or a reason why not. */
export function canonicalHostProblem(host: string): string | null {
  if (host === "") return "no host";
  if (host.includes("@")) return "user information in the address is not accepted";
  if (host.endsWith(".")) return "a trailing dot is not accepted";
  if (host !== host.toLowerCase()) return "host names must be written in lowercase";
  if (host.startsWith("[") || host.includes(":")) return "IPv6 addresses are not accepted";
  if (IPV4_RE.test(host)) return null;
  // All-numeric labels that are not a dotted quad (`2130706433`, `0x7f.1`, `127.1`) are
  // addresses to some resolvers: never names.
  if (/^[0-9.]+$/.test(host) || /^0x/i.test(host) || /(^|\.)0x[0-9a-f]*(\.|$)/.test(host)) return "numeric addresses must be written as a plain dotted IPv4 address";
  if (!NAME_RE.test(host) || host.length > 253) return "not a valid host name";
  return null;
}

/** One settings entry, or null when it is not valid. */
export function parseHostRule(entry: string): HostRule | null {
  let text = entry.trim().toLowerCase();
  let port: number | undefined;
  const m = /^(.*):(\d{1,5})$/.exec(text);
  if (m) {
    port = Number(m[2]);
    if (port < 1 || port > 65535) return null;
    text = m[1];
  }
  const wildcard = text.startsWith("*.");
  const host = wildcard ? text.slice(2) : text;
  if (canonicalHostProblem(host) !== null) return null;
  if (wildcard && IPV4_RE.test(host)) return null;
  return port === undefined ? { host, wildcard } : { host, wildcard, port };
}

/** Whether `host` (canonical, checked) at `port` is on the list. */
export function hostAllowed(rules: readonly HostRule[], host: string, port: number): boolean {
  return rules.some((r) => (r.port === undefined || r.port === port) && (r.wildcard ? host.endsWith(`.${r.host}`) : host === r.host));
}

export function ruleText(r: HostRule): string {
  return `${r.wildcard ? "*." : ""}${r.host}${r.port !== undefined ? `:${r.port}` : ""}`;
}

function listOf(v: JsonValue | undefined): JsonValue[] | undefined {
  if (!isObject(v) || !isObject(v.network)) return undefined;
  const list = v.network.allowedDomains;
  return Array.isArray(list) ? list : undefined;
}

/** The allowed hosts from the settings layers (low to high, managed last); `merged` is the
 *  merged `sandbox` value, used when there are no layers to read. `warn` hears each entry left
 *  out, with its file. */
export function allowedHosts(layers: readonly SettingsLayerView[], merged: JsonValue | undefined, warn: (m: string) => void): HostRule[] {
  const sources: Array<{ file: string; list: JsonValue[] }> = [];
  const managed = layers.filter((l) => l.name === "managed");
  const managedOnly = managed.some((l) => isObject(l.settings.sandbox) && isObject(l.settings.sandbox.network) && l.settings.sandbox.network.allowManagedDomainsOnly === true);
  const managedLists = managed.flatMap((l) => {
    const list = listOf(l.settings.sandbox);
    return list ? [{ file: l.file, list }] : [];
  });
  if (managedOnly || managedLists.length > 0) sources.push(...managedLists);
  else if (layers.length > 0) {
    for (const l of layers) {
      const list = listOf(l.settings.sandbox);
      if (list) sources.push({ file: l.file, list });
    }
  } else {
    const list = listOf(merged);
    if (list) sources.push({ file: "settings", list });
  }
  const out: HostRule[] = [];
  for (const { file, list } of sources) {
    for (const entry of list) {
      const rule = typeof entry === "string" ? parseHostRule(entry) : null;
      if (!rule) {
        warn(`${file}: sandbox.network.allowedDomains entry ${JSON.stringify(entry)} is not a host name, *.domain or IPv4 address (with an optional :port); left out`);
        continue;
      }
      if (!out.some((r) => ruleText(r) === ruleText(rule))) out.push(rule);
    }
  }
  return out;
}
