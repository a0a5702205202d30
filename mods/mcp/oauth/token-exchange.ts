// Enterprise-managed authorization (SEP-990, the Identity Assertion JWT Authorization Grant):
// the person signed in to their enterprise identity provider, which issued an ID token for
// deepcode's client there. deepcode exchanges that ID token at the identity provider (RFC 8693
// token exchange) for an ID-JAG — a JWT naming the person, the MCP server's authorization
// server as its audience and the MCP server as its resource — and hands the ID-JAG to the MCP
// server's authorization server with the RFC 7523 jwt-bearer grant (jwt-bearer.ts). No browser:
// the identity provider decides, by its own policy, whether this person may use this server.

import { discoverAuthServer, type AuthServer } from "./discovery.js";
import type { IdpConfig } from "./flow.js";
import { clientAuthentication } from "./machine.js";
import { oauthError, postForm, type Web } from "./web.js";

export const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
export const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
export const ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag";

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** The identity provider's token endpoint and how it takes client authentication: the
 *  configured endpoint, else its issuer's metadata (RFC 8414 / OpenID Connect Discovery). */
async function idpEndpoint(w: Web, server: string, idp: IdpConfig): Promise<Pick<AuthServer, "issuer" | "authMethods" | "tokenEndpoint">> {
  if (idp.tokenEndpoint) {
    let u: URL;
    try {
      u = new URL(idp.tokenEndpoint);
    } catch {
      throw new Error(`MCP server ${server}: "idp": { "tokenEndpoint": "${idp.tokenEndpoint}" } is not a URL`);
    }
    // The ID token goes there: over TLS, or plain http only on this machine.
    if (u.protocol !== "https:" && !(u.protocol === "http:" && LOOPBACK.test(u.hostname))) throw new Error(`MCP server ${server}: the identity provider's token endpoint ${u.href} must be https (http only on this machine)`);
    return { issuer: idp.issuer ?? u.href, tokenEndpoint: u.href };
  }
  if (!idp.issuer) throw new Error(`MCP server ${server}: "oauth": { "grant": "id_jag" } needs "idp": { "issuer": … } or { "tokenEndpoint": … }`);
  try {
    return await discoverAuthServer(w, { resource: "", issuer: idp.issuer, metadataUrl: idp.issuer });
  } catch (err) {
    throw new Error(`MCP server ${server}: the identity provider ${idp.issuer}: ${(err as Error).message}`, { cause: err });
  }
}

/** RFC 8693 §2.1 with SEP-990's parameters: the ID token as subject, an ID-JAG asked for, the
 *  MCP authorization server's issuer as audience, the MCP server as resource. */
export async function requestIdJag(w: Web, server: string, idp: IdpConfig, idToken: string, audience: string, resource: string, scopes: string[]): Promise<string> {
  const at = await idpEndpoint(w, server, idp);
  const form: Record<string, string | undefined> = {
    grant_type: TOKEN_EXCHANGE,
    requested_token_type: ID_JAG_TYPE,
    audience,
    resource,
    scope: scopes.length ? scopes.join(" ") : undefined,
    subject_token: idToken,
    subject_token_type: ID_TOKEN_TYPE,
  };
  const headers = clientAuthentication(at, { clientId: idp.clientId, clientSecret: idp.clientSecret }, form);
  const a = await postForm(w, new URL(at.tokenEndpoint), form, headers);
  if (a.status !== 200 || !a.json || typeof a.json.access_token !== "string") {
    const err = oauthError(a, `MCP server ${server}: the identity provider ${at.issuer} did not exchange the ID token for an ID-JAG`);
    throw Object.assign(err, { refused: a.status >= 400 && a.status < 500 });
  }
  const type = a.json.issued_token_type;
  if (type !== ID_JAG_TYPE) throw new Error(`MCP server ${server}: the identity provider ${at.issuer} answered the token exchange with ${typeof type === "string" ? `a token of type ${type}` : "no issued_token_type"}, not an ID-JAG (${ID_JAG_TYPE})`);
  return a.json.access_token;
}
