// The settings keys deepcode knows, with their expected types — the one place to add a key.
// A key of the wrong type is a ConfigError naming the key (a person must fix it); an unknown
// key is a warning (a typo, or a newer version's key). Keys Claude Code uses that deepcode does
// not are known too, so a Claude Code settings file loads unchanged with a note, not an error.

import type { JsonValue } from "../../contract/index.js";
import { isObject } from "../../lib/json.js";

export type KeyType =
  | { t: "string" }
  | { t: "number" }
  | { t: "boolean" }
  | { t: "enum"; values: readonly string[] }
  | { t: "array"; of?: KeyType }
  | { t: "record"; of?: KeyType }
  | { t: "object"; keys: Record<string, KeyType> }
  | { t: "either"; options: KeyType[] }
  /** A Claude Code key deepcode accepts and ignores. */
  | { t: "ignored" };

const str: KeyType = { t: "string" };
const num: KeyType = { t: "number" };
const bool: KeyType = { t: "boolean" };
const strings: KeyType = { t: "array", of: str };
const anyObject: KeyType = { t: "record" };
const ignored: KeyType = { t: "ignored" };

/** Every top-level key deepcode reads (and Claude Code keys it tolerates). */
export const SETTINGS_SCHEMA: Record<string, KeyType> = {
  $schema: str,
  permissions: {
    t: "object",
    keys: {
      allow: strings,
      ask: strings,
      deny: strings,
      additionalDirectories: strings,
      defaultMode: ignored,
      disableBypassPermissionsMode: ignored,
    },
  },
  /** Claude Code's shape: `{ "PreToolUse": [{ "matcher": "Edit|Write", "hooks": [...] }] }`. */
  hooks: { t: "record", of: { t: "array", of: anyObject } },
  /** Only honoured in the managed layer: ignore every other layer's hooks. */
  allowManagedHooksOnly: bool,
  /** Only honoured in the managed layer: other layers' allow and ask rules (and --allowedTools)
   *  are ignored; their deny rules still count (a deny only takes away). */
  allowManagedPermissionRulesOnly: bool,
  /** Only honoured in the managed layer: only the managed policy's own MCP servers start. */
  allowManagedMcpServersOnly: bool,
  /** Only honoured in the managed layer: no plugin of another layer loads (plugin-policy.ts). */
  allowManagedPluginsOnly: bool,
  /** Only honoured in the managed layer: the only plugins other layers may load, by path and/or
   *  the sha256 of the entry file (`"path"` or `{ "path", "sha256" }`). */
  allowedPlugins: { t: "array", of: { t: "either", options: [str, { t: "object", keys: { path: str, sha256: str } }] } },
  /** No hooks run: the managed policy's true stops every hook, its own too; another layer's
   *  stops every hook but the managed policy's. */
  disableAllHooks: bool,
  /** Lines shown at start (Claude Code's key): one at each start, the first when there is one. */
  companyAnnouncements: strings,
  /** The models requests may go to (Claude Code's key): in the managed policy, every route — the
   *  session's model, --model, /model, a tier, a subagent — is bound to them. */
  availableModels: strings,
  model: str,
  env: { t: "record", of: str },
  /** Plugin modules to load: a path or package name, or `{ "path": …, … }`. */
  plugins: { t: "array", of: { t: "either", options: [str, anyObject] } },
  pluginConfig: { t: "record", of: anyObject },
  sandbox: {
    t: "object",
    keys: {
      enabled: bool,
      /** `true`: the whole network. Claude Code's object form `{ allowedDomains, allowManagedDomainsOnly }`:
       *  those hosts only, through deepcode's filtering proxy (mods/sandbox/hosts.ts). */
      network: { t: "either", options: [bool, anyObject] },
      /** On by default: with the sandbox active (no network, or only allowedDomains), contained commands run without a prompt. */
      autoAllowBashIfSandboxed: bool,
      /** Variables a sandboxed command gets although nothing else grants them (names, `*` globs;
       *  credentials included): mods/sandbox/env.ts. */
      env: { t: "array", of: str },
      /** Claude Code's `filesystem`: `allowRead` (deepcode: folders granted read-only),
       *  `allowWrite` (granted read-write; mods/sandbox/grant.ts) and `denyRead` (each entry a
       *  `Read(…)` deny rule of its layer: the tools refuse it, the sandbox hides it). */
      filesystem: { t: "object", keys: { allowRead: { t: "array", of: str }, allowWrite: { t: "array", of: str }, denyRead: { t: "array", of: str }, denyWrite: ignored } },
      /** No sandbox, no commands (Claude Code's key): Bash is denied where the sandbox cannot run. */
      failIfUnavailable: bool,
      /** The bwrap binary (honoured in the managed policy only): found there, not through PATH. */
      bwrapPath: str,
      excludedCommands: ignored,
      allowUnsandboxedCommands: ignored,
      enableWeakerNestedSandbox: ignored,
    },
  },
  budget: { t: "object", keys: { daily: num, monthly: num, allowRaise: bool } },
  currency: { t: "enum", values: ["CNY", "USD"] },
  pricing: anyObject,
  estimate: { t: "enum", values: ["ask", "show", "off"] },
  tiers: { t: "record", of: anyObject },
  /** The session's starting tier: one of the four, or `auto` (deepcode picks per turn). */
  tier: { t: "enum", values: ["auto", "chat-fast", "chat-full", "reasoner-budget", "reasoner"] },
  compaction: { t: "object", keys: { threshold: num, betweenTurns: num, window: num, keepTurns: num } },
  /** The tier (chat-fast, chat-full, reasoner-budget, reasoner) or model that plans in plan mode (default reasoner-budget). */
  planner: str,
  /** Offer (ask) or enter (on) plan mode first when a task looks multi-file or architectural. */
  autoPlan: { t: "enum", values: ["off", "ask", "on"] },
  /** File checkpoints before every change (/undo, /rewind): on unless `enabled: false`; the store's bound in bytes. */
  checkpoints: { t: "object", keys: { enabled: bool, maxBytes: num } },
  toolResultMaxBytes: num,
  /** How long a response may send only keep-alives before it ends with an error (ms, default 120 000). */
  apiIdleTimeoutMs: num,
  /** How long a started reply may send no reasoning, content or tool call before the attempt
   *  counts as stalled (ms, default 45 000); a stall with only reasoning is retried. */
  apiStallTimeoutMs: num,
  /** The wire protocol: `openai` (default; /chat/completions) or `anthropic` (DeepSeek's
   *  /anthropic endpoint, Anthropic Messages). */
  protocol: { t: "enum", values: ["openai", "anthropic"] },
  /** Subagents (the Task tool, any plugin's agent.spawn): how deep they may nest (at most 3),
   *  and how many one session runs at once. */
  subagents: { t: "object", keys: { maxDepth: num, maxParallel: num } },
  mcpServers: { t: "record", of: anyObject },
  /** Project (.mcp.json) servers approved without asking, and ones never started. */
  enabledMcpjsonServers: strings,
  disabledMcpjsonServers: strings,
  enableAllProjectMcpServers: bool,
  /** Claude Code's MCP server allow and deny lists ({serverName} | {serverCommand} | {serverUrl}). */
  allowedMcpServers: { t: "array", of: anyObject },
  deniedMcpServers: { t: "array", of: anyObject },
  /** MCP limits (else the environment's MCP_TIMEOUT, MCP_TOOL_TIMEOUT, MAX_MCP_OUTPUT_TOKENS). */
  mcpStartupTimeoutMs: num,
  mcpToolTimeoutMs: num,
  mcpMaxOutputTokens: num,
  /** How long the session's first request waits for servers still connecting (default 5000). */
  mcpFirstRequestWaitMs: num,
  /** Past this many prefix tokens of MCP tool definitions, MCP tools load on demand (default 5000; 0: always). */
  mcpToolIndexTokens: num,
  /** Servers asking to use the model: ask (the REPL asks, -p declines), allow, or deny. */
  mcpSampling: { t: "enum", values: ["ask", "allow", "deny"] },
  /** Servers' forms where nobody can answer them (-p): ask (declined) or defaults (answered with
   *  their defaults when every required field has one). A server entry's `elicitation` wins;
   *  the managed policy's is final. */
  mcpElicitation: { t: "enum", values: ["ask", "defaults"] },
  providers: anyObject,
  statusLine: { t: "either", options: [anyObject, str] },
  /** The output style new sessions start with (mods/output-styles). */
  outputStyle: str,
  telemetry: { t: "either", options: [bool, anyObject] },
  theme: str,
  /** Projects trusted without asking (CI): absolute paths, `path/**` for every project below.
   *  Honoured in the user, flag and managed layers only. */
  trustedProjects: strings,
  /** Claude Code plugins by id (`<plugin>@<marketplace>`): true enables, false disables; the
   *  later layer wins and the managed policy's word is final (mods/marketplace/enabled.ts). */
  enabledPlugins: { t: "record", of: bool },
  /** Marketplaces settings declare: `{name: {source: {source: "github", repo} | …}}`. */
  extraKnownMarketplaces: { t: "record", of: anyObject },
  /** Managed policy only: the marketplace sources that may be added (empty: none). */
  strictKnownMarketplaces: { t: "array", of: anyObject },
  /** Managed policy only: marketplace sources that may never be added. */
  blockedMarketplaces: { t: "array", of: anyObject },

  // Claude Code settings deepcode does not use: accepted, noted once, ignored.
  apiKeyHelper: ignored,
  awsAuthRefresh: ignored,
  awsCredentialExport: ignored,
  cleanupPeriodDays: ignored,
  includeCoAuthoredBy: ignored,
  forceLoginMethod: ignored,
  forceLoginOrgUUID: ignored,
  otelHeadersHelper: ignored,
  spinnerTipsEnabled: ignored,
  alwaysThinkingEnabled: ignored,
};

export interface CheckIssue {
  /** Dotted path of the offending key, e.g. `permissions.allow[1]`. */
  path: string;
  kind: "type" | "unknown" | "ignored";
  message: string;
}

/** Check a settings object against the schema. Type errors and unknown keys come back as issues. */
export function checkSettings(value: { [key: string]: JsonValue }): CheckIssue[] {
  const issues: CheckIssue[] = [];
  checkObject(value, SETTINGS_SCHEMA, "", issues);
  return issues;
}

function checkObject(value: { [key: string]: JsonValue }, keys: Record<string, KeyType>, path: string, out: CheckIssue[]): void {
  for (const [k, v] of Object.entries(value)) {
    const p = path === "" ? k : `${path}.${k}`;
    const type = Object.prototype.hasOwnProperty.call(keys, k) ? keys[k] : undefined;
    if (type === undefined) {
      out.push({ path: p, kind: "unknown", message: `unknown setting '${p}' (ignored)` });
      continue;
    }
    check(v, type, p, out);
  }
}

function check(v: JsonValue, type: KeyType, path: string, out: CheckIssue[]): void {
  switch (type.t) {
    case "ignored":
      out.push({ path, kind: "ignored", message: `'${path}' is a Claude Code setting deepcode does not use (ignored)` });
      return;
    case "string":
    case "number":
    case "boolean":
      if (typeof v !== type.t) typeError(path, type, v, out);
      return;
    case "enum":
      if (typeof v !== "string" || !type.values.includes(v)) typeError(path, type, v, out);
      return;
    case "array":
      if (!Array.isArray(v)) return typeError(path, type, v, out);
      if (type.of) v.forEach((item, i) => check(item, type.of as KeyType, `${path}[${i}]`, out));
      return;
    case "record":
    case "object":
      if (!isObject(v)) return typeError(path, type, v, out);
      if (type.t === "object") checkObject(v, type.keys, path, out);
      else if (type.of) for (const [k, item] of Object.entries(v)) check(item, type.of, `${path}.${k}`, out);
      return;
    case "either": {
      const fits = type.options.some((o) => {
        const trial: CheckIssue[] = [];
        check(v, o, path, trial);
        return !trial.some((i) => i.kind === "type");
      });
      if (!fits) typeError(path, type, v, out);
      return;
    }
  }
}

function typeError(path: string, type: KeyType, v: JsonValue, out: CheckIssue[]): void {
  out.push({ path, kind: "type", message: `'${path}' must be ${describeType(type)}, not ${describeValue(v)}` });
}

export function describeType(type: KeyType): string {
  switch (type.t) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "true or false";
    case "enum":
      return `one of ${type.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "array":
      return type.of ? `an array of ${plural(describeType(type.of))}` : "an array";
    case "record":
    case "object":
      return "an object";
    case "either":
      return type.options.map(describeType).join(" or ");
    case "ignored":
      return "anything";
  }
}

function plural(s: string): string {
  return s.replace(/^an? /, "").replace(/^(string|number|object)$/, "$1s");
}

function describeValue(v: JsonValue): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 37)}...` : v)}`;
  return `${typeof v} ${String(v)}`;
}
