// Assembly's helpers (assemble.ts is the table that uses them): the settings readers, the facts
// every plugin reads (PluginApi.host), and assembly's own named steps — the permission gate,
// non-interactive answers, the host's core answers (subagents, tool.effects, ui.render, the
// model). They take what they read of the app being assembled (StepApp, which assemble.ts's App
// satisfies), so this file does not import assemble.ts.

import { homedir } from "node:os";
import { dirname } from "node:path";
import type { HostFacts, JsonValue, StatusOf } from "../contract/index.js";
import { ProviderError } from "../contract/index.js";
import type { Chain } from "../core/chain.js";
import type { ToolRegistry } from "../core/engine/tools.js";
import type { Engine, EngineOptions } from "../core/engine/engine.js";
import type { SessionStore } from "../core/session/store.js";
import { billedModel } from "../core/billed-model.js";
import { TIER_NAMES } from "../core/cost/index.js";
import { toolEffects } from "../lib/effects/tool-effects.js";
import { isObject } from "../lib/json.js";
import { createProvider, ENDPOINTS, KNOWN_MODELS, type Provider } from "../providers/index.js";
import type { AssembleOptions } from "./assemble-options.js";
import { noKeyHelp, type ApiKey } from "./credentials.js";
import { readCostSettings } from "../core/cost/run/settings.js";
import { profileOf } from "../core/cost/run/tier-choice.js";
import type { PluginItem } from "./plugin-policy.js";
import { historyHoldsSecret, registerPermissionGate, type CallCover, type PermissionSetup, type SessionRules } from "./permissions/index.js";
import { sandboxHides } from "./permissions/containment/sandbox-view.js";
import type { LoadedSettings } from "./settings/types.js";
import type { Spawner } from "./spawn.js";
import { packageVersion } from "./version.js";
import { nonInteractiveReason } from "./denial-advice.js";

export { nonInteractiveReason };

export const DEFAULT_BASE_URL = "https://api.deepseek.com";

/** What the steps read of the app being assembled (a part of assemble.ts's App). */
export interface StepApp {
  chain: Chain;
  env: NodeJS.ProcessEnv;
  settings: LoadedSettings;
  registry: ToolRegistry;
  store: SessionStore;
  apiKey?: ApiKey;
  model: string;
  engine?: Engine;
  engineOf(sessionId: string): Engine | undefined;
  pluginStatus<K extends string>(id: K): StatusOf<K> | undefined;
}

/** The facts every plugin reads (PluginApi.host). */
export function hostFacts(o: AssembleOptions, app: StepApp, permissions: PermissionSetup): HostFacts {
  const tiers = readCostSettings(app.settings).tiers;
  return Object.freeze({
    version: packageVersion(),
    interactive: o.interactive ?? false,
    sessionsDir: app.store.dir,
    env: Object.freeze({ ...app.env }),
    secretEnv: Object.freeze(["DEEPSEEK_API_KEY", ...ENDPOINTS.map((e) => e.keyEnv)]),
    hasKey: app.apiKey !== undefined,
    additionalDirectories: Object.freeze([...permissions.additionalDirectories]),
    flags: Object.freeze({ planMode: o.planMode === true, mcpConfig: Object.freeze([...(o.mcpConfig ?? [])]), strictMcpConfig: o.strictMcpConfig === true }),
    models: KNOWN_MODELS,
    model: app.model,
    tiers: Object.freeze(Object.fromEntries(TIER_NAMES.map((t) => [t, Object.freeze(profileOf(t, tiers))]))),
  });
}

/** The permission gate. Whether the sandbox contains commands — active, without network, and
 *  `sandbox.autoAllowBashIfSandboxed` not turned off — is the sandbox mod's one report
 *  (KnownStatus["sandbox"]), read here and nowhere else. */
export function gate(app: StepApp, root: string, home: string, permissions: PermissionSetup, sessionRules: SessionRules, cover?: CallCover): void {
  // What the sandbox hides, worked out once from its grants (they are fixed at start).
  let hidesFn: ((path: string) => boolean) | undefined;
  const hides = (): ((path: string) => boolean) | undefined => {
    const grants = app.pluginStatus("sandbox")?.grants;
    if (!hidesFn && grants) hidesFn = sandboxHides(grants, home);
    return hidesFn;
  };
  registerPermissionGate(app.chain, {
    rules: (sessionId) => [...permissions.rules, ...sessionRules.rules(sessionId)],
    env: (sessionId) => {
      const engine = sessionId ? app.engineOf(sessionId) : app.engine;
      return { root, home: homedir(), deepcodeHome: home, cwd: engine?.cwd ?? root, additionalDirectories: permissions.additionalDirectories, sessionOutputs: engine?.outputsDir, sandboxed: sandboxContains(app), historySecret: historyHoldsSecret, sandboxProxied: sandboxProxies(app), sandboxHides: hides(), servedPorts: app.pluginStatus("sandbox")?.served, readerAlone: readerAlone(app), sandboxRequired: sandboxMissing(app) };
    },
    managedBroken: permissions.managedBroken,
    ...(cover ? { cover } : {}),
  });
}

/** Nobody can answer a permission prompt (-p, subcommands): an ask is a deny, and the model is
 *  told why — and why it asked (a redirection, an option, a secret…), so it can take another
 *  approach. Outermost, so no hook is asked to speak for a person who is not there. Nor any
 *  other question (start a project's MCP server, a server's form, sampling). */
export function nonInteractive(chain: Chain, settingsFile?: string): void {
  chain.on("prepend", "non-interactive", "permission.ask", null, (e) => ({
    decision: "deny",
    reason: nonInteractiveReason(e.tool, e.remember, e.reason, settingsFile, e.by),
    by: "non-interactive",
  }));
  chain.on("prepend", "non-interactive", "person.ask", null, (e) => ({ decision: "deny", reason: `deepcode runs non-interactively, so nobody can answer: ${e.title}`, by: "non-interactive" }));
}

/** The host's core answers: subagents (one depth limit for every spawner, spawn.ts), the files
 *  a call would write (src/lib/effects: checkpoints, plan mode; a shell command starts in the Bash folder of the
 *  session that makes it), text for the person from a mod (stderr here; the REPL prints it in
 *  place), and the model (each reply billed through model.usage: billed-model.ts). */
export function hostCores(app: StepApp, spawner: Spawner, root: string, env: NodeJS.ProcessEnv, home: string, warn: (m: string) => void): void {
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
  // The managed policy's availableModels binds every route to the API (the session's model,
  // --model, /model, a tier, a subagent, a plugin's request): the core is the one way there.
  const allowed = availableModels(settings);
  chain.setCore("model.request", billedModel(chain, (e) => {
    if (allowed && !allowed.models.includes(e.request.model)) throw new ProviderError("config", `the managed policy allows only ${allowed.models.join(", ")} (availableModels in ${allowed.file}); this request was for ${e.request.model}: choose one of those (/model, --model or settings tiers)`);
    if (!provider) throw new ProviderError("auth", noKeyHelp(home));
    return provider.request(e.request, { signal: e.signal, onDelta: e.onDelta });
  }));
}


/** The sandbox mod reports (api.status) that it wraps every process and cuts the network off:
 *  only then does it contain a command (src/cli/permissions/containment/contained.ts). */
function sandboxContains(app: StepApp): boolean {
  const s = app.pluginStatus("sandbox");
  return s !== undefined && s.active === true && s.network === false && s.autoAllow !== false;
}

/** Settings require the sandbox and it is not active: why (the gate denies every command). */
function sandboxMissing(app: StepApp): string | undefined {
  const s = app.pluginStatus("sandbox");
  return s && s.active !== true && s.required ? `the sandbox is required (sandbox.failIfUnavailable in ${s.required}) but not active: ${s.detail ?? "not available"}` : undefined;
}

/** No sandbox contains commands, so the shell reader alone judges them (issue #36): what it
 *  proves read-only runs without a prompt. A layer's `sandbox.autoAllowBashIfSandboxed: false`
 *  turns this off as well: the person asked for Bash to ask as the rules say. */
function readerAlone(app: StepApp): boolean {
  const s = app.pluginStatus("sandbox");
  return s?.autoAllow !== false && !sandboxContains(app);
}

/** The sandbox reaches the hosts of `sandbox.network.allowedDomains` through its filtering
 *  proxy (and nothing else): commands that only fetch are contained too. */
function sandboxProxies(app: StepApp): boolean {
  const s = app.pluginStatus("sandbox");
  return s !== undefined && s.active === true && s.network === false && Array.isArray(s.allowedDomains) && s.allowedDomains.length > 0;
}

/** `wire`: settings `apiStallTimeoutMs` and `protocol`. The Anthropic protocol goes to
 *  DeepSeek's /anthropic endpoint unless DEEPSEEK_BASE_URL names another. */
function makeProvider(app: StepApp, env: NodeJS.ProcessEnv, keepAliveLimitMs: number | undefined, wire: { stallTimeoutMs?: number; protocol: "openai" | "anthropic" }): Provider | undefined {
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
 *  policy's → prepend (or append when it says so), with its integrity hash when it gives one.
 *  Paths are relative to their settings file. */
export function pluginList(settings: LoadedSettings): PluginItem[] {
  const out: PluginItem[] = [];
  for (const layer of settings.layers) {
    const list = layer.settings.plugins;
    if (!Array.isArray(list)) continue;
    const managed = layer.name === "managed";
    const base = dirname(layer.file);
    for (const item of list) {
      const from = managed ? { policyFile: layer.file } : {};
      if (typeof item === "string") out.push({ specifier: item, tier: managed ? "prepend" : "user", base, source: item, managed, ...from });
      else if (managed && isObject(item) && typeof item.path === "string") {
        const sha256 = typeof item.sha256 === "string" ? { sha256: item.sha256 } : {};
        const tier = item.tier === "append" ? "append" : "prepend";
        out.push({ specifier: item.path, tier, base, source: item.path, managed, ...from, ...sha256 });
      }
    }
  }
  return out;
}

export function pluginConfig(settings: LoadedSettings, id: string): Record<string, JsonValue> {
  const all = settings.merged.pluginConfig;
  const mine = isObject(all) ? all[id] : undefined;
  return isObject(mine) ? mine : {};
}

export function compactionSetting(v: JsonValue | undefined): EngineOptions["compaction"] {
  if (!isObject(v)) return undefined;
  const n = (k: string): number | undefined => (typeof v[k] === "number" ? v[k] : undefined);
  return { threshold: n("threshold"), betweenTurns: n("betweenTurns"), window: n("window"), keepTurns: n("keepTurns") };
}

/** `toolResultMaxBytes`, kept sane: below 4 KiB a bounded result would be mostly marker. */
export function resultBound(v: number | undefined, warn: (m: string) => void): number | undefined {
  if (v === undefined) return undefined;
  if (v >= 4096) return Math.floor(v);
  warn(`toolResultMaxBytes ${v} is too small; using 4096`);
  return 4096;
}

export function stringSetting(v: JsonValue | undefined): string | undefined {
  return typeof v === "string" && v ? v : undefined;
}

export function numberSetting(v: JsonValue | undefined): number | undefined {
  return typeof v === "number" ? v : undefined;
}

/** The managed policy's `availableModels`, when it sets one. */
export function availableModels(settings: Pick<StepApp["settings"], "layers">): { models: string[]; file: string } | null {
  const managed = settings.layers.find((l) => l.name === "managed" && Array.isArray(l.settings.availableModels));
  if (!managed || !Array.isArray(managed.settings.availableModels)) return null;
  return { models: managed.settings.availableModels.filter((m): m is string => typeof m === "string"), file: managed.file };
}
