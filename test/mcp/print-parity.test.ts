// -p parity (issue 28): an MCP server's prompt commands and `/mcp` work in `deepcode -p` as in the
// REPL, and `deepcode mcp list --mcp-config F` lists the servers of F.
import { afterEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { chatBodies } from "../helpers/extension.js";
import { deepcode, everythingStdio, mcpJson } from "./helpers.js";

let sim: Simulator | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  await sim?.close();
  env?.cleanup();
  sim = undefined;
  env = undefined;
});

async function setup(): Promise<{ env: CliEnv; config: string }> {
  sim = await startSimulator({ script: { default: { content: "It is sunny there." } }, apiKey: "sk-test-cli" });
  env = cliEnv(sim.url, {});
  const config = join(env.root, "servers.json");
  writeFileSync(config, mcpJson({ everything: everythingStdio() }));
  return { env, config };
}

describe("MCP in -p as in the REPL", () => {
  it("runs an MCP prompt command: the server's prompt becomes the turn's prompt", async () => {
    const { env, config } = await setup();
    const r = await deepcode(env, ["--mcp-config", config, "-p", "/mcp__everything__args-prompt Paris Texas"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("It is sunny there.");
    const bodies = chatBodies(sim!.requests);
    expect(bodies).toHaveLength(1);
    expect(String(bodies[0].messages.at(-1)!.content)).toBe("What's weather in Paris, Texas?");
  });

  it("runs /mcp: the servers' states on stdout, and no model request", async () => {
    const { env, config } = await setup();
    const r = await deepcode(env, ["--mcp-config", config, "-p", "/mcp"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/● everything\s+connected · \d+ tools, 4 prompts/);
    expect(chatBodies(sim!.requests)).toHaveLength(0);
    const json = await deepcode(env, ["--mcp-config", config, "-p", "--output-format", "json", "/mcp everything"]);
    const result = JSON.parse(json.stdout.trim()) as { is_error: boolean; result: string };
    expect(result.is_error).toBe(false);
    expect(result.result).toMatch(/^everything: connected ·[\s\S]*prompts\s+\/mcp__everything__args-prompt/m);
  });

  it("deepcode mcp list --mcp-config F lists F's servers", async () => {
    const { env, config } = await setup();
    const r = await deepcode(env, ["mcp", "list", "--mcp-config", config]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/● everything\s+connected · \d+ tools, 4 prompts, \d+ resources .*· flag: /);
    const strict = await deepcode(env, ["mcp", "get", "everything", "--strict-mcp-config", "--mcp-config", config]);
    expect(strict.stdout).toMatch(/^everything: connected/m);
  });
});
