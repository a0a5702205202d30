// `deepcode mcp …` from the shell: add (stdio with env, http with headers, add-json) in each
// scope, list with each server's state (it connects to check), get, remove.
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { deepcode, EVERYTHING, mcpJson } from "./helpers.js";

let env: CliEnv | undefined;
afterEach(() => {
  env?.cleanup();
  env = undefined;
});

describe("deepcode mcp", () => {
  it("adds a stdio server in the local scope (the default), lists it connected, and removes it", async () => {
    env = cliEnv("http://127.0.0.1:9");
    const add = await deepcode(env, ["mcp", "add", "-e", "GREETING=hi", "everything", "--", process.execPath, EVERYTHING, "stdio"]);
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/Added MCP server everything \(local scope/);
    const file = join(env.home, "mcp.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, "utf8"));
    expect(saved.projects[env.root].mcpServers.everything).toEqual({ command: process.execPath, args: [EVERYTHING, "stdio"], env: { GREETING: "hi" } });
    const list = await deepcode(env, ["mcp", "list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/● everything\s+connected · \d+ tools, 4 prompts, \d+ resources .*· local: /);
    const get = await deepcode(env, ["mcp", "get", "everything"]);
    expect(get.stdout).toMatch(/env\s+GREETING/);
    expect(get.stdout).toMatch(/tools\s+.*mcp__everything__echo/);
    const rm = await deepcode(env, ["mcp", "remove", "everything"]);
    expect(rm.stdout).toMatch(/Removed MCP server everything \(local scope/);
    expect((await deepcode(env, ["mcp", "list"])).stdout).toMatch(/No MCP servers configured/);
  });

  it("adds http and sse servers with headers to the user scope, and JSON to the project's .mcp.json", async () => {
    env = cliEnv("http://127.0.0.1:9");
    expect((await deepcode(env, ["mcp", "add", "--scope", "user", "--transport", "http", "-H", "Authorization: Bearer t", "api", "http://127.0.0.1:9/mcp"])).code).toBe(0);
    expect((await deepcode(env, ["mcp", "add", "-s", "user", "--transport", "sse", "old", "http://127.0.0.1:9/sse"])).code).toBe(0);
    expect((await deepcode(env, ["mcp", "add-json", "-s", "project", "fs", '{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","."]}'])).code).toBe(0);
    const user = JSON.parse(readFileSync(join(env.home, "mcp.json"), "utf8"));
    expect(user.mcpServers).toEqual({ api: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer t" } }, old: { type: "sse", url: "http://127.0.0.1:9/sse" } });
    expect(JSON.parse(readFileSync(join(env.root, ".mcp.json"), "utf8"))).toEqual(JSON.parse(mcpJson({ fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] } })));
    const list = await deepcode(env, ["mcp", "list"], { extraEnv: { MCP_TIMEOUT: "2000" } });
    expect(list.stdout).toMatch(/○ fs\s+not started: the project is not trusted/);
  });

  it("refuses what it cannot do with a usage error", async () => {
    env = cliEnv("http://127.0.0.1:9");
    expect((await deepcode(env, ["mcp", "add", "x"])).code).toBe(2);
    expect((await deepcode(env, ["mcp", "add", "--transport", "http", "x", "ftp://nope"])).code).toBe(2);
    expect((await deepcode(env, ["mcp", "add", "--scope", "galaxy", "x", "--", "cmd"])).code).toBe(2);
    expect((await deepcode(env, ["mcp", "remove", "nothing"])).code).toBe(1);
  });

  it("refuses an option list, get, login or logout does not have, naming it, instead of ignoring it", async () => {
    env = cliEnv("http://127.0.0.1:9");
    const list = await deepcode(env, ["mcp", "list", "--bogus-flag"]);
    expect(list.code).toBe(2);
    expect(list.stderr).toMatch(/unknown option '--bogus-flag' for mcp list/);
    const get = await deepcode(env, ["mcp", "get", "github", "-v"]);
    expect(get.code).toBe(2);
    expect(get.stderr).toMatch(/unknown option '-v' for mcp get/);
    expect((await deepcode(env, ["mcp", "login"])).stderr).toMatch(/mcp login takes one server name/);
  });
});
