// Signing in to a protected remote MCP server through the real CLI: `deepcode mcp list` shows
// it as needing sign-in (not failed), `deepcode mcp login NAME` discovers the authorization
// server, registers, runs PKCE through the loopback callback (the "browser" is
// fixtures/browser.mjs, given as $BROWSER), stores the tokens 0600, and `logout` removes them.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { deepcode, mcpJson } from "../mcp/helpers.js";
import { startFake, type Fake, type FakeOptions } from "./fake-oauth.js";

const BROWSER = `${process.execPath} ${fileURLToPath(new URL("./fixtures/browser.mjs", import.meta.url))}`;

let fake: Fake | undefined;
let env: CliEnv | undefined;
let sim: Simulator | undefined;
afterEach(async () => {
  await fake?.close();
  await sim?.close();
  env?.cleanup();
  fake = env = sim = undefined;
});

async function setup(o: FakeOptions = {}, server: Record<string, unknown> = {}): Promise<{ fake: Fake; env: CliEnv }> {
  fake = await startFake(o);
  sim = await startSimulator({ script: { default: { content: "done" } }, apiKey: "sk-test-cli" });
  env = cliEnv(sim.url, {});
  // The person's own servers (user scope): `deepcode mcp …` and `-p` both read them.
  writeFileSync(join(env.home, "mcp.json"), mcpJson({ remote: { type: "http", url: fake.url, ...server } }));
  return { fake, env };
}

const cfg = (_e: CliEnv): string[] => [];
const login = (e: CliEnv, extra: Record<string, string> = {}) => deepcode(e, ["mcp", "login", "remote", ...cfg(e)], { extraEnv: { BROWSER, ...extra } });
const store = (e: CliEnv): Record<string, { tokens?: { access: string; refresh?: string; expiresAt?: number }; client?: { id: string } }> => JSON.parse(readFileSync(join(e.home, "mcp-oauth.json"), "utf8"));

describe("deepcode mcp login / logout for a server that needs OAuth", () => {
  it("lists the server as needing sign-in, not as failed", async () => {
    const { env: e } = await setup();
    const r = await deepcode(e, ["mcp", "list", ...cfg(e)]);
    expect(r.stdout).toMatch(/remote\s+needs sign-in \(deepcode mcp login remote\)/);
    expect(r.stdout).not.toMatch(/failed/);
  });

  it("signs in: discovery through the challenge, registration, PKCE the server checks, tokens stored 0600, then connected", async () => {
    const { fake: f, env: e } = await setup();
    const r = await login(e);
    expect(r.stdout).toContain("Signed in to remote: connected · 1 tool");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${f.url.replace("/mcp", "")}/authorize?`);
    expect(f.registrations).toBe(1);
    expect(f.refused).toEqual([]);
    expect(f.tokenRequests[0]).toMatchObject({ grant_type: "authorization_code", resource: f.url });
    expect(f.tokenRequests[0].code_verifier).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(f.authorizations[0]).toMatchObject({ code_challenge_method: "S256", resource: f.url, response_type: "code" });
    expect(f.authorizations[0].redirect_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const file = join(e.home, "mcp-oauth.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = `remote ${new URL(f.url).origin}`;
    expect(store(e)[key].tokens?.access).toBe(f.issued[0]);
    const list = await deepcode(e, ["mcp", "get", "remote", ...cfg(e)]);
    expect(list.stdout).toMatch(/remote: connected · 1 tool/);
    expect(f.registrations).toBe(1);
  });

  for (const [what, o] of [
    ["the path-based well-known location, without a challenge hint", { prm: "path", inChallenge: false }],
    ["the root well-known location, without a challenge hint", { prm: "root", inChallenge: false }],
    ["a custom location named only in the challenge, and an issuer with a path", { prm: "custom", issuerPath: "/tenant1" }],
  ] as const) {
    it(`finds the resource metadata at ${what}`, async () => {
      const { fake: f, env: e } = await setup(o);
      const r = await login(e);
      expect(r.stdout).toContain("Signed in to remote");
      expect(f.refused).toEqual([]);
      if (o.issuerPath) expect(f.requests.map((x) => x.path)).toContain("/.well-known/oauth-authorization-server/tenant1");
    });
  }

  it("refuses resource metadata that names another resource, and never asks for a token", async () => {
    const { fake: f, env: e } = await setup({ resource: "http://127.0.0.1:1/elsewhere" });
    const r = await login(e);
    expect(r.stdout).toMatch(/did not complete: .*is for http:\/\/127\.0\.0\.1:1\/elsewhere/);
    expect(r.code).toBe(1);
    expect(f.authorizations).toEqual([]);
    expect(f.tokenRequests).toEqual([]);
  });

  it("refuses a callback whose state was tampered with, and signs in with the real one", async () => {
    const { fake: f, env: e } = await setup();
    const log = join(e.home, "browser.log");
    const r = await login(e, { BROWSER_TAMPER: "1", BROWSER_LOG: log });
    expect(readFileSync(log, "utf8")).toMatch(/tampered: 400\ncallback: 200/);
    expect(r.stdout).toContain("Signed in to remote");
    // The tampered code never reached the token endpoint.
    expect(f.tokenRequests.map((t) => t.code)).not.toContain("code-of-an-attacker");
    expect(f.tokenRequests).toHaveLength(1);
  });

  it("refreshes an expired token silently with the refresh token", async () => {
    const { fake: f, env: e } = await setup({ expiresIn: 2 });
    expect((await login(e)).stdout).toContain("Signed in to remote");
    await new Promise((r) => setTimeout(r, 2100));
    const r = await deepcode(e, ["mcp", "get", "remote", ...cfg(e)]);
    expect(r.stdout).toMatch(/remote: connected/);
    const grants = f.tokenRequests.map((t) => t.grant_type);
    expect(grants[0]).toBe("authorization_code");
    expect(grants.slice(1)).toContain("refresh_token");
    expect(f.refused).toEqual([]);
    expect(f.authorizations).toHaveLength(1);
    expect(f.registrations).toBe(1);
  });

  it("ends the server's session with a DELETE that carries the sign-in's token, as every request does", async () => {
    const { fake: f, env: e } = await setup({ sessions: true });
    expect((await login(e)).stdout).toContain("Signed in to remote: connected · 1 tool");
    const deletes = f.requests.filter((r) => r.method === "DELETE");
    expect(deletes).toHaveLength(1);
    expect(deletes[0].auth).toBe(`Bearer ${store(e)[Object.keys(store(e))[0]].tokens?.access}`);
  });

  it("logout removes the tokens; the server needs sign-in again", async () => {
    const { env: e } = await setup();
    expect((await login(e)).stdout).toContain("Signed in to remote");
    const out = await deepcode(e, ["mcp", "logout", "remote", ...cfg(e)]);
    expect(out.stdout).toContain("Signed out of remote");
    expect(existsSync(join(e.home, "mcp-oauth.json"))).toBe(false);
    const r = await deepcode(e, ["mcp", "list", ...cfg(e)]);
    expect(r.stdout).toMatch(/needs sign-in \(deepcode mcp login remote\)/);
  });

  it("in -p, without a token, says the server needs sign-in and does not wait for a browser", async () => {
    const { fake: f, env: e } = await setup();
    const r = await deepcode(e, ["-p", ...cfg(e), "hello"], { extraEnv: { BROWSER } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/MCP server remote needs sign-in: run deepcode mcp login remote/);
    expect(f.authorizations).toEqual([]);
  });
});

describe("a damaged sign-in file (mcp-oauth.json that is not JSON)", () => {
  it("is named by -p, with what to do, and the server is not said to be still connecting", async () => {
    const { env: e } = await setup();
    const file = join(e.home, "mcp-oauth.json");
    writeFileSync(file, '{"remote http://x": {"tokens": {"acc');
    const r = await deepcode(e, ["-p", "hello"]);
    const said = `${r.stdout}\n${r.stderr}`;
    expect(said, said).toContain(`MCP server remote failed to start: ${file} is not a JSON object: remove it to start it afresh`);
    expect(said).not.toMatch(/still connecting/);
  });
});
