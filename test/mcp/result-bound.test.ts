// MAX_MCP_OUTPUT_TOKENS (mcpMaxOutputTokens) is the bound an MCP result gets: set above what the
// engine keeps of other tools' results (toolResultMaxBytes, 32 KiB), the model still reads the
// whole result, and below it the cut is the MCP bound's. Unset, the engine's bound is the one.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHarness, type Harness } from "../helpers/harness.js";
import { chatBodies } from "../helpers/extension.js";
import { toolResults } from "./helpers.js";
import type { Reply } from "../sim/server.mjs";
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

async function bigResult(maxOutputTokens: number | undefined, chars: number): Promise<string> {
  dir = mkdtempSync(join(tmpdir(), "deepcode-mcp-bound-"));
  const toolsFile = join(dir, "tools.json");
  writeFileSync(toolsFile, JSON.stringify([{ name: "big", description: "A long answer.", inputSchema: { type: "object", properties: { chars: { type: "number" } } } }]));
  const queue: Reply[] = [{ tool_calls: [{ name: "mcp__docs__big", arguments: { chars } }] }, { content: "done" }];
  const config = { servers: [scriptedServer("docs", { TOOLS_FILE: toolsFile })], firstRequestWaitMs: 15_000, ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }) };
  h = await startHarness({ script: { respond: () => queue.shift() ?? { content: "(no more)" } }, allowAll: true, mods: [withOptions(() => config)] });
  await h.turn("go");
  return toolResults(chatBodies(h.sim.requests))[0];
}

describe("MAX_MCP_OUTPUT_TOKENS bounds an MCP result", () => {
  it("lets the model read a 60,000-character result whole when the bound is 40,000 tokens", async () => {
    const text = await bigResult(40_000, 60_000);
    expect(text.length).toBe(60_000);
    expect(text).not.toMatch(/cut by deepcode/);
  });

  it("cuts a result at the MCP bound, naming it, when the bound is smaller than the result", async () => {
    const text = await bigResult(12_000, 120_000);
    expect(text).toMatch(/characters cut by deepcode: the result is longer than mcpMaxOutputTokens \(12000 tokens\)/);
    expect(text).not.toMatch(/results are kept to 32 KiB/);
    expect(text.length).toBeGreaterThan(33_000);
  });

  it("without a bound of the person's, an MCP result is kept to 32 KiB like any tool's (cost first)", async () => {
    const text = await bigResult(undefined, 120_000);
    expect(text).toMatch(/results are kept to 32 KiB/);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(32 * 1024);
  });
});
