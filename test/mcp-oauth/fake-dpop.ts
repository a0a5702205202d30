// A protected MCP server whose authorization server issues DPoP-bound tokens (RFC 9449), on
// 127.0.0.1, for the DPoP tests. It checks every proof itself with node:crypto (nothing of
// deepcode's): `typ` dpop+jwt, ES256, a public-only P-256 `jwk` in the header that verifies the
// signature, `htm`/`htu` equal to the request's method and URL, `iat` within a minute, a `jti`
// never seen before, the nonce it asked for, and at the MCP endpoint `ath` = SHA-256 of the
// token and the key's thumbprint = the one the token was bound to. A DPoP-bound token sent as
// Bearer is refused. Nonces: the token endpoint (`asNonce`) and the MCP endpoint (`rsNonce`)
// each refuse a proof without their nonce once with `use_dpop_nonce` and a `DPoP-Nonce`.
// Grants: authorization_code (the person says yes at once), refresh_token (bound to the key the
// refresh token was issued to) and client_credentials (client "machine", secret "s3cret").

import { createHash, createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type JsonWebKey } from "node:crypto";
import { whoamiAnswer } from "./fake-oauth.js";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export interface DpopFakeOptions {
  asNonce?: boolean;
  rsNonce?: boolean;
  expiresIn?: number;
  /** List `dpop_signing_alg_values_supported` in the metadata (default ["ES256"]). */
  algs?: string[] | null;
}

export interface Proof {
  where: string;
  jwt: string;
  claims: Record<string, unknown>;
  jkt: string;
}

export interface DpopFake {
  url: string;
  base: string;
  tokenRequests: Array<{ form: Record<string, string>; dpop?: string }>;
  /** Proofs accepted, in order. */
  accepted: Proof[];
  /** Why requests were refused, in order. */
  refused: string[];
  /** How each MCP request presented its token: "DPoP", "Bearer" or "none". */
  schemes: string[];
  close(): Promise<void>;
}

const b64 = (b: Buffer | string): string => Buffer.from(b).toString("base64url");
const unb64 = (s: string): unknown => JSON.parse(Buffer.from(s, "base64url").toString("utf8"));

export function thumbprint(jwk: JsonWebKey): string {
  return b64(createHash("sha256").update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })).digest());
}

/** A proof signed with a key of one's own (the attacker's, in the tests). */
export function ownProof(claims: Record<string, unknown>): string {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const body = `${b64(JSON.stringify({ typ: "dpop+jwt", alg: "ES256", jwk }))}.${b64(JSON.stringify(claims))}`;
  return `${body}.${b64(sign("sha256", Buffer.from(body), { key: privateKey, dsaEncoding: "ieee-p1363" }))}`;
}

export async function startDpopFake(o: DpopFakeOptions = {}): Promise<DpopFake> {
  const f: DpopFake = { url: "", base: "", tokenRequests: [], accepted: [], refused: [], schemes: [], close: async () => undefined };
  const seen = new Set<string>();
  const bound = new Map<string, { jkt: string; until: number }>();
  const refreshes = new Map<string, string>();
  const codes = new Set<string>();
  const AS_NONCE = "as-nonce-1";
  const RS_NONCE = "rs-nonce-1";

  const check = (jwt: string | undefined, method: string, url: string, nonce: string | undefined, token?: string): Proof | string => {
    if (!jwt) return "no DPoP proof";
    const parts = jwt.split(".");
    if (parts.length !== 3) return "the proof is not a JWT";
    let header: { typ?: string; alg?: string; jwk?: JsonWebKey };
    let claims: Record<string, unknown>;
    try {
      header = unb64(parts[0]) as typeof header;
      claims = unb64(parts[1]) as typeof claims;
    } catch {
      return "the proof does not decode";
    }
    if (header.typ !== "dpop+jwt" || header.alg !== "ES256") return "typ/alg";
    const jwk = header.jwk;
    if (!jwk || jwk.kty !== "EC" || jwk.crv !== "P-256" || jwk.d !== undefined) return "jwk (must be a public P-256 key)";
    const key = createPublicKey({ key: jwk, format: "jwk" });
    if (!verify("sha256", Buffer.from(`${parts[0]}.${parts[1]}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(parts[2], "base64url"))) return "signature";
    if (claims.htm !== method) return "htm";
    if (claims.htu !== url) return "htu";
    if (typeof claims.iat !== "number" || Math.abs(claims.iat - Date.now() / 1000) > 60) return "iat";
    if (typeof claims.jti !== "string" || seen.has(claims.jti)) return "jti reused";
    const jkt = thumbprint(jwk);
    if (token !== undefined) {
      if (claims.ath !== b64(createHash("sha256").update(token, "ascii").digest())) return "ath";
      if (bound.get(token)?.jkt !== jkt) return "key is not the one the token is bound to";
    }
    seen.add(claims.jti);
    if (nonce !== undefined && claims.nonce !== nonce) return "use_dpop_nonce";
    return { where: `${method} ${url}`, jwt, claims, jkt };
  };

  const json = (res: ServerResponse, status: number, v: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(v));
  };
  const issue = (res: ServerResponse, jkt: string): void => {
    const access = `at-${b64(randomBytes(12))}`;
    const refresh = `rt-${b64(randomBytes(12))}`;
    bound.set(access, { jkt, until: Date.now() + (o.expiresIn ?? 3600) * 1000 });
    refreshes.set(refresh, jkt);
    json(res, 200, { access_token: access, token_type: "DPoP", expires_in: o.expiresIn ?? 3600, refresh_token: refresh });
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", f.base);
      const here = `${f.base}${url.pathname}`;
      const dpop = typeof req.headers.dpop === "string" ? req.headers.dpop : undefined;
      if (req.method === "GET" && url.pathname === "/.well-known/oauth-protected-resource/mcp") return json(res, 200, { resource: f.url, authorization_servers: [f.base] });
      if (req.method === "GET" && url.pathname === "/.well-known/oauth-authorization-server") {
        return json(res, 200, {
          issuer: f.base,
          authorization_endpoint: `${f.base}/authorize`,
          token_endpoint: `${f.base}/token`,
          registration_endpoint: `${f.base}/register`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
          ...(o.algs === null ? {} : { dpop_signing_alg_values_supported: o.algs ?? ["ES256"] }),
        });
      }
      if (req.method === "POST" && url.pathname === "/register") return json(res, 201, { client_id: "client-1", token_endpoint_auth_method: "none", redirect_uris: [] });
      if (req.method === "GET" && url.pathname === "/authorize") {
        const code = `code-${b64(randomBytes(8))}`;
        codes.add(code);
        const to = new URL(url.searchParams.get("redirect_uri") ?? "");
        to.searchParams.set("code", code);
        to.searchParams.set("state", url.searchParams.get("state") ?? "");
        res.writeHead(302, { location: to.href }).end();
        return;
      }
      if (req.method === "POST" && url.pathname === "/token") {
        const form = Object.fromEntries(new URLSearchParams(body));
        f.tokenRequests.push({ form, dpop });
        const p = check(dpop, "POST", here, o.asNonce ? AS_NONCE : undefined);
        if (typeof p === "string") {
          f.refused.push(`token: ${p}`);
          if (p === "use_dpop_nonce") return json(res, 400, { error: "use_dpop_nonce" }, { "dpop-nonce": AS_NONCE });
          return json(res, 400, { error: "invalid_dpop_proof", error_description: p });
        }
        f.accepted.push(p);
        if (form.grant_type === "authorization_code" && codes.delete(form.code)) return issue(res, p.jkt);
        // A machine client (client_credentials): client "machine", secret "s3cret", by Basic.
        if (form.grant_type === "client_credentials" && req.headers.authorization === `Basic ${Buffer.from("machine:s3cret").toString("base64")}`) return issue(res, p.jkt);
        if (form.grant_type === "refresh_token" && refreshes.get(form.refresh_token) === p.jkt) {
          refreshes.delete(form.refresh_token);
          return issue(res, p.jkt);
        }
        f.refused.push(`token: ${form.grant_type} grant refused`);
        return json(res, 400, { error: "invalid_grant" });
      }
      if (url.pathname === "/mcp" || url.pathname.startsWith("/mcp/")) {
        const [scheme = "none", token = ""] = (req.headers.authorization ?? "").split(" ");
        f.schemes.push(scheme || "none");
        const refuse = (why: string, error: string, headers: Record<string, string> = {}): void => {
          f.refused.push(`mcp: ${why}`);
          json(res, 401, { error }, { "www-authenticate": `DPoP algs="ES256", error="${error}", resource_metadata="${f.base}/.well-known/oauth-protected-resource/mcp"`, ...headers });
        };
        if (!req.headers.authorization) {
          res.writeHead(401, { "www-authenticate": `DPoP algs="ES256", resource_metadata="${f.base}/.well-known/oauth-protected-resource/mcp"` }).end();
          return;
        }
        if (scheme !== "DPoP") return refuse(bound.has(token) ? "bearer use of a DPoP-bound token" : "unknown token", "invalid_token");
        const b = bound.get(token);
        if (!b || b.until < Date.now()) return refuse("unknown or expired token", "invalid_token");
        const p = check(dpop, req.method ?? "", here, o.rsNonce ? RS_NONCE : undefined, token);
        if (p === "use_dpop_nonce") return refuse(p, "use_dpop_nonce", { "dpop-nonce": RS_NONCE });
        if (typeof p === "string") return refuse(p, "invalid_dpop_proof");
        f.accepted.push(p);
        if (req.method !== "POST") return json(res, 405, {});
        const answer = whoamiAnswer(body, "fake-dpop", `your key is ${p.jkt}`);
        if (!answer) return res.writeHead(202).end();
        return json(res, 200, answer);
      }
      json(res, 404, { error: "not_found" });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  f.base = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
  f.url = `${f.base}/mcp`;
  f.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return f;
}
