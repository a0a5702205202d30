// The Streamable HTTP transport with a server in the test (issue 28): one abort listener per
// connection (with more than ten requests in flight, a MaxListenersExceededWarning reached the
// REPL's screen: the server answers each tools/call after a pause, so twenty are in flight at
// once), and a garbled message on an SSE answer fails the waiting call at once.
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpClient } from "../../mods/mcp/client.js";
import { StreamableHttpTransport } from "../../mods/mcp/streamable.js";

let server: HttpServer | undefined;
let client: McpClient | undefined;
afterEach(async () => {
  await client?.close();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = client = undefined;
});

function slowServer(garbled = false): Promise<string> {
  server = createServer((req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const m = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
      if (m.id === undefined) return void res.writeHead(202).end();
      const answer = (result: unknown): void => void res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" }).end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
      if (m.method === "initialize") return answer({ protocolVersion: m.params!.protocolVersion, serverInfo: { name: "slow", version: "1" }, capabilities: { tools: {} } });
      // garbled: an SSE answer whose message is cut mid-JSON, the stream left open.
      if (garbled) return void res.writeHead(200, { "content-type": "text/event-stream" }).write(`id: 1\ndata: \n\ndata: {"jsonrpc":"2.0","id":${m.id},"result":{"content":[{"ty\n\n`);
      setTimeout(() => answer({ content: [{ type: "text", text: `done ${m.id}` }] }), 300);
    });
  });
  return new Promise((resolve) => server!.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server!.address() as AddressInfo).port}/mcp`)));
}

describe("the HTTP transports with many requests in flight", () => {
  it("run twenty concurrent calls without a MaxListenersExceededWarning", async () => {
    const url = await slowServer();
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on("warning", onWarning);
    try {
      client = await McpClient.connect(new StreamableHttpTransport({ url, headers: {} }), { clientInfo: { name: "t", version: "0" }, handlers: {}, timeoutMs: 10_000, requestTimeoutMs: 10_000 });
      const results = await Promise.all(Array.from({ length: 20 }, () => client!.callTool("x", {}, { timeoutMs: 10_000 })));
      expect(results).toHaveLength(20);
      await new Promise((r) => setImmediate(r)); // a warning is emitted on the next tick
      expect(warnings.filter((w) => w.includes("MaxListenersExceeded"))).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("fails a call at once when its SSE answer carries a garbled message", async () => {
    const url = await slowServer(true);
    client = await McpClient.connect(new StreamableHttpTransport({ url, headers: {} }), { clientInfo: { name: "t", version: "0" }, handlers: {}, timeoutMs: 60_000, requestTimeoutMs: 60_000 });
    await expect(client.callTool("x", {}, { timeoutMs: 60_000 })).rejects.toThrow(/not a JSON-RPC message: \{"jsonrpc":"2.0","id":2,"result":\{"content":\[\{"ty/);
  });
});
