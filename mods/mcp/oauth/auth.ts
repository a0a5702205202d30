// OAuth for one remote MCP server, as the transports' `HttpAuth`: every request carries the
// stored access token (refreshed first when it has expired); a 401, or a 403 whose challenge
// says `insufficient_scope`, is answered by a silent refresh where that can help, else by a
// sign-in — but only while a person signs in on purpose (`deepcode mcp login NAME`, `/mcp login
// NAME`). At any other time (a start, -p, a tool call) the server is left "needing sign-in":
// nothing ever waits for a browser nobody asked for. Scopes: the challenge's, else the resource
// metadata's `scopes_supported`, joined with every scope asked for before (a step-up keeps what
// was granted) and `offline_access` where the authorization server lists it (for a refresh
// token); the configured `oauth.scopes` always. DPoP (oauth/dpop.ts): where the authorization
// server offers it (or `oauth.dpop` says so) the tokens are bound to the server's key, and every
// request carries `Authorization: DPoP …` and a fresh proof; a `use_dpop_nonce` refusal with a
// new nonce is answered by one retry with it. A configured credential (a client secret, a
// machine grant's assertion) goes only to the authorization server it is pinned to (oauth/pin.ts).

import type { IncomingMessage } from "node:http";
import { dirname } from "node:path";
import type { AuthTarget, Connector, HttpAuth } from "../http.js";
import { dpopError, insufficientScope, parseChallenge, type Challenge } from "./challenge.js";
import { discoverAuthServer, discoverResource, type AuthServer, type Resource } from "./discovery.js";
import { Dpop, DPOP_ALG } from "./dpop.js";
import { authorizationRequest, checkIssuer, clientFor, exchangeCode, refreshTokens, type OAuthConfig } from "./flow.js";
import { listenCallback } from "./callback.js";
import { openBrowser } from "./browser.js";
import { SignInStore, type SignIn } from "./store.js";
import { machineGrant } from "./grants.js";
import { configuredCredential, Pin, PinStore, type PinAnswer, type PinQuestion } from "./pin.js";

/** The server wants a person to sign in; `/mcp` shows it as "needs sign-in", not as failed. */
export class SignInNeeded extends Error {
  readonly signIn = true;
}

export function isSignInNeeded(err: unknown): err is SignInNeeded {
  return err instanceof Error && (err as { signIn?: unknown }).signIn === true;
}

export interface OAuthDeps {
  name: string;
  url: string;
  config?: OAuthConfig;
  store: SignInStore;
  connect?: Connector;
  log(line: string): void;
  /** Ask the person whether a configured credential may go to a new authorization server
   *  (oauth/pin.ts); without it, nobody can answer. `signingIn`: during a sign-in on purpose
   *  (`mcp login`), not a connection of its own accord. */
  ask?(q: PinQuestion, signingIn: boolean): Promise<PinAnswer>;
}

/** A person signing in now: where to tell them the URL, and their way to give up. */
export interface Person {
  say(text: string): void;
  signal: AbortSignal;
  timeoutMs: number;
}

/** Authorizations one sign-in may make (the first, and one step-up): a server that refuses
 *  every token is not asked forever. */
const MAX_AUTHORIZATIONS = 2;
/** A token this close to its expiry is refreshed before it is sent (a quarter of its lifetime
 *  for short-lived tokens). */
const EXPIRY_MARGIN_MS = 30_000;

export class OAuth implements HttpAuth {
  private person?: Person;
  private authorizations = 0;
  private readonly key: string;
  /** The access token a refresh just produced: a 401 for it is not refreshed again. */
  private refreshed?: string;
  private grants: number[] = [];
  /** Whether the server asked for authorization during the current sign-in. */
  asked = false;
  private readonly dpop: Dpop;
  private readonly pin: Pin;

  constructor(private readonly d: OAuthDeps) {
    this.key = SignInStore.key(d.name, d.url);
    this.dpop = new Dpop(Dpop.fileFor(dirname(d.store.file), this.key));
    this.pin = new Pin({ server: d.name, url: d.url, key: this.key, configured: d.config?.authorizationServer, store: new PinStore(dirname(d.store.file)), ask: (q) => d.ask?.(q, this.person !== undefined) ?? Promise.resolve("nobody"), log: d.log });
  }

  private get web() {
    return { connect: this.d.connect, signal: this.person?.signal ?? AbortSignal.timeout(30_000) };
  }

  signedIn(): boolean {
    return Boolean(this.d.store.get(this.key).tokens);
  }

  /** Start a sign-in: the stored tokens go (the client registration stays), so the next
   *  request is challenged and authorized anew, with every scope wanted so far. */
  begin(person: Person): void {
    const e = this.d.store.get(this.key);
    if (e.tokens) this.d.store.set(this.key, { ...e, tokens: undefined });
    // A new sign-in binds its tokens to a new DPoP key.
    this.dpop.forget();
    this.person = person;
    this.authorizations = 0;
    this.asked = false;
    this.pin.reset();
  }

  end(): void {
    this.person = undefined;
  }

  /** Forget the tokens and the registration; true when there was a sign-in. */
  logout(): boolean {
    this.dpop.forget();
    return this.d.store.remove(this.key);
  }

  async headers(target: AuthTarget, o?: { refresh?: boolean }): Promise<Record<string, string>> {
    let e = this.d.store.get(this.key);
    const t = e.tokens;
    if (!t) return {};
    if (t.type === "DPoP" && !this.dpop.key(false)) {
      // The key the tokens are bound to is gone: they are useless (a refresh too), so they go.
      this.d.log(`the DPoP key of this sign-in (${this.dpop.file}) is gone: the token cannot be used`);
      this.d.store.set(this.key, { ...e, tokens: undefined });
      return {};
    }
    const margin = Math.min(EXPIRY_MARGIN_MS, t.expiresAt !== undefined && t.issuedAt !== undefined ? (t.expiresAt - t.issuedAt) / 4 : EXPIRY_MARGIN_MS);
    if (o?.refresh !== false && t.expiresAt !== undefined && t.expiresAt - margin < Date.now() && t.refresh) {
      e = (await this.refresh(e).catch((err: unknown) => {
        this.d.log(`refreshing the token failed: ${(err as Error).message}`);
        return undefined;
      })) ?? e;
    }
    if (!e.tokens) return {};
    if (e.tokens.type !== "DPoP") return { authorization: `Bearer ${e.tokens.access}` };
    return { authorization: `DPoP ${e.tokens.access}`, dpop: this.dpop.proof(target, e.tokens.access) };
  }

  answered(res: IncomingMessage, target: AuthTarget): void {
    if (this.d.store.get(this.key).tokens?.type === "DPoP") this.dpop.noteNonce(target.url, res.headers);
  }

  async unauthorized(res: IncomingMessage, _body: string, target: AuthTarget): Promise<boolean> {
    const header = res.headers["www-authenticate"];
    if (dpopError(header) === "use_dpop_nonce" && this.d.store.get(this.key).tokens?.type === "DPoP") {
      // RFC 9449 §9: the resource server wants a nonce in the proof: one retry with a new one.
      if (this.dpop.noteNonce(target.url, res.headers)) return true;
      throw new Error("the server asks for a DPoP nonce but gives none that deepcode has not sent already");
    }
    const stepUp = res.statusCode === 403 && insufficientScope(header);
    if (res.statusCode === 403 && !stepUp) return false;
    const ch = parseChallenge(header);
    const web = this.web;
    const resource = await discoverResource(web, this.d.url, ch);
    let e = this.d.store.get(this.key);
    if (e.issuer && e.issuer !== resource.issuer) {
      // SEP-2352: the resource moved to another authorization server: nothing of the old
      // one's (client or tokens) is sent to the new one.
      this.d.log(`the authorization server changed from ${e.issuer} to ${resource.issuer}: signing in anew`);
      e = { scopes: e.scopes };
      this.d.store.set(this.key, e);
    }
    const scopes = this.scopes(e, ch, resource);
    if (!stepUp && e.tokens?.refresh && e.tokens.access !== this.refreshed) {
      const r = await this.refresh(e).catch((err: unknown) => {
        this.d.log(`refreshing the token failed: ${(err as Error).message}`);
        return undefined;
      });
      if (r) return true;
      e = this.d.store.get(this.key);
    }
    if (this.d.config?.grant) return this.machine(resource, scopes, e);
    if (!this.person) {
      this.d.store.set(this.key, { ...e, wanted: scopes.join(" ") });
      throw new SignInNeeded(stepUp ? `it asks for more access (scope ${ch.scope ?? "?"}): sign in again` : "it needs sign-in");
    }
    this.asked = true;
    if (this.authorizations >= MAX_AUTHORIZATIONS) throw new Error(`the server still refuses after ${MAX_AUTHORIZATIONS} sign-ins (${stepUp ? `it wants scope ${ch.scope ?? "?"}` : "401"}); giving up`);
    this.authorizations++;
    await this.authorize(resource, scopes, e, this.person);
    return true;
  }

  private scopes(e: SignIn, ch: Challenge, r: Resource): string[] {
    const split = (s: string | undefined): string[] => (s ?? "").split(/\s+/).filter(Boolean);
    const now = ch.scope !== undefined ? split(ch.scope) : (r.scopesSupported ?? []);
    return [...new Set([...(e.scopes ?? []), ...split(e.wanted), ...now, ...(this.d.config?.scopes ?? [])])];
  }

  private async authorize(resource: Resource, wanted: string[], e: SignIn, person: Person): Promise<void> {
    // A configured client secret is pinned like a machine grant's credential. A registered
    // (dynamic registration) or public client has no secret of the person's to send: the
    // authorization server is the one the metadata names, as before.
    if (this.d.config?.clientSecret !== undefined) await this.pin.allow(resource.issuer, "client secret");
    const web = { connect: this.d.connect, signal: person.signal };
    const as = await discoverAuthServer(web, resource);
    const scopes = as.scopesSupported?.includes("offline_access") && !wanted.includes("offline_access") ? [...wanted, "offline_access"] : wanted;
    const known = e.issuer === as.issuer ? e.client : undefined;
    const port = this.d.config?.callbackPort ?? portOf(known?.redirectUri);
    const callback = await listenCallback(port).catch(() => listenCallback(0));
    try {
      const client = await clientFor(web, as, callback.redirectUri, this.d.config, known);
      // A configured secret stays in the configuration, never in the store.
      this.d.store.set(this.key, { ...e, issuer: as.issuer, client: client.registered ? client : { ...client, secret: undefined }, resource: resource.resource, tokenEndpoint: as.tokenEndpoint });
      const req = authorizationRequest(as, client, callback.redirectUri, scopes, resource.resource);
      const answer = callback.wait(req.state, person.signal, person.timeoutMs);
      const opened = openBrowser(req.url.href);
      person.say(`Sign in to the MCP server ${this.d.name}${opened ? " in the browser that just opened" : ""}; if no browser opens, open this URL:\n${req.url.href}\nWaiting for the answer on ${callback.redirectUri} (Ctrl-C cancels)…`);
      const got = await answer;
      checkIssuer(as, got.iss);
      const tokens = await exchangeCode(web, as.tokenEndpoint, client, got.code, req.verifier, callback.redirectUri, resource.resource, this.dpopFor(as));
      this.d.store.set(this.key, { ...this.d.store.get(this.key), tokens, scopes, wanted: undefined });
      this.d.log(`signed in with ${as.issuer}${scopes.length ? ` (scope ${scopes.join(" ")})` : ""}${tokens.type === "DPoP" ? " (a DPoP-bound token)" : ""}`);
    } finally {
      callback.close();
    }
  }

  /** A machine client (oauth/grants.ts) asks for a token itself; at most two tokens a minute,
   *  so a server that refuses every token is not asked in a loop. */
  private async machine(resource: Resource, scopes: string[], e: SignIn): Promise<boolean> {
    const now = Date.now();
    this.grants = this.grants.filter((t) => now - t < 60_000);
    const grant = this.d.config!.grant!;
    if (this.grants.length >= MAX_AUTHORIZATIONS) throw new Error(`the server still refuses after ${MAX_AUTHORIZATIONS} ${grant} tokens in a minute; giving up`);
    // Before anything of the credential's (or the identity provider's ID-JAG for this issuer)
    // is made or sent, and before the authorization server is even asked for its metadata.
    await this.pin.allow(resource.issuer, configuredCredential(this.d.config) ?? "client credentials");
    const web = { connect: this.d.connect, signal: AbortSignal.timeout(30_000) };
    const as = await discoverAuthServer(web, resource);
    const tokens = await machineGrant(web, as, this.d.config!, scopes, resource.resource, this.d.name, this.dpopFor(as));
    // Counted once granted: a grant that failed says why itself, every time it is tried.
    this.grants.push(now);
    this.d.store.set(this.key, { ...e, issuer: as.issuer, tokens, scopes, resource: resource.resource, tokenEndpoint: as.tokenEndpoint, wanted: undefined });
    this.d.log(`got a ${grant} token from ${as.issuer}`);
    return true;
  }

  /** Whether to ask this authorization server for DPoP-bound tokens: as `oauth.dpop` says
   *  when set, else where its metadata lists ES256 (the algorithm deepcode signs proofs with). */
  private dpopFor(as: AuthServer): Dpop | undefined {
    const want = this.d.config?.dpop;
    if (want !== undefined) return want ? this.dpop : undefined;
    if (!as.dpopAlgs?.length) return undefined;
    if (as.dpopAlgs.includes(DPOP_ALG)) return this.dpop;
    this.d.log(`the authorization server takes DPoP proofs in ${as.dpopAlgs.join(", ")} only, not ${DPOP_ALG}: asking for a Bearer token`);
    return undefined;
  }

  /** A refresh goes to the token endpoint stored at sign-in, which came from the pinned
   *  authorization server (an entry whose issuer changed is dropped before, in `unauthorized`). */
  private async refresh(e: SignIn): Promise<SignIn | undefined> {
    if (!e.tokens?.refresh || !e.tokenEndpoint) return undefined;
    if (!e.client) return undefined;
    const client = e.client.registered ? e.client : { ...e.client, secret: this.d.config?.clientSecret };
    // A DPoP-bound refresh token is bound to the same key (RFC 9449 §5).
    const dpop = e.tokens.type === "DPoP" ? this.dpop : undefined;
    if (dpop && !dpop.key(false)) return undefined;
    const tokens = await refreshTokens({ connect: this.d.connect, signal: AbortSignal.timeout(30_000) }, e.tokenEndpoint, client, e.tokens.refresh, e.resource, dpop);
    const next = { ...e, tokens };
    this.d.store.set(this.key, next);
    this.refreshed = tokens.access;
    this.d.log("refreshed the access token");
    return next;
  }
}

function portOf(uri: string | undefined): number | undefined {
  if (!uri) return undefined;
  try {
    const p = Number(new URL(uri).port);
    return p > 0 ? p : undefined;
  } catch {
    return undefined;
  }
}
