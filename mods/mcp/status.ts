// `/mcp` (and `deepcode mcp list | get`): every configured server with its state — connected
// with what it offers, connecting, failed and why, waiting for approval, not started and why
// (an untrusted project, the managed policy, disabledMcpjsonServers) — and what to do about it:
// `/mcp <name>` for details (its command or URL, tools, stderr, log), `/mcp reconnect <name>`,
// `/mcp disable <name>` / `/mcp enable <name>` (this session), `/mcp approve <name>`,
// `/mcp login <name>` (OAuth sign-in to a remote server) and `/mcp logout <name>`.

import type { CommandContext, CommandSpec } from "../../src/contract/index.js";
import type { Server } from "./server.js";

export interface StatusDeps {
  servers(): readonly Server[];
  approve(s: Server, sessionId: string): Promise<string>;
  logFile(): string | undefined;
  /** Wait (bounded) until no server is still connecting: for a one-shot `deepcode mcp list`. */
  settle(): Promise<void>;
}

const ACTIONS = ["reconnect", "disable", "enable", "approve", "login", "logout"] as const;
/** How long a sign-in waits for the browser's answer. */
const SIGN_IN_WAIT_MS = 5 * 60_000;

export function statusCommand(d: StatusDeps): CommandSpec {
  return {
    name: "mcp",
    args: "[name | reconnect|disable|enable|approve|login|logout name]",
    description: "MCP servers: their state, tools, prompts and resources; reconnect, disable, approve, sign in and out",
    // -p may show the servers (`/mcp`, `/mcp NAME`), never act on them.
    print: (args) => !args.trim().split(/\s+/).slice(0, 2).some((w) => (ACTIONS as readonly string[]).includes(w)),
    // A server's prompts (`/mcp__server__prompt`) exist once it has connected.
    settle: (name) => (name === "" || name.startsWith("mcp__") ? d.settle() : Promise.resolve()),
    run: (ctx) => run(d, ctx),
    complete: (partial, words) => {
      const names = d.servers().map((s) => s.name);
      if (words.length === 0) return [...ACTIONS, "list", ...names].filter((x) => x.startsWith(partial));
      if (words.length === 1 && (ACTIONS as readonly string[]).includes(words[0])) return names.filter((x) => x.startsWith(partial));
      return [];
    },
  };
}

async function run(d: StatusDeps, ctx: CommandContext): Promise<void> {
  const [verb, name] = ctx.args.trim().split(/\s+/).filter(Boolean);
  if (!ctx.interactive) await d.settle();
  const all = d.servers();
  if (!verb || verb === "list") return ctx.print(list(all));
  if ((ACTIONS as readonly string[]).includes(verb)) {
    const s = all.find((x) => x.name === name);
    if (!s) return ctx.print(name ? `no MCP server named ${name} (${all.map((x) => x.name).join(", ") || "none configured"})` : `/mcp ${verb} needs a server name`);
    return ctx.print(await act(d, s, verb as (typeof ACTIONS)[number], ctx));
  }
  const s = all.find((x) => x.name === verb);
  if (!s) return ctx.print(`no MCP server named ${verb}; configured: ${all.map((x) => x.name).join(", ") || "none"}`);
  ctx.print(details(s, d.logFile()));
}

async function act(d: StatusDeps, s: Server, verb: (typeof ACTIONS)[number], ctx: CommandContext): Promise<string> {
  switch (verb) {
    case "reconnect":
      if (!s.cfg.start) return `${s.name} is not started: ${s.reason}`;
      if (s.state === "needs-approval" || s.state === "declined") return `${s.name} needs your approval first: /mcp approve ${s.name}`;
      await s.stop("connecting");
      await s.start();
      return `${s.name}: ${s.describe()}`;
    case "disable":
      await s.stop("off", `disabled for this session (/mcp enable ${s.name})`);
      return `${s.name} disabled for this session; its tools fail until /mcp enable ${s.name}`;
    case "enable":
      if (!s.cfg.start) return `${s.name} is not started: ${s.reason}`;
      if (s.state !== "off") return `${s.name}: ${s.describe()}`;
      await s.start();
      return `${s.name}: ${s.describe()}`;
    case "approve":
      return d.approve(s, ctx.sessionId);
    case "login":
      return s.login({ say: (t) => ctx.print(t), signal: ctx.signal, timeoutMs: SIGN_IN_WAIT_MS });
    case "logout":
      return s.logout();
  }
}

function mark(s: Server): string {
  return s.state === "connected" ? "●" : s.state === "failed" ? "✗" : s.state === "connecting" || s.state === "reconnecting" ? "…" : "○";
}

export function list(all: readonly Server[]): string {
  if (all.length === 0) return "No MCP servers configured. Add one with `deepcode mcp add NAME -- command args…`, or put them in .mcp.json.";
  const width = Math.max(...all.map((s) => s.name.length));
  const lines = all.map((s) => `${mark(s)} ${s.name.padEnd(width)}  ${s.describe()}  · ${s.cfg.scope}: ${s.target()}`);
  return [`MCP servers (${all.length}):`, ...lines.map((l) => `  ${l}`), "/mcp <name> for details · /mcp reconnect|disable|enable|approve|login|logout <name>"].join("\n");
}

function details(s: Server, log: string | undefined): string {
  const c = s.cfg;
  const lines = [
    `${s.name}: ${s.describe()}`,
    `  scope      ${c.scope} (${c.source})`,
    `  ${c.transport === "stdio" ? "command   " : "url       "} ${s.target()}`,
  ];
  const env = Object.keys((c.raw.env as Record<string, unknown> | undefined) ?? {});
  if (env.length) lines.push(`  env        ${env.join(", ")}`);
  const headers = Object.keys((c.raw.headers as Record<string, unknown> | undefined) ?? {});
  if (headers.length) lines.push(`  headers    ${headers.join(", ")}`);
  if (c.elicitation === "defaults") lines.push("  forms      answered with their defaults where nobody can answer (elicitation: defaults)");
  if (s.client) lines.push(`  server     ${s.client.info.title ?? s.client.info.name} ${s.client.info.version} · protocol ${s.client.info.protocolVersion}`);
  if (s.tools.length) lines.push(`  tools      ${s.tools.map((t) => `${t.name}${t.tool.annotations?.readOnlyHint === true ? " (read-only hint)" : ""}`).join(", ")}`);
  for (const t of s.tools.filter((x) => x.renamed)) lines.push(`             ${t.tool.name} → ${t.name}: ${t.renamed}`);
  if (s.prompts.length) lines.push(`  prompts    ${s.prompts.map((p) => `/${p.name}`).join(", ")}`);
  if (s.resources.length) lines.push(`  resources  ${s.resources.slice(0, 8).map((r) => `@${s.name}:${r.uri}`).join(", ")}${s.resources.length > 8 ? ` … (${s.resources.length} in all; Tab after @${s.name}: lists them)` : ""}`);
  if (s.templates.length) lines.push(`  templates  ${s.templates.map((t) => t.uriTemplate).join(", ")}`);
  if (s.stderr.length) lines.push("  stderr (last lines):", ...s.stderr.slice(-10).map((l) => `    ${l}`));
  if (log) lines.push(`  log        ${log}`);
  return lines.join("\n");
}

/** A server's state in the mcp status (KnownStatus["mcp"]). */
export function statusWord(s: Server): string {
  switch (s.state) {
    case "connected":
      return "connected";
    case "connecting":
    case "reconnecting":
      return "pending";
    case "failed":
      return "failed";
    case "needs-approval":
    case "declined":
      return "needs-approval";
    case "needs-sign-in":
      return "needs-auth";
    default:
      return "disabled";
  }
}
