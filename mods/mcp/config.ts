// The mod's configuration (configure/index.ts's output), read into types. configure/ has
// already gathered every source, expanded `${VAR}`s, applied the managed allow/deny lists,
// workspace trust and the enable/disable settings, and composed each stdio server's
// environment: this file only reads the result, and refuses what it cannot use.
//
//   { servers: [{ name, scope, source, transport, command?, args?, env?, cwd?, url?, headers?,
//                 oauth?: { clientId?, clientSecret?, scopes?, callbackPort?, clientMetadataUrl?,
//                           grant?: "client_credentials" | "jwt_bearer" | "id_jag", privateKeyFile?,
//                           assertionFile?, assertionEnv?, idp?: { issuer?, tokenEndpoint?, clientId?,
//                           clientSecret?, idTokenFile?, idTokenEnv? }, dpop?, authorizationServer? },
//                 elicitation?: "ask" | "defaults", raw, start, why?, approval }],
//     startupTimeoutMs, toolTimeoutMs, maxOutputTokens, firstRequestWaitMs, toolIndexTokens,
//     sampling: "ask" | "allow" | "deny", roots: [absolute paths], logDir?, clientVersion }

import type { JsonValue } from "../../src/contract/index.js";
import { isObject } from "../../src/lib/json.js";
import { DEFAULT_INDEX_TOKENS } from "./defer.js";
import type { OAuthConfig } from "./oauth/flow.js";

export type Scope = "local" | "project" | "user" | "flag" | "settings" | "plugin";

export interface ServerConfig {
  name: string;
  scope: Scope;
  /** The file it was configured in. */
  source: string;
  transport: "stdio" | "http" | "sse";
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  /** A remote server's OAuth client, when it is not registered dynamically (oauth/). */
  oauth?: OAuthConfig;
  /** Its forms (elicitation) where nobody can answer them (-p): "ask" declines them, "defaults"
   *  answers one with its defaults when every required field has one (configure/ decides it:
   *  the entry's `elicitation`, else settings `mcpElicitation`; the managed policy's is final). */
  elicitation?: "ask" | "defaults";
  /** As written (before `${VAR}` expansion): shown to the person, digested for approvals. */
  raw: { [k: string]: JsonValue };
  /** False: configured but not started; `why` says why (untrusted project, policy, disabled). */
  start: boolean;
  why?: string;
  /** "ask": a project server the person has to approve (once, remembered per project);
   *  "settings": approved by enabledMcpjsonServers / enableAllProjectMcpServers; "none": not a
   *  project server (the person's own configuration). */
  approval: "ask" | "settings" | "none";
}

export interface McpOptions {
  servers: ServerConfig[];
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  /** The person's bound on one result, in tokens (mcpMaxOutputTokens / MAX_MCP_OUTPUT_TOKENS);
   *  unset: an MCP result gets the engine's bound on any tool result (toolResultMaxBytes). */
  maxOutputTokens?: number;
  firstRequestWaitMs: number;
  /** Past this many prefix tokens of MCP tool definitions, MCP tools load on demand
   *  (defer.ts); 0: always. */
  toolIndexTokens: number;
  sampling: "ask" | "allow" | "deny";
  roots: string[];
  /** The folder the session transcripts are in: server logs go beside them. */
  logDir?: string;
  clientVersion: string;
}

export const DEFAULTS = {
  startupTimeoutMs: 30_000,
  toolTimeoutMs: 600_000,
  firstRequestWaitMs: 5_000,
};

export function readOptions(c: Readonly<Record<string, JsonValue>>): { options: McpOptions; problems: string[] } {
  const problems: string[] = [];
  const servers: ServerConfig[] = [];
  for (const s of Array.isArray(c.servers) ? c.servers : []) {
    const r = readServer(s);
    if (typeof r === "string") problems.push(r);
    else servers.push(r);
  }
  const num = (k: string, d: number): number => (typeof c[k] === "number" && Number.isFinite(c[k]) && (c[k] as number) > 0 ? (c[k] as number) : d);
  return {
    options: {
      servers,
      startupTimeoutMs: num("startupTimeoutMs", DEFAULTS.startupTimeoutMs),
      toolTimeoutMs: num("toolTimeoutMs", DEFAULTS.toolTimeoutMs),
      ...(num("maxOutputTokens", 0) > 0 ? { maxOutputTokens: num("maxOutputTokens", 0) } : {}),
      toolIndexTokens: typeof c.toolIndexTokens === "number" && c.toolIndexTokens >= 0 ? c.toolIndexTokens : DEFAULT_INDEX_TOKENS,
      firstRequestWaitMs: typeof c.firstRequestWaitMs === "number" && c.firstRequestWaitMs >= 0 ? c.firstRequestWaitMs : DEFAULTS.firstRequestWaitMs,
      sampling: c.sampling === "allow" || c.sampling === "deny" ? c.sampling : "ask",
      roots: Array.isArray(c.roots) ? c.roots.filter((x): x is string => typeof x === "string") : [],
      logDir: typeof c.logDir === "string" ? c.logDir : undefined,
      clientVersion: typeof c.clientVersion === "string" ? c.clientVersion : "0.0.0",
    },
    problems,
  };
}

function readServer(v: JsonValue): ServerConfig | string {
  if (!isObject(v) || typeof v.name !== "string") return "a server entry without a name was left out";
  const name = v.name;
  const transport = v.transport === "http" || v.transport === "sse" ? v.transport : "stdio";
  const strings = (x: JsonValue | undefined): string[] | undefined => (Array.isArray(x) ? x.map(String) : undefined);
  const record = (x: JsonValue | undefined): Record<string, string> | undefined =>
    isObject(x) ? Object.fromEntries(Object.entries(x).map(([k, val]) => [k, String(val)])) : undefined;
  const out: ServerConfig = {
    name,
    scope: (["local", "project", "user", "flag", "settings", "plugin"] as const).find((s) => s === v.scope) ?? "user",
    source: typeof v.source === "string" ? v.source : "?",
    transport,
    command: typeof v.command === "string" ? v.command : undefined,
    args: strings(v.args),
    env: record(v.env),
    cwd: typeof v.cwd === "string" ? v.cwd : undefined,
    url: typeof v.url === "string" ? v.url : undefined,
    headers: record(v.headers),
    oauth: oauthOf(v.oauth),
    elicitation: v.elicitation === "defaults" ? "defaults" : "ask",
    raw: isObject(v.raw) ? v.raw : {},
    start: v.start !== false,
    why: typeof v.why === "string" ? v.why : undefined,
    approval: v.approval === "ask" || v.approval === "settings" ? v.approval : "none",
  };
  if (out.start && transport === "stdio" && !out.command) return `MCP server ${name}: no "command" to start`;
  if (out.start && transport !== "stdio" && !out.url) return `MCP server ${name}: no "url" to connect to`;
  if (isObject(v.oauth) && v.oauth.grant !== undefined && !out.oauth?.grant) return `MCP server ${name}: "oauth": { "grant": ${JSON.stringify(v.oauth.grant)} } is not a grant deepcode knows (client_credentials, jwt_bearer, id_jag)`;
  if (isObject(v.oauth) && v.oauth.authorizationServer !== undefined && !out.oauth?.authorizationServer) return `MCP server ${name}: "oauth": { "authorizationServer": ${JSON.stringify(v.oauth.authorizationServer)} } must be the authorization server's issuer, an http(s) URL`;
  return out;
}

function oauthOf(v: JsonValue | undefined): OAuthConfig | undefined {
  if (!isObject(v)) return undefined;
  const str = (x: JsonValue | undefined): string | undefined => (typeof x === "string" && x ? x : undefined);
  const port = typeof v.callbackPort === "number" && Number.isInteger(v.callbackPort) && v.callbackPort > 0 && v.callbackPort < 65536 ? v.callbackPort : undefined;
  const scopes = Array.isArray(v.scopes) ? v.scopes.filter((x): x is string => typeof x === "string") : typeof v.scopes === "string" ? v.scopes.split(/\s+/).filter(Boolean) : undefined;
  const cimd = str(v.clientMetadataUrl);
  return {
    clientId: str(v.clientId),
    clientSecret: str(v.clientSecret),
    scopes,
    callbackPort: port,
    clientMetadataUrl: cimd && /^https:\/\/[^/]+\/./.test(cimd) ? cimd : undefined,
    grant: v.grant === "client_credentials" || v.grant === "jwt_bearer" || v.grant === "id_jag" ? v.grant : undefined,
    privateKeyFile: str(v.privateKeyFile),
    assertionFile: str(v.assertionFile),
    assertionEnv: str(v.assertionEnv),
    idp: isObject(v.idp) ? { issuer: str(v.idp.issuer), tokenEndpoint: str(v.idp.tokenEndpoint), clientId: str(v.idp.clientId), clientSecret: str(v.idp.clientSecret), idTokenFile: str(v.idp.idTokenFile), idTokenEnv: str(v.idp.idTokenEnv) } : undefined,
    dpop: typeof v.dpop === "boolean" ? v.dpop : undefined,
    authorizationServer: issuerUrl(v.authorizationServer),
  };
}

/** An issuer: an absolute http(s) URL (its string is kept as written: issuers compare as strings). */
function issuerUrl(v: JsonValue | undefined): string | undefined {
  if (typeof v !== "string") return undefined;
  try {
    const u = new URL(v);
    return u.protocol === "https:" || u.protocol === "http:" ? v : undefined;
  } catch {
    return undefined;
  }
}
