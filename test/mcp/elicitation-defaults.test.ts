// A server's form (elicitation) where nobody can answer it: `deepcode -p` against a stdio
// server that asks a form during a tool call and answers the call with what it got back. Judged
// by what the server received: the form's defaults and "accept" only where the person's
// configuration says so (the entry's `"elicitation": "defaults"`, or settings `mcpElicitation`)
// and every required field has a default; "decline" otherwise, said on stderr naming the server.
// The managed policy's word is final; a project's settings count only once it is trusted.
import { afterEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator, type ChatRequestJson, type Simulator } from "../sim/server.mjs";
import { ASKING_USER_SETTINGS, cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { chatBodies } from "../helpers/extension.js";
import { deepcode, mcpJson, toolResults, type Run } from "./helpers.js";

const SCRIPTED = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));
const WITH_MANAGED = fileURLToPath(new URL("../helpers/cli-with-managed.mjs", import.meta.url));

/** Every field has a default; `size` is required. */
const ALL_DEFAULTS = {
  type: "object",
  properties: {
    name: { type: "string", default: "Ada" },
    size: { type: "integer", default: 3 },
    ratio: { type: "number", default: 0.5 },
    color: { type: "string", enum: ["red", "blue"], default: "blue" },
    ok: { type: "boolean", default: true },
    note: { type: "string" },
  },
  required: ["size"],
};
const ACCEPTED = { action: "accept", content: { name: "Ada", size: 3, ratio: 0.5, color: "blue", ok: true } };
/** A required field without a default. */
const NEEDS_TOKEN = { type: "object", properties: { name: { type: "string", default: "Ada" }, token: { type: "string", title: "Token" } }, required: ["token"] };

let sim: Simulator | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  await sim?.close();
  env?.cleanup();
  sim = undefined;
  env = undefined;
});

function server(schema: object, extra: object = {}): object {
  return { command: process.execPath, args: [SCRIPTED], env: { ELICIT_MESSAGE: "Which settings?", ELICIT_SCHEMA: JSON.stringify(schema) }, ...extra };
}

/** The person's own server `form` (~/.deepcode/mcp.json) and settings, the project's files;
 *  the model calls the server's tool once. What the server received comes back as the result. */
async function run(o: { entry: object; settings?: object; files?: Record<string, string>; args?: string[]; managed?: object }): Promise<{ r: Run; received: unknown }> {
  sim = await startSimulator({ apiKey: "sk-test-cli", script: { replies: [{ tool_calls: [{ name: "mcp__form__echo", arguments: { text: "x" } }] }, { content: "done" }] } });
  env = cliEnv(sim.url, o.files ?? {});
  writeFileSync(join(env.home, "mcp.json"), mcpJson({ form: o.entry }));
  writeFileSync(join(env.home, "settings.json"), JSON.stringify({ ...ASKING_USER_SETTINGS, permissions: { allow: ["mcp__form"] }, ...o.settings }));
  const args = [...(o.args ?? []), "-p", "call the form tool"];
  let r: Run;
  if (o.managed) {
    const file = join(env.home, "managed-settings.json");
    writeFileSync(file, JSON.stringify(o.managed));
    r = await deepcode(env, [file, ...args], { bin: WITH_MANAGED });
  } else r = await deepcode(env, args);
  expect(r.code).toBe(0);
  const [result] = toolResults(chatBodies(sim.requests));
  const m = /^elicited: (.*)$/s.exec(result ?? "");
  if (!m) throw new Error(`the tool result is not the server's echo: ${result}\nstderr: ${r.stderr}`);
  return { r, received: JSON.parse(m[1]) };
}

describe("a server's form in -p (nobody can answer it)", () => {
  it("is declined by default, and stderr names the server and the setting that answers it", async () => {
    const { r, received } = await run({ entry: server(ALL_DEFAULTS) });
    expect(received).toEqual({ action: "decline" });
    expect(r.stderr).toMatch(/MCP server form asked for a form nobody can answer here: declined \("elicitation": "defaults"/);
  });

  it("is answered with its defaults (accept) when the server's entry says \"elicitation\": \"defaults\"", async () => {
    const { r, received } = await run({ entry: server(ALL_DEFAULTS, { elicitation: "defaults" }) });
    expect(received).toEqual(ACCEPTED);
    expect(r.stderr).toMatch(/MCP server form asked for a form nobody can answer here: answered with its defaults/);
    // `deepcode mcp get` says so too.
    const get = await deepcode(env!, ["mcp", "get", "form"]);
    expect(get.stdout).toMatch(/forms +answered with their defaults where nobody can answer/);
  });

  it("is declined, naming the server and the field, when a required field has no default", async () => {
    const { r, received } = await run({ entry: server(NEEDS_TOKEN, { elicitation: "defaults" }) });
    expect(received).toEqual({ action: "decline" });
    expect(r.stderr).toMatch(/MCP server form asked for a form nobody can answer here: declined, as it cannot be answered with its defaults \(Token is required and has no default\)/);
  });

  it("is answered with its defaults under settings mcpElicitation \"defaults\"; the entry's \"ask\" wins over it", async () => {
    expect((await run({ entry: server(ALL_DEFAULTS), settings: { mcpElicitation: "defaults" } })).received).toEqual(ACCEPTED);
    await sim?.close();
    env?.cleanup();
    expect((await run({ entry: server(ALL_DEFAULTS, { elicitation: "ask" }), settings: { mcpElicitation: "defaults" } })).received).toEqual({ action: "decline" });
  });

  it("is declined when the managed policy says mcpElicitation \"ask\", whatever the entry says", async () => {
    const { received } = await run({ entry: server(ALL_DEFAULTS, { elicitation: "defaults" }), managed: { mcpElicitation: "ask" } });
    expect(received).toEqual({ action: "decline" });
  });

  it("follows a project's settings mcpElicitation only once the project is trusted", async () => {
    const files = { ".deepcode/settings.json": JSON.stringify({ mcpElicitation: "defaults" }) };
    expect((await run({ entry: server(ALL_DEFAULTS), files })).received).toEqual({ action: "decline" });
    await sim?.close();
    env?.cleanup();
    expect((await run({ entry: server(ALL_DEFAULTS), files, args: ["--trust-project"] })).received).toEqual(ACCEPTED);
  });

  it("follows a project server's own \"elicitation\": \"defaults\" (.mcp.json) once the project is trusted and the server approved", async () => {
    // Each run: the model calls the tool once, then stops.
    const respond = (req: ChatRequestJson) => (req.messages.at(-1)?.role === "tool" ? { content: "done" } : { tool_calls: [{ name: "mcp__proj__echo", arguments: { text: "x" } }] });
    sim = await startSimulator({ apiKey: "sk-test-cli", script: { respond } });
    env = cliEnv(sim.url, {
      ".mcp.json": mcpJson({ proj: server(ALL_DEFAULTS, { elicitation: "defaults" }) }),
      ".deepcode/settings.json": JSON.stringify({ enableAllProjectMcpServers: true, permissions: { allow: ["mcp__proj"] } }),
    });
    const untrusted = await deepcode(env, ["-p", "call it"]);
    expect(untrusted.stderr).toMatch(/not trusted/);
    const r = await deepcode(env, ["-p", "--trust-project", "call it"]);
    expect(r.code).toBe(0);
    expect(toolResults(chatBodies(sim.requests))).toEqual([`elicited: ${JSON.stringify(ACCEPTED)}`]);
  });
});
