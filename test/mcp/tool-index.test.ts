// Hundreds of MCP tools: past mcpToolIndexTokens they load on demand. The prefix carries an
// index in UseTool's description (never more than 128 tools are sent), `UseTool {"name"}`
// brings a definition in as a tool result, the prefix bytes stay the same across turns, a list
// change and a resume, and a changed definition is told at the tail.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startHarness, type Harness } from "../helpers/harness.js";
import { chatBodies, extensionBreaks } from "../helpers/extension.js";
import type { Reply } from "../sim/server.mjs";
import type { JsonValue, StreamEvent } from "../../src/contract/index.js";
import { withOptions } from "../../mods/mcp/index.js";
import { startSimulator } from "../sim/server.mjs";
import { cliEnv } from "../helpers/cli-env.js";
import { deepcode, mcpJson } from "./helpers.js";

const SERVER = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));

let h: Harness | undefined;
let dir: string | undefined;
afterEach(async () => {
  await h?.engine.close("exit");
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  h = undefined;
  dir = undefined;
});

function manyTools(n: number, changed = -1): JsonValue[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `t${String(i).padStart(3, "0")}`,
    description: `${i === changed ? "Changed: finds" : "Finds"} record ${i} in the catalogue. Longer prose follows that the index leaves out.\nSecond line.`,
    inputSchema: { type: "object", properties: { text: { type: "string", description: "what to look for" }, limit: { type: "number" } }, required: ["text"] },
  }));
}

function server(name: string, env: Record<string, string>): JsonValue {
  return { name, scope: "user", source: "test", transport: "stdio", command: process.execPath, args: [SERVER], env: { PATH: process.env.PATH ?? "", ...env }, raw: {}, start: true, approval: "none" };
}

type Body = { tools?: Array<{ function: { name: string; description: string } }>; messages: Array<{ role: string; content: unknown }> };
const results = (events: StreamEvent[]) => events.filter((e) => e.type === "tool.end").map((e) => (e as Extract<StreamEvent, { type: "tool.end" }>).output);

async function until(what: () => boolean, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("hundreds of MCP tools load on demand", () => {
  it("sends an index instead of 200 definitions, brings one in through UseTool, and keeps the prefix bytes across turns, a list change and a resume", async () => {
    dir = mkdtempSync(join(tmpdir(), "deepcode-mcp-index-"));
    const toolsFile = join(dir, "tools.json");
    writeFileSync(toolsFile, JSON.stringify(manyTools(200)));
    const config: Record<string, JsonValue> = { servers: [server("big", { TOOLS_FILE: toolsFile })], firstRequestWaitMs: 20_000, roots: [dir] };
    const queue: Reply[] = [
      { tool_calls: [{ name: "UseTool", arguments: { name: "mcp__big__t042" } }] },
      { tool_calls: [{ name: "UseTool", arguments: { name: "mcp__big__t042", input: { text: "x" } } }] },
      { content: "turn 1 done" },
      { tool_calls: [{ name: "UseTool", arguments: { name: "mcp__big__t007", input: { wrong: 1 } } }] },
      { content: "turn 2 done" },
      { tool_calls: [{ name: "UseTool", arguments: { name: "mcp__big__t199", input: { text: "y" } } }] },
      { content: "turn 3 done" },
    ];
    const sent: Array<Record<string, unknown>> = [];
    h = await startHarness({
      script: {
        respond: () => {
          const r = queue.shift() ?? { content: "(no more)" };
          sent.push({ content: r.content ?? "", tool_calls: (r.tool_calls ?? []).map((c) => ({ function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) });
          return r;
        },
      },
      allowAll: true,
      mods: [withOptions(() => config)],
    });

    const t1 = await h.turn("first");
    const first = chatBodies(h.sim.requests)[0] as Body;
    const names = first.tools!.map((t) => t.function.name);
    expect(names.length).toBeLessThanOrEqual(128);
    expect(names.some((n) => n.startsWith("mcp__"))).toBe(false);
    const proxy = first.tools!.find((t) => t.function.name === "UseTool")!;
    expect(proxy.function.description).toContain("- mcp__big__t042: Finds record 42 in the catalogue.");
    expect(proxy.function.description).not.toContain("Longer prose");
    expect(proxy.function.description.match(/^- mcp__big__/gm)).toHaveLength(200);
    // The definition comes in as a result, then the call runs.
    const [definition, call] = results(t1);
    expect(definition.isError).toBeFalsy();
    expect(definition.content).toContain('parameters: {"properties":{"limit":{"type":"number"},"text"');
    expect(call.content).toBe('t042: {"text":"x"}');

    // A definition changes on the server: the model hears it at the tail; the prefix stays.
    writeFileSync(toolsFile, JSON.stringify(manyTools(200, 7)));
    const pid = Number(/scripted server (\d+) up/.exec(await mcpText(h, "big"))![1]);
    process.kill(pid, "SIGUSR1");
    await until(() => /Changed: finds/.test(h!.options.registry.get("mcp__big__t007")?.spec.description ?? ""));
    const t2 = await h.turn("second");
    expect(results(t2)[0].isError).toBe(true);
    expect(results(t2)[0].content).toContain("parameters: {"); // a wrong call is told the definition
    const bodies2 = chatBodies(h.sim.requests) as Body[];
    const tail = JSON.stringify(bodies2[bodies2.length - 1].messages);
    expect(tail).toContain("mcp__big__t007 changed. It now reads: Changed: finds record 7");
    expect(tail).not.toContain("mcp__big__t008 changed");

    // Resume in a new process: the same index bytes, the log extended byte for byte.
    await h.engine.close("exit");
    await h.resume();
    const t3 = await h.turn("third");
    expect(results(t3)[0].content).toBe('t199: {"text":"y"}');
    const bodies = chatBodies(h.sim.requests) as Body[];
    for (const b of bodies) expect(JSON.stringify(b.tools)).toBe(JSON.stringify(first.tools));
    expect(extensionBreaks(bodies, sent)).toEqual([]);
  });

  it("through the real CLI: -p then -c send the same tools bytes, the index and no more than 128 tools", async () => {
    const sim = await startSimulator({ script: { replies: [{ tool_calls: [{ name: "UseTool", arguments: { name: "mcp__big__t150" } }] }, { content: "first done" }, { content: "second done" }] }, apiKey: "sk-test-cli" });
    const env = cliEnv(sim.url, {});
    try {
      const toolsFile = join(env.root, "tools.json");
      writeFileSync(toolsFile, JSON.stringify(manyTools(300)));
      const config = join(env.root, "servers.json");
      writeFileSync(config, mcpJson({ big: { command: process.execPath, args: [SERVER], env: { TOOLS_FILE: toolsFile } } }));
      const one = await deepcode(env, ["--mcp-config", config, "-p", "first"]);
      expect(one.code).toBe(0);
      const two = await deepcode(env, ["--mcp-config", config, "-p", "-c", "second"]);
      expect(two.code).toBe(0);
      expect(two.stdout).toContain("second done");
      const bodies = chatBodies(sim.requests) as Body[];
      expect(bodies).toHaveLength(3);
      expect(bodies[0].tools!.length).toBeLessThanOrEqual(128);
      expect(bodies[0].tools!.find((t) => t.function.name === "UseTool")!.function.description).toContain("- mcp__big__t299: Finds record 299");
      for (const b of bodies) expect(JSON.stringify(b.tools)).toBe(JSON.stringify(bodies[0].tools));
      expect(JSON.stringify(bodies[1].messages)).toContain("mcp__big__t150: Finds record 150");
      // The second run's request extends the first run's last one.
      expect(JSON.stringify(bodies[2].messages).startsWith(JSON.stringify(bodies[1].messages).slice(0, -1))).toBe(true);
    } finally {
      await sim.close();
      env.cleanup();
    }
  });

  it("keeps a few MCP tools in full below the threshold", async () => {
    dir = mkdtempSync(join(tmpdir(), "deepcode-mcp-index-"));
    const toolsFile = join(dir, "tools.json");
    writeFileSync(toolsFile, JSON.stringify(manyTools(5)));
    const config: Record<string, JsonValue> = { servers: [server("small", { TOOLS_FILE: toolsFile })], firstRequestWaitMs: 20_000, roots: [dir] };
    h = await startHarness({ script: { replies: [{ content: "ok" }] }, allowAll: true, mods: [withOptions(() => config)] });
    await h.turn("first");
    const first = chatBodies(h.sim.requests)[0] as Body;
    expect(first.tools!.filter((t) => t.function.name.startsWith("mcp__small__"))).toHaveLength(5);
    expect(first.tools!.find((t) => t.function.name === "UseTool")!.function.description).not.toContain("on demand");
  });
});

async function mcpText(h: Harness, args: string): Promise<string> {
  let out = "";
  await h.commands.get("mcp")!.spec.run({ args, sessionId: h.engine.sessionId, signal: new AbortController().signal, interactive: true, print: (t) => (out += t), submit: async () => undefined });
  return out;
}
