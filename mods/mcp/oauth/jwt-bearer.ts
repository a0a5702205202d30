// The RFC 7523 JWT-bearer authorization grant: a signed JWT someone else issued is handed to the
// MCP server's authorization server as `assertion`, and an access token comes back. Two machine
// grants (oauth/grants.ts) end with it:
//  - "jwt_bearer" (workload identity federation, SEP-1933): the assertion is the workload's own
//    token (a CI job's OIDC token, a Kubernetes service-account token…), read from a file or the
//    environment afresh for every grant, since such tokens rotate;
//  - "id_jag" (enterprise-managed authorization, SEP-990): the assertion is an ID-JAG the
//    enterprise identity provider issued (oauth/token-exchange.ts).
// The client authenticates as configured (machine.ts `clientAuthentication`), or is public.
// No assertion, ID token or secret ever reaches an error message or a log: errors name the
// server, the file or variable, and the authorization server's own error code.

import { readRegularFileSync } from "../../../src/lib/regular-file.js";
import type { AuthServer } from "./discovery.js";
import type { OAuthConfig } from "./flow.js";
import { clientAuthentication, machineTokens } from "./machine.js";
import type { StoredTokens } from "./store.js";
import { postForm, type Web } from "./web.js";

export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** Where a credential comes from: a file (read each time) or an environment variable. */
export interface CredentialSource {
  /** What it is, for errors: "workload token", "ID token". */
  what: string;
  /** The config keys, for errors: `"assertionFile" or "assertionEnv"`. */
  keys: string;
  file?: string;
  env?: string;
}

const MAX_CREDENTIAL = 64 * 1024;
/** A compact JWS: three base64url parts (RFC 7515 §7.1). */
const COMPACT_JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** The credential, read now. A file or variable that does not hold a JWT is refused before
 *  anything is sent: a mistyped path must not hand some other file's content to a server. */
export function readCredential(server: string, s: CredentialSource): string {
  let text: string;
  let where: string;
  if (s.file) {
    where = `the ${s.what} file ${s.file}`;
    try {
      const r = readRegularFileSync(s.file, MAX_CREDENTIAL);
      if (r.truncated) throw new Error(`it is larger than ${MAX_CREDENTIAL / 1024} KiB`);
      text = r.data.toString("utf8").trim();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === "ENOENT" ? "it does not exist" : code === "EACCES" ? "permission denied" : code === "EISDIR" ? "it is a folder" : (err as Error).message;
      throw new Error(`MCP server ${server}: ${where} cannot be read: ${why}`, { cause: err });
    }
  } else if (s.env) {
    where = `the environment variable ${s.env} (the ${s.what})`;
    text = (process.env[s.env] ?? "").trim();
    if (!text) throw new Error(`MCP server ${server}: ${where} is not set`);
  } else {
    throw new Error(`MCP server ${server}: its "oauth" entry names no ${s.what}: give ${s.keys}`);
  }
  if (!text) throw new Error(`MCP server ${server}: ${where} is empty`);
  if (!COMPACT_JWT.test(text)) throw new Error(`MCP server ${server}: ${where} does not hold a JWT (three base64url parts joined by dots); nothing was sent`);
  return text;
}

/** RFC 7523 §2.1: trade `assertion` for an access token at the MCP server's authorization
 *  server, for `resource` (RFC 8707) and `scopes`. */
export async function jwtBearerGrant(w: Web, as: AuthServer, cfg: OAuthConfig, assertion: string, scopes: string[], resource: string, what: string): Promise<StoredTokens> {
  const form: Record<string, string | undefined> = { grant_type: JWT_BEARER, assertion, resource, scope: scopes.length ? scopes.join(" ") : undefined };
  const headers = clientAuthentication(as, cfg, form);
  const a = await postForm(w, new URL(as.tokenEndpoint), form, headers);
  try {
    return machineTokens(a, what);
  } catch (err) {
    // The server judged this assertion (invalid_grant, invalid_scope, unauthorized_client…):
    // grants.ts does not ask again with the same one.
    throw Object.assign(err as Error, { refused: a.status >= 400 && a.status < 500 });
  }
}
