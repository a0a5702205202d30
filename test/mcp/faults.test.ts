// Servers that misbehave (issue 28): each fault fails the call at once with a reason, not at
// the time limit (60 s here, so a test that waits for it fails on vitest's 10 s), and no
// fault turns into an empty success.
import { afterEach, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { McpClient } from "../../mods/mcp/client.js";
import { StdioTransport } from "../../mods/mcp/stdio.js";

const FAULTY = fileURLToPath(new URL("./fixtures/faulty-server.mjs", import.meta.url));
const open: McpClient[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function connect(): Promise<McpClient> {
  const t = new StdioTransport({ command: process.execPath, args: [FAULTY], env: { PATH: process.env.PATH ?? "" }, cwd: process.cwd(), stderr: () => undefined });
  const c = await McpClient.connect(t, { clientInfo: { name: "t", version: "0" }, handlers: {}, timeoutMs: 60_000, requestTimeoutMs: 60_000 });
  open.push(c);
  return c;
}

const call = (c: McpClient, name: string, o: { timeoutMs?: number; progress?: boolean } = {}) =>
  c.callTool(name, {}, { timeoutMs: o.timeoutMs ?? 60_000, ...(o.progress ? { onProgress: () => undefined } : {}) });

describe("an MCP server that misbehaves", () => {
  it("a string-valued JSON-RPC error is an error with its text, not an empty success", async () => {
    const c = await connect();
    await expect(call(c, "string_error")).rejects.toThrow("the disk is on fire");
  });

  it("a garbled reply fails the waiting call at once", async () => {
    const c = await connect();
    await expect(call(c, "garbled")).rejects.toThrow(/not a JSON-RPC message: \{"jsonrpc":"2.0"/);
  });

  it("a reply to an id deepcode never sent fails the waiting call at once", async () => {
    const c = await connect();
    await expect(call(c, "unmatched")).rejects.toThrow(/answered a request deepcode never sent \(id 987654\)/);
  });

  it("progress notifications do not extend a call past three times its time limit", async () => {
    const c = await connect();
    const started = Date.now();
    await expect(call(c, "progress_forever", { timeoutMs: 300, progress: true })).rejects.toThrow(/still reporting progress after 1 s, the most a call may run/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("the connection still works after a garbled reply failed a call", async () => {
    const c = await connect();
    await expect(call(c, "garbled")).rejects.toThrow();
    await expect(call(c, "duplicate")).resolves.toMatchObject({ structuredContent: { content: expect.any(String) } });
  });
});
