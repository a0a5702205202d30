// A configured credential goes only to the authorization server it is pinned to (issue #35),
// through the real CLI: two fake authorization servers (fake-grants.ts), the MCP server's own
// and a second one its resource metadata starts naming (`moveTo`). For each machine grant —
// client_credentials (the client secret), jwt_bearer (a CI job's workload token), id_jag (the
// client secret and the ID-JAG) — the first authorization server used is remembered, and once
// the metadata names the second one, `-p` refuses, saying which server, which issuer it is
// pinned to, the new one and how to accept, and the second server receives nothing at all.
// A configured `"authorizationServer"` is the pin from the first request. A browser sign-in
// with a configured client secret is pinned the same way.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { deepcode, mcpJson } from "../mcp/helpers.js";
import { IDP_CLIENT, MCP_CLIENT, startGrantsFake, type GrantsFake } from "./fake-grants.js";
import { startFake, type Fake } from "./fake-oauth.js";
import { fileURLToPath } from "node:url";

let fakes: Array<GrantsFake | Fake> = [];
let env: CliEnv | undefined;
let sim: Simulator | undefined;
afterEach(async () => {
  for (const f of fakes) await f.close();
  await sim?.close();
  env?.cleanup();
  fakes = [];
  env = sim = undefined;
});

interface Setup {
  /** The MCP server and its own authorization server. */
  home: GrantsFake;
  /** Another authorization server, on another origin. */
  other: GrantsFake;
  env: CliEnv;
  /** The environment a run needs (the secrets the entry's `${VAR}`s name, a workload token). */
  vars: Record<string, string>;
}

type Oauth = (s: { home: GrantsFake; other: GrantsFake; env: CliEnv }) => Record<string, unknown>;

async function setup(oauth: Oauth): Promise<Setup> {
  const home = await startGrantsFake();
  const other = await startGrantsFake();
  fakes.push(home, other);
  sim = await startSimulator({ apiKey: "sk-test-cli", script: { default: { content: "done" } } });
  env = cliEnv(sim.url, {});
  writeFileSync(join(env.home, "mcp.json"), mcpJson({ remote: { type: "http", url: home.url, oauth: oauth({ home, other, env }) } }));
  writeFileSync(join(env.root, "id-token.jwt"), home.idToken());
  return { home, other, env, vars: { MCP_SECRET: MCP_CLIENT.secret, IDP_SECRET: IDP_CLIENT.secret, CI_OIDC_TOKEN: home.workloadToken() } };
}

const get = (s: Setup) => deepcode(s.env, ["mcp", "get", "remote"], { extraEnv: s.vars });
const print = (s: Setup) => deepcode(s.env, ["-p", "hello"], { extraEnv: s.vars });
const pins = (e: CliEnv): Record<string, { issuer: string; since: string }> => JSON.parse(readFileSync(join(e.home, "mcp-oauth-pins.json"), "utf8"));

/** Everything a request to `f` carried, as one text. */
const heard = (f: GrantsFake): string => JSON.stringify([f.paths, f.tokenRequests, f.idpRequests]);

const GRANTS: Array<[string, Oauth, (s: Setup) => string[]]> = [
  ["client_credentials (its client secret)", () => ({ grant: "client_credentials", clientId: MCP_CLIENT.id, clientSecret: "${MCP_SECRET}" }), () => [MCP_CLIENT.secret]],
  ["jwt_bearer (a CI job's workload token)", () => ({ grant: "jwt_bearer", assertionEnv: "CI_OIDC_TOKEN" }), (s) => [s.vars.CI_OIDC_TOKEN]],
  [
    "id_jag (its client secret and the ID-JAG)",
    ({ home, env: e }) => ({ grant: "id_jag", clientId: MCP_CLIENT.id, clientSecret: "${MCP_SECRET}", idp: { issuer: home.idpIssuer, clientId: IDP_CLIENT.id, clientSecret: "${IDP_SECRET}", idTokenFile: join(e.root, "id-token.jwt") } }),
    () => [MCP_CLIENT.secret],
  ],
];

describe("a configured credential is pinned to the first authorization server it went to", () => {
  for (const [grant, oauth, secrets] of GRANTS) {
    it(`${grant}: remembered at the first grant; when the metadata names another server, -p refuses, names both and how to accept, and the other server receives nothing`, async () => {
      const s = await setup(oauth);
      const first = await get(s);
      expect(first.stdout, first.stderr).toMatch(/remote: connected · 1 tool/);
      expect(s.home.tokenRequests).toHaveLength(1);
      const file = join(s.env.home, "mcp-oauth-pins.json");
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(pins(s.env)).toEqual({ [`remote ${new URL(s.home.url).origin}`]: { issuer: s.home.issuer, since: expect.any(String) } });
      const idpBefore = s.home.idpRequests.length;

      // The server's metadata now names another authorization server; its old token is gone.
      s.home.moveTo(s.other);
      s.home.revokeAll();
      const r = await print(s);
      const said = `${r.stdout}${r.stderr}`;
      expect(said).toContain(`MCP server remote: its metadata now names the authorization server ${s.other.issuer}, but its`);
      expect(said).toContain(`is pinned to ${s.home.issuer}, the one it was first sent to, and nobody can answer here whether it may go to the new one: nothing was sent to ${s.other.issuer}.`);
      expect(said).toContain("accept it with `deepcode mcp login remote` at a terminal");
      expect(said).toContain(`"oauth": { "authorizationServer": "${s.other.issuer}" }`);
      // Not a request, not even for its metadata; no ID-JAG asked for its audience.
      expect(s.other.paths).toEqual([]);
      expect(s.other.tokenRequests).toEqual([]);
      for (const secret of secrets(s)) expect(heard(s.other)).not.toContain(secret);
      expect(s.home.idpRequests).toHaveLength(idpBefore);
      expect(s.home.tokenRequests).toHaveLength(1);
      expect(pins(s.env)[`remote ${new URL(s.home.url).origin}`].issuer).toBe(s.home.issuer);

      // A sign-in on purpose without a terminal to answer refuses the same way, and fails.
      const login = await deepcode(s.env, ["mcp", "login", "remote"], { extraEnv: s.vars });
      expect(login.stdout).toContain(`nothing was sent to ${s.other.issuer}`);
      expect(login.code).toBe(1);
      expect(s.other.paths).toEqual([]);
    });
  }

  it("a server that names its own authorization server again is served as before", async () => {
    const s = await setup(GRANTS[0][1]);
    expect((await get(s)).stdout).toMatch(/remote: connected/);
    s.home.moveTo(s.other);
    s.home.revokeAll();
    expect((await get(s)).stdout).not.toMatch(/remote: connected/);
    s.home.moveTo(undefined);
    expect((await get(s)).stdout).toMatch(/remote: connected · 1 tool/);
    expect(s.home.tokenRequests).toHaveLength(2);
    expect(s.other.paths).toEqual([]);
  });

  it("logout forgets the tokens but keeps the pin: the credential still goes nowhere else", async () => {
    const s = await setup(GRANTS[0][1]);
    expect((await get(s)).stdout).toMatch(/remote: connected/);
    const out = await deepcode(s.env, ["mcp", "logout", "remote"], { extraEnv: s.vars });
    expect(out.stdout).toContain("Signed out of remote");
    expect(existsSync(join(s.env.home, "mcp-oauth-pins.json"))).toBe(true);
    s.home.moveTo(s.other);
    expect((await get(s)).stdout).toContain(`nothing was sent to ${s.other.issuer}`);
    expect(s.other.paths).toEqual([]);
  });
});

describe('"oauth": { "authorizationServer": … } pins the credential from the first request', () => {
  it("a server naming another authorization server is refused at once: named with the configured one, nothing sent, nothing remembered", async () => {
    const s = await setup(({ home }) => ({ grant: "client_credentials", clientId: MCP_CLIENT.id, clientSecret: "${MCP_SECRET}", authorizationServer: home.issuer }));
    s.home.moveTo(s.other);
    const r = await print(s);
    expect(`${r.stdout}${r.stderr}`).toContain(
      `MCP server remote: its metadata names the authorization server ${s.other.issuer}, but its "oauth": { "authorizationServer": "${s.home.issuer}" } pins its client secret to ${s.home.issuer}: nothing was sent to ${s.other.issuer}. If the server really moved there, change "authorizationServer" in its entry.`,
    );
    expect(s.other.paths).toEqual([]);
    expect(s.home.tokenRequests).toEqual([]);
    expect(existsSync(join(s.env.home, "mcp-oauth-pins.json"))).toBe(false);
  });

  it("the configured one is used even where another was remembered (with a trailing slash, the same issuer)", async () => {
    const s = await setup(GRANTS[0][1]);
    expect((await get(s)).stdout).toMatch(/remote: connected/);
    // The server moved; the person names the new issuer in its entry.
    s.home.moveTo(s.other);
    s.home.revokeAll();
    writeFileSync(join(s.env.home, "mcp.json"), mcpJson({ remote: { type: "http", url: s.home.url, oauth: { grant: "client_credentials", clientId: MCP_CLIENT.id, clientSecret: "${MCP_SECRET}", authorizationServer: `${s.other.issuer}/` } } }));
    expect((await get(s)).stdout).toMatch(/remote: connected · 1 tool/);
    expect(s.other.tokenRequests.map((t) => t.form.grant_type)).toEqual(["client_credentials"]);
  });

  it("a value that is not an http(s) URL is refused by name", async () => {
    const s = await setup(() => ({ grant: "client_credentials", clientId: MCP_CLIENT.id, clientSecret: "${MCP_SECRET}", authorizationServer: "auth.example.com" }));
    const r = await deepcode(s.env, ["mcp", "list"], { extraEnv: s.vars });
    expect(`${r.stdout}${r.stderr}`).toContain(`MCP server remote: "oauth": { "authorizationServer": "auth.example.com" } must be the authorization server's issuer, an http(s) URL`);
    expect(s.home.paths).toEqual([]);
  });
});

describe("a browser sign-in with a configured client secret", () => {
  it("is pinned like the grants: the secret never reaches an authorization server the metadata names later", async () => {
    const client = { id: "preregistered-4", secret: "pkce-secret-Hn37" };
    const oauth = await startFake({ client });
    const other = await startGrantsFake();
    fakes.push(oauth, other);
    sim = await startSimulator({ apiKey: "sk-test-cli", script: { default: { content: "done" } } });
    const e = (env = cliEnv(sim.url, {}));
    writeFileSync(join(e.home, "mcp.json"), mcpJson({ remote: { type: "http", url: oauth.url, oauth: { clientId: client.id, clientSecret: client.secret } } }));
    const browser = `${process.execPath} ${fileURLToPath(new URL("./fixtures/browser.mjs", import.meta.url))}`;
    const login = () => deepcode(e, ["mcp", "login", "remote"], { extraEnv: { BROWSER: browser } });
    const first = await login();
    expect(first.stdout, first.stderr).toContain("Signed in to remote: connected · 1 tool");
    expect(oauth.registrations).toBe(0);
    expect(pins(e)[`remote ${new URL(oauth.url).origin}`].issuer).toBe(new URL(oauth.url).origin);
    oauth.moveTo(other.issuer);
    const again = await login();
    expect(again.stdout).toContain(`its client secret is pinned to ${new URL(oauth.url).origin}`);
    expect(again.code).toBe(1);
    expect(other.paths).toEqual([]);
    expect(oauth.tokenRequests).toHaveLength(1);
  });
});
