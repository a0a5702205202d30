// One abort listener per HTTP connection (issue 28: with more than ten requests in flight, a
// MaxListenersExceededWarning reached the REPL's screen). A Streamable HTTP server in the test
// answers each tools/call after a pause, so twenty calls are in flight at once.
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

function slowServer(): Promise<string> {
  server = createServer((req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const m = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
      if (m.id === undefined) return void res.writeHead(202).end();
      const answer = (result: unknown): void => void res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" }).end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
      if (m.method === "initialize") return answer({ protocolVersion: m.params!.protocolVersion, serverInfo: { name: "slow", version: "1" }, capabilities: { tools: {} } });
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
});
