// A protected MCP server and its authorization server on 127.0.0.1, for the sign-in tests: RFC
// 9728 resource metadata (at a chosen place, named or not in the challenge), RFC 8414 metadata,
// dynamic registration, an authorization endpoint that answers at once (a person who already
// said yes) by redirecting to the client's redirect URI, and a token endpoint that checks the
// PKCE verifier against the challenge it was given, the redirect URI and the resource. The MCP
// endpoint speaks just enough JSON-RPC (initialize, tools/list, tools/call of `whoami`) and
// wants a Bearer token it issued and that has not expired. A client registered beforehand
// (`client`) authenticates with its secret by Basic; `moveTo(issuer)` makes the resource
// metadata name another authorization server (the pin tests). Everything is recorded.

import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export interface FakeOptions {
  /** Where the resource metadata lives: "path" (/.well-known/oauth-protected-resource/mcp),
   *  "root" (/.well-known/oauth-protected-resource) or "custom" (/meta/prm.json, only findable
   *  through the challenge). */
  prm?: "path" | "root" | "custom";
  /** Name the metadata URL in the WWW-Authenticate challenge (default true). */
  inChallenge?: boolean;
  /** The authorization server's issuer path ("" or "/tenant1"). */
  issuerPath?: string;
  /** Token lifetime in seconds (default 3600). */
  expiresIn?: number;
  scopesSupported?: string[];
  /** The resource the metadata names (default: this server's /mcp). */
  resource?: string;
  /** Give a session id (`Mcp-Session-Id`) at initialize, and end it on a DELETE. */
  sessions?: boolean;
  /** A client registered beforehand, with its secret (taken by client_secret_basic). */
  client?: { id: string; secret: string };
}

export interface Fake {
  url: string;
  requests: Array<{ method: string; path: string; auth?: string; body?: string }>;
  registrations: number;
  authorizations: Array<Record<string, string>>;
  tokenRequests: Array<Record<string, string>>;
  /** Token requests the server refused, with why. */
  refused: string[];
  issued: string[];
  /** Name another authorization server (its issuer) in the resource metadata from now on. */
  moveTo(issuer: string): void;
  close(): Promise<void>;
}

const b64url = (b: Buffer): string => b.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export async function startFake(o: FakeOptions = {}): Promise<Fake> {
  const prm = o.prm ?? "path";
  const issuerPath = o.issuerPath ?? "";
  const codes = new Map<string, { challenge: string; redirect: string; resource: string; client: string; scope: string }>();
  const tokens = new Map<string, number>();
  const refreshes = new Set<string>();
  const clients = new Set<string>();
  let named: string | undefined;
  const f: Fake = { url: "", requests: [], registrations: 0, authorizations: [], tokenRequests: [], refused: [], issued: [], moveTo: (i) => (named = i), close: async () => undefined };
  if (o.client) clients.add(o.client.id);
  let base = "";
  const issuer = (): string => `${base}${issuerPath}`;
  const prmPath = prm === "path" ? "/.well-known/oauth-protected-resource/mcp" : prm === "root" ? "/.well-known/oauth-protected-resource" : "/meta/prm.json";
  const json = (res: ServerResponse, status: number, v: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(v));
  };
  const issue = (res: ServerResponse, scope: string): void => {
    const access = `at-${b64url(randomBytes(12))}`;
    const refresh = `rt-${b64url(randomBytes(12))}`;
    tokens.set(access, Date.now() + (o.expiresIn ?? 3600) * 1000);
    refreshes.add(refresh);
    f.issued.push(access);
    json(res, 200, { access_token: access, token_type: "Bearer", expires_in: o.expiresIn ?? 3600, refresh_token: refresh, scope });
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", base);
      f.requests.push({ method: req.method ?? "", path: url.pathname, auth: req.headers.authorization, body });
      const form = Object.fromEntries(new URLSearchParams(body));
      if (req.method === "GET" && url.pathname === prmPath) return json(res, 200, { resource: o.resource ?? `${base}/mcp`, authorization_servers: [named ?? issuer()], ...(o.scopesSupported ? { scopes_supported: o.scopesSupported } : {}) });
      const asMeta = issuerPath ? `/.well-known/oauth-authorization-server${issuerPath}` : "/.well-known/oauth-authorization-server";
      if (req.method === "GET" && url.pathname === asMeta) {
        return json(res, 200, {
          issuer: issuer(),
          authorization_endpoint: `${issuer()}/authorize`,
          token_endpoint: `${issuer()}/token`,
          registration_endpoint: `${issuer()}/register`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
          authorization_response_iss_parameter_supported: true,
        });
      }
      if (req.method === "POST" && url.pathname === `${issuerPath}/register`) {
        f.registrations++;
        const id = `client-${f.registrations}`;
        clients.add(id);
        const meta = JSON.parse(body || "{}") as Record<string, unknown>;
        return json(res, 201, { ...meta, client_id: id, token_endpoint_auth_method: "none" });
      }
      if (req.method === "GET" && url.pathname === `${issuerPath}/authorize`) {
        const q = Object.fromEntries(url.searchParams);
        f.authorizations.push(q);
        if (!clients.has(q.client_id) || q.code_challenge_method !== "S256" || !q.code_challenge) return json(res, 400, { error: "invalid_request" });
        const code = `code-${b64url(randomBytes(8))}`;
        codes.set(code, { challenge: q.code_challenge, redirect: q.redirect_uri, resource: q.resource, client: q.client_id, scope: q.scope ?? "" });
        const to = new URL(q.redirect_uri);
        to.searchParams.set("code", code);
        to.searchParams.set("state", q.state);
        to.searchParams.set("iss", issuer());
        res.writeHead(302, { location: to.href }).end();
        return;
      }
      if (req.method === "POST" && url.pathname === `${issuerPath}/token`) {
        f.tokenRequests.push(form);
        const basic = o.client && req.headers.authorization === `Basic ${Buffer.from(`${o.client.id}:${o.client.secret}`).toString("base64")}`;
        if (basic && o.client) form.client_id = o.client.id;
        const refuse = (why: string): void => {
          f.refused.push(why);
          json(res, 400, { error: "invalid_grant", error_description: why });
        };
        if (form.grant_type === "authorization_code") {
          const c = codes.get(form.code);
          if (!c) return refuse("unknown code");
          codes.delete(form.code);
          const challenge = b64url(createHash("sha256").update(form.code_verifier ?? "").digest());
          if (challenge !== c.challenge) return refuse("the PKCE verifier does not match the challenge");
          if (form.redirect_uri !== c.redirect) return refuse("redirect_uri differs");
          if (form.resource !== c.resource) return refuse("resource differs");
          if (form.client_id !== c.client) return refuse("client differs");
          return issue(res, c.scope);
        }
        if (form.grant_type === "refresh_token") {
          if (!refreshes.delete(form.refresh_token)) return refuse("unknown refresh token");
          return issue(res, "");
        }
        return refuse("unsupported grant");
      }
      if (url.pathname === "/mcp") {
        const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
        const until = tokens.get(token);
        if (!until || until < Date.now()) {
          const params = [`error="invalid_token"`, ...(o.inChallenge === false ? [] : [`resource_metadata="${base}${prmPath}"`])];
          return json(res, 401, { error: "invalid_token" }, { "www-authenticate": `Bearer ${params.join(", ")}` });
        }
        if (o.sessions && req.method === "DELETE") return res.writeHead(204).end();
        if (req.method !== "POST") return json(res, 405, {});
        const answer = whoamiAnswer(body, "fake-protected", `you hold a token that ends in ${token.slice(-4)}`);
        if (!answer) return res.writeHead(202).end();
        return json(res, 200, answer, o.sessions ? { "mcp-session-id": "session-1" } : {});
      }
      json(res, 404, { error: "not_found" });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
  f.url = `${base}/mcp`;
  f.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return f;
}

/** The protected MCP server's JSON-RPC answer to a request body (every fake here offers one
 *  tool, `whoami`, which says `said`); undefined for a notification. */
export function whoamiAnswer(body: string, server: string, said: string): Record<string, unknown> | undefined {
  const m = JSON.parse(body) as { id?: number; method: string };
  if (m.id === undefined) return undefined;
  const result =
    m.method === "initialize"
      ? { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: server, version: "1.0.0" } }
      : m.method === "tools/list"
        ? { tools: [{ name: "whoami", description: "Says who you are.", inputSchema: { type: "object", properties: {} } }] }
        : m.method === "tools/call"
          ? { content: [{ type: "text", text: said }] }
          : undefined;
  return result ? { jsonrpc: "2.0", id: m.id, result } : { jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "no such method" } };
}
