// The MCP mod's configuration, computed by the mod itself (index.ts, from api.settings, api.host,
// api.trusted and the marketplace's status) from every source (sources.ts), the
// managed allow and deny lists (policy.ts), workspace trust and the settings that enable or
// disable project servers. Each server comes out ready to start, or marked with why it does
// not: the mod and `/mcp` say that reason to the person rather than leaving a server out.
//
// `${VAR}` and `${VAR:-default}` expand in command, args, env, url and headers (Claude Code's
// rule), from deepcode's environment — except the variables that hold API keys deepcode uses:
// those never expand (a project's .mcp.json must not be able to hand a server the key).
// A stdio server's environment is what its config names plus a minimal inherited set.
//
// What becomes of a server's form (elicitation) where nobody can answer it (-p): the entry's
// `"elicitation": "ask" | "defaults"`, else settings `mcpElicitation`, else "ask" (declined);
// the managed policy's `mcpElicitation` is final. A project's entry or settings count only once
// the project is trusted (its servers do not start before, and trust/ holds back its settings).

import type { JsonValue, PluginApi, SettingsView } from "../../../src/contract/index.js";
import { blockedBy, readPolicy } from "./policy.js";
import { configuredServers, type Configured } from "./sources.js";
import { isObject } from "../../../src/lib/json.js";

export interface McpConfigInput {
  root: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  settings: SettingsView;
  trusted: boolean;
  mcpConfig?: string[];
  strict?: boolean;
  /** Enabled plugins' servers (the marketplace's status: KnownStatus["marketplace"]). */
  pluginServers?: ReadonlyArray<{ name: string; file: string; raw: { [k: string]: JsonValue } }>;
  /** Variables that hold API keys (DEEPSEEK_API_KEY and every provider's). */
  secretEnv: readonly string[];
  additionalDirectories: readonly string[];
  logDir: string;
  version: string;
}

/** What a stdio server inherits from deepcode's environment, besides what its config names. */
const INHERITED = /^(PATH|HOME|USER|LOGNAME|SHELL|LANG|LC_[A-Z_]+|TERM|TMPDIR|TZ|(HTTPS?|NO|ALL)_PROXY|(https?|no|all)_proxy)$/;

export function mcpModConfig(i: McpConfigInput): { config: { [k: string]: JsonValue }; problems: string[] } {
  const { servers: found, problems } = configuredServers({ root: i.root, home: i.home, settings: i.settings, mcpConfig: i.mcpConfig, strict: i.strict, pluginServers: i.pluginServers });
  const policy = readPolicy(i.settings);
  problems.push(...policy.problems);
  const merged = i.settings;
  const lists = (key: string): Set<string> => {
    const out = new Set<string>();
    for (const l of i.settings.layers) {
      const v = l.settings[key];
      if (Array.isArray(v)) for (const x of v) if (typeof x === "string") out.add(x);
    }
    return out;
  };
  const enabled = lists("enabledMcpjsonServers");
  const disabled = lists("disabledMcpjsonServers");
  const all = i.settings.layers.some((l) => l.settings.enableAllProjectMcpServers === true);
  const forms = (v: JsonValue | undefined): "ask" | "defaults" | undefined => (v === "ask" || v === "defaults" ? v : undefined);
  const managedForms = i.settings.layers.filter((l) => l.name === "managed").map((l) => forms(l.settings.mcpElicitation)).filter((v) => v !== undefined).at(-1);
  const elicitation = { managed: managedForms, setting: forms(merged.get("mcpElicitation")) };
  const servers = found.map((c) => serverEntry(c, i, { policy, enabled, disabled, all, elicitation }, problems));
  const num = (key: string, envKey: string): number | undefined => {
    const s = merged.get(key);
    if (typeof s === "number" && s > 0) return s;
    const e = Number(i.env[envKey]);
    return Number.isFinite(e) && e > 0 ? e : undefined;
  };
  const sampling = merged.get("mcpSampling");
  const config: { [k: string]: JsonValue } = {
    servers,
    roots: [i.root, ...i.additionalDirectories],
    logDir: i.logDir,
    clientVersion: i.version,
    sampling: sampling === "allow" || sampling === "deny" ? sampling : "ask",
  };
  const set = (k: string, v: number | undefined): void => {
    if (v !== undefined) config[k] = v;
  };
  set("startupTimeoutMs", num("mcpStartupTimeoutMs", "MCP_TIMEOUT"));
  set("toolTimeoutMs", num("mcpToolTimeoutMs", "MCP_TOOL_TIMEOUT"));
  set("maxOutputTokens", num("mcpMaxOutputTokens", "MAX_MCP_OUTPUT_TOKENS"));
  const wait = merged.get("mcpFirstRequestWaitMs");
  const index = merged.get("mcpToolIndexTokens");
  if (typeof wait === "number" && wait >= 0) config.firstRequestWaitMs = wait;
  if (typeof index === "number" && index >= 0) config.toolIndexTokens = index;
  return { config, problems };
}

interface Gates {
  policy: ReturnType<typeof readPolicy>;
  enabled: Set<string>;
  disabled: Set<string>;
  all: boolean;
  elicitation: { managed?: "ask" | "defaults"; setting?: "ask" | "defaults" };
}

function serverEntry(c: Configured, i: McpConfigInput, g: Gates, problems: string[]): { [k: string]: JsonValue } {
  const r = c.raw;
  const type = typeof r.type === "string" ? r.type : typeof r.url === "string" ? "http" : "stdio";
  const transport = type === "sse" ? "sse" : type === "http" || type === "streamable-http" || type === "streamableHttp" ? "http" : "stdio";
  const missing = new Set<string>();
  const refused = new Set<string>();
  const x = (s: JsonValue | undefined): string => expand(typeof s === "string" ? s : String(s ?? ""), i.env, i.secretEnv, missing, refused);
  const xs = (v: JsonValue | undefined): { [k: string]: JsonValue } => (isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, val]) => [k, x(val)])) : {});
  const out: { [k: string]: JsonValue } = { name: c.name, scope: c.scope, source: c.file, transport, raw: r, approval: "none", start: true };
  const own = r.elicitation === "ask" || r.elicitation === "defaults" ? r.elicitation : undefined;
  if (r.elicitation !== undefined && !own) problems.push(`MCP server ${c.name} (${c.file}): "elicitation" must be "ask" or "defaults", not ${JSON.stringify(r.elicitation)}; its forms are declined where nobody can answer them`);
  out.elicitation = g.elicitation.managed ?? own ?? g.elicitation.setting ?? "ask";
  if (transport === "stdio") {
    out.command = x(r.command);
    out.args = Array.isArray(r.args) ? r.args.map((a) => x(a)) : [];
    const own = xs(r.env);
    out.env = { ...inherited(i.env), ...own };
    out.cwd = typeof r.cwd === "string" ? resolvePath(x(r.cwd), i.root) : i.root;
  } else {
    out.url = x(r.url);
    out.headers = xs(r.headers);
    if (isObject(r.oauth)) out.oauth = { ...r.oauth, ...xs({ clientId: r.oauth.clientId ?? null, clientSecret: r.oauth.clientSecret ?? null, ...(r.oauth.authorizationServer !== undefined ? { authorizationServer: r.oauth.authorizationServer } : {}) }), ...grantKeys(r.oauth, xs, i.secretEnv, refused) };
  }
  const why = (): string | undefined => {
    const bad = badServerName(c.name);
    if (bad) return bad;
    if (type !== "stdio" && type !== "sse" && transport === "stdio") return `unknown transport type "${type}" (stdio, http or sse)`;
    if (transport === "stdio" && !out.command) return "no \"command\" to start";
    if (transport !== "stdio" && !/^https?:\/\//.test(String(out.url))) return `"url" must be an http:// or https:// URL`;
    if (refused.size) return `it names ${[...refused].map((v) => `\${${v}}`).join(", ")}: deepcode never hands its API key to an MCP server`;
    if (missing.size) return `${[...missing].map((v) => `\${${v}}`).join(", ")} ${missing.size === 1 ? "is" : "are"} not set in the environment (and has no :-default)`;
    const blocked = blockedBy(g.policy, { name: c.name, transport, command: out.command as string | undefined, args: out.args as string[] | undefined, url: out.url as string | undefined });
    if (blocked) return `the managed policy does not allow it: ${blocked}`;
    if (c.scope !== "project") return undefined;
    if (!i.trusted) return "the project is not trusted: its MCP servers start only once you trust it (deepcode trust, or /trust in the REPL)";
    if (g.disabled.has(c.name)) return "disabledMcpjsonServers lists it";
    return undefined;
  };
  const reason = why();
  if (reason) {
    out.start = false;
    out.why = reason;
  } else if (c.scope === "project") out.approval = g.all || g.enabled.has(c.name) ? "settings" : "ask";
  return out;
}

/** The machine grants' keys (oauth/grants.ts): `${VAR}` expands in the assertion file and in
 *  the identity provider's entry; an `…Env` key naming a variable deepcode keeps to itself is
 *  refused like a `${VAR}` of it would be. */
function grantKeys(o: { [k: string]: JsonValue }, xs: (v: JsonValue | undefined) => { [k: string]: JsonValue }, secret: readonly string[], refused: Set<string>): { [k: string]: JsonValue } {
  const out: { [k: string]: JsonValue } = {};
  if (typeof o.assertionFile === "string") out.assertionFile = xs({ f: o.assertionFile }).f;
  if (isObject(o.idp)) out.idp = xs(o.idp);
  for (const v of [o.assertionEnv, isObject(o.idp) ? o.idp.idTokenEnv : undefined]) if (typeof v === "string" && secret.includes(v)) refused.add(v);
  return out;
}

/**
 * Why a server's name cannot be used, or undefined. Its tools are `mcp__<name>__<tool>` (the
 * name with characters the API refuses as `_`, mods/mcp/names.ts) and a rule `mcp__github`
 * covers every tool starting `mcp__github__`: a name with `__` in it, or ending in `_`, would
 * put its tools under another server's rules (`github__issues` under `mcp__github`). Such a
 * name is refused, whatever scope it comes from, so a rule's server is always exactly one.
 */
export function badServerName(name: string): string | undefined {
  const safe = name.replace(/[^A-Za-z0-9_-]/g, "_");
  if (safe === "" || safe.includes("__") || safe.endsWith("_")) {
    return `its name "${name}" ${safe.includes("__") ? "contains __" : safe === "" ? "is empty" : "ends in _"} once made a tool name (mcp__${safe}__…), so its tools would fall under another server's permission rules; rename it (letters, digits, - and single _)`;
  }
  return undefined;
}

function inherited(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && INHERITED.test(k)) out[k] = v;
  return out;
}

/** `${VAR}` and `${VAR:-default}`; a variable that is not set and has no default is noted. */
export function expand(s: string, env: Readonly<Record<string, string | undefined>>, secret: readonly string[], missing: Set<string>, refused: Set<string>): string {
  return s.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, def: string | undefined) => {
    if (secret.includes(name)) {
      refused.add(name);
      return "";
    }
    const v = env[name];
    if (v !== undefined && v !== "") return v;
    if (def !== undefined) return def;
    missing.add(name);
    return "";
  });
}

function resolvePath(p: string, root: string): string {
  return p.startsWith("/") ? p : `${root.replace(/\/$/, "")}/${p}`;
}

/** This run's configuration, from what every plugin reads: the settings in force, the run's
 *  facts and flags (plus `extra`: `deepcode mcp list --mcp-config …` after the verb), workspace
 *  trust, and the enabled Claude Code plugins' servers (the marketplace's status). */
export function configFromApi(api: Pick<PluginApi, "root" | "home" | "settings" | "host" | "trusted" | "statusOf">, extra: { mcpConfig?: readonly string[]; strictMcpConfig?: boolean } = {}): { config: { [k: string]: JsonValue }; problems: string[] } {
  const h = api.host;
  const mcpConfig = [...h.flags.mcpConfig, ...(extra.mcpConfig ?? [])];
  const plugins = api.statusOf("marketplace")?.plugins ?? [];
  return mcpModConfig({
    root: api.root,
    home: api.home,
    env: h.env,
    settings: api.settings,
    trusted: api.trusted,
    ...(mcpConfig.length ? { mcpConfig } : {}),
    strict: h.flags.strictMcpConfig || extra.strictMcpConfig === true,
    pluginServers: plugins.flatMap((p) => p.servers.map((s) => ({ name: s.name, file: s.file, raw: s.config }))),
    secretEnv: h.secretEnv,
    additionalDirectories: h.additionalDirectories,
    logDir: h.sessionsDir,
    version: h.version,
  });
}
