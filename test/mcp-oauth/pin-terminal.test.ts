// `deepcode mcp login NAME` at a terminal (tmux) is where a pinned credential's move to another
// authorization server is accepted outside the REPL: it prints what changed, naming the server
// and both issuers, asks y/N, and only a yes sends the client secret to the new server (which
// is pinned from then on); a no (or Enter) sends nothing and fails the command.
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { Tmux, TMUX_AVAILABLE } from "../helpers/tmux.js";
import { deepcode, mcpJson } from "../mcp/helpers.js";
import { MCP_CLIENT, startGrantsFake, type GrantsFake } from "./fake-grants.js";

const BIN = fileURLToPath(new URL("../../bin/deepcode.js", import.meta.url));

let fakes: GrantsFake[] = [];
let env: CliEnv | undefined;
let sim: Simulator | undefined;
let t: Tmux | undefined;
afterEach(async () => {
  t?.kill();
  for (const f of fakes) await f.close();
  await sim?.close();
  env?.cleanup();
  fakes = [];
  env = sim = t = undefined;
});

/** A client_credentials server pinned to its own authorization server, whose metadata then
 *  names another; `deepcode mcp login remote` running at a terminal, showing its question. */
async function asked(): Promise<{ home: GrantsFake; other: GrantsFake; e: CliEnv; tmux: Tmux; screen: string }> {
  const home = await startGrantsFake();
  const other = await startGrantsFake();
  fakes.push(home, other);
  sim = await startSimulator({ apiKey: "sk-test-cli", script: { default: { content: "done" } } });
  const e = (env = cliEnv(sim.url, {}));
  writeFileSync(join(e.home, "mcp.json"), mcpJson({ remote: { type: "http", url: home.url, oauth: { grant: "client_credentials", clientId: MCP_CLIENT.id, clientSecret: "${MCP_SECRET}" } } }));
  const vars = { MCP_SECRET: MCP_CLIENT.secret };
  expect((await deepcode(e, ["mcp", "get", "remote"], { extraEnv: vars })).stdout).toMatch(/remote: connected/);
  home.moveTo(other);
  home.revokeAll();
  const tmux = (t = new Tmux(`${process.execPath} ${BIN} mcp login remote`, { cwd: e.root, env: { ...e.env, ...vars }, width: 220 }));
  const screen = await tmux.waitFor("[y/N]");
  return { home, other, e, tmux, screen };
}

const pinned = (e: CliEnv, home: GrantsFake): string => (JSON.parse(readFileSync(join(e.home, "mcp-oauth-pins.json"), "utf8")) as Record<string, { issuer: string }>)[`remote ${new URL(home.url).origin}`].issuer;

describe.skipIf(!TMUX_AVAILABLE)("deepcode mcp login, when the pinned authorization server changed", () => {
  it("asks at the terminal, naming the server and both issuers; yes sends the secret there and re-pins", async () => {
    const { home, other, e, tmux, screen } = await asked();
    expect(screen).toContain(`The server ${home.url} now names ${other.issuer} as its authorization server; until now it named ${home.issuer}.`);
    expect(screen).toContain(`Send the MCP server "remote"'s client secret to another authorization server, ${other.issuer}?`);
    expect(other.paths).toEqual([]); // nothing before the answer
    tmux.type("y");
    tmux.press("Enter");
    const end = await tmux.waitFor("[exit ");
    expect(end).toMatch(/remote did not ask for sign-in: connected · 1 tool/);
    expect(end).toContain("[exit 0]");
    expect(other.tokenRequests.map((r) => r.form.grant_type)).toEqual(["client_credentials"]);
    expect(pinned(e, home)).toBe(other.issuer);
  });

  it("no: nothing is sent, the pin stays, and the command fails", async () => {
    const { home, other, e, tmux } = await asked();
    tmux.press("Enter");
    const end = await tmux.waitFor("[exit ");
    expect(end).toContain(`you did not allow its client secret to go to the authorization server ${other.issuer}`);
    expect(end).toContain("[exit 1]");
    expect(other.paths).toEqual([]);
    expect(pinned(e, home)).toBe(home.issuer);
  });
});
