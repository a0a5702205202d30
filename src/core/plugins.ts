// Loading plugins and mods. Both are `{ id, register(api) }`; the loader, not the plugin,
// decides the tier its hooks land in. A plugin that fails to load or register is named, every
// hook it managed to register is removed again, and the rest keeps working.

import { pathToFileURL } from "node:url";
import { isAbsolute, resolve } from "node:path";
import type { Chain } from "./chain.js";
import { readOwnFile, type SecretCheck } from "../lib/own-file.js";
import type { CommandSpec, Contribution, HostFacts, JsonValue, Logger, MentionCompleter, PermissionMode, Plugin, PluginApi, SessionHost, SettingsView, SubcommandSpec, Tier, ToolSpec, Unsubscribe } from "../contract/index.js";

export interface PluginHost {
  chain: Chain;
  root: string;
  home: string;
  /** The person trusted this project's own content (PluginApi.trusted). */
  trusted: boolean;
  /** Receives tools contributed by plugins; throws when the name is taken. */
  addTool(spec: ToolSpec, source: string): void;
  /** Takes back a tool (of a plugin that then failed, or that takes it back itself). */
  removeTool(name: string): void;
  /** Receives slash commands (PluginApi.command); throws when the name is taken. A host
   *  without commands (a test engine) leaves these out, and `api.command` throws there. */
  addCommand?(spec: CommandSpec, source: string): void;
  removeCommand?(name: string, spec: CommandSpec): void;
  /** Receives `@` completers (PluginApi.mentions) and status reports (PluginApi.status). */
  addMentions?(complete: MentionCompleter, source: string): Unsubscribe;
  /** PluginApi.connect: connections the way deepcode's own requests make them. */
  connect?: PluginApi["connect"];
  setStatus?(source: string, report: () => unknown, owner: object): void;
  /** PluginApi.statusOf: what a plugin reports; without it, nothing is reported. */
  statusOf?(id: string): unknown;
  /** Receives `deepcode <name>` subcommands (PluginApi.subcommand); without it they throw. */
  addSubcommand?(spec: SubcommandSpec, source: string): Unsubscribe;
  /** Session-scoped temporary allow rules (PluginApi.allow); without it `api.allow` throws. */
  allow?(rules: readonly string[], sessionId: string): Unsubscribe;
  /** Folders of skills and agents plugins contributed (PluginApi.contribute). Without it the
   *  loader keeps its own list (per host). */
  contributions?: Contribution[];
  log(level: "info" | "warn" | "error", source: string, message: string): void;
  config(id: string): Readonly<Record<string, JsonValue>>;
  /** PluginApi.settings and PluginApi.host; a host without them (a test engine) gives an empty
   *  view and the facts of a non-interactive run in `root`. */
  settings?: SettingsView;
  facts?: HostFacts;
  /** PluginApi.sessions; without it `start` throws (this host runs no sessions). */
  sessions?: SessionHost;
  /** PluginApi.wake; without it no session can be woken (false). */
  wake?(sessionId: string, text: string): boolean;
  /** PluginApi.permissionMode; without it every session is in `default`. */
  permissionMode?(sessionId: string): PermissionMode;
  /** The session's Bash working directory (PluginApi.shellCwd); without it, or for a session
   *  it does not know (undefined), the root. */
  shellCwd?(sessionId: string): string | undefined;
  /** Why a path is a secret (PluginApi.readOwnFile refuses it); without it, only the file's
   *  kind, place and size are checked. */
  secret?: SecretCheck;
  /** PluginApi.readDenied: the settings' read denies; without it, none. */
  readDenied?: (path: string) => string | null;
}

export interface PluginLoad {
  /** Where it came from: a path, a package name, or `mods/<name>`. */
  source: string;
  tier: Tier;
  id?: string;
  ok: boolean;
  error?: string;
  /** What register() threw, when it did (assembly stops on a built-in mod's ConfigError). */
  thrown?: unknown;
}

export function isPlugin(v: unknown): v is Plugin {
  return (
    typeof v === "object" &&
    v !== null &&
    typeof (v as Plugin).id === "string" &&
    /^[a-z0-9][a-z0-9._:-]*$/i.test((v as Plugin).id) &&
    typeof (v as Plugin).register === "function"
  );
}

/** Register an already imported plugin object in `tier`. */
export async function registerPlugin(host: PluginHost, plugin: unknown, tier: Tier, source: string): Promise<PluginLoad> {
  if (!isPlugin(plugin)) {
    return { source, tier, ok: false, error: "not a plugin: expected an export { id: string, register(api) }" };
  }
  const undo: Unsubscribe[] = [];
  const tools: ToolSpec[] = [];
  let registered = false;
  /** Added after register: straight to the host, taken back by the returned function. */
  const addLate = (spec: ToolSpec): Unsubscribe => {
    host.addTool(spec, plugin.id);
    let gone = false;
    return () => {
      if (gone) return;
      gone = true;
      host.removeTool(spec.name);
    };
  };
  const on = host.chain.registrar(tier, plugin.id);
  const log: Logger = {
    info: (m) => host.log("info", plugin.id, m),
    warn: (m) => host.log("warn", plugin.id, m),
    error: (m) => host.log("error", plugin.id, m),
  };
  const api: PluginApi = {
    id: plugin.id,
    on: ((...args: Parameters<typeof on>) => {
      const u = on(...args);
      undo.push(u);
      return u;
    }) as typeof on,
    tool: (spec) => {
      if (registered) return addLate(spec);
      tools.push(spec);
      return () => {
        const i = tools.indexOf(spec);
        if (i >= 0) tools.splice(i, 1);
        else if (registered) host.removeTool(spec.name);
      };
    },
    command: (spec) => {
      if (!host.addCommand || !host.removeCommand) throw new Error(`${plugin.id}: this host takes no slash commands (api.command)`);
      host.addCommand(spec, plugin.id);
      const u = () => host.removeCommand?.(spec.name, spec);
      undo.push(u);
      return u;
    },
    mentions: (complete) => {
      if (!host.addMentions) throw new Error(`${plugin.id}: this host offers no @ completion (api.mentions)`);
      const u = host.addMentions(complete, plugin.id);
      undo.push(u);
      return u;
    },
    // This registration is the reporter (`undo` is its own object): a second plugin with the
    // same id is another reporter, and the host refuses it.
    status: (report) => host.setStatus?.(plugin.id, report, undo),
    statusOf: ((id: string) => host.statusOf?.(id)) as PluginApi["statusOf"],
    subcommand: (spec) => {
      if (!host.addSubcommand) throw new Error(`${plugin.id}: this host runs no subcommands (api.subcommand)`);
      const u = host.addSubcommand(spec, plugin.id);
      undo.push(u);
      return u;
    },
    connect: (url, signal) => (host.connect ? host.connect(url, signal) : Promise.reject(new Error(`${plugin.id}: this host opens no connections (api.connect)`))),
    allow: (rules, scope) => {
      if (!host.allow) throw new Error(`${plugin.id}: this host keeps no session rules (api.allow)`);
      return host.allow(rules, scope.sessionId);
    },
    contribute: (kind, dir, options) => {
      if (kind !== "skills" && kind !== "agents" && kind !== "output-styles") {
        throw new Error(`${plugin.id}: cannot contribute '${String(kind)}' (skills, agents or output-styles)`);
      }
      if (!isAbsolute(dir)) throw new Error(`${plugin.id}: a contributed ${kind} folder must be an absolute path, not '${dir}'`);
      // A copy the plugin cannot change later, without a prototype (a path is only ever a key).
      const pins = options?.pins ? Object.freeze(Object.assign(Object.create(null) as Record<string, string>, options.pins)) : undefined;
      const files = options?.files ? Object.freeze([...options.files]) : undefined;
      const entry: Contribution = Object.freeze({ kind, dir, source: options?.name ?? plugin.id, ...(pins ? { pins } : {}), ...(files ? { files } : {}) });
      const list = contributionsOf(host);
      list.push(entry);
      const u = () => {
        const i = list.indexOf(entry);
        if (i >= 0) list.splice(i, 1);
      };
      undo.push(u);
      return u;
    },
    contributed: (kind) => contributionsOf(host).filter((c) => c.kind === kind),
    // A settings read deny (the managed policy's too) holds for a plugin's own reads as well.
    readOwnFile: (path, options) => {
      const denied = host.readDenied?.(resolve(host.root, path)) ?? null;
      return denied ? { ok: false, missing: false, reason: `reading it is denied by ${denied}` } : readOwnFile(path, options, host.secret);
    },
    log,
    config: Object.freeze({ ...host.config(plugin.id) }),
    settings: host.settings ?? EMPTY_SETTINGS,
    host: host.facts ?? bareFacts(host.root),
    root: host.root,
    home: host.home,
    trusted: host.trusted,
    shellCwd: (sessionId) => host.shellCwd?.(sessionId) ?? host.root,
    dispatch: (event) => host.chain.dispatch(event),
    permissionMode: (sessionId) => host.permissionMode?.(sessionId) ?? "default",
    readDenied: (path) => host.readDenied?.(path) ?? null,
    wake: (sessionId, text) => host.wake?.(sessionId, text) ?? false,
    sessions: host.sessions ?? NO_SESSIONS,
  };
  try {
    await plugin.register(Object.freeze(api));
  } catch (err) {
    for (const u of undo) u();
    return { source, tier, id: plugin.id, ok: false, error: `register() failed: ${errorText(err)}`, thrown: err };
  }
  const added: string[] = [];
  try {
    for (const spec of tools) {
      host.addTool(spec, plugin.id);
      added.push(spec.name);
    }
  } catch (err) {
    // A tool that cannot be added (a name clash) fails the plugin as a whole, like a throw in
    // register(): its hooks and its other tools are taken back, and the rest keeps working.
    for (const u of undo) u();
    for (const name of added) host.removeTool(name);
    return { source, tier, id: plugin.id, ok: false, error: errorText(err) };
  }
  registered = true;
  return { source, tier, id: plugin.id, ok: true };
}

/** Import a plugin module from a path (relative to `base`) or a package name, then register it. */
export async function loadPlugin(host: PluginHost, specifier: string, tier: Tier, base: string): Promise<PluginLoad> {
  const imported = await importPlugin(specifier, base);
  if (!imported.ok) return { source: specifier, tier, ok: false, error: imported.error };
  return registerPlugin(host, imported.plugin, tier, specifier);
}

/** Import a plugin module without registering it (its default export, or `plugin`), so its
 *  declared placement can be read first. */
export async function importPlugin(specifier: string, base: string): Promise<{ ok: true; plugin: unknown } | { ok: false; error: string }> {
  const target = specifier.startsWith(".") || isAbsolute(specifier) ? pathToFileURL(resolve(base, specifier)).href : specifier;
  try {
    const mod = (await import(target)) as Record<string, unknown>;
    return { ok: true, plugin: mod.default ?? mod.plugin };
  } catch (err) {
    return { ok: false, error: `cannot load: ${errorText(err)}` };
  }
}

const NO_SESSIONS: SessionHost = Object.freeze({
  start: () => Promise.reject(new Error("this host runs no sessions (PluginApi.sessions)")),
});
const EMPTY_SETTINGS: SettingsView = Object.freeze({ get: () => undefined, layers: Object.freeze([]), fileOf: () => undefined });

/** The facts of a host that gives none (a test engine): a non-interactive run in `root`. */
function bareFacts(root: string): HostFacts {
  return Object.freeze({
    version: "0.0.0",
    interactive: false,
    sessionsDir: resolve(root, ".deepcode-sessions"),
    env: {},
    secretEnv: [],
    additionalDirectories: [],
    flags: Object.freeze({ planMode: false, mcpConfig: [], strictMcpConfig: false }),
    models: [],
    model: "",
    tiers: {},
  });
}

const ownLists = new WeakMap<PluginHost, Contribution[]>();

/** The host's list of contributions (its own, or one the loader keeps for a host without). */
function contributionsOf(host: PluginHost): Contribution[] {
  if (host.contributions) return host.contributions;
  let list = ownLists.get(host);
  if (!list) ownLists.set(host, (list = []));
  return list;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message.split("\n")[0] : String(err);
}
