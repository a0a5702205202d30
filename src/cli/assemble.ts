// Assembly: the one place deepcode is put together. Settings are read (five layers), the chain
// gets its core answers (side effects, the provider), and then one table of steps runs in
// order: assembly's own named steps (the repairs, the permission gate, the cost engine…) and
// every mod and plugin, each where its declared placement puts it (contract Placement). A mod
// configures itself from what every plugin gets (api.settings, api.host); a third-party
// plugin's tier is the one this file gives it — never the plugin's. Everything the CLI runs
// (REPL, -p, subcommands) starts here.

import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MentionCompleter, Placement, StatusOf, SubcommandSpec, Tier } from "../contract/index.js";
import { ConfigError, KNOWN_STATUS_IDS } from "../contract/index.js";
import { Chain } from "../core/chain.js";
import { registerEffects } from "../core/effects.js";
import { registerRepairs } from "../core/repair/index.js";
import { ToolRegistry } from "../core/engine/tools.js";
import type { CommandRegistry } from "../core/commands.js";
import type { Engine, EngineOptions } from "../core/engine/engine.js";
import { SessionStore } from "../core/session/store.js";
import { importPlugin, registerPlugin, type PluginHost, type PluginLoad } from "../core/plugins.js";
import { pluginPolicy, type PluginItem } from "./plugin-policy.js";
import { placeInOrder } from "../core/placement.js";
import { ownFileSecret } from "./permissions/own-files.js";
import { builtinTools } from "../builtins/index.js";
import { capsFor, ENDPOINTS } from "../providers/index.js";
import { loadSettings, defaultManagedPath, settingFile } from "./settings/load.js";
import type { LoadedSettings } from "./settings/types.js";
import { CallCover, permissionSetup, privateFetchAllowed, readDenial, SessionRules, type PermissionSetup } from "./permissions/index.js";
import { resolveApiKey, type ApiKey } from "./credentials.js";
import { keyEnvWarning } from "./key-env.js";
import { packageVersion } from "./version.js";
import { deepcodeHome } from "./home.js";

export { deepcodeHome };
import { loadPriceTable, type PriceTable } from "../core/cost/index.js";
import { installCost, type CostControl } from "../core/cost/run/index.js";
import { applyTrust, resolveTrust, untrustedWarning, type TrustState } from "./trust/index.js";
import { adviceFile } from "./denial-advice.js";
import { pluginServices } from "./plugin-services.js";
import { pluginSessions, type SessionCommandLines } from "./plugin-sessions.js";
import { Spawner, spawnLimits } from "./spawn.js";
import type { AssembleOptions } from "./assemble-options.js";
import { settingsView } from "./settings/view.js";
import { isOwnSubcommand, subcommand } from "./options.js";
import { availableModels, compactionSetting, gate, hostCores, hostFacts, nonInteractive, numberSetting, pluginConfig, pluginList, resultBound, stringSetting } from "./assemble-steps.js";
import { isObject, stringRecord } from "../lib/json.js";

export const DEFAULT_MODEL = "deepseek-flash";
export { DEFAULT_BASE_URL, nonInteractiveReason } from "./assemble-steps.js";

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
  /** Slash commands in sessions plugins drive (session-commands.ts, set by runPluginSubcommand). */
  commandLines?: SessionCommandLines;
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
  /** The engines of the sessions plugins drive (PluginApi.sessions: an editor's threads), by id. */
  driven: Map<string, Engine>;
  /** The engine of a running session: the current one, a driven one, or a subagent's (agent.spawn). */
  engineOf(sessionId: string): Engine | undefined;
  /** The cost engine (ledger, tiers, budgets, estimates); installed before any plugin. */
  cost?: CostControl;
  /** Prices: the packaged table plus settings `pricing`, loaded once for the engine and the cost engine. */
  prices: PriceTable;
  /** The capability table (the engine's and the cost engine's). */
  caps: typeof capsFor;
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
  const services = pluginServices(env, isOwnSubcommand);
  const sessionRules = new SessionRules();
  // What each call's question named and whether a person said yes: the gate records it, the
  // fetch policy reads it (with every allow rule, the session's included, and the sandbox's
  // forwarded ports) — one route from an answer to whether a private address may be reached.
  const cover = new CallCover();
  const fetchPolicy = { rules: () => [...permissions.rules, ...sessionRules.rules()], cover, servedPorts: () => services.pluginStatus("sandbox")?.served };
  registerEffects(chain, { scrubEnv: ["DEEPSEEK_API_KEY", ...ENDPOINTS.map((e) => e.keyEnv)], writeJournal: join(home, "writes"), env: stringRecord(settings.merged.env), fetch: { privateHostAllowed: (host, req) => privateFetchAllowed(fetchPolicy, host, req) } });
  const registry = new ToolRegistry();
  for (const t of builtinTools()) registry.add(t, "builtin");

  const prices = loadPriceTable(settings.merged.pricing, { file: settingFile(settings, "pricing") });
  // The managed policy's availableModels: a --model outside it fails loud; a default or a
  // settings model outside it gives way to the policy's first model.
  const policyModels = availableModels(settings);
  let model = o.model ?? stringSetting(settings.merged.model) ?? DEFAULT_MODEL;
  if (policyModels && policyModels.models.length > 0 && !policyModels.models.includes(model)) {
    if (o.model !== undefined) throw new ConfigError(`--model ${o.model} is not a model the managed policy allows (availableModels: ${policyModels.models.join(", ")})`, policyModels.file);
    model = policyModels.models[0] as string;
  }
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
    caps: capsFor,
    driven: new Map(),
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

  const host: PluginHost = {
    chain,
    root: o.root,
    home,
    trusted: trust.trusted,
    addTool: (spec, source) => registry.add(spec, source),
    removeTool: (name) => registry.remove(name),
    ...services.host,
    allow: (rules, sessionId) => sessionRules.temporary(rules, sessionId),
    shellCwd: (sessionId) => app.engineOf(sessionId)?.cwd,
    // PluginApi.permissionMode: plan mode as the plan mod reports it, else the run's flag.
    permissionMode: () => (services.pluginStatus("plan")?.planning === true ? "plan" : o.acceptEdits ? "acceptEdits" : "default"),
    // Skill and agent folders plugins contribute (api.contribute), the marketplace's included.
    contributions: [],
    log: (level, source, message) => (level === "info" ? undefined : warn(`${source}: ${message}`)),
    config: (id) => pluginConfig(settings, id),
    settings: settingsView(settings),
    facts: hostFacts(o, app, permissions),
    sessions: pluginSessions(app, warn),
    // PluginApi.readDenied: the settings' read denies, as the Read tool's gate matches them.
    readDenied: readDenial(permissions.rules, { root: o.root, home: homedir() }),
    // PluginApi.readOwnFile: the Read tool's secret check, for files mods read on their own.
    secret: ownFileSecret(() => ({ root: o.root, home: homedir(), deepcodeHome: home })),
  };

  // Assembly's own steps, by name: mods and plugins place themselves before or after them.
  const own: Step[] = [
    // First among builtin-tier hooks: the call-storm breaker must see a call before the
    // gate's own builtin-tier hook answers it.
    step("repairs", () => registerRepairs(chain, { tools: () => registry.list().map((t) => t.spec) })),
    step("permission-gate", () => gate(app, o.root, home, permissions, sessionRules, cover)),
    // Its prepend hooks (budget gate, usage ledger) outer to every plugin's.
    step("cost", () => void (app.cost = installCost(app, { interactive: o.interactive ?? false }))),
    step("non-interactive", () => (o.interactive ? undefined : nonInteractive(chain, adviceFile(trust.trusted, home)))),
    step("host-cores", () => hostCores(app, spawner, o.root, env, home, warn)),
  ];
  // The managed policy decides which plugins are imported at all (plugin-policy.ts).
  const policy = pluginPolicy(settings);
  let refusedFatal: Error | undefined;
  const allowedPlugins = (items: PluginItem[]): PluginItem[] => {
    const v = policy.check(items);
    for (const line of v.refused) warn(line);
    refusedFatal ??= v.fatal;
    return v.fatal ? [] : v.load;
  };
  const loads = [
    ...(await modSteps(host, BUILTIN_MODS.map((m) => ({ specifier: modPath(m), base: "/", tier: undefined, source: `mods/${m}` })))),
    ...(await modSteps(host, allowedPlugins(pluginList(settings)))),
  ];
  for (const s of placeInOrder([...own, ...loads.map((l) => l.step)])) await s.run();
  // Native modules Claude-Code-format plugins ship (`deepcode` in plugin.json), as the
  // marketplace mod reports them (a status only deepcode's own mods can give): loaded after
  // every other step, in the tier this file gives — user, or prepend for a managed plugin.
  const natives = (services.pluginStatus("marketplace")?.plugins ?? []).filter((p) => p.native !== null);
  const nativeItems = natives.map((p) => {
    const tier = p.managed ? ("prepend" as const) : ("user" as const);
    return { specifier: p.native!, base: "/", tier, source: `${p.id} (${p.native!})`, managed: p.managed };
  });
  const nativeLoads = await modSteps(host, allowedPlugins(nativeItems));
  for (const s of placeInOrder(nativeLoads.map((l) => l.step))) await s.run();
  loads.push(...nativeLoads);
  // The front end's own hooks, last: the innermost of their tiers (FrontEnd).
  o.frontEnd?.register?.(app);
  for (const l of loads) if (l.load) app.plugins.push(l.load);
  for (const p of app.plugins) if (!p.ok) warn(`plugin ${p.id ?? p.source} did not load (${p.error}); the rest keeps working`);
  const fatal = refusedFatal ?? loads.find((l) => l.fatal)?.fatal;
  if (fatal) throw fatal;
  return app;
}

/** Built-in mods, loaded through the same interface as third-party plugins, in this order
 *  unless one's placement says otherwise (telemetry first, the sandbox last, plan and the
 *  managed hooks in prepend, the settings hooks in user: each says so in its own file). */
export const BUILTIN_MODS = ["telemetry", "otel", "marketplace", "plan", "instructions", "memory", "skills", "agents", "output-styles", "todo", "webfetch", "notebook", "checkpoints", "jobs", "hookify", "hooks/managed", "hooks", "mcp", "mentions", "sandbox", "acp", "acp/editor-io"];

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
type ModItem = Omit<PluginItem, "managed"> & { managed?: boolean };

async function modSteps(host: PluginHost, list: ModItem[]): Promise<Array<{ step: Step; load?: PluginLoad; fatal?: Error }>> {
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
            if (item.managed) entry.fatal = managedFailed(item, imported.error);
            return;
          }
          // A third-party plugin cannot report under a built-in mod's status id.
          const own = item.tier === undefined ? host : { ...host, setStatus: (source: string, report: () => unknown, owner: object) => {
            if ((KNOWN_STATUS_IDS as readonly string[]).includes(source)) throw new Error(`'${source}' is the status of deepcode's own mod; a plugin cannot report under it`);
            host.setStatus?.(source, report, owner);
          }, addSubcommand: (spec: SubcommandSpec, source: string) => {
            // `deepcode mcp` and the like (rows with `mod: true`) are deepcode's own mods' alone.
            if (subcommand(spec.name)?.mod) throw new Error(`'deepcode ${spec.name}' is one of deepcode's own subcommands`);
            return host.addSubcommand!(spec, source);
          } };
          entry.load = await registerPlugin(own, imported.plugin, tier, item.source);
          // A built-in mod's own settings that cannot be read stop deepcode, naming the file
          // (misconfiguration fails loud); a plugin that fails is said, and the rest works.
          if (item.tier === undefined && entry.load.thrown instanceof ConfigError) entry.fatal = entry.load.thrown;
          // The managed policy's plugin fails closed: deepcode does not run without it.
          else if (item.managed && !entry.load.ok) entry.fatal = managedFailed(item, entry.load.error ?? "it failed to register");
        },
      },
    };
    out.push(entry);
  }
  return out;
}

function managedFailed(item: { source: string; policyFile?: string }, why: string): ConfigError {
  const what = `the managed policy's plugin ${item.source} did not load (${why})`;
  return new ConfigError(`${what}: deepcode does not start without it (an administrator must fix the policy or the plugin)`, item.policyFile);
}

/** `name` is mods/<name>/index.js; `name/file` is mods/<name>/<file>.js. */
function modPath(mod: string): string {
  return fileURLToPath(new URL(`../../mods/${mod.includes("/") ? mod : `${mod}/index`}.js`, import.meta.url));
}
