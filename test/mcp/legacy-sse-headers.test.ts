// The legacy HTTP+SSE transport sends the 2026-07-28 revision's headers where they apply — on
// every POST to the server's message endpoint — as the Streamable HTTP transport does (one
// mechanism: headers.ts postHeaders): Mcp-Method, Mcp-Name, a tool's x-mcp-header parameters
// as Mcp-Param-*, and MCP-Protocol-Version. Through the real CLI against a legacy SSE server on
// 127.0.0.1 (GET /sse opens the stream and names /message; answers come on the stream) that
// records what arrives.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { chatBodies } from "../helpers/extension.js";
import { deepcode, mcpJson, toolResults, type Run } from "./helpers.js";
import { encodeHeaderValue } from "../../mods/mcp/headers.js";
import { PROTOCOL_VERSIONS } from "../../mods/mcp/client.js";

type Obj = Record<string, unknown>;
interface Seen { method: string; path: string; headers: IncomingHttpHeaders; body?: Obj }

/** What the server answers `initialize` with (not the client's first offer: the header must follow it). */
const AGREED = "2025-06-18";
const TOOLS = [
  {
    name: "deploy",
    inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" }, note: { type: "string", "x-mcp-header": "Note" }, query: { type: "string" } }, required: ["region"] },
  },
];

const seen: Seen[] = [];
let mcp: Server;
let stream: ServerResponse | undefined;
let sim: Simulator;
let env: CliEnv;
let run: Run;

function answer(m: Obj): Obj | undefined {
  const p = (m.params ?? {}) as Obj;
  if (m.method === "initialize") return { protocolVersion: AGREED, capabilities: { tools: {} }, serverInfo: { name: "old", version: "1" } };
  if (m.method === "tools/list") return { tools: TOOLS };
  if (m.method === "tools/call") return { content: [{ type: "text", text: `${String(p.name)} ran in ${String((p.arguments as Obj).region)}` }] };
  return m.id === undefined ? undefined : {};
}

beforeAll(async () => {
  mcp = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (req.method === "GET" && path === "/sse") {
      seen.push({ method: "GET", path, headers: req.headers });
      stream = res;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write("event: endpoint\ndata: /message?session=1\n\n");
      return;
    }
    let text = "";
    req.on("data", (d: Buffer) => (text += d.toString()));
    req.on("end", () => {
      if (req.method !== "POST" || path !== "/message") return void res.writeHead(404).end();
      const body = JSON.parse(text) as Obj;
      seen.push({ method: "POST", path, headers: req.headers, body });
      res.writeHead(202).end("Accepted");
      const result = answer(body);
      if (result) stream?.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: body.id, result })}\n\n`);
    });
  });
  await new Promise<void>((r) => mcp.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(mcp.address() as AddressInfo).port}/sse`;
  const call = { name: "mcp__old__deploy", arguments: { region: "eu-west1", note: " Grüße", query: "SELECT 1" } };
  sim = await startSimulator({ apiKey: "sk-test-cli", script: { replies: [{ tool_calls: [call] }, { content: "done" }] } });
  env = cliEnv(sim.url, {
    ".mcp.json": mcpJson({ old: { type: "sse", url } }),
    ".deepcode/settings.json": JSON.stringify({ enableAllProjectMcpServers: true, permissions: { allow: ["mcp__old"] } }),
  });
  run = await deepcode(env, ["-p", "--trust-project", "deploy it"]);
}, 90_000);

afterAll(async () => {
  await sim?.close();
  env?.cleanup();
  stream?.end();
  mcp?.closeAllConnections();
  await new Promise((r) => mcp?.close(r));
});

const posts = (): Seen[] => seen.filter((s) => s.method === "POST");

describe("the legacy HTTP+SSE transport, through deepcode -p", () => {
  it("runs the tool call over the legacy transport", () => {
    expect(run.code).toBe(0);
    expect(toolResults(chatBodies(sim.requests))).toEqual([expect.stringContaining("deploy ran in eu-west1")]);
    expect(posts().map((s) => s.body?.method)).toEqual(expect.arrayContaining(["initialize", "notifications/initialized", "tools/list", "tools/call"]));
  });

  it("sends Mcp-Method on every POST to the message endpoint, and Mcp-Name on the tool call", () => {
    for (const p of posts()) expect(p.headers["mcp-method"]).toBe(p.body?.method);
    const call = posts().find((s) => s.body?.method === "tools/call")!;
    expect(call.headers["mcp-name"]).toBe("deploy");
    expect(posts().filter((s) => s.body?.method !== "tools/call").every((s) => s.headers["mcp-name"] === undefined)).toBe(true);
  });

  it("mirrors the tool's x-mcp-header parameters into Mcp-Param-* (base64 where a value is not plain ASCII)", () => {
    const call = posts().find((s) => s.body?.method === "tools/call")!;
    expect(call.headers["mcp-param-region"]).toBe("eu-west1");
    expect(call.headers["mcp-param-note"]).toBe(encodeHeaderValue(" Grüße"));
    expect(call.headers["mcp-param-note"]).toMatch(/^=\?base64\?/);
    expect(Object.keys(call.headers).filter((h) => h.startsWith("mcp-param-")).sort()).toEqual(["mcp-param-note", "mcp-param-region"]);
  });

  it("sends MCP-Protocol-Version on every POST: the offered version on initialize, the agreed one after", () => {
    const [init, ...rest] = posts();
    expect(init.body?.method).toBe("initialize");
    expect(init.headers["mcp-protocol-version"]).toBe(PROTOCOL_VERSIONS[0]);
    expect(rest.length).toBeGreaterThan(0);
    for (const p of rest) expect(p.headers["mcp-protocol-version"]).toBe(AGREED);
  });

  it("sends none of them on the GET that opens the stream (before any version, naming no message)", () => {
    const get = seen.find((s) => s.method === "GET")!;
    expect(get.headers["mcp-method"]).toBeUndefined();
    expect(get.headers["mcp-protocol-version"]).toBeUndefined();
  });
});
