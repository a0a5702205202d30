// The MCP server allow and deny lists (`allowedMcpServers`, `deniedMcpServers`), in Claude
// Code's shape: each entry names a server by exactly one of `serverName`, `serverCommand` (the
// exact command and arguments of a stdio server) or `serverUrl` (a URL pattern, `*` matching
// any run of characters). Decision, as Claude Code evaluates it:
//   1. a server any deny entry matches is blocked;
//   2. an allowlist that is not set allows everything; an empty one allows nothing;
//   3. a stdio server must match a `serverCommand` entry when the list has any, a remote one a
//      `serverUrl` entry when it has any; otherwise its name must match a `serverName` entry.
// deepcode's difference, on purpose: a person cannot loosen an administrator's list. Deny
// entries from every layer add up; every layer that sets an allowlist must allow the server
// (each can only narrow what the others allow), so the managed policy's list always holds —
// which is what Claude Code's managed `allowManagedMcpServersOnly` asks for (accepted as such).

import type { JsonValue, SettingsView } from "../../../src/contract/index.js";

export interface PolicyEntry {
  serverName?: string;
  serverCommand?: string[];
  serverUrl?: string;
  /** The settings file it comes from. */
  file: string;
}

export interface Policy {
  denied: PolicyEntry[];
  /** One list per layer that set one. */
  allowed: Array<{ file: string; entries: PolicyEntry[] }>;
  problems: string[];
  /** A managed deny list with an entry deepcode cannot read: every server is blocked (fail
   *  closed, as for a managed permission rule that cannot be parsed). */
  broken?: string;
}

export interface Candidate {
  name: string;
  transport: "stdio" | "http" | "sse";
  command?: string;
  args?: string[];
  url?: string;
}

export function readPolicy(settings: Pick<SettingsView, "layers">): Policy {
  const p: Policy = { denied: [], allowed: [], problems: [] };
  for (const layer of settings.layers) {
    const deny = layer.settings.deniedMcpServers;
    if (deny !== undefined) {
      const before = p.problems.length;
      p.denied.push(...entries(deny, layer.file, "deniedMcpServers", p.problems));
      if (layer.name === "managed" && p.problems.length > before) p.broken = `the managed policy's deniedMcpServers cannot be read (${layer.file}), so no MCP server starts`;
    }
    const allow = layer.settings.allowedMcpServers;
    if (allow !== undefined) p.allowed.push({ file: layer.file, entries: entries(allow, layer.file, "allowedMcpServers", p.problems) });
  }
  return p;
}

/** Why the policy blocks this server, or undefined when it may start. */
export function blockedBy(p: Policy, c: Candidate): string | undefined {
  if (p.broken) return p.broken;
  const d = p.denied.find((e) => matches(e, c));
  if (d) return `the deny list blocks it (deniedMcpServers in ${d.file})`;
  for (const list of p.allowed) {
    if (!allowedBy(list.entries, c)) return `it is not on the allowlist (allowedMcpServers in ${list.file})`;
  }
  return undefined;
}

function allowedBy(list: readonly PolicyEntry[], c: Candidate): boolean {
  if (c.transport === "stdio" && list.some((e) => e.serverCommand)) return list.some((e) => e.serverCommand && commandMatches(e.serverCommand, c));
  if (c.transport !== "stdio" && list.some((e) => e.serverUrl)) return list.some((e) => e.serverUrl && urlMatches(e.serverUrl, c.url));
  return list.some((e) => e.serverName === c.name);
}

function matches(e: PolicyEntry, c: Candidate): boolean {
  if (e.serverName !== undefined) return e.serverName === c.name;
  if (e.serverCommand) return c.transport === "stdio" && commandMatches(e.serverCommand, c);
  if (e.serverUrl) return c.transport !== "stdio" && urlMatches(e.serverUrl, c.url);
  return false;
}

function commandMatches(cmd: readonly string[], c: Candidate): boolean {
  const actual = [c.command ?? "", ...(c.args ?? [])];
  return cmd.length === actual.length && cmd.every((x, i) => x === actual[i]);
}

export function urlMatches(pattern: string, url: string | undefined): boolean {
  if (!url) return false;
  const re = new RegExp(`^${pattern.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`, "i");
  return re.test(url);
}

/** Entries of one list; a malformed entry is left out and named (a deny entry left out makes
 *  the list looser, so it is said loudly). */
function entries(v: JsonValue, file: string, key: string, problems: string[]): PolicyEntry[] {
  if (!Array.isArray(v)) {
    problems.push(`${file}: ${key} must be a list of {serverName | serverCommand | serverUrl} entries`);
    return [];
  }
  const out: PolicyEntry[] = [];
  v.forEach((x, i) => {
    const keys = x && typeof x === "object" && !Array.isArray(x) ? Object.keys(x) : [];
    const o = x as { [k: string]: JsonValue };
    const ok = keys.length === 1 && ((keys[0] === "serverName" && typeof o.serverName === "string") || (keys[0] === "serverUrl" && typeof o.serverUrl === "string") || (keys[0] === "serverCommand" && Array.isArray(o.serverCommand) && o.serverCommand.length > 0 && o.serverCommand.every((a) => typeof a === "string")));
    if (!ok) {
      problems.push(`${file}: ${key}[${i}] must have exactly one of serverName, serverCommand (a list of strings) or serverUrl; entry left out`);
      return;
    }
    out.push({ ...(o as Omit<PolicyEntry, "file">), file });
  });
  return out;
}
