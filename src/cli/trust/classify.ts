// What a project's own settings files may do before the person trusts the project.
//
// A cloned repository is a stranger's: its `.deepcode/settings.json` and
// `settings.local.json` may always tighten (deny and ask rules, a lower budget, the sandbox
// switched on), but anything that loosens a rule or runs code takes effect only once the
// person trusted the project. Each key has a rule here; a key this table does not name
// loosens (fail closed: a new settings key needs trust until someone decides otherwise).

import { DEFAULT_RESULT_MAX_BYTES } from "../../core/context/bound.js";
import type { JsonValue } from "../../contract/index.js";
import type { Settings } from "../settings/types.js";
import { isObject } from "../../lib/json.js";

/** The smallest checkpoints.maxBytes an untrusted project may set. */
const CHECKPOINTS_FLOOR = 1024 * 1024;

/** One thing an untrusted project would change if it were trusted. */
export interface TrustItem {
  /** The file it comes from (absolute). */
  file: string;
  /** Where in it: a settings key path, or the kind of content (`command /deploy`). */
  key: string;
  /** What it would do, in words for the person: `allow rule Bash(npm test:*)`. */
  what: string;
  /** The content that would take effect; digested, so a change is asked about again. */
  value: JsonValue;
}

export interface Classified {
  /** What may apply in an untrusted project. */
  kept: Settings;
  /** What needs trust (dropped while the project is untrusted). */
  items: TrustItem[];
}

/** The trusted layers' view a project setting is compared with (a budget may only be lower). */
export interface TrustedView {
  budget?: { daily?: number; monthly?: number };
}

type Split = (value: JsonValue, file: string, key: string, ref: TrustedView) => { keep?: JsonValue; items: TrustItem[] };

/** Keys that never loosen a rule, spend more or run anything. (`model`, `tier`, `planner` and
 *  `autoPlan` are not among them: a cloned repository must not switch the session to a pricier
 *  model or add planning turns on the planner's; they take effect once the project is trusted.) */
const SAFE = new Set(["$schema", "estimate", "currency", "theme", "compaction", "apiIdleTimeoutMs", "apiStallTimeoutMs", "protocol"]);

/** The model choices a project's settings may make once trusted, in words for the question. */
const MODEL_KEYS: Record<string, string> = {
  model: "run the session on the model",
  tier: "run the session on the tier",
  planner: "plan with",
};

const RULES: Record<string, Split> = {
  permissions: (v, file) => {
    if (!isObject(v)) return { items: [] };
    const keep: { [k: string]: JsonValue } = {};
    const items: TrustItem[] = [];
    for (const [k, x] of Object.entries(v)) {
      if (k === "deny" || k === "ask") keep[k] = x;
      else if (k === "allow" && Array.isArray(x)) for (const r of x) items.push(item(file, "permissions.allow", `allow rule ${String(r)}`, r));
      else if (k === "additionalDirectories" && Array.isArray(x)) for (const d of x) items.push(item(file, "permissions.additionalDirectories", `extra writable folder ${String(d)}`, d));
      else items.push(item(file, `permissions.${k}`, `permissions.${k} = ${short(x)}`, x));
    }
    return { keep, items };
  },
  // Checkpoints are the person's way back: a project may keep them on or bound them (to 1 MiB
  // at least), but switching them off takes that away, so it needs trust (as switching the sandbox off does).
  checkpoints: (v, file) => {
    if (!isObject(v)) return { items: [] };
    const keep: { [k: string]: JsonValue } = {};
    const items: TrustItem[] = [];
    if (v.enabled === true) keep.enabled = true;
    else if (v.enabled !== undefined) items.push(item(file, "checkpoints.enabled", "switch file checkpoints off (no /undo or /rewind of files)", v.enabled));
    // A bound too small to keep a turn's files is checkpoints switched off by other means.
    if (typeof v.maxBytes === "number" && v.maxBytes >= CHECKPOINTS_FLOOR) keep.maxBytes = v.maxBytes;
    else if (v.maxBytes !== undefined) items.push(item(file, "checkpoints.maxBytes", `bound file checkpoints to ${JSON.stringify(v.maxBytes)} bytes, below 1 MiB (which keeps almost nothing to /undo or /rewind)`, v.maxBytes));
    return { keep, items };
  },
  sandbox: (v, file) => {
    if (!isObject(v)) return { items: [] };
    const keep: { [k: string]: JsonValue } = {};
    const items: TrustItem[] = [];
    if (v.enabled === true) keep.enabled = true;
    else if (v.enabled !== undefined) items.push(item(file, "sandbox.enabled", "switch the Bash sandbox off", v.enabled));
    if (v.network === true) items.push(item(file, "sandbox.network", "let sandboxed commands use the network", true));
    else if (isObject(v.network) && Array.isArray(v.network.allowedDomains) && v.network.allowedDomains.length > 0) {
      // Hosts a sandboxed command may reach (mods/sandbox/hosts.ts): a loosening, like network.
      items.push(item(file, "sandbox.network.allowedDomains", `let sandboxed commands reach ${v.network.allowedDomains.map((d) => String(d)).join(", ")}`, v.network.allowedDomains));
    } else if (v.network !== undefined) keep.network = v.network;
    // What a sandboxed command is given beyond the defaults: a loosening.
    if (Array.isArray(v.env) && v.env.length > 0) items.push(item(file, "sandbox.env", `pass ${v.env.map((d) => String(d)).join(", ")} to sandboxed commands`, v.env));
    if (isObject(v.filesystem)) {
      for (const k of ["allowRead", "allowWrite"] as const) {
        const list = v.filesystem[k];
        if (Array.isArray(list) && list.length > 0) items.push(item(file, `sandbox.filesystem.${k}`, `let sandboxed commands ${k === "allowRead" ? "read" : "write"} ${list.map((d) => String(d)).join(", ")}`, list));
      }
    }
    // Any layer's `false` turns the auto-allow off (assemble.ts), so a project's `true` loosens nothing.
    if (typeof v.autoAllowBashIfSandboxed === "boolean") keep.autoAllowBashIfSandboxed = v.autoAllowBashIfSandboxed;
    return { keep, items };
  },
  budget: (v, file, _key, ref) => {
    if (!isObject(v)) return { items: [] };
    const keep: { [k: string]: JsonValue } = {};
    const items: TrustItem[] = [];
    for (const kind of ["daily", "monthly"] as const) {
      const cap = v[kind];
      if (typeof cap !== "number") continue;
      const theirs = ref.budget?.[kind];
      if (theirs === undefined || cap <= theirs) keep[kind] = cap;
      else items.push(item(file, `budget.${kind}`, `raise the ${kind} budget from ${theirs} to ${cap}`, cap));
    }
    if (v.allowRaise === false) keep.allowRaise = false;
    else if (v.allowRaise !== undefined) items.push(item(file, "budget.allowRaise", "let a spent budget be raised", v.allowRaise));
    return { keep, items };
  },
  hooks: (v, file) => {
    const items: TrustItem[] = [];
    if (!isObject(v)) return { items };
    for (const [event, groups] of Object.entries(v)) {
      for (const g of Array.isArray(groups) ? groups : []) {
        const matcher = isObject(g) && typeof g.matcher === "string" && g.matcher ? ` (${g.matcher})` : "";
        const hooks = isObject(g) && Array.isArray(g.hooks) ? g.hooks : [];
        for (const h of hooks) items.push(item(file, `hooks.${event}`, `run ${event}${matcher} hook: ${isObject(h) && typeof h.command === "string" ? h.command : short(h)}`, h));
      }
    }
    return { items };
  },
  plugins: (v, file) => ({ items: (Array.isArray(v) ? v : [v]).map((p) => item(file, "plugins", `load plugin ${isObject(p) && typeof p.path === "string" ? p.path : short(p)}`, p)) }),
  mcpServers: (v, file) => ({ items: isObject(v) ? Object.entries(v).map(([name, cfg]) => item(file, `mcpServers.${name}`, `start MCP server ${name}`, cfg)) : [] }),
  disabledMcpjsonServers: (v) => ({ keep: v, items: [] }),
  // "ask" keeps every form for a person; "defaults" answers forms in -p on the person's behalf.
  mcpElicitation: (v, file) => (v === "ask" ? { keep: v, items: [] } : { items: [item(file, "mcpElicitation", `answer MCP servers' forms with their defaults where nobody can answer (${short(v)})`, v)] }),
  // Server lists only narrow what may start: an untrusted project may set them.
  deniedMcpServers: (v) => ({ keep: v, items: [] }),
  allowedMcpServers: (v) => ({ keep: v, items: [] }),
  // Never honoured from a project layer, trusted or not (src/cli/telemetry.ts reads the user
  // layer only): nothing to trust, and kept so the warning that it is ignored can name the file.
  telemetry: (v) => ({ keep: v, items: [] }),
  // A project enabling a plugin loosens (the plugin's hooks, servers and commands would run);
  // disabling one only tightens.
  enabledPlugins: (v, file) => {
    if (!isObject(v)) return { items: [] };
    const keep: { [k: string]: JsonValue } = {};
    const items: TrustItem[] = [];
    for (const [id, on] of Object.entries(v)) {
      if (on === true) items.push(item(file, `enabledPlugins.${id}`, `enable plugin ${id} (its hooks, MCP servers and commands run)`, on));
      else keep[id] = on;
    }
    return { keep, items };
  },
  extraKnownMarketplaces: (v, file) => ({ items: isObject(v) ? Object.entries(v).map(([name, m]) => item(file, `extraKnownMarketplaces.${name}`, `declare plugin marketplace ${name} (${short(isObject(m) ? (m.source ?? m) : m)})`, m)) : [] }),
  trustedProjects: (v, file) => ({ items: [item(file, "trustedProjects", "trust projects (only your own settings can)", v)] }),
  // A bound on tool results may be lowered untrusted; raised, every result costs more.
  toolResultMaxBytes: (v, file) => (typeof v === "number" && v <= DEFAULT_RESULT_MAX_BYTES ? { keep: v, items: [] } : { items: [item(file, "toolResultMaxBytes", `raise the bound on each tool result to ${short(v)} bytes (results cost more)`, v)] }),
  // "off" and "ask" spend nothing without the person's yes; "on" adds planning turns unasked.
  autoPlan: (v, file) => (v === "on" ? { items: [item(file, "autoPlan", "plan before large tasks without asking (planning turns cost more)", v)] } : { keep: v, items: [] }),
  ...Object.fromEntries(Object.entries(MODEL_KEYS).map(([key, words]): [string, Split] => [key, (v, file) => ({ items: [item(file, key, `${words} ${short(v)} (it may cost more)`, v)] })])),
};

/** Split one project-owned settings file into what applies untrusted and what needs trust. */
export function classifySettings(settings: Settings, file: string, ref: TrustedView): Classified {
  const kept: Settings = {};
  const items: TrustItem[] = [];
  for (const [key, value] of Object.entries(settings)) {
    if (SAFE.has(key)) {
      kept[key] = value;
      continue;
    }
    const rule = RULES[key];
    const r = rule ? rule(value, file, key, ref) : { items: [item(file, key, describeKey(key, value), value)] };
    if (r.keep !== undefined && !(isObject(r.keep) && Object.keys(r.keep).length === 0)) kept[key] = r.keep;
    items.push(...r.items);
  }
  return { kept, items };
}

function describeKey(key: string, value: JsonValue): string {
  const words: Record<string, string> = {
    env: "set environment variables",
    statusLine: "run a status-line command",
    providers: "change where API requests go",
    pricing: "change the price table budgets are counted with",
    tiers: "remap what the tiers run",
    pluginConfig: "configure plugins",
    enableAllProjectMcpServers: "start every server in .mcp.json",
    enabledMcpjsonServers: "start servers from .mcp.json",
  };
  return `${words[key] ?? `set ${key}`} (${short(value)})`;
}

function item(file: string, key: string, what: string, value: JsonValue): TrustItem {
  return { file, key, what, value };
}

function short(v: JsonValue): string {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
