// Resources as @-mentions: `@<server>:<uri>` in a prompt attaches the resource, after the same
// gate as a file mention — a `tool.check` through the whole chain (rules, the managed policy,
// PreToolUse hooks), for the pseudo-tool `mcp__<server>__resources` with the URI as input, so
// `mcp__<server>` rules cover it. Only an allow attaches; nobody is asked while typing a
// prompt. The text stays as typed; each resource follows it, delimited, bounded:
//
//   <resource server="everything" uri="demo://resource/static/document/architecture.md">…</resource>
//
// Tab offers the servers' resources, and their templates up to the first `{…}`.

import { fileURLToPath } from "node:url";
import type { PluginApi } from "../../src/contract/index.js";
import type { JsonObject } from "./jsonrpc.js";
import { bound } from "./results.js";
import { safePart } from "./names.js";
import type { Server } from "./server.js";

const PER_RESOURCE_TOKENS = 16_000;
const MAX_MENTIONS = 10;

let checks = 0;

export function resourceTool(server: string): string {
  return `mcp__${safePart(server)}__resources`;
}

/** `@server:uri` tokens of a prompt whose server is one of `names` (code spans excluded). */
export function findResourceMentions(text: string, names: ReadonlySet<string>): Array<{ server: string; uri: string }> {
  const prose = text.replace(/```[\s\S]*?(?:```|$)|`[^`\n]*`/g, " ");
  const out: Array<{ server: string; uri: string }> = [];
  for (const m of prose.matchAll(/(^|[\s(["'])@([A-Za-z0-9_.-]+):(\S+)/g)) {
    const uri = m[3].replace(/[.,;!?)\]}"'>]+$/, "");
    if (names.has(m[2]) && uri && !out.some((o) => o.server === m[2] && o.uri === uri)) out.push({ server: m[2], uri });
  }
  return out;
}

export function registerResourceMentions(api: PluginApi, servers: () => readonly Server[]): void {
  api.on("prompt.submit", async (e, next) => {
    const all = new Map(servers().map((s) => [s.name, s]));
    const found = findResourceMentions(e.text, new Set(all.keys())).slice(0, MAX_MENTIONS);
    if (found.length === 0) return next();
    const blocks: string[] = [];
    const notes: string[] = [];
    for (const { server, uri } of found) {
      const s = all.get(server)!;
      const token = `@${server}:${uri}`;
      if (!s.client || s.state !== "connected") {
        notes.push(`${token}: not attached: MCP server ${server} is not connected (${s.describe()})`);
        continue;
      }
      const verdict = await allowed(api, e.sessionId, server, uri);
      if (!verdict.ok) {
        notes.push(`${token}: not attached: ${verdict.reason}`);
        continue;
      }
      try {
        const r = await s.client.readResource(uri);
        const { text, left } = resourceText(server, uri, r);
        if (text) blocks.push(text);
        if (left.length) notes.push(`${token}: ${left.join("; ")} left out (the model reads text only)`);
        if (!text && !left.length) notes.push(`${token}: the server returned nothing`);
      } catch (err) {
        notes.push(`${token}: not attached: the server could not read it (${(err as Error).message})`);
      }
    }
    const result = await next(blocks.length ? { ...e, text: `${e.text}\n\n${blocks.join("\n\n")}` } : e);
    return notes.length ? { ...result, context: [...(result.context ?? []), ...notes] } : result;
  });

  api.mentions(async (partial) => {
    const m = /^@([A-Za-z0-9_.-]*)(?::(.*))?$/.exec(partial);
    if (!m) return [];
    const out: string[] = [];
    for (const s of servers()) {
      if (s.state !== "connected") continue;
      if (m[2] === undefined) {
        if (s.name.startsWith(m[1]) && (s.resources.length || s.templates.length)) out.push(`@${s.name}:`);
        continue;
      }
      if (s.name !== m[1]) continue;
      for (const r of s.resources) if (r.uri.startsWith(m[2])) out.push(`@${s.name}:${r.uri}`);
      for (const t of s.templates) {
        const literal = t.uriTemplate.split("{")[0];
        if (literal.startsWith(m[2])) out.push(`@${s.name}:${literal}`);
        // Past the literal part: the server's completion for the template's first variable.
        const v = /^\{([^}]+)\}/.exec(t.uriTemplate.slice(literal.length));
        if (v && m[2].startsWith(literal) && s.client) {
          const typed = m[2].slice(literal.length);
          const values = await s.client.complete({ type: "ref/resource", uri: t.uriTemplate }, { name: v[1], value: typed }).catch(() => []);
          out.push(...values.map((x) => `@${s.name}:${literal}${x}`));
        }
      }
    }
    return out;
  });
}

async function allowed(api: PluginApi, sessionId: string, server: string, uri: string): Promise<{ ok: boolean; reason?: string }> {
  try {
    const d = await api.dispatch({ type: "tool.check", sessionId, tool: resourceTool(server), input: { server, uri }, callId: `mcp-resource-${++checks}`, readOnly: true, step: 0 });
    if (d.decision !== "allow") return refusal(d);
    // A file: URI is a file on this machine, read by the server and sent to the model: it
    // passes the Read tool's own check as well (secrets under any name, Read rules), so
    // `@files:file:///home/me/.ssh/id_rsa` is not attached where `@~/.ssh/id_rsa` would not be.
    const path = localPath(uri);
    if (path === null) return { ok: false, reason: "its file: URI does not name a local file" };
    if (path === undefined) return { ok: true };
    const r = await api.dispatch({ type: "tool.check", sessionId, tool: "Read", input: { file_path: path }, callId: `mcp-resource-${++checks}`, readOnly: true, step: 0 });
    return r.decision === "allow" ? { ok: true } : refusal(r);
  } catch (err) {
    return { ok: false, reason: `the permission check failed (${(err as Error).message})` };
  }
}

function refusal(d: { decision: string; reason?: string }): { ok: false; reason: string } {
  const why = d.reason ? ` (${d.reason})` : "";
  return { ok: false, reason: d.decision === "deny" ? `reading it is denied${why}` : `reading it needs approval${why}` };
}

/** The local path a file: URI names; undefined for any other scheme, null for a file: URI
 *  that names no local file (another host, a malformed one). */
function localPath(uri: string): string | null | undefined {
  if (!/^file:/i.test(uri)) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return null;
  }
}

/** A `resources/read` result as attached text, and what was left out. */
export function resourceText(server: string, uri: string, r: JsonObject): { text: string; left: string[] } {
  const left: string[] = [];
  const parts: string[] = [];
  for (const c of Array.isArray(r.contents) ? r.contents : []) {
    if (!c || typeof c !== "object" || Array.isArray(c)) continue;
    const cu = String(c.uri ?? uri);
    const mime = typeof c.mimeType === "string" ? ` mimeType="${c.mimeType}"` : "";
    if (typeof c.text === "string") {
      const b = bound(c.text, PER_RESOURCE_TOKENS);
      parts.push(`<resource server="${server}" uri="${cu}"${mime}>\n${b.text}${b.text.endsWith("\n") ? "" : "\n"}</resource>`);
    } else if (typeof c.blob === "string") left.push(`the binary content of ${cu}${mime ? ` (${String(c.mimeType)})` : ""}`);
  }
  return { text: parts.join("\n\n"), left };
}

