// deepcode's MCP client against the real reference server (@modelcontextprotocol/server-everything)
// over all three transports: stdio, Streamable HTTP and the legacy HTTP+SSE. Everything stays on
// loopback: the HTTP servers are started here on free ports and reached at 127.0.0.1.
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClient, type ClientHandlers } from "../../mods/mcp/client.js";
import type { JsonObject, Transport } from "../../mods/mcp/jsonrpc.js";
import { StdioTransport } from "../../mods/mcp/stdio.js";
import { StreamableHttpTransport } from "../../mods/mcp/streamable.js";
import { LegacySseTransport } from "../../mods/mcp/legacy-sse.js";
import { toolOutput } from "../../mods/mcp/results.js";
import { contentOf, fieldsOf } from "../../mods/mcp/forms.js";
import { EVERYTHING } from "./helpers.js";
import { freePort } from "../helpers/free-port.js";


async function httpServer(mode: "streamableHttp" | "sse"): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { PATH: process.env.PATH ?? "", PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let err = "";
    const t = setTimeout(() => reject(new Error(`the everything server (${mode}) did not start: ${err}`)), 120_000);
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      if (/listening|running on port/i.test(err)) {
        clearTimeout(t);
        resolve();
      }
    });
  });
  return { child, port };
}

const seen = { elicited: [] as JsonObject[], sampled: [] as JsonObject[], logs: [] as JsonObject[] };
const handlers: ClientHandlers = {
  roots: () => [{ uri: "file:///tmp/deepcode-project", name: "deepcode-project" }],
  elicitation: async (params) => {
    seen.elicited.push(params);
    const fields = fieldsOf(params.requestedSchema as JsonObject);
    return { action: "accept", content: contentOf(fields, { name: "Ada", check: true, integer: 42 }).content as JsonObject };
  },
  sampling: async (params) => {
    seen.sampled.push(params);
    return { role: "assistant", content: { type: "text", text: "sampled reply" }, model: "deepseek-flash", stopReason: "endTurn" };
  },
  log: (p) => seen.logs.push(p),
};

const transports: Array<[string, () => Promise<{ transport: Transport; stop(): void }>]> = [
  ["stdio", async () => ({ transport: new StdioTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], env: { PATH: process.env.PATH ?? "" }, cwd: process.cwd(), stderr: () => undefined }), stop: () => undefined })],
  [
    "Streamable HTTP",
    async () => {
      const s = await httpServer("streamableHttp");
      return { transport: new StreamableHttpTransport({ url: `http://127.0.0.1:${s.port}/mcp`, headers: {} }), stop: () => s.child.kill() };
    },
  ],
  [
    "HTTP+SSE (legacy)",
    async () => {
      const s = await httpServer("sse");
      return { transport: new LegacySseTransport({ url: `http://127.0.0.1:${s.port}/sse`, headers: {}, timeoutMs: 60_000 }), stop: () => s.child.kill() };
    },
  ],
];

for (const [label, make] of transports) {
  describe(`the MCP client and the everything server over ${label}`, () => {
    let client: McpClient;
    let stop: () => void = () => undefined;
    beforeAll(async () => {
      const t = await make();
      stop = t.stop;
      client = await McpClient.connect(t.transport, { clientInfo: { name: "deepcode-test", version: "0" }, handlers, timeoutMs: 60_000, requestTimeoutMs: 60_000 });
    });
    afterAll(async () => {
      await client?.close();
      stop();
    });

    it("agrees on a protocol version and lists the tools (with their annotations)", async () => {
      expect(["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]).toContain(client.info.protocolVersion);
      const tools = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation", "trigger-elicitation-request", "trigger-sampling-request", "get-roots-list"]));
      expect(tools.find((t) => t.name === "get-sum")?.annotations?.readOnlyHint).toBe(true);
    });

    it("calls a tool and reads its text and structured results", async () => {
      expect(toolOutput("ev", "get-sum", await client.callTool("get-sum", { a: 2, b: 3 }, { timeoutMs: 60_000 }), 25_000).content).toMatch(/5/);
      const structured = toolOutput("ev", "get-structured-content", await client.callTool("get-structured-content", { location: "Chicago" }, { timeoutMs: 60_000 }), 25_000);
      expect(structured.content).toMatch(/temperature/);
    });

    it("says what an image result left out (DeepSeek reads text only)", async () => {
      const out = toolOutput("ev", "get-tiny-image", await client.callTool("get-tiny-image", {}, { timeoutMs: 60_000 }), 25_000);
      expect(out.content).toMatch(/left out what the model cannot read.*an image \(image\/png/s);
    });

    it("receives progress notifications of a long-running operation", async () => {
      const progress: number[] = [];
      const r = await client.callTool("trigger-long-running-operation", { duration: 1, steps: 3 }, { timeoutMs: 60_000, onProgress: (p) => progress.push(p.progress) });
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(JSON.stringify(r)).toMatch(/completed/i);
    });

    it("cancels a call when its signal aborts, and the connection goes on", async () => {
      const ctl = new AbortController();
      setTimeout(() => ctl.abort(), 200);
      await expect(client.callTool("trigger-long-running-operation", { duration: 5, steps: 5 }, { timeoutMs: 60_000, signal: ctl.signal })).rejects.toThrow(/cancelled/);
      expect(await client.ping()).toEqual({});
    });

    it("answers the server's elicitation with the form's defaults for what was left empty", async () => {
      const r = await client.callTool("trigger-elicitation-request", {}, { timeoutMs: 60_000 });
      expect(seen.elicited.length).toBeGreaterThan(0);
      expect(JSON.stringify(r)).toMatch(/Ada/);
    });

    it("answers a sampling request and lists the roots", async () => {
      const r = await client.callTool("trigger-sampling-request", { prompt: "say hi", maxTokens: 20 }, { timeoutMs: 60_000 });
      expect(JSON.stringify(r)).toMatch(/sampled reply/);
      const roots = await client.callTool("get-roots-list", {}, { timeoutMs: 60_000 });
      expect(JSON.stringify(roots)).toMatch(/deepcode-project/);
    });

    it("gets a prompt with arguments and completes an argument", async () => {
      const prompts = await client.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(["simple-prompt", "args-prompt", "completable-prompt"]));
      const r = await client.getPrompt("args-prompt", { city: "Paris", state: "Texas" });
      expect(JSON.stringify(r)).toMatch(/Paris/);
      expect(await client.complete({ type: "ref/prompt", name: "completable-prompt" }, { name: "department", value: "E" })).toContain("Engineering");
    });

    it("lists resources and templates and reads one of each", async () => {
      const resources = await client.listResources();
      expect(resources.length).toBeGreaterThan(0);
      const text = await client.readResource(resources[0].uri);
      expect(JSON.stringify(text)).toMatch(/contents/);
      const templates = await client.listTemplates();
      const t = templates.find((x) => x.uriTemplate.includes("text"))!;
      const r = await client.readResource(t.uriTemplate.replace(/\{[^}]+\}/, "3"));
      expect(JSON.stringify(r)).toMatch(/3/);
    });
  });
}

describe("Tab after @server: in the REPL (the mcp mod's mention completer)", () => {
  it("offers the resources, the templates' literal parts, and a template variable's values from the server's completion", async () => {
    const { registerResourceMentions } = await import("../../mods/mcp/resources.js");
    const client = await McpClient.connect(new StdioTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], env: { PATH: process.env.PATH ?? "" }, cwd: process.cwd(), stderr: () => undefined }), { clientInfo: { name: "t", version: "0" }, handlers: {}, timeoutMs: 60_000, requestTimeoutMs: 60_000 });
    try {
      const server = { name: "ev", state: "connected", client, resources: await client.listResources(), templates: await client.listTemplates(), describe: () => "connected" };
      let complete: ((p: string) => Promise<readonly string[]>) | undefined;
      const api = { on: () => () => undefined, mentions: (f: (p: string) => Promise<readonly string[]>) => ((complete = f), () => undefined) };
      registerResourceMentions(api as never, () => [server as never]);
      expect(await complete!("@e")).toEqual(["@ev:"]);
      expect(await complete!("@ev:demo://resource/static/document/arch")).toEqual(["@ev:demo://resource/static/document/architecture.md"]);
      expect(await complete!("@ev:demo://resource/dyn")).toEqual(["@ev:demo://resource/dynamic/text/", "@ev:demo://resource/dynamic/blob/"]);
      expect(await complete!("@ev:demo://resource/dynamic/text/7")).toEqual(["@ev:demo://resource/dynamic/text/7"]);
    } finally {
      await client.close();
    }
  });
});
