// Servers that are slow or fail to start (issue 28): a failed first connection is tried again
// (bounded), a server that connects after the first request is usable in the same turn, and
// deepcode's exit never waits for a server still connecting.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startHarness, type Harness } from "../helpers/harness.js";
import { chatBodies } from "../helpers/extension.js";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import type { JsonValue, StreamEvent, ToolSpec } from "../../src/contract/index.js";
import { withOptions } from "../../mods/mcp/index.js";
import { deepcode, mcpJson } from "./helpers.js";

const FAULTY = fileURLToPath(new URL("./fixtures/faulty-server.mjs", import.meta.url));
const SCRIPTED = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));

let h: Harness | undefined;
let dir: string | undefined;
let sim: Simulator | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  await h?.engine.close("exit");
  await h?.close();
  await sim?.close();
  env?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
  h = undefined;
  dir = undefined;
  sim = undefined;
  env = undefined;
});

function server(name: string, script: string, vars: Record<string, string>): JsonValue {
  return { name, scope: "user", source: "test", transport: "stdio", command: process.execPath, args: [script], env: { PATH: process.env.PATH ?? "", ...vars }, raw: {}, start: true, approval: "none" };
}

const results = (events: StreamEvent[]) => events.filter((e) => e.type === "tool.end").map((e) => (e as Extract<StreamEvent, { type: "tool.end" }>).output);

describe("MCP servers that start slowly or fail", () => {
  it("tries a failed first connection again, and the server's tools are in the first request", async () => {
    dir = mkdtempSync(join(tmpdir(), "deepcode-mcp-retry-"));
    const count = join(dir, "count");
    const config = { servers: [server("flaky", FAULTY, { FAIL_TIMES: "1", COUNT_FILE: count })], firstRequestWaitMs: 20_000, roots: [dir] };
    h = await startHarness({ script: { replies: [{ content: "ok" }] }, allowAll: true, mods: [withOptions(() => config)] });
    await h.turn("hi");
    expect(readFileSync(count, "utf8")).toBe("2");
    const names = (chatBodies(h.sim.requests)[0].tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(names).toContain("mcp__flaky__duplicate");
  });

  it("tells the model in the same turn about a server that connected after the first request, and its tool runs", async () => {
    dir = mkdtempSync(join(tmpdir(), "deepcode-mcp-midturn-"));
    const config = { servers: [server("late", SCRIPTED, { DELAY_MS: "1200" })], firstRequestWaitMs: 50, roots: [dir] };
    const wait: ToolSpec = { name: "Wait", description: "Waits a moment.", inputSchema: { type: "object", properties: {} }, readOnly: true, run: () => new Promise((r) => setTimeout(() => r({ content: "waited" }), 2500)) };
    h = await startHarness({
      script: { replies: [{ tool_calls: [{ name: "Wait", arguments: {} }] }, { tool_calls: [{ name: "UseTool", arguments: { name: "mcp__late__echo", input: { text: "same turn" } } }] }, { content: "done" }] },
      tools: [wait],
      allowAll: true,
      mods: [withOptions(() => config)],
    });
    const t = await h.turn("one turn only, as in -p");
    const [waited, echoed] = results(t);
    expect(waited.content).toMatch(/^waited\n\n\[deepcode\] MCP server late connected during this turn\. .*\n- mcp__late__echo: Echo the text\.$/s);
    expect(echoed.content).toBe('echo: {"text":"same turn"}');
  });

  it("-p exits at once when a server is still connecting (its start-up limit is 60 s)", async () => {
    sim = await startSimulator({ script: { default: { content: "answered without it" } }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url, {
      ".mcp.json": mcpJson({ hung: { command: process.execPath, args: [FAULTY], env: { HANG_INIT: "1" } } }),
      ".deepcode/settings.json": JSON.stringify({ enableAllProjectMcpServers: true, mcpStartupTimeoutMs: 60_000, mcpFirstRequestWaitMs: 300 }),
    });
    const started = Date.now();
    const r = await deepcode(env, ["-p", "--trust-project", "hi"], { timeoutMs: 25_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("answered without it");
    expect(r.stderr).toMatch(/MCP server hung is still connecting/);
    expect(Date.now() - started).toBeLessThan(25_000);
  });
});
