// A machine client (the MCP OAuth client-credentials extension): no person and no browser — the
// server's config names the client and its credential (`oauth.grant: "client_credentials"`,
// `clientId`, and `clientSecret` or `privateKeyFile`), and a token is asked for whenever the
// server wants one, in -p too. With a private key the client authenticates with a signed JWT
// (RFC 7523 private_key_jwt: iss and sub the client id, aud the issuer), ES256 or RS256.

import { createPrivateKey, randomBytes, sign } from "node:crypto";
import { readRegularFileSync } from "../../../src/lib/regular-file.js";
import type { AuthServer } from "./discovery.js";
import { base64url, type OAuthConfig } from "./flow.js";
import type { StoredTokens } from "./store.js";
import { oauthError, type Web, type WebAnswer } from "./web.js";
import { postToken, tokenType, type Dpop } from "./dpop.js";

export async function clientCredentials(w: Web, as: AuthServer, cfg: OAuthConfig, scopes: string[], resource: string, dpop?: Dpop): Promise<StoredTokens> {
  if (!cfg.clientId) throw new Error(`"oauth": { "grant": "client_credentials" } needs a "clientId"`);
  if (!cfg.privateKeyFile && cfg.clientSecret === undefined) throw new Error(`"oauth": { "grant": "client_credentials" } needs a "clientSecret" or a "privateKeyFile"`);
  const form: Record<string, string | undefined> = { grant_type: "client_credentials", resource, scope: scopes.length ? scopes.join(" ") : undefined };
  const headers = clientAuthentication(as, cfg, form);
  return machineTokens(await postToken(w, new URL(as.tokenEndpoint), form, headers, dpop), "asking for a client-credentials token failed", dpop !== undefined);
}

/** A configured client's authentication at a token endpoint (also the other machine grants',
 *  oauth/grants.ts): a signed assertion with `privateKeyFile`, the secret in the way the server
 *  takes it (Basic unless it lists only client_secret_post), else just `client_id` (a public
 *  client); none at all without a `clientId`. Fills `form`, returns the headers. */
export function clientAuthentication(as: Pick<AuthServer, "issuer" | "authMethods">, cfg: Pick<OAuthConfig, "clientId" | "clientSecret" | "privateKeyFile">, form: Record<string, string | undefined>): Record<string, string> {
  if (!cfg.clientId) return {};
  if (cfg.privateKeyFile) {
    form.client_id = cfg.clientId;
    form.client_assertion_type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
    form.client_assertion = assertion(cfg.clientId, as.issuer, cfg.privateKeyFile);
    return {};
  }
  if (cfg.clientSecret !== undefined && !(as.authMethods && !as.authMethods.includes("client_secret_basic") && as.authMethods.includes("client_secret_post"))) {
    return { authorization: `Basic ${Buffer.from(`${encodeURIComponent(cfg.clientId)}:${encodeURIComponent(cfg.clientSecret)}`).toString("base64")}` };
  }
  form.client_id = cfg.clientId;
  if (cfg.clientSecret !== undefined) form.client_secret = cfg.clientSecret;
  return {};
}

/** A machine grant's token answer: an access token, its lifetime and scope (no refresh token
 *  is kept: the grant is simply made again); DPoP-bound only where a proof was sent. */
export function machineTokens(a: WebAnswer, what: string, proofSent = false): StoredTokens {
  if (a.status !== 200 || !a.json || typeof a.json.access_token !== "string") throw oauthError(a, what);
  const type = tokenType(a.json.token_type, proofSent, what);
  const expires = typeof a.json.expires_in === "number" && a.json.expires_in > 0 ? a.json.expires_in * 1000 : undefined;
  return { access: a.json.access_token, ...(type === "DPoP" ? { type } : {}), expiresAt: expires ? Date.now() + expires : undefined, issuedAt: Date.now(), scope: typeof a.json.scope === "string" ? a.json.scope : undefined };
}

function assertion(clientId: string, audience: string, keyFile: string): string {
  let key;
  try {
    key = createPrivateKey(readRegularFileSync(keyFile, 64 * 1024).data);
  } catch (err) {
    throw new Error(`the private key ${keyFile} cannot be read: ${(err as Error).message}`, { cause: err });
  }
  const ec = key.asymmetricKeyType === "ec";
  if (!ec && key.asymmetricKeyType !== "rsa") throw new Error(`the private key ${keyFile} is ${key.asymmetricKeyType ?? "of an unknown type"}: an EC (P-256) or RSA key is needed`);
  const now = Math.floor(Date.now() / 1000);
  const part = (v: object): string => base64url(Buffer.from(JSON.stringify(v)));
  const body = `${part({ alg: ec ? "ES256" : "RS256", typ: "JWT" })}.${part({ iss: clientId, sub: clientId, aud: audience, iat: now, exp: now + 300, jti: base64url(randomBytes(16)) })}`;
  const sig = sign("sha256", Buffer.from(body), ec ? { key, dsaEncoding: "ieee-p1363" } : key);
  return `${body}.${base64url(sig)}`;
}
