// Assembly: the one place deepcode is put together. Settings are read (five layers), the chain
// gets its core answers (side effects, the provider), and then one table of steps runs in
// order: assembly's own named steps (the repairs, the permission gate, the cost engine…) and
// every mod and plugin, each where its declared placement puts it (contract Placement). A mod
// configures itself from what every plugin gets (api.settings, api.host); a third-party
// plugin's tier is the one this file gives it — never the plugin's. Everything the CLI runs
// (REPL, -p, subcommands) starts here.

import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HostFacts, JsonValue, MentionCompleter, Placement, StatusOf, SubcommandSpec, Tier } from "../contract/index.js";
import { ConfigError, KNOWN_STATUS_IDS, ProviderError } from "../contract/index.js";
import { Chain } from "../core/chain.js";
import { registerEffects } from "../core/effects.js";
import { registerRepairs } from "../core/repair/index.js";
import { ToolRegistry } from "../core/engine/tools.js";
import type { CommandRegistry } from "../core/commands.js";
import type { Engine, EngineOptions } from "../core/engine/engine.js";
import { SessionStore } from "../core/session/store.js";
import { importPlugin, registerPlugin, type PluginHost, type PluginLoad } from "../core/plugins.js";
import { placeInOrder } from "../core/placement.js";
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
import { toolEffects } from "../lib/effects/tool-effects.js";
import type { AssembleOptions } from "./assemble-options.js";
import { settingsView } from "./settings/view.js";
import { readCostSettings } from "./cost/settings.js";
import { profileOf } from "./cost/tiers.js";
import { TIER_NAMES } from "../core/cost/index.js";
import { isOwnSubcommand } from "./options.js";
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
  /** A plugin's own report of its state (api.status), typed for deepcode's mods (KnownStatus). */
  pluginStatus<K extends string>(id: K): StatusOf<K> | undefined;
  /** `deepcode <name>` subcommands plugins contributed (api.subcommand). */
  subcommands: ReadonlyMap<string, { spec: SubcommandSpec; source: string }>;
  /** Where the REPL answers PluginApi.wake while it waits at its prompt. */
  setWaker(waker: ((sessionId: string, text: string) => boolean) | undefined): void;
  store: SessionStore;
  plugins: PluginLoad[];
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

  const chain = new Chain();
  chain.onReport((r) => warn(`${r.owner} on ${r.event}: ${r.message}`));
  // Every variable that can hold a key deepcode uses stays out of child processes.
  registerEffects(chain, { scrubEnv: ["DEEPSEEK_API_KEY", ...ENDPOINTS.map((e) => e.keyEnv)], writeJournal: join(home, "writes"), fetch: { privateHostAllowed: (host) => allowRuleNamesHost(permissions.rules, host) } });
  const registry = new ToolRegistry();
  for (const t of builtinTools()) registry.add(t, "builtin");

  const services = pluginServices(env, isOwnSubcommand);
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
    subcommands: services.subcommands,
    setWaker: services.setWaker,
    store: new SessionStore(home, o.root),
    plugins: [],
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
  const spawner = new Spawner(app, limits);
  // MCP servers (every source, trust, the managed lists: src/cli/mcp/config.ts) through the mcp
  // mod; it starts them in the background and never holds up what comes next. Computed when the
  // mcp mod asks (it registers after the marketplace mod, whose status names plugins' servers).
  let mcp: ReturnType<typeof mcpModConfig> | undefined;
  const mcpConfig = () => (mcp ??= mcpFor());
  const mcpFor = (): ReturnType<typeof mcpModConfig> => {
    const made = mcpModConfig({
    root: o.root,
    home,
    env,
    settings,
    trusted: trust.trusted,
    mcpConfig: o.mcpConfig,
    strict: o.strictMcpConfig,
    pluginServers: (services.pluginStatus("marketplace")?.plugins ?? []).flatMap((p) => p.servers.map((s) => ({ name: s.name, file: s.file, raw: s.config }))),
    secretEnv: ["DEEPSEEK_API_KEY", ...ENDPOINTS.map((e) => e.keyEnv)],
    additionalDirectories: permissions.additionalDirectories,
    logDir: app.store.dir,
    version: packageVersion(),
    });
    made.problems.forEach(warn);
    return made;
  };

  const host: PluginHost = {
    chain,
    root: o.root,
    home,
    trusted: trust.trusted,
    addTool: (spec, source) => registry.add(spec, source),
    removeTool: (name) => registry.remove(name),
    ...services.host,
    allow: (rules, sessionId) => sessionRules.temporary(rules, sessionId),
    // PluginApi.permissionMode: plan mode as the plan mod reports it, else the run's flag.
    shellCwd: (sessionId) => app.engineOf(sessionId)?.cwd,
    permissionMode: () => (services.pluginStatus("plan")?.planning === true ? "plan" : o.acceptEdits ? "acceptEdits" : "default"),
    contributions: [],
    log: (level, source, message) => (level === "info" ? undefined : warn(`${source}: ${message}`)),
    // The mcp mod still gets its servers computed here (src/cli/mcp/config.ts).
    config: (id) => (id === "mcp" ? mcpConfig().config : pluginConfig(settings, id)),
    settings: settingsView(settings),
    facts: hostFacts(o, app, permissions),
    // PluginApi.readOwnFile: the Read tool's secret check, for files mods read on their own.
    secret: ownFileSecret(() => ({ root: o.root, home: homedir(), deepcodeHome: home })),
  };

  // Assembly's own steps, by name: mods and plugins place themselves before or after them.
  const own: Step[] = [
    // First among builtin-tier hooks: the call-storm breaker must see a call before the
    // gate's own builtin-tier hook answers it.
    step("repairs", () => registerRepairs(chain, { tools: () => registry.list().map((t) => t.spec) })),
    step("permission-gate", () => gate(app, o.root, home, permissions, sessionRules)),
    // Its prepend hooks (budget gate, usage ledger) outer to every plugin's.
    step("cost", () => void (app.cost = installCost(app, { interactive: o.interactive ?? false }))),
    step("non-interactive", () => (o.interactive ? undefined : nonInteractive(chain))),
    step("host-cores", () => hostCores(app, spawner, o.root, env, home, warn)),
  ];
  const loads = [
    ...(await modSteps(host, BUILTIN_MODS.map((m) => ({ specifier: modPath(m), base: "/", tier: undefined, source: `mods/${m}` })))),
    ...(await modSteps(host, pluginList(settings).map((p) => ({ ...p, source: p.specifier })))),
  ];
  for (const s of placeInOrder([...own, ...loads.map((l) => l.step)])) await s.run();
  // Native modules Claude-Code-format plugins ship (`deepcode` in plugin.json), as the
  // marketplace mod reports them (a status only deepcode's own mods can give): loaded after
  // every other step, in the tier this file gives — user, or prepend for a managed plugin.
  const natives = (services.pluginStatus("marketplace")?.plugins ?? []).filter((p) => p.native !== null);
  const nativeLoads = await modSteps(host, natives.map((p) => ({ specifier: p.native!, base: "/", tier: p.managed ? ("prepend" as const) : ("user" as const), source: `${p.id} (${p.native!})` })));
  for (const s of placeInOrder(nativeLoads.map((l) => l.step))) await s.run();
  loads.push(...nativeLoads);
  for (const l of loads) if (l.load) app.plugins.push(l.load);
  for (const p of app.plugins) if (!p.ok) warn(`plugin ${p.id ?? p.source} did not load (${p.error}); the rest keeps working`);
  const fatal = loads.find((l) => l.fatal)?.fatal;
  if (fatal) throw fatal;
  return app;
}

/** Built-in mods, loaded through the same interface as third-party plugins, in this order
 *  unless one's placement says otherwise (telemetry first, the sandbox last, plan and the
 *  managed hooks in prepend, the settings hooks in user: each says so in its own file). */
export const BUILTIN_MODS = ["telemetry", "marketplace", "plan", "instructions", "memory", "skills", "agents", "todo", "webfetch", "notebook", "checkpoints", "jobs", "hookify", "hooks/managed", "hooks", "mcp", "sandbox"];

interface Step {
  name: string;
  before?: readonly string[];
  after?: readonly string[];
  run(): void | Promise<void>;
}

function step(name: string, run: () => void | Promise<void>): Step {
  return { name, run };
}

/** One step per plugin module, named by its id and placed as it declares. `tier` undefined: a
 *  built-in mod, whose declared tier counts (builtin by default); otherwise the loader's tier. */
async function modSteps(host: PluginHost, list: Array<{ specifier: string; base: string; tier: Tier | undefined; source: string }>): Promise<Array<{ step: Step; load?: PluginLoad; fatal?: Error }>> {
  const out: Array<{ step: Step; load?: PluginLoad; fatal?: Error }> = [];
  for (const item of list) {
    const imported = await importPlugin(item.specifier, item.base);
    const placement: Placement = imported.ok && isObject<unknown>(imported.plugin) && isObject<unknown>(imported.plugin.placement) ? (imported.plugin.placement as Placement) : {};
    const id = imported.ok && isObject<unknown>(imported.plugin) && typeof imported.plugin.id === "string" ? imported.plugin.id : item.source;
    const tier: Tier = item.tier ?? placement.tier ?? "builtin";
    const entry: { step: Step; load?: PluginLoad; fatal?: Error } = {
      step: {
        name: id,
        before: placement.before,
        after: placement.after,
        run: async () => {
          if (!imported.ok) {
            entry.load = { source: item.source, tier, ok: false, error: imported.error };
            return;
          }
          // A third-party plugin cannot report under a built-in mod's status id.
          const own = item.tier === undefined ? host : { ...host, setStatus: (source: string, report: () => unknown, owner: object) => {
            if ((KNOWN_STATUS_IDS as readonly string[]).includes(source)) throw new Error(`'${source}' is the status of deepcode's own mod; a plugin cannot report under it`);
            host.setStatus?.(source, report, owner);
          } };
          entry.load = await registerPlugin(own, imported.plugin, tier, item.source);
          // A built-in mod's own settings that cannot be read stop deepcode, naming the file
          // (misconfiguration fails loud); a plugin that fails is said, and the rest works.
          if (item.tier === undefined && entry.load.thrown instanceof ConfigError) entry.fatal = entry.load.thrown;
        },
      },
    };
    out.push(entry);
  }
  return out;
}

/** The facts every plugin reads (PluginApi.host). */
function hostFacts(o: AssembleOptions, app: App, permissions: PermissionSetup): HostFacts {
  const tiers = readCostSettings(app.settings).tiers;
  return Object.freeze({
    version: packageVersion(),
    interactive: o.interactive ?? false,
    sessionsDir: app.store.dir,
    env: Object.freeze({ ...app.env }),
    secretEnv: Object.freeze(["DEEPSEEK_API_KEY", ...ENDPOINTS.map((e) => e.keyEnv)]),
    additionalDirectories: Object.freeze([...permissions.additionalDirectories]),
    flags: Object.freeze({ planMode: o.planMode === true, mcpConfig: Object.freeze([...(o.mcpConfig ?? [])]), strictMcpConfig: o.strictMcpConfig === true }),
    models: KNOWN_MODELS,
    model: app.model,
    tiers: Object.freeze(Object.fromEntries(TIER_NAMES.map((t) => [t, Object.freeze(profileOf(t, tiers))]))),
  });
}

/** The permission gate. `sandbox.autoAllowBashIfSandboxed` is on unless some layer (the managed
 *  policy, the person's settings, a flag file) says false — nobody can turn it back on over
 *  another layer's no. */
function gate(app: App, root: string, home: string, permissions: PermissionSetup, sessionRules: SessionRules): void {
  const autoAllow = !app.settings.layers.some((l) => isObject(l.settings.sandbox) && l.settings.sandbox.autoAllowBashIfSandboxed === false);
  registerPermissionGate(app.chain, {
    rules: (sessionId) => [...permissions.rules, ...sessionRules.rules(sessionId)],
    env: (sessionId) => {
      const engine = sessionId ? app.engineOf(sessionId) : app.engine;
      return { root, home: homedir(), deepcodeHome: home, cwd: engine?.cwd ?? root, additionalDirectories: permissions.additionalDirectories, sessionOutputs: engine?.outputsDir, sandboxed: autoAllow && sandboxContains(app), historySecret: historyHoldsSecret };
    },
    managedBroken: permissions.managedBroken,
  });
}

/** Nobody can answer a permission prompt (-p, subcommands): an ask is a deny, and the model is
 *  told why — and why it asked (a redirection, an option, a secret…), so it can take another
 *  approach. Outermost, so no hook is asked to speak for a person who is not there. Nor any
 *  other question (start a project's MCP server, a server's form, sampling). */
function nonInteractive(chain: Chain): void {
  chain.on("prepend", "non-interactive", "permission.ask", null, (e) => ({ decision: "deny", reason: nonInteractiveReason(e.tool, e.remember, e.reason), by: "non-interactive" }));
  chain.on("prepend", "non-interactive", "person.ask", null, (e) => ({ decision: "deny", reason: `deepcode runs non-interactively, so nobody can answer: ${e.title}`, by: "non-interactive" }));
}

/** The host's core answers: subagents (one depth limit for every spawner, spawn.ts), the files
 *  a call would write (src/lib/effects: checkpoints, plan mode; a shell command starts in the Bash folder of the
 *  session that makes it), text for the person from a mod (stderr here; the REPL prints it in
 *  place), and the model. */
function hostCores(app: App, spawner: Spawner, root: string, env: NodeJS.ProcessEnv, home: string, warn: (m: string) => void): void {
  const { chain, registry, settings } = app;
  chain.setCore("agent.spawn", (e) => spawner.spawn(e));
  chain.setCore("tool.effects", (e) => toolEffects(e.tool, e.input, { root, cwd: e.cwd ?? app.engineOf(e.sessionId)?.cwd ?? root, home: homedir(), spec: registry.get(e.tool)?.spec }));
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
}

/** Why an ask became a deny in -p, and the rule that would allow it (what `a` would remember). */
export function nonInteractiveReason(tool: string, rule: string, why?: string): string {
  const quoted = rule.includes("'") ? JSON.stringify(rule) : `'${rule}'`;
  const because = why ? ` It asks because ${why}.` : "";
  return `deepcode runs non-interactively (-p), so nobody can approve ${tool}; to allow it, pass --allowedTools ${quoted} or add "${rule}" to permissions.allow in .deepcode/settings.json.${because}`;
}

/** `name` is mods/<name>/index.js; `name/file` is mods/<name>/<file>.js. */
function modPath(mod: string): string {
  return fileURLToPath(new URL(`../../mods/${mod.includes("/") ? mod : `${mod}/index`}.js`, import.meta.url));
}

/** The sandbox mod reports (api.status) that it wraps every process and cuts the network off:
 *  only then does it contain a command (src/cli/permissions/contained.ts). */
function sandboxContains(app: App): boolean {
  const s = app.pluginStatus("sandbox");
  return s !== undefined && s.active === true && s.network === false;
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
