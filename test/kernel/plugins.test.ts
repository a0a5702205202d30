import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { Chain } from "../../src/core/chain.js";
import { loadPlugin, registerPlugin, type PluginHost } from "../../src/core/plugins.js";
import type { Plugin, PluginApi, ToolSpec } from "../../src/contract/index.js";

const fixtures = fileURLToPath(new URL("../fixtures/plugins/", import.meta.url));

function host(): PluginHost & { tools: Array<{ name: string; source: string }>; logs: string[] } {
  const chain = new Chain();
  chain.setCore("prompt.submit", (e) => ({ text: e.text }));
  const tools: Array<{ name: string; source: string }> = [];
  const logs: string[] = [];
  return {
    chain, root: "/proj", home: "/home/u/.deepcode", trusted: false, tools, logs,
    addTool: (spec: ToolSpec, source: string) => {
      if (tools.some((t) => t.name === spec.name)) throw new Error(`tool '${spec.name}' from ${source} clashes with the one from ${tools.find((t) => t.name === spec.name)!.source}`);
      tools.push({ name: spec.name, source });
    },
    removeTool: (name: string) => void tools.splice(tools.findIndex((t) => t.name === name), 1),
    log: (level, source, message) => logs.push(`${level} ${source}: ${message}`),
    config: (id): Record<string, string> => (id === "recorder" ? { greeting: "hi" } : {}),
  };
}

describe("plugins and mods register through one interface, in the tier the loader assigns", () => {
  it("puts a mod in the builtin tier and a third-party plugin in the user tier", async () => {
    const h = host();
    const mod: Plugin = { id: "instructions", register: (api) => void api.on("prompt.submit", (_e, next) => next()) };
    const loads = [
      await registerPlugin(h, mod, "builtin", "mods/instructions"),
      await loadPlugin(h, "./recorder.mjs", "user", fixtures),
    ];
    expect(loads.map((l) => [l.id, l.tier, l.ok])).toEqual([["instructions", "builtin", true], ["recorder", "user", true]]);
    expect(h.chain.hooksFor("prompt.submit")).toEqual([
      { tier: "user", owner: "recorder", pattern: "prompt.submit" },
      { tier: "builtin", owner: "instructions", pattern: "prompt.submit" },
    ]);
    expect(await h.chain.dispatch({ type: "prompt.submit", sessionId: "s", text: "hello" })).toEqual({ text: "hello [seen by recorder]" });
    expect(h.tools).toEqual([{ name: "Echo", source: "recorder" }]);
  });

  it("lets a managed-policy plugin land in prepend, outside every user plugin", async () => {
    const h = host();
    await loadPlugin(h, "./recorder.mjs", "user", fixtures);
    const policy: Plugin = { id: "org-policy", register: (api) => void api.on("prompt.submit", (e, next) => next()) };
    await registerPlugin(h, policy, "prepend", "managed");
    expect(h.chain.hooksFor("prompt.submit").map((x) => `${x.tier}:${x.owner}`)).toEqual(["prepend:org-policy", "user:recorder"]);
  });

  it("gives a plugin only the registration callback: frozen api, its own config, no tier choice", async () => {
    const h = host();
    let api: Record<string, unknown> = {};
    // A declared tier is the plugin's wish; the loader's tier is what counts.
    const load = await registerPlugin(h, { id: "recorder", placement: { tier: "prepend" }, register: (a: unknown) => void (api = a as never) }, "user", "x");
    expect(load.tier).toBe("user");
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.keys(api).sort()).toEqual(["allow", "command", "config", "connect", "contribute", "contributed", "dispatch", "home", "host", "id", "log", "mentions", "on", "permissionMode", "readDenied", "readOwnFile", "root", "sessions", "settings", "shellCwd", "status", "statusOf", "subcommand", "tool", "trusted", "wake"]);
    await expect((api.sessions as PluginApi["sessions"]).start()).rejects.toThrow("this host runs no sessions");
    expect(api.config).toEqual({ greeting: "hi" });
  });

  it("names a plugin that fails to load, and the others keep working", async () => {
    const h = host();
    const loads = await Promise.all([
      loadPlugin(h, "./syntax-error.mjs", "user", fixtures),
      loadPlugin(h, "./not-a-plugin.mjs", "user", fixtures),
      loadPlugin(h, "./does-not-exist.mjs", "user", fixtures),
      loadPlugin(h, "./recorder.mjs", "user", fixtures),
    ]);
    expect(loads.map((l) => l.ok)).toEqual([false, false, false, true]);
    expect(loads[0].error).toMatch(/^cannot load/);
    expect(loads[1].error).toMatch(/not a plugin/);
    expect(loads[2].source).toBe("./does-not-exist.mjs");
    expect(await h.chain.dispatch({ type: "prompt.submit", sessionId: "s", text: "x" })).toEqual({ text: "x [seen by recorder]" });
  });

  it("removes the hooks of a plugin whose register() throws half way", async () => {
    const h = host();
    const load = await loadPlugin(h, "./half-registers-then-throws.mjs", "user", fixtures);
    expect(load).toMatchObject({ ok: false, id: "half", error: "register() failed: config missing" });
    expect(h.chain.hooksFor("prompt.submit")).toEqual([]);
    expect(await h.chain.dispatch({ type: "prompt.submit", sessionId: "s", text: "x" })).toEqual({ text: "x" });
  });

  it("fails a plugin whose tool name is taken, takes back its hooks and tools, and keeps the rest working", async () => {
    const h = host();
    await loadPlugin(h, "./recorder.mjs", "user", fixtures); // contributes Echo
    const clash: Plugin = {
      id: "clash",
      register: (api) => {
        api.on("prompt.submit", (e, next) => next({ ...e, text: "HIJACKED" }));
        api.tool({ name: "Other", description: "", inputSchema: { type: "object" }, readOnly: true, run: async () => ({ content: "" }) });
        api.tool({ name: "Echo", description: "", inputSchema: { type: "object" }, readOnly: true, run: async () => ({ content: "" }) });
      },
    };
    const load = await registerPlugin(h, clash, "user", "clash.js");
    expect(load).toMatchObject({ ok: false, id: "clash", error: "tool 'Echo' from clash clashes with the one from recorder" });
    expect(h.tools.map((t) => t.name)).toEqual(["Echo"]);
    expect(await h.chain.dispatch({ type: "prompt.submit", sessionId: "s", text: "x" })).toEqual({ text: "x [seen by recorder]" });
  });

  it("lets a contribution carry pins and a namespace (api.contribute options), copied and frozen", async () => {
    const h = { ...host(), contributions: [] };
    const pins: Record<string, string> = { "/p/kit/agents/a.md": "ab12" };
    let api!: PluginApi;
    await registerPlugin(h, { id: "marketplace", register: (a: PluginApi) => void (api = a) }, "builtin", "mods/marketplace");
    const undo = api.contribute("agents", "/p/kit/agents", { name: "kit", pins });
    api.contribute("skills", "/p/own/skills");
    pins["/p/kit/agents/evil.md"] = "ff";
    const [agents] = api.contributed("agents");
    expect(agents).toMatchObject({ kind: "agents", dir: "/p/kit/agents", source: "kit" });
    expect({ ...agents.pins }).toEqual({ "/p/kit/agents/a.md": "ab12" });
    expect(Object.isFrozen(agents.pins)).toBe(true);
    expect(api.contributed("skills")).toEqual([{ kind: "skills", dir: "/p/own/skills", source: "marketplace" }]);
    undo();
    expect(api.contributed("agents")).toEqual([]);
  });
});
