// MCP is invisible to the prompt cache: every request extends the previous request and its
// reply byte for byte while servers connect before the first request, connect after it, change
// their tool lists, crash and come back — and after a resume in a new process with the server
// gone, the same prefix bytes go out and a call to the gone tool gets a clear error.
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

const SERVER = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));
const echo = { name: "echo", description: "Echo the text.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } };
const extra = { name: "extra", description: "A tool that arrived later.", inputSchema: { type: "object", properties: {} } };

let h: Harness | undefined;
let dir: string | undefined;
afterEach(async () => {
  await h?.engine.close("exit");
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  h = undefined;
  dir = undefined;
});

function server(name: string, env: Record<string, string>, command = process.execPath): JsonValue {
  return { name, scope: "user", source: "test", transport: "stdio", command, args: [SERVER], env: { PATH: process.env.PATH ?? "", ...env }, raw: {}, start: true, approval: "none" };
}

async function until(what: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

const tools = (b: { tools?: unknown[] }) => (b.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);

describe("MCP servers never change the cached prefix", () => {
  it("extends every request across connect, late connect, list change, reconnect and resume", async () => {
    dir = mkdtempSync(join(tmpdir(), "deepcode-mcp-cache-"));
    const toolsFile = join(dir, "tools.json");
    writeFileSync(toolsFile, JSON.stringify([echo]));
    let config: Record<string, JsonValue> = {
      // `early` answers after a short delay, well inside the first request's wait (generous for
      // a loaded machine); `late` only once the test says so, after the first turn.
      servers: [server("early", { DELAY_MS: "300", TOOLS_FILE: toolsFile }), server("late", { INIT_WAIT_FILE: join(dir, "late-go") })],
      firstRequestWaitMs: 15_000,
      roots: [dir],
    };
    const queue: Reply[] = [
      { tool_calls: [{ name: "mcp__early__echo", arguments: { text: "one" } }] },
      { content: "turn 1 done" },
      { tool_calls: [{ name: "UseTool", arguments: { name: "mcp__early__extra", input: {} } }] },
      { content: "turn 2 done" },
      { tool_calls: [{ name: "mcp__early__echo", arguments: { text: "after the crash" } }] },
      { content: "turn 3 done" },
      { tool_calls: [{ name: "UseTool", arguments: { name: "mcp__late__echo", input: { text: "late" } } }] },
      { content: "turn 4 done" },
      { tool_calls: [{ name: "mcp__early__echo", arguments: { text: "gone" } }] },
      { content: "turn 5 done" },
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
    const results = (events: StreamEvent[]) => events.filter((e) => e.type === "tool.end").map((e) => (e as Extract<StreamEvent, { type: "tool.end" }>).output);
    const notices = (events: StreamEvent[]) => events.filter((e) => e.type === "notice").map((e) => (e as Extract<StreamEvent, { type: "notice" }>).message);

    // Turn 1: `early` connects while the first request waits for it; `late` does not in time.
    const t1 = await h.turn("first");
    expect(results(t1)[0].content).toBe('echo: {"text":"one"}');
    expect(notices(t1).join("\n")).toMatch(/MCP server late is still connecting/);
    const first = chatBodies(h.sim.requests)[0];
    expect(tools(first)).toContain("mcp__early__echo");
    expect(tools(first).some((n) => n.startsWith("mcp__late__"))).toBe(false);

    // Turn 2: early's list changes; the new tool comes through UseTool and a tail note.
    writeFileSync(join(dir, "late-go"), "");
    writeFileSync(toolsFile, JSON.stringify([echo, extra]));
    const early = () => h!.options.registry.get("mcp__early__extra");
    process.kill(Number(/scripted server (\d+) up/.exec(await pidOf(h, "early"))![1]), "SIGUSR1");
    await until(() => early() !== undefined && h!.options.registry.get("mcp__late__echo") !== undefined);
    const t2 = await h.turn("second");
    expect(results(t2)[0].content).toBe("extra: {}");
    const bodies2 = chatBodies(h.sim.requests);
    expect(JSON.stringify(bodies2[bodies2.length - 1].messages)).toContain("mcp__early__extra");

    // Turn 3: early crashes and is reconnected with backoff; its tool works again.
    const crashed = Number(/scripted server (\d+) up/.exec(await pidOf(h, "early"))![1]);
    process.kill(crashed, "SIGTERM");
    // Connected again means a new process of it (never the old one, not yet seen gone): the
    // last of its start lines /mcp shows.
    for (const end = Date.now() + 120_000; ; await new Promise((r) => setTimeout(r, 25))) {
      const now = [...(await pidOf(h, "early")).matchAll(/scripted server (\d+) up/g)].pop()?.[1];
      if (now !== undefined && Number(now) !== crashed && serverState(h, "early") === "connected") break;
      if (Date.now() > end) throw new Error("early was not reconnected");
    }
    const t3 = await h.turn("third");
    expect(notices(t3).join("\n")).toMatch(/MCP server early stopped/);
    expect(results(t3)[0].content).toBe('echo: {"text":"after the crash"}');

    // Turn 4: the late server is reached through UseTool.
    const t4 = await h.turn("fourth");
    expect(results(t4)[0].content).toBe('echo: {"text":"late"}');

    // Resume in a new process with `early` gone: the same prefix, a clear error for its tool.
    const before = chatBodies(h.sim.requests);
    await h.engine.close("exit");
    config = { ...config, servers: [server("early", {}, "/nonexistent/deepcode-test-server"), server("late", {})] };
    await h.resume();
    const t5 = await h.turn("fifth");
    expect(results(t5)[0].isError).toBe(true);
    expect(results(t5)[0].content).toMatch(/mcp__early__echo is not available now: MCP server early is not connected \(failed: command not found/);
    const bodies = chatBodies(h.sim.requests);
    expect(tools(bodies[bodies.length - 1])).toEqual(tools(before[0]));
    expect(extensionBreaks(bodies, sent)).toEqual([]);
  });
});

async function pidOf(h: Harness, name: string): Promise<string> {
  let out = "";
  await h.commands.get("mcp")!.spec.run({ args: name, sessionId: h.engine.sessionId, signal: new AbortController().signal, interactive: true, print: (t) => (out += t), submit: async () => undefined });
  return out;
}

function serverState(h: Harness, name: string): string {
  let out = "";
  void h.commands.get("mcp")!.spec.run({ args: name, sessionId: h.engine.sessionId, signal: new AbortController().signal, interactive: true, print: (t) => (out += t), submit: async () => undefined });
  return /: connected ·/.test(out) ? "connected" : "other";
}
