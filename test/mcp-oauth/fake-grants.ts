// An enterprise identity provider, an MCP server's authorization server and the MCP server on
// 127.0.0.1, for the machine grants' tests (jwt_bearer, id_jag). Every JWT is signed and
// checked for real (ES256, node:crypto):
//  - a workload issuer's key signs workload tokens (`workloadToken(aud)`), as a CI platform would;
//  - the identity provider's key signs the person's ID token (`idToken()`, aud = its client) and
//    the ID-JAGs its token endpoint issues by RFC 8693 token exchange (typ oauth-id-jag+jwt, aud
//    the audience asked for, resource, client_id = the MCP client it maps its client to);
//  - the authorization server accepts only the jwt-bearer grant: a workload token with its own
//    issuer as aud, or an ID-JAG for itself and this server whose client_id is the client that
//    authenticates (Basic); and the client_credentials grant of that client (Basic). Its
//    access tokens are what the MCP endpoint wants;
//  - `moveTo(other)`: the MCP server's resource metadata names another fake's authorization
//    server from then on (as a server that moved would — or one that wants a secret), and the
//    MCP endpoint takes the tokens that one issues.
// Everything is recorded; a refusal is recorded with why.

import { generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from "node:crypto";
import { whoamiAnswer } from "./fake-oauth.js";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export const MCP_CLIENT = { id: "mcp-client-7", secret: "mcp-secret-Zq81" };
export const IDP_CLIENT = { id: "idp-client-3", secret: "idp-secret-Wd52" };
export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
export const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

export interface GrantsFake {
  /** The MCP endpoint. */
  url: string;
  /** The authorization server's issuer, and the identity provider's (a path on the same port). */
  issuer: string;
  idpIssuer: string;
  idpTokenEndpoint: string;
  idpRequests: Array<{ form: Record<string, string>; auth?: string }>;
  tokenRequests: Array<{ form: Record<string, string>; auth?: string }>;
  refused: string[];
  issued: string[];
  /** Paths requested, in order. */
  paths: string[];
  workloadToken(aud?: string): string;
  idToken(aud?: string): string;
  /** Forget every access token issued (the next request with one is a 401). */
  revokeAll(): void;
  /** Name `other`'s authorization server in the resource metadata from now on (undefined: this
   *  fake's own again); the MCP endpoint takes its tokens, and it takes this server as a resource. */
  moveTo(other: GrantsFake | undefined): void;
  /** Resources this authorization server grants tokens for besides its own MCP endpoint. */
  alsoServes: string[];
  /** Whether `token` is an access token it issued and has not revoked. */
  holds(token: string): boolean;
  close(): Promise<void>;
}

const b64url = (b: Buffer): string => b.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const keys = (): { privateKey: KeyObject; publicKey: KeyObject } => generateKeyPairSync("ec", { namedCurve: "P-256" });

function signJwt(key: KeyObject, claims: Record<string, unknown>, typ = "JWT"): string {
  const part = (v: object): string => b64url(Buffer.from(JSON.stringify(v)));
  const body = `${part({ alg: "ES256", typ })}.${part(claims)}`;
  return `${body}.${b64url(sign("sha256", Buffer.from(body), { key, dsaEncoding: "ieee-p1363" }))}`;
}

/** The claims and header of a JWT `key` signed and that has not expired, or why not. */
function checkJwt(jwt: string, key: KeyObject): { header: Record<string, unknown>; claims: Record<string, unknown> } | string {
  const [h, c, s] = jwt.split(".");
  if (!h || !c || s === undefined) return "not a JWT";
  if (!verify("sha256", Buffer.from(`${h}.${c}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(s, "base64url"))) return "bad signature";
  const claims = JSON.parse(Buffer.from(c, "base64url").toString()) as Record<string, unknown>;
  if (typeof claims.exp !== "number" || claims.exp * 1000 < Date.now()) return "expired";
  return { header: JSON.parse(Buffer.from(h, "base64url").toString()) as Record<string, unknown>, claims };
}

function basic(auth: string | undefined): { id: string; secret: string } | undefined {
  if (!auth?.startsWith("Basic ")) return undefined;
  const pair = Buffer.from(auth.slice(6), "base64").toString();
  const i = pair.indexOf(":");
  return i < 0 ? undefined : { id: decodeURIComponent(pair.slice(0, i)), secret: decodeURIComponent(pair.slice(i + 1)) };
}

export async function startGrantsFake(): Promise<GrantsFake> {
  const workload = keys();
  const idp = keys();
  const tokens = new Set<string>();
  let moved: GrantsFake | undefined;
  let base = "";
  const now = (): number => Math.floor(Date.now() / 1000);
  const f: GrantsFake = {
    url: "",
    issuer: "",
    idpIssuer: "",
    idpTokenEndpoint: "",
    idpRequests: [],
    tokenRequests: [],
    refused: [],
    issued: [],
    paths: [],
    workloadToken: (aud) => signJwt(workload.privateKey, { iss: "https://ci.example", sub: "repo:acme/app", aud: aud ?? f.issuer, iat: now(), exp: now() + 600, jti: b64url(randomBytes(8)) }),
    idToken: (aud) => signJwt(idp.privateKey, { iss: f.idpIssuer, sub: "ada@acme.example", aud: aud ?? IDP_CLIENT.id, iat: now(), exp: now() + 600 }),
    revokeAll: () => tokens.clear(),
    moveTo: (other) => {
      moved = other;
      other?.alsoServes.push(f.url);
    },
    alsoServes: [],
    holds: (token) => tokens.has(token),
    close: async () => undefined,
  };
  const json = (res: ServerResponse, status: number, v: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(v));
  };
  const refuse = (res: ServerResponse, why: string, error = "invalid_grant", status = 400): void => {
    f.refused.push(why);
    json(res, status, { error, error_description: why });
  };

  const idpToken = (res: ServerResponse, form: Record<string, string>, auth: string | undefined): void => {
    f.idpRequests.push({ form, auth });
    const c = basic(auth);
    if (!c || c.id !== IDP_CLIENT.id || c.secret !== IDP_CLIENT.secret) return refuse(res, "idp: client authentication failed", "invalid_client", 401);
    if (form.grant_type !== TOKEN_EXCHANGE) return refuse(res, `idp: grant ${form.grant_type}`, "unsupported_grant_type");
    if (form.subject_token_type !== "urn:ietf:params:oauth:token-type:id_token") return refuse(res, `idp: subject_token_type ${form.subject_token_type}`, "invalid_request");
    if (form.requested_token_type !== "urn:ietf:params:oauth:token-type:id-jag") return refuse(res, `idp: requested_token_type ${form.requested_token_type}`, "invalid_request");
    if (form.audience !== f.issuer || form.resource !== f.url) return refuse(res, `idp: audience ${form.audience} / resource ${form.resource}`, "invalid_target");
    const id = checkJwt(form.subject_token ?? "", idp.publicKey);
    if (typeof id === "string") return refuse(res, `idp: ID token ${id}`);
    if (id.claims.aud !== IDP_CLIENT.id) return refuse(res, `idp: ID token aud ${String(id.claims.aud)}`);
    const jag = signJwt(idp.privateKey, { iss: f.idpIssuer, sub: id.claims.sub, aud: form.audience, resource: form.resource, client_id: MCP_CLIENT.id, scope: form.scope, iat: now(), exp: now() + 300, jti: b64url(randomBytes(8)) }, "oauth-id-jag+jwt");
    json(res, 200, { access_token: jag, issued_token_type: "urn:ietf:params:oauth:token-type:id-jag", token_type: "N_A", expires_in: 300 });
  };

  const asToken = (res: ServerResponse, form: Record<string, string>, auth: string | undefined): void => {
    f.tokenRequests.push({ form, auth });
    if (form.resource !== f.url && !f.alsoServes.includes(form.resource)) return refuse(res, `as: resource ${form.resource}`, "invalid_target");
    if (form.grant_type === "client_credentials") {
      const c = basic(auth);
      if (!c || c.id !== MCP_CLIENT.id || c.secret !== MCP_CLIENT.secret) return refuse(res, "as: client authentication failed", "invalid_client", 401);
      return grant(res);
    }
    if (form.grant_type !== JWT_BEARER) return refuse(res, `as: grant ${form.grant_type}`, "unsupported_grant_type");
    const assertion = form.assertion ?? "";
    const asJag = checkJwt(assertion, idp.publicKey);
    const checked = typeof asJag === "string" ? checkJwt(assertion, workload.publicKey) : asJag;
    if (typeof checked === "string") return refuse(res, `as: assertion ${checked}`);
    if (checked.claims.aud !== f.issuer) return refuse(res, `as: assertion aud ${String(checked.claims.aud)}`);
    if (typeof asJag !== "string") {
      const c = basic(auth);
      if (!c || c.id !== MCP_CLIENT.id || c.secret !== MCP_CLIENT.secret) return refuse(res, "as: client authentication failed", "invalid_client", 401);
      if (asJag.header.typ !== "oauth-id-jag+jwt") return refuse(res, `as: ID-JAG typ ${String(asJag.header.typ)}`);
      if (asJag.claims.client_id !== c.id || asJag.claims.resource !== f.url) return refuse(res, "as: ID-JAG for another client or resource");
    }
    grant(res);
  };

  const grant = (res: ServerResponse): void => {
    const access = `at-${b64url(randomBytes(12))}`;
    tokens.add(access);
    f.issued.push(access);
    json(res, 200, { access_token: access, token_type: "Bearer", expires_in: 3600 });
  };

  const mcp = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    if (!tokens.has(token) && !moved?.holds(token)) return json(res, 401, { error: "invalid_token" }, { "www-authenticate": `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` });
    if (req.method !== "POST") return json(res, 405, {});
    const answer = whoamiAnswer(body, "fake-enterprise", `you hold a token that ends in ${token.slice(-4)}`);
    if (!answer) return void res.writeHead(202).end();
    json(res, 200, answer);
  };

  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", base).pathname;
      f.paths.push(path);
      const form = Object.fromEntries(new URLSearchParams(body));
      if (req.method === "GET" && path === "/.well-known/oauth-protected-resource/mcp") return json(res, 200, { resource: f.url, authorization_servers: [moved?.issuer ?? f.issuer] });
      if (req.method === "GET" && path === "/.well-known/oauth-authorization-server") {
        return json(res, 200, { issuer: f.issuer, authorization_endpoint: `${f.issuer}/authorize`, token_endpoint: `${f.issuer}/token`, grant_types_supported: [JWT_BEARER, "client_credentials"], token_endpoint_auth_methods_supported: ["client_secret_basic", "none"], response_types_supported: ["code"], code_challenge_methods_supported: ["S256"] });
      }
      if (req.method === "GET" && path === "/idp/.well-known/openid-configuration") {
        return json(res, 200, { issuer: f.idpIssuer, authorization_endpoint: `${f.idpIssuer}/authorize`, token_endpoint: f.idpTokenEndpoint, grant_types_supported: [TOKEN_EXCHANGE], token_endpoint_auth_methods_supported: ["client_secret_basic"] });
      }
      if (req.method === "POST" && path === "/idp/token") return idpToken(res, form, req.headers.authorization);
      if (req.method === "POST" && path === "/token") return asToken(res, form, req.headers.authorization);
      if (path === "/mcp") return mcp(req, res, body);
      json(res, 404, { error: "not_found" });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
  f.url = `${base}/mcp`;
  f.issuer = base;
  f.idpIssuer = `${base}/idp`;
  f.idpTokenEndpoint = `${base}/idp/token`;
  f.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return f;
}
