// A damaged sign-in file (mcp-oauth.json that is not JSON): `-p` names the file and what to do
// with it, instead of saying the server is "still connecting".
import { afterEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { deepcode, mcpJson } from "../mcp/helpers.js";
import { startFake, type Fake } from "./fake-oauth.js";

let fake: Fake | undefined;
let env: CliEnv | undefined;
let sim: Simulator | undefined;
afterEach(async () => {
  await fake?.close();
  await sim?.close();
  env?.cleanup();
  fake = env = sim = undefined;
});

describe("a damaged MCP sign-in file", () => {
  it("is named by -p, with what to do, and the server is not said to be still connecting", async () => {
    fake = await startFake({});
    sim = await startSimulator({ script: { default: { content: "done" } }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url, {});
    writeFileSync(join(env.home, "mcp.json"), mcpJson({ remote: { type: "http", url: fake.url } }));
    const file = join(env.home, "mcp-oauth.json");
    writeFileSync(file, '{"remote http://x": {"tokens": {"acc');
    const r = await deepcode(env, ["-p", "hello"]);
    const said = `${r.stdout}\n${r.stderr}`;
    expect(said, said).toContain(`MCP server remote failed to start: ${file} is not a JSON object: remove it to start it afresh`);
    expect(said).not.toMatch(/still connecting/);
  });
});
