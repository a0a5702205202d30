// Where to sign in for a protected MCP server:
//  1. its protected resource metadata (RFC 9728): the challenge's `resource_metadata` URL, else
//     the well-known URL with the server's path, else the root one. Its `resource` must be this
//     server (same origin, a prefix of its path): a document naming another resource is refused,
//     so a server cannot have tokens for someone else requested in its name;
//  2. its authorization server's metadata (RFC 8414 / OpenID Connect Discovery), at the
//     well-known paths the MCP specification lists for an issuer with and without a path; the
//     document's `issuer` must be the issuer it was looked up for (RFC 8414 §3.3);
//  3. a server without (1) is a 2025-03-26 one: its origin is the authorization server, and
//     when that has no metadata either, /authorize, /token and /register on the origin.

import { getJson, type JsonDoc, type Web } from "./web.js";
import type { Challenge } from "./challenge.js";

export interface Resource {
  /** What goes in the `resource` parameter (RFC 8707). */
  resource: string;
  /** The authorization server's issuer identifier. */
  issuer: string;
  scopesSupported?: string[];
  /** The metadata URL that answered, or undefined for a 2025-03-26 server. */
  metadataUrl?: string;
}

export interface AuthServer {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint?: string;
  scopesSupported?: string[];
  authMethods?: string[];
  /** RFC 9207: the authorization response carries `iss`. */
  issSupported: boolean;
  clientIdMetadataDocuments: boolean;
  /** RFC 9449 §5.1: the algorithms it accepts DPoP proofs in (it offers DPoP-bound tokens). */
  dpopAlgs?: string[];
}

/** The canonical URI of an MCP server (RFC 8707 §2): no fragment, lower-case scheme and host. */
export function canonicalResource(serverUrl: string): string {
  const u = new URL(serverUrl);
  u.hash = "";
  return u.href;
}

export async function discoverResource(w: Web, serverUrl: string, ch: Challenge): Promise<Resource> {
  const server = new URL(serverUrl);
  const candidates: URL[] = [];
  if (ch.resourceMetadata) {
    try {
      const u = new URL(ch.resourceMetadata, server);
      if (u.protocol === "https:" || u.protocol === "http:") candidates.push(u);
    } catch {
      // not a URL: the well-known locations below are tried instead
    }
  }
  const path = server.pathname.replace(/\/+$/, "");
  if (path) candidates.push(new URL(`/.well-known/oauth-protected-resource${path}`, server.origin));
  candidates.push(new URL("/.well-known/oauth-protected-resource", server.origin));
  for (const url of candidates) {
    const a = await getJson(w, url);
    if (a.status !== 200 || !a.json) continue;
    const doc = a.json;
    const resource = typeof doc.resource === "string" ? doc.resource : undefined;
    if (!resource) continue;
    if (!covers(resource, server)) {
      throw new Error(`the server's protected resource metadata (${url.href}) is for ${resource}, not for ${server.href}: deepcode will not sign in with it`);
    }
    const servers = Array.isArray(doc.authorization_servers) ? doc.authorization_servers.filter((x): x is string => typeof x === "string") : [];
    if (servers.length === 0) throw new Error(`the server's protected resource metadata (${url.href}) names no authorization server`);
    return { resource, issuer: servers[0], scopesSupported: strings(doc.scopes_supported), metadataUrl: url.href };
  }
  return { resource: canonicalResource(serverUrl), issuer: server.origin };
}

/** A protected resource identifier covers a server URL when it is the same origin and its
 *  path is the server's path or a folder above it. */
function covers(resource: string, server: URL): boolean {
  let r: URL;
  try {
    r = new URL(resource);
  } catch {
    return false;
  }
  if (r.origin !== server.origin) return false;
  const rp = r.pathname.replace(/\/+$/, "");
  const sp = server.pathname.replace(/\/+$/, "");
  return rp === "" || sp === rp || sp.startsWith(`${rp}/`);
}

export async function discoverAuthServer(w: Web, r: Resource): Promise<AuthServer> {
  const issuer = new URL(r.issuer);
  const path = issuer.pathname.replace(/\/+$/, "");
  const urls = path
    ? [`/.well-known/oauth-authorization-server${path}`, `/.well-known/openid-configuration${path}`, `${path}/.well-known/openid-configuration`]
    : ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"];
  for (const p of urls) {
    const url = new URL(p, issuer.origin);
    const a = await getJson(w, url);
    if (a.status !== 200 || !a.json) continue;
    return readMetadata(a.json, r.issuer, url.href, r.metadataUrl === undefined);
  }
  if (r.metadataUrl === undefined) {
    // A 2025-03-26 server without metadata: the specification's default endpoints.
    return {
      issuer: issuer.origin,
      authorizationEndpoint: `${issuer.origin}/authorize`,
      tokenEndpoint: `${issuer.origin}/token`,
      registrationEndpoint: `${issuer.origin}/register`,
      issSupported: false,
      clientIdMetadataDocuments: false,
    };
  }
  throw new Error(`the authorization server ${r.issuer} publishes no metadata (tried ${urls.join(", ")})`);
}

/** `legacy`: a 2025-03-26 server is its own authorization server, so an issuer anywhere on its
 *  origin is its own (servers of that time named a path there). */
function readMetadata(doc: JsonDoc, issuer: string, where: string, legacy: boolean): AuthServer {
  const said = typeof doc.issuer === "string" ? doc.issuer : "";
  const ok = trim(said) === trim(issuer) || (legacy && originOf(said) === new URL(issuer).origin);
  if (!ok) throw new Error(`the authorization server metadata at ${where} says its issuer is ${said || "(none)"}, not ${issuer}: deepcode will not sign in with it`);
  const url = (k: string): string | undefined => {
    const v = doc[k];
    if (typeof v !== "string") return undefined;
    try {
      const u = new URL(v);
      // OAuth 2.1 §1.5: endpoints over TLS; plain http only on this machine.
      return u.protocol === "https:" || (u.protocol === "http:" && LOOPBACK.test(u.hostname)) ? u.href : undefined;
    } catch {
      return undefined;
    }
  };
  const authorizationEndpoint = url("authorization_endpoint");
  const tokenEndpoint = url("token_endpoint");
  if (!authorizationEndpoint || !tokenEndpoint) throw new Error(`the authorization server metadata at ${where} has no usable authorization_endpoint or token_endpoint (https, or http on this machine only)`);
  const methods = strings(doc.code_challenge_methods_supported);
  if (methods && !methods.includes("S256")) throw new Error(`the authorization server ${issuer} does not support PKCE with S256, which MCP requires`);
  return {
    issuer: said,
    authorizationEndpoint,
    tokenEndpoint,
    registrationEndpoint: url("registration_endpoint"),
    scopesSupported: strings(doc.scopes_supported),
    authMethods: strings(doc.token_endpoint_auth_methods_supported),
    issSupported: doc.authorization_response_iss_parameter_supported === true,
    clientIdMetadataDocuments: doc.client_id_metadata_document_supported === true,
    dpopAlgs: strings(doc.dpop_signing_alg_values_supported),
  };
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

function originOf(s: string): string | undefined {
  try {
    return new URL(s).origin;
  } catch {
    return undefined;
  }
}

function trim(s: string): string {
  return s.replace(/\/$/, "");
}

function strings(v: JsonDoc[string] | undefined): string[] | undefined {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;
}
