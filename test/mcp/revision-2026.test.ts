// The MCP 2026-07-28 revision's client duties, through the real CLI against an HTTP server that
// speaks it (answers `initialize` with 2026-07-28) and records what arrives: the standard
// headers (Mcp-Method, Mcp-Name), a tool's x-mcp-header parameters mirrored into Mcp-Param-*
// (plain or base64, nulls left out), a tool with malformed annotations left out (said once),
// the tool's input schema reaching the model as sent, a multi-round-trip call (state echoed,
// a new id), and the version header and `_meta` on every request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { chatBodies } from "../helpers/extension.js";
import { deepcode, mcpJson, toolResults, type Run } from "./helpers.js";
import { encodeHeaderValue, headerParams, paramHeaders, standardHeaders } from "../../mods/mcp/headers.js";
import { schemaOf } from "../../mods/mcp/tool-spec.js";
import { validate } from "../../src/core/schema.js";

type Obj = Record<string, unknown>;
interface Seen { headers: IncomingHttpHeaders; body: Obj }

const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: { address: { $anchor: "addr", type: "object", properties: { city: { type: "string" } } } },
  properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" }, via: { type: "string", enum: ["phone", "email"] }, phone: { type: "string" }, email: { type: "string" } },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { via: { const: "phone" } }, required: ["via"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};
const TOOLS = [
  {
    name: "deploy",
    inputSchema: {
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        note: { type: "string", "x-mcp-header": "Note" },
        count: { type: "integer", "x-mcp-header": "Count" },
        dry: { type: "boolean", "x-mcp-header": "Dry" },
        verbose: { type: "boolean", "x-mcp-header": "Verbose" },
        query: { type: "string" },
      },
      required: ["region"],
    },
  },
  { name: "bad_dup", inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": "Zone" }, b: { type: "string", "x-mcp-header": "zone" } } } },
  { name: "contact", inputSchema: SCHEMA },
  { name: "confirm", inputSchema: { type: "object", properties: {} } },
];
const STATE = '{"opaque": "ü-7", "n": 1}';

const seen: Seen[] = [];
let mcp: Server;
let sim: Simulator;
let env: CliEnv;
let run: Run;

function answer(m: Obj): Obj | undefined {
  const p = (m.params ?? {}) as Obj;
  if (m.method === "initialize") return { protocolVersion: "2026-07-28", capabilities: { tools: {} }, serverInfo: { name: "rev", version: "1" } };
  if (m.method === "tools/list") return { resultType: "complete", tools: TOOLS };
  if (m.method === "tools/call" && p.name === "confirm" && !p.inputResponses) {
    return { resultType: "input_required", inputRequests: { ok: { method: "elicitation/create", params: { message: "Go on?", requestedSchema: { type: "object", properties: { yes: { type: "boolean" } } } } } }, requestState: STATE };
  }
  if (m.method === "tools/call") return { content: [{ type: "text", text: `${String(p.name)} ran` }] };
  return m.id === undefined ? undefined : {};
}

beforeAll(async () => {
  mcp = createServer((req, res) => {
    let text = "";
    req.on("data", (d: Buffer) => (text += d.toString()));
    req.on("end", () => {
      if (req.method !== "POST") return void res.writeHead(405).end();
      const body = JSON.parse(text) as Obj;
      seen.push({ headers: req.headers, body });
      const result = answer(body);
      if (!result) return void res.writeHead(202).end();
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result }));
    });
  });
  await new Promise<void>((r) => mcp.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(mcp.address() as AddressInfo).port}/mcp`;
  const calls = [
    { name: "mcp__rev__deploy", arguments: { region: "eu-west1", note: " Grüße\tund so", count: 3, dry: false, verbose: null, query: "SELECT 1" } },
    { name: "mcp__rev__contact", arguments: { name: "Ada", address: { city: "Paris" }, via: "phone", phone: "123" } },
    { name: "mcp__rev__confirm", arguments: {} },
  ];
  sim = await startSimulator({ apiKey: "sk-test-cli", script: { replies: [{ tool_calls: calls }, { content: "done" }] } });
  env = cliEnv(sim.url, {
    ".mcp.json": mcpJson({ rev: { type: "http", url } }),
    ".deepcode/settings.json": JSON.stringify({ enableAllProjectMcpServers: true, permissions: { allow: ["mcp__rev"] } }),
  });
  run = await deepcode(env, ["-p", "--trust-project", "use the rev tools"]);
}, 90_000);

afterAll(async () => {
  await sim?.close();
  env?.cleanup();
  await new Promise((r) => mcp?.close(r));
});

const callsOf = (tool: string): Seen[] => seen.filter((s) => s.body.method === "tools/call" && (s.body.params as Obj).name === tool);

describe("a server that speaks the MCP 2026-07-28 revision, through deepcode -p", () => {
  it("runs every call the model makes (none refused by deepcode's own argument check)", () => {
    expect(run.code).toBe(0);
    expect(toolResults(chatBodies(sim.requests))).toEqual(["deploy ran", "contact ran", "confirm ran"]);
  });

  it("sends Mcp-Method on every POST and Mcp-Name on a tool call", () => {
    for (const s of seen) expect(s.headers["mcp-method"]).toBe(s.body.method);
    expect(callsOf("deploy")[0].headers["mcp-name"]).toBe("deploy");
  });

  it("mirrors x-mcp-header parameters into Mcp-Param-* headers: plain when safe, base64 otherwise, null and unannotated left out", () => {
    const h = callsOf("deploy")[0].headers;
    expect(h["mcp-param-region"]).toBe("eu-west1");
    expect(h["mcp-param-count"]).toBe("3");
    expect(h["mcp-param-dry"]).toBe("false");
    expect(h["mcp-param-note"]).toBe(`=?base64?${Buffer.from(" Grüße\tund so").toString("base64")}?=`);
    expect(h["mcp-param-verbose"]).toBeUndefined();
    expect(Object.keys(h).filter((k) => k.startsWith("mcp-param-")).sort()).toEqual(["mcp-param-count", "mcp-param-dry", "mcp-param-note", "mcp-param-region"]);
  });

  it("leaves out a tool whose x-mcp-header annotations are malformed, says so once, and keeps the others", () => {
    const names = (chatBodies(sim.requests)[0].tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(["mcp__rev__deploy", "mcp__rev__contact", "mcp__rev__confirm"]));
    expect(names).not.toContain("mcp__rev__bad_dup");
    expect(`${run.stdout}${run.stderr}`.match(/tool bad_dup left out \(parameters a and b both name header zone/g)).toHaveLength(1);
  });

  it("gives the model the tool's input schema exactly as the server sent it ($schema, $defs, $ref, composition, conditionals)", () => {
    const tool = (chatBodies(sim.requests)[0].tools as Array<{ function: { name: string; parameters: unknown } }>).find((t) => t.function.name === "mcp__rev__contact");
    expect(tool?.function.parameters).toEqual(SCHEMA);
  });

  it("answers a multi-round-trip call: the same call again with a new id, the request state exactly as sent, the answers keyed as asked", () => {
    const [first, retry] = callsOf("confirm");
    expect(retry.body.id).not.toBe(first.body.id);
    const p = retry.body.params as Obj;
    expect(p.requestState).toBe(STATE);
    expect(Object.keys(p.inputResponses as Obj)).toEqual(["ok"]);
    expect((first.body.params as Obj).requestState).toBeUndefined();
    for (const other of [...callsOf("deploy"), ...callsOf("contact")]) expect((other.body.params as Obj).requestState).toBeUndefined();
  });

  it("sends the version header and _meta (version, capabilities, client info) on every request, initialize included", () => {
    const requests = seen.filter((s) => s.body.id !== undefined);
    expect(requests[0].body.method).toBe("initialize");
    for (const s of requests) {
      const meta = (s.body.params as Obj)._meta as Obj;
      expect(s.headers["mcp-protocol-version"]).toBe(meta["io.modelcontextprotocol/protocolVersion"]);
      expect(meta["io.modelcontextprotocol/clientCapabilities"]).toEqual(expect.any(Object));
      expect(meta["io.modelcontextprotocol/clientInfo"]).toEqual(expect.objectContaining({ name: expect.any(String) }));
    }
    expect(requests.slice(1).every((s) => s.headers["mcp-protocol-version"] === "2026-07-28")).toBe(true);
  });
});

describe("x-mcp-header rules (headers.ts)", () => {
  it("encodes a value as base64 when it has non-ASCII, control characters or outer blanks, else plainly", () => {
    expect(encodeHeaderValue("us west 1")).toBe("us west 1");
    expect(encodeHeaderValue("")).toBe("");
    for (const v of ["Hello, 世界", " padded", "padded ", "line1\r\nline2", "\tindented"]) {
      expect(encodeHeaderValue(v)).toBe(`=?base64?${Buffer.from(v, "utf8").toString("base64")}?=`);
    }
  });

  it("refuses empty, non-primitive, number-typed, case-duplicate and badly spelled header names", () => {
    const bad: Array<[Obj, RegExp]> = [
      [{ v: { type: "string", "x-mcp-header": "" } }, /non-empty/],
      [{ v: { type: "object", "x-mcp-header": "V" } }, /only on string, integer and boolean/],
      [{ v: { type: "number", "x-mcp-header": "V" } }, /only on string, integer and boolean/],
      [{ a: { type: "string", "x-mcp-header": "MyField" }, b: { type: "string", "x-mcp-header": "myfield" } }, /both name header/],
      [{ v: { type: "string", "x-mcp-header": "Région" } }, /not a valid header name/],
      [{ v: { type: "string", "x-mcp-header": "Region:Primary" } }, /not a valid header name/],
    ];
    for (const [properties, why] of bad) {
      const r = headerParams({ type: "object", properties } as never);
      expect(r.ok ? "accepted" : r.why).toMatch(why);
    }
    const ok = headerParams({ type: "object", properties: { r: { type: "string", "x-mcp-header": "Region" }, n: { type: ["integer", "null"], "x-mcp-header": "N" }, q: { type: "string" } } });
    expect(ok.ok && paramHeaders(ok.params, { r: "x", n: null, q: "y" })).toEqual({ "Mcp-Param-Region": "x" });
    expect(headerParams({ type: "object", properties: { n: { type: ["null"], "x-mcp-header": "N" } } }).ok).toBe(false);
  });

  it("names what a prompts/get or resources/read is about in Mcp-Name, and only the method on other messages", () => {
    expect(standardHeaders({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "file:///a b.txt" } })).toEqual({ "mcp-method": "resources/read", "mcp-name": "file:///a b.txt" });
    expect(standardHeaders({ jsonrpc: "2.0", id: 2, method: "prompts/get", params: { name: "review" } })).toEqual({ "mcp-method": "prompts/get", "mcp-name": "review" });
    expect(standardHeaders({ jsonrpc: "2.0", method: "notifications/initialized" })).toEqual({ "mcp-method": "notifications/initialized" });
    expect(standardHeaders({ jsonrpc: "2.0", id: 3, result: {} })).toEqual({});
  });
});

describe("an input schema kept as sent (tool-spec.ts) and the argument check (src/core/schema.ts)", () => {
  it("keeps $schema and every 2020-12 keyword of a tool's input schema", () => {
    expect(schemaOf(SCHEMA as never)).toEqual(SCHEMA);
  });

  it("does not refuse a valid call for keywords it does not implement ($ref, allOf, if/then/else, patternProperties)", () => {
    expect(validate(SCHEMA as never, { name: "Ada", address: { city: "Paris" }, via: "phone", phone: "1" }).ok).toBe(true);
    const pp = { type: "object", properties: { a: { type: "string" } }, patternProperties: { "^x-": { type: "string" } }, additionalProperties: false };
    expect(validate(pp as never, { a: "1", "x-b": "2" }).ok).toBe(true);
    expect(validate(pp as never, { a: "1", c: "2" }).ok).toBe(false);
    expect(validate({ type: "object", properties: { id: { type: "string", pattern: "(?<=a" } } } as never, { id: "x" }).ok).toBe(true);
  });

  it("reads a null for an optional parameter as not given, and still refuses one for a required parameter", () => {
    const s = { type: "object", properties: { region: { type: "string" }, verbose: { type: "boolean" } }, required: ["region"] };
    expect(validate(s as never, { region: "eu", verbose: null })).toEqual({ ok: true, value: { region: "eu" }, errors: [] });
    expect(validate(s as never, { region: null }).ok).toBe(false);
  });
});
