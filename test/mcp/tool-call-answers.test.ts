// What the model is told when an MCP tool cannot run as asked: a tool of a server that is not
// connected, called through UseTool, names the server's state (not "Unknown tool"); a tool
// that runs only as a task (execution.taskSupport "required") is never offered, and the person
// is told why; a call stopped at the progress cap says so, not "no answer".
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHarness, type Harness } from "../helpers/harness.js";
import { chatBodies } from "../helpers/extension.js";
import type { Reply } from "../sim/server.mjs";
import type { JsonValue, StreamEvent } from "../../src/contract/index.js";
import { withOptions } from "../../mods/mcp/index.js";
import { scriptedServer } from "./scripted.js";

let h: Harness | undefined;
let dir: string | undefined;
afterEach(async () => {
  await h?.engine.close("exit");
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  h = undefined;
  dir = undefined;
});

async function run(config: Record<string, JsonValue>, replies: Reply[]): Promise<StreamEvent[]> {
  const queue = [...replies];
  h = await startHarness({ script: { respond: () => queue.shift() ?? { content: "(no more)" } }, allowAll: true, mods: [withOptions(() => config)] });
  return h.turn("go");
}

const results = (events: StreamEvent[]) => events.filter((e) => e.type === "tool.end").map((e) => (e as Extract<StreamEvent, { type: "tool.end" }>).output);

describe("An MCP tool that cannot run says why", () => {
  it("names the server's failure when a tool of a server that did not start is called through UseTool", async () => {
    const events = await run({ servers: [scriptedServer("gone", {}, "/nonexistent/deepcode-test-server")], firstRequestWaitMs: 15_000 }, [
      { tool_calls: [{ name: "UseTool", arguments: { name: "mcp__gone__echo", input: { text: "hi" } } }] },
      { content: "done" },
    ]);
    const out = results(events)[0];
    expect(out.isError).toBe(true);
    expect(out.content).toMatch(/mcp__gone__echo is not available now: MCP server gone is not connected \(failed: command not found/);
    expect(out.content).not.toMatch(/Unknown tool/);
  });

  it("does not offer a tool that runs only as a task, and tells the person why it is left out", async () => {
    dir = mkdtempSync(join(tmpdir(), "deepcode-mcp-task-"));
    const toolsFile = join(dir, "tools.json");
    const plain = { name: "echo", description: "Echo the text.", inputSchema: { type: "object", properties: {} } };
    const taskOnly = { name: "render", description: "Render a video.", inputSchema: { type: "object", properties: {} }, execution: { taskSupport: "required" } };
    const taskOptional = { name: "index", description: "Index things.", inputSchema: { type: "object", properties: {} }, execution: { taskSupport: "optional" } };
    writeFileSync(toolsFile, JSON.stringify([plain, taskOnly, taskOptional]));
    const events = await run({ servers: [scriptedServer("studio", { TOOLS_FILE: toolsFile })], firstRequestWaitMs: 15_000 }, [{ content: "done" }]);
    const offered = (chatBodies(h!.sim.requests)[0].tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(offered).toContain("mcp__studio__echo");
    expect(offered).toContain("mcp__studio__index");
    expect(offered).not.toContain("mcp__studio__render");
    const said = [...h!.warnings, ...events.filter((e) => e.type === "notice").map((e) => (e as { message: string }).message)].join("\n");
    expect(said).toMatch(/tool render left out \(it runs only as a task/);
  });

  it("reports a call stopped at the progress cap as still running, not as no answer", async () => {
    dir = mkdtempSync(join(tmpdir(), "deepcode-mcp-cap-"));
    const toolsFile = join(dir, "tools.json");
    writeFileSync(toolsFile, JSON.stringify([{ name: "ticking", description: "Works for ever.", inputSchema: { type: "object", properties: {} } }]));
    const events = await run({ servers: [scriptedServer("slow", { TOOLS_FILE: toolsFile })], firstRequestWaitMs: 15_000, toolTimeoutMs: 1000 }, [
      { tool_calls: [{ name: "mcp__slow__ticking", arguments: {} }] },
      { content: "done" },
    ]);
    const out = results(events)[0];
    expect(out.isError).toBe(true);
    expect(out.content).toMatch(/still reporting progress after 3 s, the most a call may run/);
    expect(out.content).not.toMatch(/no answer within/);
  });
});
