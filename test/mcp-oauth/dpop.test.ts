// DPoP-bound tokens (RFC 9449) through the real CLI: `deepcode mcp login` against an
// authorization server that offers DPoP asks for a bound token with a proof the server checks
// (fake-dpop.ts verifies every proof with node:crypto), answers `use_dpop_nonce` once with the
// nonce, and every MCP request carries `Authorization: DPoP` and a fresh proof with `ath`.
// The private key stays in its own 0600 file, never in mcp-oauth.json, output or logs; and an
// attacker holding the token and a proof it saw cannot use them.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createPrivateKey } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { deepcode, mcpJson } from "../mcp/helpers.js";
import { ownProof, startDpopFake, type DpopFake, type DpopFakeOptions } from "./fake-dpop.js";

const BROWSER = `${process.execPath} ${fileURLToPath(new URL("./fixtures/browser.mjs", import.meta.url))}`;

let fake: DpopFake | undefined;
let env: CliEnv | undefined;
let sim: Simulator | undefined;
afterEach(async () => {
  await fake?.close();
  await sim?.close();
  env?.cleanup();
  fake = env = sim = undefined;
});

async function setup(o: DpopFakeOptions = {}, oauth?: Record<string, unknown>): Promise<{ f: DpopFake; e: CliEnv }> {
  fake = await startDpopFake(o);
  // The model calls the server's one tool, then stops.
  sim = await startSimulator({
    apiKey: "sk-test-cli",
    script: { respond: (req) => (req.messages[req.messages.length - 1].role === "tool" ? { content: "done" } : { tool_calls: [{ name: "mcp__remote__whoami", arguments: {} }] }) },
  });
  env = cliEnv(sim.url, {});
  writeFileSync(join(env.home, "mcp.json"), mcpJson({ remote: { type: "http", url: fake.url, ...(oauth ? { oauth } : {}) } }));
  writeFileSync(join(env.home, "settings.json"), JSON.stringify({ permissions: { allow: ["mcp__remote"] } }));
  return { f: fake, e: env };
}

const login = (e: CliEnv) => deepcode(e, ["mcp", "login", "remote"], { extraEnv: { BROWSER } });
type Stored = Record<string, { tokens?: { access: string; type?: string; refresh?: string } }>;
const stored = (e: CliEnv, f: DpopFake) => (JSON.parse(readFileSync(join(e.home, "mcp-oauth.json"), "utf8")) as Stored)[`remote ${f.base}`];
const keyFiles = (e: CliEnv): string[] => (existsSync(join(e.home, "mcp-dpop")) ? readdirSync(join(e.home, "mcp-dpop")).map((n) => join(e.home, "mcp-dpop", n)) : []);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? filesUnder(join(dir, d.name)) : [join(dir, d.name)]));
}

describe("DPoP-bound tokens for a remote MCP server", () => {
  it("signs in with a bound token, presents it with a fresh proof on every request, and keeps the key to itself", async () => {
    const { f, e } = await setup();
    const r = await login(e);
    expect(r.stdout).toContain("Signed in to remote: connected · 1 tool");
    expect(f.refused).toEqual([]);
    // The token request carried a proof for POST on the token endpoint; the token is DPoP.
    expect(f.tokenRequests).toHaveLength(1);
    expect(f.accepted[0].where).toBe(`POST ${f.base}/token`);
    expect(stored(e, f).tokens?.type).toBe("DPoP");

    const p = await deepcode(e, ["-p", "who am I?"]);
    expect(p.code).toBe(0);
    expect(f.refused).toEqual([]);
    // Every request to the MCP server after the first challenge: the DPoP scheme, never Bearer.
    expect(f.schemes.filter((s) => s !== "none").every((s) => s === "DPoP")).toBe(true);
    const mcp = f.accepted.filter((a) => a.where === `POST ${f.url}`);
    expect(mcp.length).toBeGreaterThanOrEqual(4); // initialize, initialized, tools/list (twice: two runs), tools/call
    expect(new Set(mcp.map((a) => a.claims.jti)).size).toBe(mcp.length);
    // One key throughout: the one the token request was signed with.
    expect(new Set(f.accepted.map((a) => a.jkt)).size).toBe(1);
    // The tool's answer reached the model: the call went through with the bound token.
    expect(sim!.requests.some((q) => JSON.stringify(q.json ?? {}).includes(`your key is ${f.accepted[0].jkt}`))).toBe(true);

    // The private key: in its own file, 0600 in a 0700 folder, nowhere else.
    const [file] = keyFiles(e);
    expect(keyFiles(e)).toHaveLength(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(e.home, "mcp-dpop")).mode & 0o777).toBe(0o700);
    const pem = readFileSync(file, "utf8");
    const d = createPrivateKey(pem).export({ format: "jwk" }).d!;
    const body = pem.split("\n").filter((l) => l && !l.startsWith("-----")).join("");
    for (const other of filesUnder(e.home).filter((x) => x !== file)) {
      const text = readFileSync(other, "utf8");
      expect(text, other).not.toContain(d);
      expect(text, other).not.toContain(body.slice(0, 40));
    }
    for (const out of [r.stdout, r.stderr, p.stdout, p.stderr]) expect(out).not.toContain(d);
    // Every proof's header holds the public key only.
    for (const a of f.accepted) expect(JSON.parse(Buffer.from(a.jwt.split(".")[0], "base64url").toString())).not.toHaveProperty("jwk.d");
  });

  it("answers use_dpop_nonce from the token endpoint and from the MCP server with one retry each", async () => {
    const { f, e } = await setup({ asNonce: true, rsNonce: true });
    const r = await login(e);
    expect(r.stdout).toContain("Signed in to remote: connected · 1 tool");
    expect(f.refused.filter((x) => x === "token: use_dpop_nonce")).toHaveLength(1);
    expect(f.tokenRequests).toHaveLength(2);
    expect(f.accepted[0].claims.nonce).toBe("as-nonce-1");
    expect(f.refused.filter((x) => x === "mcp: use_dpop_nonce")).toHaveLength(1);
    expect(f.refused.filter((x) => !/use_dpop_nonce/.test(x))).toEqual([]);
    expect(f.accepted.filter((a) => a.where === `POST ${f.url}`).every((a) => a.claims.nonce === "rs-nonce-1")).toBe(true);
  });

  it("refreshes a bound token with a proof of the same key", async () => {
    const { f, e } = await setup({ expiresIn: 2 });
    expect((await login(e)).stdout).toContain("Signed in to remote");
    const first = stored(e, f).tokens!.access;
    // Wait for the token to expire (the fake refuses it from then on).
    await new Promise((r) => setTimeout(r, 2100));
    const r = await deepcode(e, ["mcp", "get", "remote"]);
    expect(r.stdout).toMatch(/remote: connected/);
    const grants = f.tokenRequests.map((t) => t.form.grant_type);
    expect(grants).toEqual(["authorization_code", "refresh_token"]);
    expect(f.refused).toEqual([]);
    expect(stored(e, f).tokens!.access).not.toBe(first);
    expect(new Set(f.accepted.map((a) => a.jkt)).size).toBe(1);
  });

  it("an attacker with the stored token and a proof it saw gets nowhere", async () => {
    const { f, e } = await setup();
    expect((await login(e)).stdout).toContain("Signed in to remote");
    const token = stored(e, f).tokens!.access;
    const seen = f.accepted.filter((a) => a.where === `POST ${f.url}`).at(-1)!;
    const post = (url: string, headers: Record<string, string>, method = "POST") =>
      fetch(url, { method, headers: { "content-type": "application/json", ...headers }, body: method === "POST" ? JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }) : undefined });
    const before = f.refused.length;
    // The token as a Bearer token.
    expect((await post(f.url, { authorization: `Bearer ${token}` })).status).toBe(401);
    // The seen proof for another method, another URL, and again for the same request.
    expect((await post(f.url, { authorization: `DPoP ${token}`, dpop: seen.jwt }, "GET")).status).toBe(401);
    expect((await post(`${f.url}/other`, { authorization: `DPoP ${token}`, dpop: seen.jwt })).status).toBe(401);
    expect((await post(f.url, { authorization: `DPoP ${token}`, dpop: seen.jwt })).status).toBe(401);
    // A proof of the attacker's own key, right in every claim.
    const forged = ownProof({ jti: "attacker-1", htm: "POST", htu: f.url, iat: Math.floor(Date.now() / 1000), ath: seen.claims.ath });
    expect((await post(f.url, { authorization: `DPoP ${token}`, dpop: forged })).status).toBe(401);
    expect(f.refused.slice(before)).toEqual(["mcp: bearer use of a DPoP-bound token", "mcp: htm", "mcp: htu", "mcp: jti reused", "mcp: key is not the one the token is bound to"]);
  });

  it("logout removes the key with the tokens; a new sign-in binds to a new key", async () => {
    const { f, e } = await setup();
    expect((await login(e)).stdout).toContain("Signed in to remote");
    const [file] = keyFiles(e);
    const firstKey = readFileSync(file, "utf8");
    expect((await deepcode(e, ["mcp", "logout", "remote"])).stdout).toContain("Signed out of remote");
    expect(keyFiles(e)).toEqual([]);
    expect((await login(e)).stdout).toContain("Signed in to remote");
    expect(readFileSync(keyFiles(e)[0], "utf8")).not.toBe(firstKey);
    expect(new Set(f.accepted.map((a) => a.jkt)).size).toBe(2);
  });

  it('follows the server\'s "oauth": {"dpop": …}: true where the metadata does not say, false never', async () => {
    const { f, e } = await setup({ algs: null }, { dpop: true });
    expect((await login(e)).stdout).toContain("Signed in to remote");
    expect(f.tokenRequests[0].dpop).toBeDefined();
    await fake!.close();
    await sim!.close();
    env!.cleanup();
    const off = await setup({}, { dpop: false });
    const r = await login(off.e);
    expect(off.f.tokenRequests[0].dpop).toBeUndefined();
    expect(r.stdout).toMatch(/invalid_dpop_proof \(no DPoP proof\)/);
    expect(keyFiles(off.e)).toEqual([]);
  });

  it("binds a machine client's client-credentials token too, with no person and no browser", async () => {
    const { f, e } = await setup({ asNonce: true, rsNonce: true }, { grant: "client_credentials", clientId: "machine", clientSecret: "s3cret" });
    const r = await deepcode(e, ["-p", "who am I?"]);
    expect(r.code).toBe(0);
    expect(f.tokenRequests.map((t) => t.form.grant_type)).toEqual(["client_credentials", "client_credentials"]);
    expect(f.refused.filter((x) => !/use_dpop_nonce/.test(x))).toEqual([]);
    expect(f.accepted[0].where).toBe(`POST ${f.base}/token`);
    expect(stored(e, f).tokens?.type).toBe("DPoP");
    expect(sim!.requests.some((q) => JSON.stringify(q.json ?? {}).includes(`your key is ${f.accepted[0].jkt}`))).toBe(true);
  });

  it("a token whose key is gone is dropped, not sent: the server needs sign-in again", async () => {
    const { f, e } = await setup({ expiresIn: 2 });
    expect((await login(e)).stdout).toContain("Signed in to remote");
    rmSync(keyFiles(e)[0]);
    await new Promise((r) => setTimeout(r, 2100)); // expired too: a refresh would need the key
    const r = await deepcode(e, ["mcp", "list"]);
    expect(r.stdout).toMatch(/remote\s+needs sign-in \(deepcode mcp login remote\)/);
    expect(stored(e, f).tokens).toBeUndefined();
    expect(keyFiles(e)).toEqual([]);
    expect(f.tokenRequests.map((t) => t.form.grant_type)).toEqual(["authorization_code"]);
  });
});
