import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Script, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { chatBodies } from "../helpers/extension.js";
import { deepcode, everythingStdio, mcpJson, toolResults } from "./helpers.js";

let sim: Simulator | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  await sim?.close();
  env?.cleanup();
  sim = undefined;
  env = undefined;
});

async function setup(script: Script, files: Record<string, string>): Promise<CliEnv> {
  sim = await startSimulator({ script, apiKey: "sk-test-cli" });
  env = cliEnv(sim.url, files);
  return env;
}

const call = (name: string, args: object) => ({ tool_calls: [{ name, arguments: args }] });

describe("deepcode -p with a Claude Code .mcp.json (the real everything server over stdio)", () => {
  it("offers the server's tools in the first request's prefix and runs a call an allow rule permits", async () => {
    const e = await setup(
      { replies: [call("mcp__everything__echo", { message: "hello from the model" }), { content: "The server echoed it." }] },
      {
        ".mcp.json": mcpJson({ everything: everythingStdio() }),
        ".deepcode/settings.json": JSON.stringify({ enableAllProjectMcpServers: true, permissions: { allow: ["mcp__everything__echo"] } }),
      },
    );
    const r = await deepcode(e, ["-p", "--trust-project", "echo something"]);
    expect(r.stderr).not.toMatch(/still connecting/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("The server echoed it.");
    const bodies = chatBodies(sim!.requests);
    const names = (bodies[0].tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(names).toContain("mcp__everything__echo");
    expect(names).toContain("mcp__everything__get-sum");
    expect(toolResults(bodies)).toEqual([expect.stringContaining("hello from the model")]);
  });

  it("denies an MCP tool by default in -p (MCP tools ask, and nobody can answer), even one the server calls read-only", async () => {
    const e = await setup(
      { replies: [call("mcp__everything__get-sum", { a: 1, b: 2 }), { content: "denied, as expected" }] },
      { ".mcp.json": mcpJson({ everything: everythingStdio() }), ".deepcode/settings.json": JSON.stringify({ enableAllProjectMcpServers: true }) },
    );
    const r = await deepcode(e, ["-p", "--trust-project", "add"]);
    expect(r.code).toBe(0);
    expect(toolResults(chatBodies(sim!.requests))).toEqual([expect.stringMatching(/Permission denied for mcp__everything__get-sum/)]);
  });

  it("does not start the servers of an untrusted project, and says why", async () => {
    const e = await setup({ default: { content: "no tools" } }, { ".mcp.json": mcpJson({ everything: everythingStdio() }) });
    const r = await deepcode(e, ["-p", "hi"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/not trusted/);
    const names = (chatBodies(sim!.requests)[0].tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(names.filter((n) => n.startsWith("mcp__"))).toEqual([]);
  });

  it("leaves a project server that needs approval unstarted in -p and says how to approve it", async () => {
    const e = await setup({ default: { content: "ok" } }, { ".mcp.json": mcpJson({ everything: everythingStdio() }) });
    const r = await deepcode(e, ["-p", "--trust-project", "--output-format", "stream-json", "hi"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/MCP server everything \(from \.mcp\.json\) was not started: nobody can approve it here/);
    const names = (chatBodies(sim!.requests)[0].tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(names.some((n) => n.startsWith("mcp__"))).toBe(false);
  });
});
