// The machine grants through the real CLI, against a fake identity provider, authorization
// server and MCP server on 127.0.0.1 (fake-grants.ts) that check every JWT for real:
//  - "jwt_bearer" (workload identity federation): the workload token, read afresh from its file
//    or variable, as the RFC 7523 assertion; a missing, unreadable or non-JWT file is a clear
//    error naming the server and the file, and nothing is sent; a refused token is not retried;
//  - "id_jag" (enterprise-managed authorization): the ID token exchanged at the identity
//    provider (RFC 8693) for an ID-JAG, then the jwt-bearer grant with the client's secret;
// and no workload token, ID token or secret in the output or in any file deepcode writes.
import { afterEach, describe, expect, it } from "vitest";
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { deepcode, mcpJson, toolResults } from "../mcp/helpers.js";
import { IDP_CLIENT, JWT_BEARER, MCP_CLIENT, TOKEN_EXCHANGE, startGrantsFake, type GrantsFake } from "./fake-grants.js";

let fake: GrantsFake | undefined;
let env: CliEnv | undefined;
let sim: Simulator | undefined;
afterEach(async () => {
  await fake?.close();
  await sim?.close();
  env?.cleanup();
  fake = env = sim = undefined;
});

/** The model calls the server's one tool, then answers. */
async function setup(oauth: (f: GrantsFake, e: CliEnv) => Record<string, unknown>): Promise<{ fake: GrantsFake; env: CliEnv; sim: Simulator }> {
  fake = await startGrantsFake();
  sim = await startSimulator({
    apiKey: "sk-test-cli",
    script: { respond: (req: { messages: Array<{ role: string }> }) => (req.messages[req.messages.length - 1].role === "tool" ? { content: "done" } : { tool_calls: [{ name: "mcp__remote__whoami", arguments: {} }] }) },
  });
  env = cliEnv(sim.url, {});
  writeFileSync(join(env.home, "settings.json"), JSON.stringify({ permissions: { allow: ["mcp__remote"] } }));
  writeFileSync(join(env.home, "mcp.json"), mcpJson({ remote: { type: "http", url: fake.url, oauth: oauth(fake, env) } }));
  return { fake, env, sim };
}

const run = (e: CliEnv, extraEnv: Record<string, string> = {}) => deepcode(e, ["-p", "Who am I on the remote server?"], { extraEnv });
const get = (e: CliEnv, extraEnv: Record<string, string> = {}) => deepcode(e, ["mcp", "get", "remote"], { extraEnv });

/** Every file under `dir`, as text. */
function allFiles(dir: string): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...allFiles(p));
    else out.push({ path: p, text: readFileSync(p, "utf8") });
  }
  return out;
}

function expectNowhere(secrets: string[], outputs: string[], home: string): void {
  const files = allFiles(home);
  expect(files.some((f) => f.path.endsWith(".jsonl"))).toBe(true); // the session log is among them
  for (const s of secrets) {
    for (const o of outputs) expect(o).not.toContain(s);
    for (const f of files) expect(f.text.includes(s), `${f.path} holds a secret`).toBe(false);
  }
}

describe('"oauth": { "grant": "jwt_bearer" } — workload identity federation', () => {
  it("sends the workload token from its file as the assertion, and reads the file afresh when the token rotates", async () => {
    const { fake: f, env: e, sim: s } = await setup((f, e) => ({ grant: "jwt_bearer", clientId: "wif-workload", assertionFile: join(e.root, "workload.jwt") }));
    const first = f.workloadToken();
    writeFileSync(join(e.root, "workload.jwt"), `${first}\n`);
    const r = await run(e);
    expect(r.code).toBe(0);
    expect(toolResults(s.requests.map((q) => q.json as { messages: Array<Record<string, unknown>> }))).toEqual([expect.stringContaining("you hold a token that ends in")]);
    expect(f.refused).toEqual([]);
    expect(f.tokenRequests).toHaveLength(1);
    expect(f.tokenRequests[0].form).toMatchObject({ grant_type: JWT_BEARER, assertion: first, resource: f.url, client_id: "wif-workload" });
    expect(f.tokenRequests[0].auth).toBeUndefined();
    // The platform rotates the token; the server forgets its access tokens.
    const second = f.workloadToken();
    writeFileSync(join(e.root, "workload.jwt"), second);
    f.revokeAll();
    expect((await get(e)).stdout).toMatch(/remote: connected · 1 tool/);
    expect(f.tokenRequests.map((t) => t.form.assertion)).toEqual([first, second]);
    expectNowhere([first, second], [r.stdout, r.stderr], e.home);
  });

  it("takes the workload token from the environment with assertionEnv", async () => {
    const { fake: f, env: e } = await setup(() => ({ grant: "jwt_bearer", assertionEnv: "CI_OIDC_TOKEN" }));
    const token = f.workloadToken();
    const r = await get(e, { CI_OIDC_TOKEN: token });
    expect(r.stdout).toMatch(/remote: connected · 1 tool/);
    expect(f.tokenRequests.map((t) => t.form)).toEqual([expect.objectContaining({ grant_type: JWT_BEARER, assertion: token })]);
    expect(f.tokenRequests[0].form.client_id).toBeUndefined();
  });

  it("a missing assertion file: an error naming the server and the file, and no token request", async () => {
    const { fake: f, env: e } = await setup((_f, e) => ({ grant: "jwt_bearer", assertionFile: join(e.root, "nowhere.jwt") }));
    const r = await get(e);
    expect(`${r.stdout}${r.stderr}`).toContain(`MCP server remote: the workload token file ${join(e.root, "nowhere.jwt")} cannot be read: it does not exist`);
    expect(f.tokenRequests).toEqual([]);
  });

  it("an unreadable assertion file, and one that holds no JWT: named, and nothing is sent", async () => {
    const { fake: f, env: e } = await setup((_f, e) => ({ grant: "jwt_bearer", assertionFile: join(e.root, "workload.jwt") }));
    const file = join(e.root, "workload.jwt");
    writeFileSync(file, "PRIVATE NOTES, not a token\n");
    const notJwt = await get(e);
    expect(`${notJwt.stdout}${notJwt.stderr}`).toContain(`MCP server remote: the workload token file ${file} does not hold a JWT`);
    expect(`${notJwt.stdout}${notJwt.stderr}`).not.toContain("PRIVATE NOTES");
    rmSync(file);
    mkdirSync(file);
    const folder = await get(e);
    expect(`${folder.stdout}${folder.stderr}`).toContain(`MCP server remote: the workload token file ${file} cannot be read: it is a folder`);
    if (process.getuid?.() !== 0) {
      // (root reads any file, so this part needs another user.)
      rmSync(file, { recursive: true });
      writeFileSync(file, f.workloadToken());
      chmodSync(file, 0o000);
      const unreadable = await get(e);
      expect(`${unreadable.stdout}${unreadable.stderr}`).toContain(`MCP server remote: the workload token file ${file} cannot be read: permission denied`);
    }
    expect(f.tokenRequests).toEqual([]);
  });

  it("a refused workload token surfaces the server's error once: no retry, no other grant", async () => {
    const { fake: f, env: e } = await setup((_f, e) => ({ grant: "jwt_bearer", assertionFile: join(e.root, "workload.jwt") }));
    writeFileSync(join(e.root, "workload.jwt"), f.workloadToken("https://wrong.example"));
    const r = await run(e);
    expect(`${r.stdout}${r.stderr}`).toMatch(/MCP server remote: the authorization server http:\/\/127\.0\.0\.1:\d+ did not accept the workload token \(jwt-bearer grant\): the server answered 400: invalid_grant/);
    expect(f.tokenRequests.map((t) => t.form.grant_type)).toEqual([JWT_BEARER]);
  });

  it("an unknown grant is refused by name, and assertionEnv may not name deepcode's API key", async () => {
    fake = await startGrantsFake();
    sim = await startSimulator({ apiKey: "sk-test-cli", script: { default: { content: "done" } } });
    env = cliEnv(sim.url, {});
    writeFileSync(join(env.home, "mcp.json"), mcpJson({ typo: { type: "http", url: fake.url, oauth: { grant: "jwt-bearer" } }, keyed: { type: "http", url: fake.url, oauth: { grant: "jwt_bearer", assertionEnv: "DEEPSEEK_API_KEY" } } }));
    const r = await deepcode(env, ["mcp", "list"]);
    const all = `${r.stdout}${r.stderr}`;
    expect(all).toContain(`MCP server typo: "oauth": { "grant": "jwt-bearer" } is not a grant deepcode knows (client_credentials, jwt_bearer, id_jag)`);
    expect(all).toMatch(/keyed[^\n]*DEEPSEEK_API_KEY[^\n]*never hands its API key/);
    expect(fake.tokenRequests).toEqual([]);
  });
});

describe('"oauth": { "grant": "id_jag" } — enterprise-managed authorization', () => {
  const configured = (f: GrantsFake, e: CliEnv, idp: Record<string, unknown> = {}) => ({
    grant: "id_jag",
    clientId: MCP_CLIENT.id,
    clientSecret: "${MCP_SECRET}",
    idp: { issuer: f.idpIssuer, clientId: IDP_CLIENT.id, clientSecret: "${IDP_SECRET}", idTokenFile: join(e.root, "id-token.jwt"), ...idp },
  });
  const secrets = { MCP_SECRET: MCP_CLIENT.secret, IDP_SECRET: IDP_CLIENT.secret };

  it("exchanges the ID token at the identity provider for an ID-JAG, then gets the token with it; no secret anywhere", async () => {
    const { fake: f, env: e, sim: s } = await setup(configured);
    const id = f.idToken();
    writeFileSync(join(e.root, "id-token.jwt"), id);
    const r = await run(e, secrets);
    expect(r.code).toBe(0);
    expect(f.refused).toEqual([]);
    expect(toolResults(s.requests.map((q) => q.json as { messages: Array<Record<string, unknown>> }))).toEqual([expect.stringContaining("you hold a token that ends in")]);
    expect(f.paths).toContain("/idp/.well-known/openid-configuration");
    expect(f.idpRequests).toHaveLength(1);
    expect(f.idpRequests[0].form).toEqual({
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      audience: f.issuer,
      resource: f.url,
      subject_token: id,
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    });
    expect(f.tokenRequests).toHaveLength(1);
    const jag = f.tokenRequests[0].form.assertion;
    expect(JSON.parse(Buffer.from(jag.split(".")[0], "base64url").toString())).toMatchObject({ typ: "oauth-id-jag+jwt" });
    expect(f.tokenRequests[0].form).toMatchObject({ grant_type: JWT_BEARER, resource: f.url });
    expect(f.tokenRequests[0].auth).toMatch(/^Basic /);
    expectNowhere([id, jag, MCP_CLIENT.secret, IDP_CLIENT.secret], [r.stdout, r.stderr], e.home);
  });

  it("with the identity provider's token endpoint configured instead of its issuer; a refusal there is named", async () => {
    const { fake: f, env: e } = await setup((f, e) => configured(f, e, { issuer: undefined, tokenEndpoint: f.idpTokenEndpoint }));
    writeFileSync(join(e.root, "id-token.jwt"), f.idToken("someone-else"));
    const refused = await get(e, secrets);
    expect(`${refused.stdout}${refused.stderr}`).toMatch(/MCP server remote: the identity provider http:\/\/127\.0\.0\.1:\d+\/idp\/token did not exchange the ID token for an ID-JAG: the server answered 400: invalid_grant/);
    expect(f.tokenRequests).toEqual([]);
    writeFileSync(join(e.root, "id-token.jwt"), f.idToken());
    expect((await get(e, secrets)).stdout).toMatch(/remote: connected · 1 tool/);
    expect(f.paths).not.toContain("/idp/.well-known/openid-configuration");
    expect(f.idpRequests).toHaveLength(2);
  });

  it("an ID token file that is missing is named with the server", async () => {
    const { fake: f, env: e } = await setup(configured);
    const r = await get(e, secrets);
    expect(`${r.stdout}${r.stderr}`).toContain(`MCP server remote: the ID token file ${join(e.root, "id-token.jwt")} cannot be read: it does not exist`);
    expect(f.idpRequests).toEqual([]);
  });
});
