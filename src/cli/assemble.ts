// Assembly: the one place deepcode is put together. Settings are read (five layers), the chain
// gets its core answers (side effects, the provider), the permission gate and the repairs are
// hooked on, built-in mods load in the builtin tier and plugins in the tier this file chooses —
// never the plugin. Everything the CLI runs (REPL, -p, subcommands) starts here.

import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { JsonValue, MentionCompleter, Tier } from "../contract/index.js";
import { ProviderError } from "../contract/index.js";
import { Chain } from "../core/chain.js";
import { registerEffects } from "../core/effects.js";
import { registerRepairs } from "../core/repair/index.js";
import { ToolRegistry } from "../core/engine/tools.js";
import type { CommandRegistry } from "../core/commands.js";
import type { Engine, EngineOptions } from "../core/engine/engine.js";
import { SessionStore } from "../core/session/store.js";
import { loadPlugin, type PluginHost, type PluginLoad } from "../core/plugins.js";
import { ownFileSecret } from "./permissions/own-files.js";
import { builtinTools } from "../builtins/index.js";
import { capsFor, createProvider, ENDPOINTS, KNOWN_MODELS, type Provider } from "../providers/index.js";
import { loadSettings, defaultManagedPath, settingFile } from "./settings/load.js";
import type { LoadedSettings } from "./settings/types.js";
import { allowRuleNamesHost, historyHoldsSecret, permissionSetup, registerPermissionGate, SessionRules, type PermissionSetup } from "./permissions/index.js";
import { noKeyHelp, resolveApiKey, type ApiKey } from "./credentials.js";
import { keyEnvWarning } from "./key-env.js";
import { packageVersion } from "./version.js";
import { deepcodeHome } from "./home.js";

export { deepcodeHome };
import { loadPriceTable, type PriceTable } from "../core/cost/index.js";
import { installCost, type CostControl } from "./cost/index.js";
import { applyTrust, resolveTrust, untrustedWarning, type TrustState } from "./trust/index.js";
import { mcpModConfig } from "./mcp/config.js";
import { pluginServices } from "./plugin-services.js";
import { Spawner, spawnLimits } from "./spawn.js";
import { toolEffects } from "./effects/tool-effects.js";
import { checkpointsModConfig, planModConfig, plannerSetting } from "./plan/config.js";
import { pluginParts, type PluginParts } from "./plugins/load.js";
import { pluginHookLayers, pluginMcpServers, pluginModules, pluginSlashCommand } from "./plugins/assembly.js";
import { telemetryFile, telemetrySetting } from "./telemetry.js";
import type { AssembleOptions } from "./assemble-options.js";
import { isObject } from "../lib/json.js";

export const DEFAULT_MODEL = "deepseek-flash";
export const DEFAULT_BASE_URL = "https://api.deepseek.com";

export type { AssembleOptions } from "./assemble-options.js";

export interface App {
  chain: Chain;
  root: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** The settings in force (an untrusted project's loosening parts left out). */
  settings: LoadedSettings;
  /** Whether the person trusted this project, and what that covers. */
  trust: TrustState;
  permissions: PermissionSetup;
  sessionRules: SessionRules;
  registry: ToolRegistry;
  /** Slash commands plugins contributed (api.command); the REPL lists and runs them. */
  commands: CommandRegistry;
  /** `@` completers plugins contributed (api.mentions). */
  mentionCompleters: Array<{ source: string; complete: MentionCompleter }>;
  /** A plugin's own report of its state (api.status), e.g. `pluginStatus("mcp")`. */
  pluginStatus(id: string): JsonValue | undefined;
  store: SessionStore;
  plugins: PluginLoad[];
  /** The enabled, verified Claude Code plugins and their parts (src/cli/plugins/load.ts). */
  pluginParts: PluginParts;
  apiKey?: ApiKey;
  model: string;
  /** The engine of the current session, once there is one (the gate reads Bash's cwd from it). */
  engine?: Engine;
  /** The engine of a running session: the current one, or a subagent's (agent.spawn). */
  engineOf(sessionId: string): Engine | undefined;
  /** The cost engine (ledger, tiers, budgets, estimates); installed before any plugin. */
  cost?: CostControl;
  /** Prices: the packaged table plus settings `pricing`, loaded once for the engine and the cost engine. */
  prices: PriceTable;
  engineOptions(): EngineOptions;
}

export async function assemble(o: AssembleOptions): Promise<App> {
  const env = o.env ?? process.env;
  const home = o.home ?? deepcodeHome(env);
  const warn = o.warn ?? ((m: string) => process.stderr.write(`deepcode: ${m}\n`));
  const read = loadSettings({ root: o.root, home, flagFile: o.flagSettings, flagRules: o.flagRules, managedPath: o.managedPath ?? defaultManagedPath() });
  read.warnings.forEach(warn);
  const trust = resolveTrust({ root: o.root, home, settings: read, flag: o.trustProject });
  if (trust.storeProblem) warn(`${join(home, "trust.json")}: ${trust.storeProblem}`);
  const untrusted = untrustedWarning(trust);
  if (untrusted) warn(untrusted);
  const settings = applyTrust(read, trust);
  const keyWarning = keyEnvWarning();
  if (keyWarning) warn(keyWarning);
  const permissions = permissionSetup(settings);
  permissions.warnings.forEach(warn);
  // Installed Claude Code plugins: enabled, allowed by the managed policy, and with their files
  // as installed — a refused one is said here, loudly, and the rest loads.
  const parts = pluginParts({ home, settings });
  parts.problems.forEach(warn);

  const chain = new Chain();
  chain.onReport((r) => warn(`${r.owner} on ${r.event}: ${r.message}`));
  // Every variable that can hold a key deepcode uses stays out of child processes.
  registerEffects(chain, { scrubEnv: ["DEEPSEEK_API_KEY", ...ENDPOINTS.map((e) => e.keyEnv)], writeJournal: join(home, "writes"), fetch: { privateHostAllowed: (host) => allowRuleNamesHost(permissions.rules, host) } });
  const registry = new ToolRegistry();
  for (const t of builtinTools()) registry.add(t, "builtin");

  const services = pluginServices(env);
  const sessionRules = new SessionRules();
  const prices = loadPriceTable(settings.merged.pricing, { file: settingFile(settings, "pricing") });
  const model = o.model ?? stringSetting(settings.merged.model) ?? DEFAULT_MODEL;
  const limits = spawnLimits(settings.merged.subagents, warn);
  const app: App = {
    chain,
    root: o.root,
    home,
    env,
    settings,
    trust,
    permissions,
    sessionRules,
    registry,
    commands: services.commands,
    mentionCompleters: services.mentionCompleters,
    pluginStatus: services.pluginStatus,
    store: new SessionStore(home, o.root),
    plugins: [],
    pluginParts: parts,
    apiKey: resolveApiKey(env, home),
    model,
    prices,
    engineOf: (id) => spawner.engineOf(id),
    engineOptions: () => ({
      chain,
      root: o.root,
      model: app.model,
      modelChosen: o.model !== undefined,
      caps: capsFor,
      registry,
      store: app.store,
      version: packageVersion(),
      maxSteps: o.maxTurns,
      // Several Task calls of one reply run together, up to subagents.maxParallel.
      concurrency: Math.max(3, limits.maxParallel),
      appendSystemPrompt: o.appendSystemPrompt,
      resultMaxBytes: resultBound(numberSetting(settings.merged.toolResultMaxBytes), warn),
      compaction: compactionSetting(settings.merged.compaction),
      prices,
    }),
  };

  // `/plugin` in the REPL (before any plugin could claim the name).
  services.commands.add(pluginSlashCommand({ chain, home, root: o.root, settings }), "plugins");
  // Telemetry (off unless the person's own settings turn it on) before the permission gate, so
  // its prepend-tier hooks are outermost and see every decision, a settings deny included.
  const telemetry = telemetrySetting(settings);
  telemetry.warnings.forEach(warn);
  if (telemetry.enabled) {
    const config = { enabled: true, file: telemetryFile(home), models: [...KNOWN_MODELS] };
    // An observer's host: it contributes nothing (no tools, commands or mentions), it only hooks.
    const observer: PluginHost = { chain, root: o.root, home, trusted: trust.trusted, addTool: () => { throw new Error("telemetry contributes no tools"); }, removeTool: () => undefined, log: (level, source, message) => (level === "info" ? undefined : warn(`${source}: ${message}`)), config: () => config };
    app.plugins.push(await loadPlugin(observer, modPath("telemetry"), "prepend", "/"));
  }

  // Repairs first among builtin-tier hooks: the call-storm breaker must see a call before the
  // gate's own builtin-tier hook answers it.
  registerRepairs(chain, { tools: () => registry.list().map((t) => t.spec) });
  // `sandbox.autoAllowBashIfSandboxed`: on unless some layer (the managed policy, the person's
  // settings, a flag file) says false — nobody can turn it back on over another layer's no.
  const autoAllow = !settings.layers.some((l) => isObject(l.settings.sandbox) && l.settings.sandbox.autoAllowBashIfSandboxed === false);
  registerPermissionGate(chain, {
    rules: (sessionId) => [...permissions.rules, ...sessionRules.rules(sessionId)],
    env: (sessionId) => {
      const engine = sessionId ? app.engineOf(sessionId) : app.engine;
      return { root: o.root, home: homedir(), deepcodeHome: home, cwd: engine?.cwd ?? o.root, additionalDirectories: permissions.additionalDirectories, sessionOutputs: engine?.outputsDir, sandboxed: autoAllow && sandboxContains(app), historySecret: historyHoldsSecret };
    },
    managedBroken: permissions.managedBroken,
  });

  // Before any plugin or mod loads (but telemetry, which only observes), so its prepend hooks
  // (budget gate, usage ledger) are outermost.
  app.cost = installCost(app, { interactive: o.interactive ?? false });
  if (!o.interactive) {
    // Nobody can answer a permission prompt (-p, subcommands): an ask is a deny, and the model
    // is told why — and why it asked (a redirection, an option, a secret…), so it can take
    // another approach. Outermost, so no hook is asked to speak for a person who is not there.
    chain.on("prepend", "non-interactive", "permission.ask", null, (e) => ({
      decision: "deny",
      reason: nonInteractiveReason(e.tool, e.remember, e.reason),
      by: "non-interactive",
    }));
    // Nor any other question (start a project's MCP server, a server's form, sampling).
    chain.on("prepend", "non-interactive", "person.ask", null, (e) => ({
      decision: "deny",
      reason: `deepcode runs non-interactively, so nobody can answer: ${e.title}`,
      by: "non-interactive",
    }));
  }

  // Subagents (agent.spawn): the host's answer, one depth limit for every spawner (spawn.ts).
  const spawner = new Spawner(app, limits);
  chain.setCore("agent.spawn", (e) => spawner.spawn(e));

  // The files a call would write, for checkpoints and plan mode (src/cli/effects/tool-effects.ts).
  // A shell command starts in the Bash folder of the session that makes the call (a subagent's own).
  chain.setCore("tool.effects", (e) => toolEffects(e.tool, e.input, { root: o.root, cwd: e.cwd ?? app.engineOf(e.sessionId)?.cwd ?? o.root, home: homedir(), spec: registry.get(e.tool)?.spec }));
  // Text for the person from a mod (checkpoints dropped by the store's bound…): stderr here;
  // the REPL prints it in place.
  chain.setCore("ui.render", (e) => {
    if (e.item.kind === "text") warn(e.item.text);
  });

  const provider = makeProvider(app, env, keepAliveLimit(numberSetting(settings.merged.apiIdleTimeoutMs), warn), {
    stallTimeoutMs: keepAliveLimit(numberSetting(settings.merged.apiStallTimeoutMs), warn, "apiStallTimeoutMs", 100),
    protocol: settings.merged.protocol === "anthropic" ? "anthropic" : "openai",
  });
  chain.setCore("model.request", (e) => {
    if (!provider) throw new ProviderError("auth", noKeyHelp(home));
    return provider.request(e.request, { signal: e.signal, onDelta: e.onDelta });
  });

  const host: PluginHost = {
    chain,
    root: o.root,
    home,
    trusted: trust.trusted,
    addTool: (spec, source) => registry.add(spec, source),
    removeTool: (name) => registry.remove(name),
    ...services.host,
    allow: (rules, sessionId) => sessionRules.temporary(rules, sessionId),
    // Enabled plugins' skill and agent folders, as if each plugin had contributed them
    // (api.contribute): the skills and agents mods name them `<plugin>:<name>`.
    contributions: [
      ...parts.skillDirs.map((d) => ({ kind: "skills" as const, dir: d.dir, source: d.name, pins: d.pins })),
      ...parts.agentDirs.map((d) => ({ kind: "agents" as const, dir: d.dir, source: d.name, pins: d.pins })),
    ],
    log: (level, source, message) => (level === "info" ? undefined : warn(`${source}: ${message}`)),
    config: (id) => pluginConfig(settings, id),
    // PluginApi.readOwnFile: the Read tool's secret check, for files mods read on their own.
    secret: ownFileSecret(() => ({ root: o.root, home: homedir(), deepcodeHome: home })),
  };
  // Plan mode in the prepend tier, right inside the permission gate: its deny while planning
  // is outer to every plugin and hook (none can allow a write then, and a downstream deny is
  // final at the gate), and its planner profile is applied inside the budget gate.
  const planner = plannerSetting(settings, app.cost.tiers);
  app.plugins.push(await loadPlugin({ ...host, config: () => planModConfig(planner, o.planMode === true) }, modPath("plan"), "prepend", "/"));
  for (const mod of BUILTIN_MODS) app.plugins.push(await loadPlugin(host, modPath(mod), "builtin", "/"));
  app.plugins.push(await loadPlugin({ ...host, config: () => checkpointsModConfig(settings, app.store.dir) }, modPath("checkpoints"), "builtin", "/"));
  // hookify rules: every rule file of the project and the person (they only tighten, so a
  // project's own apply untrusted too); the transcript folder for `transcript` conditions.
  app.plugins.push(await loadPlugin({ ...host, config: (id) => ({ ...pluginConfig(settings, id), sessionsDir: app.store.dir }) }, modPath("hookify"), "builtin", "/"));
  // Claude Code hooks from settings, through the hooks mod: the managed policy's in prepend,
  // every other layer's in user (none when the managed policy sets allowManagedHooksOnly).
  // Enabled plugins' hooks join as layers of their own: user tier, or prepend for a plugin the
  // managed policy enables.
  const hookLayers = [
    ...settings.layers.map((l) => ({ name: l.name, file: l.file, hooks: l.settings.hooks ?? null, allowManagedHooksOnly: l.settings.allowManagedHooksOnly === true })),
    ...pluginHookLayers(parts),
  ];
  for (const [scope, tier] of [["managed", "prepend"], ["settings", "user"]] as const) {
    app.plugins.push(await loadPlugin({ ...host, config: () => ({ scope, layers: hookLayers, sessionsDir: app.store.dir }) }, modPath("hooks"), tier, "/"));
  }
  // MCP servers (every source, trust, the managed lists: src/cli/mcp/config.ts) through the mcp
  // mod; it starts them in the background and never holds up what comes next.
  const mcp = mcpModConfig({
    root: o.root,
    home,
    env,
    settings,
    trusted: trust.trusted,
    mcpConfig: o.mcpConfig,
    strict: o.strictMcpConfig,
    pluginServers: pluginMcpServers(parts),
    secretEnv: ["DEEPSEEK_API_KEY", ...ENDPOINTS.map((e) => e.keyEnv)],
    additionalDirectories: permissions.additionalDirectories,
    logDir: app.store.dir,
    version: packageVersion(),
  });
  mcp.problems.forEach(warn);
  app.plugins.push(await loadPlugin({ ...host, config: () => mcp.config }, modPath("mcp"), "builtin", "/"));
  for (const p of pluginList(settings)) app.plugins.push(await loadPlugin(host, p.specifier, p.tier, p.base));
  // Native modules Claude-Code-format plugins ship (`deepcode` in plugin.json).
  for (const m of pluginModules(parts)) app.plugins.push({ ...(await loadPlugin(host, m.specifier, m.tier, "/")), source: `${m.id} (${m.specifier})` });
  // The Bash sandbox last of all (builtin tier): the innermost process.run hook, so whatever a
  // plugin rewrites upstream is wrapped, and nothing runs after it to unwrap it.
  app.plugins.push(await loadPlugin({ ...host, config: () => sandboxConfig(settings, permissions) }, modPath("sandbox"), "builtin", "/"));
  for (const p of app.plugins) if (!p.ok) warn(`plugin ${p.id ?? p.source} did not load (${p.error}); the rest keeps working`);
  return app;
}

/** Why an ask became a deny in -p, and the rule that would allow it (what `a` would remember). */
export function nonInteractiveReason(tool: string, rule: string, why?: string): string {
  const quoted = rule.includes("'") ? JSON.stringify(rule) : `'${rule}'`;
  const because = why ? ` It asks because ${why}.` : "";
  return `deepcode runs non-interactively (-p), so nobody can approve ${tool}; to allow it, pass --allowedTools ${quoted} or add "${rule}" to permissions.allow in .deepcode/settings.json.${because}`;
}

/** Built-in mods, loaded through the same interface as third-party plugins. (plan, checkpoints,
 *  hooks, hookify, mcp, telemetry and sandbox load separately: they need their tier or their
 *  part of settings.) */
export const BUILTIN_MODS = ["instructions", "memory", "skills", "agents", "todo", "webfetch", "notebook"];

function modPath(mod: string): string {
  return fileURLToPath(new URL(`../../mods/${mod}/index.js`, import.meta.url));
}

/** The sandbox mod reports (api.status) that it wraps every process and cuts the network off:
 *  only then does it contain a command (src/cli/permissions/contained.ts). */
function sandboxContains(app: App): boolean {
  const s = app.pluginStatus("sandbox");
  return isObject(s) && s.active === true && s.network === false;
}

/** The sandbox mod's configuration: settings `sandbox` and the extra writable folders. */
function sandboxConfig(settings: LoadedSettings, permissions: PermissionSetup): Record<string, JsonValue> {
  const s = isObject(settings.merged.sandbox) ? settings.merged.sandbox : {};
  const out: Record<string, JsonValue> = { additionalDirectories: permissions.additionalDirectories };
  if (typeof s.enabled === "boolean") out.enabled = s.enabled;
  if (s.network === true) out.network = true;
  return out;
}

/** `wire`: settings `apiStallTimeoutMs` and `protocol`. The Anthropic protocol goes to
 *  DeepSeek's /anthropic endpoint unless DEEPSEEK_BASE_URL names another. */
function makeProvider(app: App, env: NodeJS.ProcessEnv, keepAliveLimitMs: number | undefined, wire: { stallTimeoutMs?: number; protocol: "openai" | "anthropic" }): Provider | undefined {
  if (!app.apiKey) return undefined;
  const baseUrl = env.DEEPSEEK_BASE_URL || (wire.protocol === "anthropic" ? `${DEFAULT_BASE_URL}/anthropic` : DEFAULT_BASE_URL);
  return createProvider({ baseUrl, apiKey: app.apiKey.key, keySource: app.apiKey.source, env, keepAliveLimitMs, stallTimeoutMs: wire.stallTimeoutMs, protocol: wire.protocol });
}

/** Settings `apiIdleTimeoutMs` (or `name`), kept sane: under `min` ms every request would fail. */
function keepAliveLimit(v: number | undefined, warn: (m: string) => void, name = "apiIdleTimeoutMs", min = 1000): number | undefined {
  if (v === undefined) return undefined;
  if (v >= min) return Math.floor(v);
  warn(`${name} ${v} is too small; using ${min}`);
  return min;
}

/** Plugins listed in settings: user, project, local and flag layers → user tier; the managed
 *  policy's → prepend (or append when it says so). Paths are relative to their settings file. */
function pluginList(settings: LoadedSettings): Array<{ specifier: string; tier: Tier; base: string }> {
  const out: Array<{ specifier: string; tier: Tier; base: string }> = [];
  for (const layer of settings.layers) {
    const list = layer.settings.plugins;
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const managed = layer.name === "managed";
      if (typeof item === "string") out.push({ specifier: item, tier: managed ? "prepend" : "user", base: dirname(layer.file) });
      else if (managed && isObject(item) && typeof item.path === "string") {
        out.push({ specifier: item.path, tier: item.tier === "append" ? "append" : "prepend", base: dirname(layer.file) });
      }
    }
  }
  return out;
}

function pluginConfig(settings: LoadedSettings, id: string): Record<string, JsonValue> {
  const all = settings.merged.pluginConfig;
  const mine = isObject(all) ? all[id] : undefined;
  return isObject(mine) ? mine : {};
}

function compactionSetting(v: JsonValue | undefined): EngineOptions["compaction"] {
  if (!isObject(v)) return undefined;
  const n = (k: string): number | undefined => (typeof v[k] === "number" ? v[k] : undefined);
  return { threshold: n("threshold"), betweenTurns: n("betweenTurns"), window: n("window"), keepTurns: n("keepTurns") };
}

/** `toolResultMaxBytes`, kept sane: below 4 KiB a bounded result would be mostly marker. */
function resultBound(v: number | undefined, warn: (m: string) => void): number | undefined {
  if (v === undefined) return undefined;
  if (v >= 4096) return Math.floor(v);
  warn(`toolResultMaxBytes ${v} is too small; using 4096`);
  return 4096;
}

function stringSetting(v: JsonValue | undefined): string | undefined {
  return typeof v === "string" && v ? v : undefined;
}

function numberSetting(v: JsonValue | undefined): number | undefined {
  return typeof v === "number" ? v : undefined;
}
