// Issue 22: "`@server:file://…/.ssh/id_rsa` attaches an MCP resource with no secret check, and
// with no rule in -p". A file: resource is a file on this machine: it passes the Read tool's
// check too, so a secret is not attached (nobody can be asked in -p), an ordinary file is.
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { deepcode } from "../mcp/helpers.js";

const SERVER = fileURLToPath(new URL("../mcp/fixtures/scripted-server.mjs", import.meta.url));
let sim: Simulator | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  await sim?.close();
  env?.cleanup();
  sim = env = undefined;
});

describe("an MCP resource mention of a local file", () => {
  it("does not attach ~/.ssh/id_rsa (or a link to it) in -p, and attaches an ordinary file", async () => {
    sim = await startSimulator({ script: { default: { content: "ok" } }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url, { "readme.txt": "ORDINARY-TEXT\n" });
    mkdirSync(join(env.home, ".ssh"), { recursive: true });
    const key = join(env.home, ".ssh", "id_rsa");
    writeFileSync(key, "SECRET-KEY-MATERIAL\n", { mode: 0o600 });
    const config = JSON.stringify({ mcpServers: { files: { command: process.execPath, args: [SERVER], env: { FILE_RESOURCES: "1" } } } });
    const prompt = `look at @files:${pathToFileURL(key).href} and @files:${pathToFileURL(join(env.root, "readme.txt")).href}`;
    const r = await deepcode(env, ["-p", prompt, "--mcp-config", config]);
    expect(r.code, r.stderr).toBe(0);
    const sent = sim.requests.map((x) => x.body).join("\n");
    expect(sent).not.toContain("SECRET-KEY-MATERIAL");
    expect(sent).toContain("ORDINARY-TEXT");
    expect(sent).toMatch(/id_rsa: not attached: reading it needs approval/);
  });
});
