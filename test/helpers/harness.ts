// An in-process deepcode for tests: a real chain, the real engine, the real provider talking
// to the DeepSeek simulator on 127.0.0.1, with the tools a test chooses.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSimulator, type Script, type Simulator } from "../sim/server.mjs";
import { Chain } from "../../src/core/chain.js";
import { billedModel } from "../../src/core/billed-model.js";
import { registerEffects } from "../../src/core/effects.js";
import { registerRepairs } from "../../src/core/repair/index.js";
import { Engine, type EngineOptions } from "../../src/core/engine/engine.js";
import { ToolRegistry } from "../../src/core/engine/tools.js";
import { SessionStore } from "../../src/core/session/store.js";
import { createProvider, capsFor, openSocket, targetOf } from "../../src/providers/index.js";
import type { HostFacts, JsonValue, Plugin, SettingsView, StreamEvent, ToolSpec } from "../../src/contract/index.js";
import { registerPlugin } from "../../src/core/plugins.js";
import { CommandRegistry } from "../../src/core/commands.js";

export interface Harness {
  sim: Simulator;
  chain: Chain;
  engine: Engine;
  root: string;
  home: string;
  store: SessionStore;
  options: EngineOptions;
  /** Slash commands the mods contributed (api.command), of the current chain. */
  commands: CommandRegistry;
  /** What the mods said through api.log.warn / error (of every chain built). */
  warnings: string[];
  /** Run one turn and collect its events. */
  turn(prompt: string, signal?: AbortSignal): Promise<StreamEvent[]>;
  /** A fresh engine resuming this session, as a new process would (new chain, same files). */
  resume(): Promise<Engine>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  script: Script;
  tools?: ToolSpec[];
  /** Answer `allow` on tool.check for every known tool (tests before the permission gate). */
  allowAll?: boolean;
  model?: string;
  engine?: Partial<EngineOptions>;
  root?: string;
  /** Mods to register in the builtin tier, as the CLI does. */
  mods?: Plugin[];
  /** PluginApi.trusted for the mods (default false: an untrusted project). */
  trusted?: boolean;
  /** A mod's `api.config` (read again for each chain the harness builds: resume sees changes). */
  modConfig?: (id: string) => Record<string, JsonValue>;
  /** PluginApi.settings: settings files by layer name, low to high (`{ user: { telemetry: true } }`). */
  settings?: Record<string, Record<string, JsonValue>>;
  /** PluginApi.host, over a non-interactive run's facts with the harness's sessions folder. */
  facts?: Partial<HostFacts>;
  /** PluginApi.connect opens sockets, as deepcode's own requests do without proxy variables
   *  (an MCP mod's remote servers); without it, the mods' connections are refused. */
  network?: boolean;
}

/** A SettingsView of plain objects by layer name (later layers win, objects merge one level). */
export function settingsViewOf(layers: Record<string, Record<string, JsonValue>> = {}): SettingsView {
  const list = Object.entries(layers).map(([name, settings]) => ({ name, file: `<${name} settings>`, settings }));
  const merged: Record<string, JsonValue> = {};
  for (const l of list) {
    for (const [k, v] of Object.entries(l.settings)) {
      const had = merged[k];
      merged[k] = isPlain(had) && isPlain(v) ? { ...had, ...v } : v;
    }
  }
  return { get: (k) => merged[k], layers: list, fileOf: (k) => [...list].reverse().find((l) => l.settings[k] !== undefined)?.file };
}

function isPlain(v: JsonValue | undefined): v is { [k: string]: JsonValue } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function complete(events: StreamEvent[]): Extract<StreamEvent, { type: "turn.complete" }> {
  const c = events.filter((e) => e.type === "turn.complete");
  if (c.length !== 1) throw new Error(`expected exactly one turn.complete, got ${c.length}`);
  return c[0] as Extract<StreamEvent, { type: "turn.complete" }>;
}

export async function startHarness(o: HarnessOptions): Promise<Harness> {
  const warnings: string[] = [];
  const sim = await startSimulator({ script: o.script, apiKey: "sk-test-harness" });
  const root = o.root ?? mkdtempSync(join(tmpdir(), "deepcode-root-"));
  const home = mkdtempSync(join(tmpdir(), "deepcode-home-"));
  const store = new SessionStore(home, root);
  const build = async (): Promise<{ chain: Chain; options: EngineOptions; commands: CommandRegistry }> => {
    const chain = new Chain();
    const commands = new CommandRegistry();
    registerEffects(chain);
    const registry = new ToolRegistry();
    for (const t of o.tools ?? []) registry.add(t, "builtin");
    registerRepairs(chain, { tools: () => registry.list().map((t) => t.spec) });
    if (o.allowAll) chain.on("builtin", "test-allow", "tool.check", null, (e) => (e.readOnly === null ? { decision: "deny", reason: "unknown tool" } : { decision: "allow", by: "test" }));
    for (const mod of o.mods ?? []) {
      const host = {
        chain,
        root,
        home,
        trusted: o.trusted ?? false,
        addTool: (t: ToolSpec, src: string) => registry.add(t, src),
        removeTool: (n: string) => registry.remove(n),
        addCommand: (c: Parameters<CommandRegistry["add"]>[0], src: string) => commands.add(c, src),
        removeCommand: (n: string, c: Parameters<CommandRegistry["add"]>[0]) => commands.remove(n, c),
        addMentions: () => () => undefined,
        // Mods add `deepcode <name>` subcommands (checkpoints, telemetry); a harness runs none.
        addSubcommand: () => () => undefined,
        ...(o.network ? { connect: (url: URL, signal: AbortSignal) => openSocket(targetOf(url), { env: {} }, signal) } : {}),
        log: (level: string, _source: string, message: string) => void (level !== "info" && warnings.push(message)),
        config: (id: string) => o.modConfig?.(id) ?? {},
        settings: settingsViewOf(o.settings),
        facts: {
          version: "test",
          interactive: false,
          sessionsDir: store.dir,
          env: {},
          secretEnv: [],
          additionalDirectories: [],
          flags: { planMode: false, mcpConfig: [], strictMcpConfig: false },
          models: [],
          model: o.model ?? "deepseek-flash",
          tiers: {},
          ...o.facts,
        },
      };
      const load = await registerPlugin(host, mod, "builtin", `mods/${mod.id}`);
      if (!load.ok) throw new Error(`mod ${mod.id}: ${load.error}`);
    }
    const provider = createProvider({ baseUrl: sim.url, apiKey: "sk-test-harness", keySource: "test", maxAttempts: 2, sleep: async () => undefined });
    chain.setCore("model.request", billedModel(chain, (e) => provider.request(e.request, { signal: e.signal, onDelta: e.onDelta })));
    const options: EngineOptions = { chain, root, model: o.model ?? "deepseek-flash", caps: capsFor, registry, store, version: "test", ...o.engine };
    return { chain, options, commands };
  };
  const first = await build();
  const engine = await Engine.start(first.options);
  const h: Harness = {
    sim,
    warnings,
    chain: first.chain,
    engine,
    root,
    home,
    store,
    options: first.options,
    commands: first.commands,
    async turn(prompt, signal) {
      const events: StreamEvent[] = [];
      for await (const e of h.engine.submit(prompt, { signal })) events.push(e);
      return events;
    },
    async resume() {
      const next = await build();
      h.chain = next.chain;
      h.options = next.options;
      h.commands = next.commands;
      h.engine = await Engine.resume(next.options, h.engine.sessionId);
      return h.engine;
    },
    async close() {
      await sim.close();
      rmSync(home, { recursive: true, force: true });
      if (!o.root) rmSync(root, { recursive: true, force: true });
    },
  };
  return h;
}
