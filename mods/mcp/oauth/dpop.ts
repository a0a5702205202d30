// DPoP (RFC 9449: sender-constrained tokens) for one remote MCP server. A key pair of its own
// (EC P-256, proofs signed ES256) proves, on every token request and every MCP request, that
// the sender holds the key the token is bound to: a stolen token (or a stolen mcp-oauth.json)
// is useless without the key. A proof is a JWT with `typ: dpop+jwt`, the public key as `jwk`
// in its header, and `htm` (method), `htu` (the URL without query and fragment), `iat`, a fresh
// `jti`, `ath` (SHA-256 of the access token, for the resource server) and `nonce` where the
// server gave one in `DPoP-Nonce` (answered by one retry of a `use_dpop_nonce` refusal).
//
// The private key lives in deepcode's home, `~/.deepcode/mcp-dpop/<hash of server name and
// origin>.pem` (0600, folder 0700), never in mcp-oauth.json: the tokens there are bound to it
// and outlive the process (`deepcode mcp login` signs in, later runs use the token), so a key
// kept in memory would make every stored token useless. It is made at the first DPoP token
// request, replaced at each new sign-in and removed by logout. Nonces are kept in memory only.

import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { linkSync, mkdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { IncomingHttpHeaders } from "node:http";
import { readRegularFileSync } from "../../../src/lib/regular-file.js";
import { postForm, type Web, type WebAnswer } from "./web.js";

export const DPOP_ALG = "ES256";

/** What a request is, for its proof. */
export interface Target {
  method: string;
  url: URL;
}

interface PublicJwk {
  kty: string;
  crv: string;
  x: string;
  y: string;
}

const b64 = (b: Buffer | string): string => Buffer.from(b).toString("base64url");

/** RFC 9449 §4.2: `htu` is the target URI without query and fragment. */
export function htu(url: URL): string {
  const u = new URL(url.href);
  u.search = "";
  u.hash = "";
  return u.href;
}

/** RFC 9449 §4.2: `ath`, the base64url SHA-256 of the access token's ASCII. */
export function ath(token: string): string {
  return b64(createHash("sha256").update(token, "ascii").digest());
}

export class DpopKey {
  readonly jwk: PublicJwk;

  private constructor(private readonly key: KeyObject) {
    const j = createPublicKey(key).export({ format: "jwk" }) as Partial<PublicJwk>;
    if (j.kty !== "EC" || j.crv !== "P-256" || !j.x || !j.y) throw new Error("a DPoP key must be an EC P-256 key");
    this.jwk = { kty: j.kty, crv: j.crv, x: j.x, y: j.y };
  }

  static generate(): DpopKey {
    return new DpopKey(generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey);
  }

  static fromPem(pem: string): DpopKey {
    return new DpopKey(createPrivateKey(pem));
  }

  pem(): string {
    return this.key.export({ format: "pem", type: "pkcs8" }).toString();
  }

  /** RFC 7638 thumbprint (what a bound token's `cnf.jkt` names). */
  thumbprint(): string {
    const { crv, kty, x, y } = this.jwk;
    return b64(createHash("sha256").update(JSON.stringify({ crv, kty, x, y })).digest());
  }

  proof(t: Target, o: { accessToken?: string; nonce?: string } = {}): string {
    const header = { typ: "dpop+jwt", alg: DPOP_ALG, jwk: this.jwk };
    const claims = {
      jti: b64(randomBytes(16)),
      htm: t.method.toUpperCase(),
      htu: htu(t.url),
      iat: Math.floor(Date.now() / 1000),
      ...(o.nonce !== undefined ? { nonce: o.nonce } : {}),
      ...(o.accessToken !== undefined ? { ath: ath(o.accessToken) } : {}),
    };
    const body = `${b64(JSON.stringify(header))}.${b64(JSON.stringify(claims))}`;
    return `${body}.${b64(sign("sha256", Buffer.from(body), { key: this.key, dsaEncoding: "ieee-p1363" }))}`;
  }
}

/** One server's DPoP: its key (in `file`) and the nonces its servers gave, per origin. */
export class Dpop {
  private current?: DpopKey;
  private readonly nonces = new Map<string, string>();

  constructor(readonly file: string) {}

  static fileFor(home: string, storeKey: string): string {
    return join(home, "mcp-dpop", `${createHash("sha256").update(storeKey).digest("hex").slice(0, 32)}.pem`);
  }

  /** The key: the one in the file, or (with `create`) a new one written there. */
  key(create: boolean): DpopKey | undefined {
    if (this.current) return this.current;
    let pem: string | undefined;
    try {
      pem = readRegularFileSync(this.file, 16 * 1024).data.toString("utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw new Error(`the DPoP key ${this.file} cannot be read: ${(err as Error).message}`, { cause: err });
    }
    if (pem !== undefined) {
      try {
        return (this.current = DpopKey.fromPem(pem));
      } catch (err) {
        throw new Error(`the DPoP key ${this.file} is damaged (${(err as Error).message}): run deepcode mcp logout for this server and sign in again`, { cause: err });
      }
    }
    if (!create) return undefined;
    const made = DpopKey.generate();
    mkdirSync(join(this.file, ".."), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, made.pem(), { mode: 0o600 });
    try {
      // A link fails where another process wrote the key first: then that key is the one.
      linkSync(tmp, this.file);
      this.current = made;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw new Error(`the DPoP key ${this.file} cannot be written: ${(err as Error).message}`, { cause: err });
    } finally {
      unlinkSync(tmp);
    }
    return this.current ?? this.key(false);
  }

  /** Forget the key (its file too) and the nonces. */
  forget(): void {
    this.current = undefined;
    this.nonces.clear();
    rmSync(this.file, { force: true });
  }

  proof(t: Target, accessToken?: string): string {
    const key = this.key(true);
    if (!key) throw new Error(`no DPoP key at ${this.file}`);
    return key.proof(t, { accessToken, nonce: this.nonces.get(t.url.origin) });
  }

  /** Keep a `DPoP-Nonce` the server sent; true when it is new (worth a retry). */
  noteNonce(url: URL, headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): boolean {
    const v = headers["dpop-nonce"];
    const nonce = Array.isArray(v) ? v[0] : v;
    // RFC 9449 §8.1: NQCHAR, printable ASCII without the quote and the backslash.
    if (!nonce || !/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(nonce) || this.nonces.get(url.origin) === nonce) return false;
    this.nonces.set(url.origin, nonce);
    return true;
  }
}

/** A token request (a form POST to the token endpoint), with a DPoP proof when `dpop` is
 *  given; a `use_dpop_nonce` refusal with a new nonce is sent once more with it (RFC 9449 §8). */
export async function postToken(w: Web, url: URL, form: Record<string, string | undefined>, headers: Record<string, string>, dpop: Dpop | undefined): Promise<WebAnswer> {
  if (!dpop) return postForm(w, url, form, headers);
  let a = await postForm(w, url, form, { ...headers, dpop: dpop.proof({ method: "POST", url }) });
  const fresh = dpop.noteNonce(url, a.headers);
  if (a.status === 400 && a.json?.error === "use_dpop_nonce" && fresh) {
    a = await postForm(w, url, form, { ...headers, dpop: dpop.proof({ method: "POST", url }) });
    dpop.noteNonce(url, a.headers);
  }
  return a;
}

/** The token's type as the token endpoint said: "DPoP" only where a proof was sent (a server
 *  may still answer with a Bearer token, RFC 9449 §5); anything else is refused. */
export function tokenType(said: unknown, proofSent: boolean, what: string): "Bearer" | "DPoP" {
  const type = typeof said === "string" ? said : "Bearer";
  if (type.toLowerCase() === "bearer") return "Bearer";
  if (type.toLowerCase() === "dpop" && proofSent) return "DPoP";
  throw new Error(`${what}: the token is of type ${type}, and deepcode sends Bearer tokens${proofSent ? " and DPoP-bound ones" : " (and DPoP-bound ones where the authorization server offers DPoP)"} only`);
}
