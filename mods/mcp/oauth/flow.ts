// The OAuth 2.1 steps of a sign-in: the client (configured, remembered, or registered with
// RFC 7591 dynamic client registration), the authorization request with PKCE S256, `state`
// and the `resource` indicator (RFC 8707), the answer's `iss` (RFC 9207: compared as a string,
// never normalised), the code exchange and the refresh grant, each with the client
// authentication the server supports (none, client_secret_basic, client_secret_post).

import { createHash, randomBytes } from "node:crypto";
import type { AuthServer } from "./discovery.js";
import type { AuthMethod, StoredClient, StoredTokens } from "./store.js";
import { oauthError, postJson, type WebAnswer, type Web } from "./web.js";
import { postToken, tokenType, type Dpop } from "./dpop.js";

export interface OAuthConfig {
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  callbackPort?: number;
  /** An https URL where deepcode's client metadata document is published (a Client ID
   *  Metadata Document): used as the client id where the authorization server accepts them. */
  clientMetadataUrl?: string;
  /** A client that gets its tokens itself, no person and no browser: "client_credentials"
   *  (oauth/machine.ts), "jwt_bearer" (RFC 7523 with a workload token, oauth/jwt-bearer.ts),
   *  "id_jag" (enterprise-managed authorization, oauth/token-exchange.ts). */
  grant?: MachineGrant;
  /** For a machine client: a PEM private key to sign its client assertion with. */
  privateKeyFile?: string;
  /** "jwt_bearer": where the assertion is read, afresh for every grant (workload tokens rotate). */
  assertionFile?: string;
  assertionEnv?: string;
  /** "id_jag": the enterprise identity provider that exchanges the person's ID token. */
  idp?: IdpConfig;
  /** DPoP-bound tokens (oauth/dpop.ts): true always, false never; unset: where the
   *  authorization server lists ES256 in `dpop_signing_alg_values_supported`. */
  dpop?: boolean;
  /** The issuer of the authorization server the configured credential (client secret, machine
   *  grant) belongs to: it goes nowhere else (oauth/pin.ts). Unset: the first one used. */
  authorizationServer?: string;
}

export type MachineGrant = "client_credentials" | "jwt_bearer" | "id_jag";

export interface IdpConfig {
  /** Its issuer (the token endpoint is read from its metadata), or the token endpoint itself. */
  issuer?: string;
  tokenEndpoint?: string;
  /** deepcode's client at the identity provider. */
  clientId?: string;
  clientSecret?: string;
  /** Where the person's ID token is read, afresh for every grant. */
  idTokenFile?: string;
  idTokenEnv?: string;
}

export const CLIENT_NAME = "deepcode";

export function base64url(b: Buffer): string {
  return b.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = base64url(randomBytes(32));
  return { verifier, challenge: base64url(createHash("sha256").update(verifier).digest()) };
}

export function newState(): string {
  return base64url(randomBytes(24));
}

/** The client to use with this authorization server: the configured one, a remembered
 *  registration (same issuer, same redirect URI), or a new registration. */
export async function clientFor(w: Web, as: AuthServer, redirectUri: string, cfg: OAuthConfig | undefined, known: StoredClient | undefined): Promise<StoredClient> {
  if (cfg?.clientId) {
    const method: AuthMethod = !cfg.clientSecret ? "none" : as.authMethods && !as.authMethods.includes("client_secret_basic") && as.authMethods.includes("client_secret_post") ? "client_secret_post" : "client_secret_basic";
    return { id: cfg.clientId, secret: cfg.clientSecret, method, registered: false };
  }
  if (cfg?.clientMetadataUrl && as.clientIdMetadataDocuments) return { id: cfg.clientMetadataUrl, method: "none", registered: false };
  if (known?.registered && known.redirectUri === redirectUri) return known;
  if (!as.registrationEndpoint) {
    throw new Error(`the authorization server ${as.issuer} does not offer dynamic client registration: register deepcode with it (redirect URI http://127.0.0.1:PORT/callback) and put the client id in the server's "oauth": { "clientId": …, "clientSecret": …, "callbackPort": PORT }`);
  }
  // RFC 8414: without the list, client_secret_basic is the default.
  const supported = as.authMethods ?? ["client_secret_basic"];
  const wanted: AuthMethod = supported.includes("none") ? "none" : supported.includes("client_secret_basic") ? "client_secret_basic" : supported.includes("client_secret_post") ? "client_secret_post" : "none";
  const a = await postJson(w, new URL(as.registrationEndpoint), {
    client_name: CLIENT_NAME,
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: wanted,
    application_type: "native",
  });
  if ((a.status !== 201 && a.status !== 200) || !a.json || typeof a.json.client_id !== "string") throw oauthError(a, "registering deepcode with the authorization server failed");
  const secret = typeof a.json.client_secret === "string" ? a.json.client_secret : undefined;
  const said = a.json.token_endpoint_auth_method;
  const method: AuthMethod = said === "none" || said === "client_secret_basic" || said === "client_secret_post" ? said : secret ? (wanted === "none" ? "client_secret_basic" : wanted) : "none";
  return { id: a.json.client_id, secret, method, redirectUri, registered: true };
}

export interface AuthorizationRequest {
  url: URL;
  state: string;
  verifier: string;
}

export function authorizationRequest(as: AuthServer, client: StoredClient, redirectUri: string, scopes: string[], resource: string): AuthorizationRequest {
  const { verifier, challenge } = pkce();
  const state = newState();
  const url = new URL(as.authorizationEndpoint);
  const p = url.searchParams;
  p.set("response_type", "code");
  p.set("client_id", client.id);
  p.set("redirect_uri", redirectUri);
  p.set("code_challenge", challenge);
  p.set("code_challenge_method", "S256");
  p.set("state", state);
  if (scopes.length) p.set("scope", scopes.join(" "));
  p.set("resource", resource);
  return { url, state, verifier };
}

/** RFC 9207: where the server says it sends `iss`, it must, and whatever `iss` arrives must
 *  be the issuer exactly (no URL normalisation: a trailing slash is another issuer). */
export function checkIssuer(as: AuthServer, iss: string | undefined): void {
  if (iss === undefined) {
    if (as.issSupported) throw new Error(`the authorization response has no "iss", though ${as.issuer} says it sends one: refused (it may not come from that server)`);
    return;
  }
  if (iss !== as.issuer) throw new Error(`the authorization response comes from issuer ${iss}, not ${as.issuer}: refused`);
}

function clientAuth(client: StoredClient, form: Record<string, string | undefined>): Record<string, string> {
  if (client.method === "client_secret_basic" && client.secret !== undefined) {
    const pair = `${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`;
    return { authorization: `Basic ${Buffer.from(pair).toString("base64")}` };
  }
  form.client_id = client.id;
  if (client.method === "client_secret_post" && client.secret !== undefined) form.client_secret = client.secret;
  return {};
}

/** `dpop`: ask for a DPoP-bound token (a proof on the request, oauth/dpop.ts). */
export async function exchangeCode(w: Web, tokenEndpoint: string, client: StoredClient, code: string, verifier: string, redirectUri: string, resource: string, dpop?: Dpop): Promise<StoredTokens> {
  const form: Record<string, string | undefined> = { grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: verifier, resource };
  const headers = clientAuth(client, form);
  return tokensOf(await postToken(w, new URL(tokenEndpoint), form, headers, dpop), "exchanging the sign-in code for a token failed", dpop !== undefined);
}

export async function refreshTokens(w: Web, tokenEndpoint: string, client: StoredClient, refresh: string, resource: string | undefined, dpop?: Dpop): Promise<StoredTokens> {
  const form: Record<string, string | undefined> = { grant_type: "refresh_token", refresh_token: refresh, resource };
  const headers = clientAuth(client, form);
  const t = await tokensOf(await postToken(w, new URL(tokenEndpoint), form, headers, dpop), "refreshing the token failed", dpop !== undefined);
  return { ...t, refresh: t.refresh ?? refresh };
}

function tokensOf(a: WebAnswer, what: string, proofSent: boolean): StoredTokens {
  if (a.status !== 200 || !a.json || typeof a.json.access_token !== "string") throw oauthError(a, what);
  const type = tokenType(a.json.token_type, proofSent, what);
  const expires = typeof a.json.expires_in === "number" && a.json.expires_in > 0 ? Date.now() + a.json.expires_in * 1000 : undefined;
  return {
    access: a.json.access_token,
    ...(type === "DPoP" ? { type } : {}),
    refresh: typeof a.json.refresh_token === "string" ? a.json.refresh_token : undefined,
    expiresAt: expires,
    issuedAt: Date.now(),
    scope: typeof a.json.scope === "string" ? a.json.scope : undefined,
  };
}
