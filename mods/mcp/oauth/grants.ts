// The grants of a client that gets its tokens itself, with no person and no browser — the
// server's `"oauth": { "grant": … }`:
//   "client_credentials"  the client's own credentials (machine.ts)
//   "jwt_bearer"          a workload identity token as an RFC 7523 assertion (jwt-bearer.ts),
//                         from "assertionFile" or "assertionEnv"
//   "id_jag"              the person's enterprise ID token, exchanged at their identity provider
//                         ("idp") for an ID-JAG, then an RFC 7523 grant (token-exchange.ts)
// A workload token or ID token the authorization server (or identity provider) refused is not
// sent again in this process: the refusal is repeated until the token changes (they rotate),
// and no other grant is tried instead.

import { createHash } from "node:crypto";
import type { AuthServer } from "./discovery.js";
import type { OAuthConfig } from "./flow.js";
import { jwtBearerGrant, readCredential } from "./jwt-bearer.js";
import { clientCredentials } from "./machine.js";
import type { Dpop } from "./dpop.js";
import type { StoredTokens } from "./store.js";
import { requestIdJag } from "./token-exchange.js";
import type { Web } from "./web.js";

/** Refusals by server name, with a digest of the token that was refused. */
const refusals = new Map<string, { digest: string; error: Error }>();

export async function machineGrant(w: Web, as: AuthServer, cfg: OAuthConfig, scopes: string[], resource: string, server: string, dpop?: Dpop): Promise<StoredTokens> {
  if (cfg.grant === "client_credentials") return clientCredentials(w, as, cfg, scopes, resource, dpop);
  if (cfg.grant === "jwt_bearer") {
    const assertion = readCredential(server, { what: "workload token", keys: `"assertionFile" or "assertionEnv"`, file: cfg.assertionFile, env: cfg.assertionEnv });
    return once(server, assertion, () => jwtBearerGrant(w, as, cfg, assertion, scopes, resource, `MCP server ${server}: the authorization server ${as.issuer} did not accept the workload token (jwt-bearer grant)`));
  }
  if (cfg.grant === "id_jag") {
    const idp = cfg.idp;
    if (!idp) throw new Error(`MCP server ${server}: "oauth": { "grant": "id_jag" } needs "idp": { "issuer" or "tokenEndpoint", "clientId", "idTokenFile" or "idTokenEnv" }`);
    const idToken = readCredential(server, { what: "ID token", keys: `"idp": { "idTokenFile": … } or { "idTokenEnv": … }`, file: idp.idTokenFile, env: idp.idTokenEnv });
    return once(server, idToken, async () => {
      const jag = await requestIdJag(w, server, idp, idToken, as.issuer, resource, scopes);
      return jwtBearerGrant(w, as, cfg, jag, scopes, resource, `MCP server ${server}: the authorization server ${as.issuer} did not accept the identity provider's ID-JAG (jwt-bearer grant)`);
    });
  }
  throw new Error(`MCP server ${server}: unknown "oauth" grant ${String(cfg.grant)}`);
}

async function once(server: string, token: string, grant: () => Promise<StoredTokens>): Promise<StoredTokens> {
  const digest = createHash("sha256").update(token).digest("hex");
  const before = refusals.get(server);
  if (before?.digest === digest) throw new Error(`${before.error.message} (not asked again until the token changes)`, { cause: before.error });
  try {
    const tokens = await grant();
    refusals.delete(server);
    return tokens;
  } catch (err) {
    if ((err as { refused?: unknown }).refused === true) refusals.set(server, { digest, error: err as Error });
    throw err;
  }
}
