#!/usr/bin/env node
// A client for the official MCP conformance suite that goes through the real CLI, as a person
// would: the suite starts a scenario's server and runs `node cli-client.mjs <server-url>`; this
// configures that server as the person's own (`~/.deepcode/mcp.json`, with `oauth.clientId`
// where the scenario hands a pre-registered client) in a fresh home, then runs
//   deepcode -p "…"            (the DeepSeek API is test/sim's simulator; its model calls every
//                               tool of the server once, with arguments made from the schema)
// and, whenever deepcode says the server needs sign-in (at start, or a tool's 403 step-up),
//   deepcode mcp login conf    (the "browser" is test/mcp-oauth/fixtures/browser.mjs, as
//                               $BROWSER: it follows the authorization server's redirect)
// and `-p` again — at most three sign-ins. Exit 0 when the last `-p` ran every tool call.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator } from "../sim/server.mjs";
import { argsFor } from "../mcp/conformance-args.mjs";

const BIN = fileURLToPath(new URL("../../bin/deepcode.js", import.meta.url));
const BROWSER = `${process.execPath} ${fileURLToPath(new URL("../mcp-oauth/fixtures/browser.mjs", import.meta.url))}`;
const url = process.argv[process.argv.length - 1];
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");
const say = (line) => process.stderr.write(`[cli-client] ${line}\n`);


// The model: call every tool of the server (the `mcp__conf__` ones in the request), then stop.
const sim = await startSimulator({
  apiKey: "sk-conformance",
  script: {
    respond: (req) => {
      const last = req.messages[req.messages.length - 1];
      if (last.role === "tool") return { content: "Every tool of the server was called." };
      const tools = (req.tools ?? []).filter((t) => t.function.name.startsWith("mcp__conf__"));
      if (tools.length === 0) return { content: "The server offers no tools." };
      // The scenario names the calls to make (MCP_CONFORMANCE_CONTEXT toolCalls): exactly those.
      if (Array.isArray(context.toolCalls)) return { tool_calls: context.toolCalls.map((c) => ({ name: `mcp__conf__${c.name}`, arguments: c.arguments ?? {} })) };
      return { tool_calls: tools.map((t) => ({ name: t.function.name, arguments: argsOf(t, tools) })) };
    },
  },
});
// A tool that asks for another tool's input schema back (`schema`: "The inputSchema the client
// observed for X"): given X's parameters exactly as deepcode sent them to the model.
function argsOf(t, tools) {
  const echo = /inputSchema the client observed for (\S+?),? passed back/.exec(t.function.parameters?.properties?.schema?.description ?? "");
  const focal = echo && tools.find((o) => o.function.name === `mcp__conf__${echo[1]}`);
  return focal ? { schema: focal.function.parameters } : argsFor(t.function.parameters);
}
const home = mkdtempSync(join(tmpdir(), "deepcode-conformance-home-"));
const root = mkdtempSync(join(tmpdir(), "deepcode-conformance-proj-"));
// The suite's Client ID Metadata Document URL (what a client that publishes one configures);
// used only where the authorization server says it accepts such client ids.
// Nobody answers forms in -p: the person who runs a server unattended lets deepcode answer its
// forms with their defaults (`"elicitation": "defaults"`; SEP-1034's scenario checks them).
const server = { type: "http", url, elicitation: "defaults", oauth: { clientMetadataUrl: "https://conformance-test.local/client-metadata.json" } };
if (context.client_id) server.oauth = { clientId: context.client_id, ...(context.client_secret ? { clientSecret: context.client_secret } : {}) };
// A machine client (the client-credentials extension's scenarios hand one over): configured as
// such, with its private key in a file where the scenario gives a key.
if (context.private_key_pem) {
  writeFileSync(join(home, "client-key.pem"), context.private_key_pem, { mode: 0o600 });
  server.oauth = { grant: "client_credentials", clientId: context.client_id, privateKeyFile: join(home, "client-key.pem") };
} else if (/^auth\/client-credentials/.test(process.env.MCP_CONFORMANCE_SCENARIO ?? "")) server.oauth.grant = "client_credentials";
// Workload identity federation: the workload's token in a file (as a CI job or a pod has it).
if (context.valid_jwt) {
  writeFileSync(join(home, "workload.jwt"), context.valid_jwt, { mode: 0o600 });
  server.oauth = { grant: "jwt_bearer", clientId: context.client_id, assertionFile: join(home, "workload.jwt") };
}
// Enterprise-managed authorization: the person's ID token from their identity provider in a
// file, the identity provider by its issuer, the MCP client's secret through ${VAR}.
if (context.idp_id_token) {
  writeFileSync(join(home, "id-token.jwt"), context.idp_id_token, { mode: 0o600 });
  server.oauth = { grant: "id_jag", clientId: context.client_id, clientSecret: "${CONF_CLIENT_SECRET}", idp: { issuer: context.idp_issuer, clientId: context.idp_client_id, idTokenFile: join(home, "id-token.jwt") } };
}
writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: { conf: server } }));
writeFileSync(join(home, "settings.json"), JSON.stringify({ permissions: { allow: ["mcp__conf"] } }));
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, DEEPCODE_HOME: home, DEEPSEEK_BASE_URL: sim.url, DEEPSEEK_API_KEY: "sk-conformance", NO_COLOR: "1", BROWSER, ...(context.idp_id_token ? { CONF_CLIENT_SECRET: context.client_secret } : {}) };

function deepcode(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => {
      say(`deepcode ${args.join(" ").slice(0, 60)} → ${code}\n${out.trim().replace(/^/gm, "    ")}`);
      resolve({ code, out });
    });
  });
}

let code = 1;
try {
  for (let signIns = 0; ; signIns++) {
    const seen = sim.requests.length;
    const run = await deepcode(["-p", "Call every tool of the conf MCP server once."]);
    const results = sim.requests.slice(seen).flatMap((r) => (r.json?.messages ?? []).filter((m) => m.role === "tool").map((m) => String(m.content)));
    const needsSignIn = /needs sign-in/.test(run.out) || results.some((r) => r.includes("needs the user to sign in"));
    if (!needsSignIn) {
      // A server that implements no tools/call at all (json-schema-ref-no-deref's only lists
      // tools) answers "Method not found": deepcode delivered that faithfully, not a failure.
      const failed = results.filter((r) => /did not run|failed|not connected/.test(r) && !/answered with an error: Method not found \(-32601\)$/.test(r));
      for (const r of failed) say(`tool result: ${r.slice(0, 300)}`);
      code = run.code === 0 && failed.length === 0 ? 0 : 1;
      break;
    }
    if (signIns >= 3) break;
    const login = await deepcode(["mcp", "login", "conf"]);
    if (!/Signed in to conf/.test(login.out)) break;
  }
} finally {
  await sim.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
}
process.exit(code);
