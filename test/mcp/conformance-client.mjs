#!/usr/bin/env node
// A client driver for the official MCP conformance suite (@modelcontextprotocol/conformance),
// built on deepcode's own MCP client (the compiled mcp mod in dist/). The suite starts a test
// server per scenario and runs `node conformance-client.mjs <server-url>` with the scenario in
// MCP_CONFORMANCE_SCENARIO. The driver does what deepcode does with a server: the handshake,
// tools/list, a call of each tool (arguments made from its schema), and answers the server's
// requests as deepcode does — an elicitation form accepted with every field left at its
// default (a person pressing Enter on each), a sampling request answered with a fixed text
// (the simulator's role here: no model is called), roots: this folder.
import { pathToFileURL } from "node:url";
import { argsFor } from "./conformance-args.mjs";

const dist = new URL("../../dist/mods/mcp/", import.meta.url);
const { McpClient } = await import(new URL("client.js", dist).href);
const { StreamableHttpTransport } = await import(new URL("streamable.js", dist).href);
const { fieldsOf, contentOf } = await import(new URL("forms.js", dist).href);

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";


const client = await McpClient.connect(new StreamableHttpTransport({ url, headers: {} }), {
  clientInfo: { name: "deepcode-conformance", version: "0.1.0" },
  timeoutMs: 10_000,
  requestTimeoutMs: 10_000,
  handlers: {
    roots: () => [{ uri: pathToFileURL(process.cwd()).href, name: "project" }],
    elicitation: async (params) => {
      const fields = fieldsOf(params.requestedSchema ?? {});
      const { content, problems } = contentOf(fields, {});
      return problems.length ? { action: "decline" } : { action: "accept", content };
    },
    sampling: async () => ({ role: "assistant", content: { type: "text", text: "A reply from the conformance driver." }, model: "deepseek-flash", stopReason: "endTurn" }),
    log: () => undefined,
  },
});
process.stderr.write(`connected to ${client.info.name} (protocol ${client.info.protocolVersion}) for ${scenario || "(no scenario)"}\n`);
if (client.has("tools")) {
  for (const t of await client.listTools()) {
    const r = await client.callTool(t.name, argsFor(t.inputSchema), { timeoutMs: 20_000 });
    process.stderr.write(`${t.name}: ${JSON.stringify(r).slice(0, 300)}\n`);
  }
}
await client.close();
