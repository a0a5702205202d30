// Where a configured credential may go (issue #35): a server entry's client secret, its private
// key's client assertion, a workload token (jwt_bearer) or the ID-JAG made from the person's ID
// token (id_jag) goes only to the authorization server it belongs to, as a browser fills a
// saved password only on the site it was saved for. A server's metadata chooses the
// authorization server, so without this a server (or whoever answers at its URL) naming another
// origin would receive the credential on every token request.
//
// The pin is, in this order:
//  1. the entry's `"oauth": { "authorizationServer": "<issuer>" }` — honoured from the first
//     request; another issuer is refused outright (the person's configuration decides, so the
//     way to accept is to change it), and nothing is remembered;
//  2. else the first authorization server this entry used, remembered in
//     `~/.deepcode/mcp-oauth-pins.json` (0600, written through a temporary file and a rename;
//     keyed like the sign-in store, by server name and origin) before anything is sent there.
// When the metadata later names another issuer, nothing is sent (nothing at all is asked of
// it, not even its metadata) until the person says yes (`person.ask`, or the terminal of
// `deepcode mcp login NAME`); yes sends it there and re-pins. Nobody to answer (-p, CI), or a
// no: an error naming the server, both issuers and how to accept; after a no, the same issuer
// is not asked about again in this process until a sign-in on purpose (`Pin.reset`). Issuers are
// compared as the metadata writes them, a trailing slash aside (RFC 8414 §3.3 compares issuers
// as strings; a tenant path on a shared origin is another issuer). `logout` keeps the pin: it
// belongs to the configured credential, not to the tokens.

import type { OAuthConfig } from "./flow.js";
import { KeyedJsonFile } from "./store.js";

export interface PinEntry {
  /** The issuer the credential went to. */
  issuer: string;
  /** When it was pinned (ISO 8601), for the person reading the file. */
  since: string;
}

export class PinStore extends KeyedJsonFile<PinEntry> {
  constructor(home: string) {
    super(home, "mcp-oauth-pins.json");
  }
}

export interface PinQuestion {
  title: string;
  detail: string[];
}

/** "nobody": no one can answer here (-p, CI, no terminal). */
export type PinAnswer = "yes" | "no" | "nobody";

export interface PinDeps {
  /** The server's name and URL, for the question and the errors. */
  server: string;
  url: string;
  /** Its entry in the store (SignInStore.key). */
  key: string;
  /** `oauth.authorizationServer`, when the entry names one. */
  configured?: string;
  store: PinStore;
  ask?(q: PinQuestion): Promise<PinAnswer>;
  log(line: string): void;
}

/** What of the configuration would go to the authorization server, in words; undefined when
 *  nothing configured would (a sign-in with a registered or public client: no secret of the
 *  person's is sent, so it is not pinned). */
export function configuredCredential(cfg: OAuthConfig | undefined): string | undefined {
  if (!cfg) return undefined;
  const parts: string[] = [];
  if (cfg.grant === "jwt_bearer") parts.push("workload token");
  if (cfg.grant === "id_jag") parts.push("ID-JAG (made from your ID token)");
  if (cfg.grant && cfg.privateKeyFile) parts.push("client assertion (signed with its private key)");
  else if (cfg.clientSecret !== undefined) parts.push("client secret");
  if (cfg.grant === "client_credentials" && parts.length === 0) parts.push("client credentials");
  return parts.length ? parts.join(" and ") : undefined;
}

const trim = (s: string): string => s.replace(/\/+$/, "");

export class Pin {
  /** Issuers the person said no to in this process (trimmed), with the error that said so. */
  private readonly refused = new Map<string, string>();
  /** One decision at a time: concurrent token requests wait for the first question's answer. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly d: PinDeps) {}

  /** A sign-in on purpose (`mcp login`): an issuer refused earlier in this process is asked
   *  about again. */
  reset(): void {
    this.refused.clear();
  }

  /** Resolves when `credential` may go to `issuer`; throws, naming the server and both issuers,
   *  when it may not. The caller sends nothing to `issuer` before this resolves. */
  allow(issuer: string, credential: string): Promise<void> {
    const run = this.queue.then(() => this.decide(issuer, credential));
    this.queue = run.catch(() => undefined); // the next caller decides afresh
    return run;
  }

  private async decide(issuer: string, credential: string): Promise<void> {
    const d = this.d;
    if (!/^https?:\/\//i.test(issuer)) throw new Error(`MCP server ${d.server}: its metadata names "${issuer}" as its authorization server, which is not an http(s) URL: its ${credential} was not sent`);
    if (d.configured !== undefined) {
      if (trim(d.configured) === trim(issuer)) return;
      throw new Error(
        `MCP server ${d.server}: its metadata names the authorization server ${issuer}, but its "oauth": { "authorizationServer": "${d.configured}" } pins its ${credential} to ${d.configured}: nothing was sent to ${issuer}. If the server really moved there, change "authorizationServer" in its entry.`,
      );
    }
    const pinned = d.store.get(d.key).issuer;
    if (pinned === undefined) {
      d.store.set(d.key, { issuer, since: new Date().toISOString() });
      d.log(`its ${credential} is pinned to ${issuer}, the first authorization server it was sent to (${d.store.file})`);
      return;
    }
    if (trim(pinned) === trim(issuer)) return;
    const before = this.refused.get(trim(issuer));
    if (before) throw new Error(before);
    const answer: PinAnswer = d.ask ? await d.ask(this.question(pinned, issuer, credential)) : "nobody";
    if (answer === "yes") {
      d.store.set(d.key, { issuer, since: new Date().toISOString() });
      d.log(`you allowed its ${credential} to go to ${issuer}: pinned there now (it was ${pinned})`);
      return;
    }
    const why =
      answer === "no"
        ? `MCP server ${d.server}: you did not allow its ${credential} to go to the authorization server ${issuer} (it is pinned to ${pinned}): nothing was sent. /mcp login ${d.server} (or deepcode mcp login ${d.server}) asks again.`
        : `MCP server ${d.server}: its metadata now names the authorization server ${issuer}, but its ${credential} is pinned to ${pinned}, the one it was first sent to, and nobody can answer here whether it may go to the new one: nothing was sent to ${issuer}. If the server really moved, accept it with \`deepcode mcp login ${d.server}\` at a terminal or /mcp login ${d.server} in the REPL (each asks), or name it in the server's entry: "oauth": { "authorizationServer": "${issuer}" }.`;
    // Nobody to answer is not remembered: the next connection where someone can answer asks.
    if (answer === "no") this.refused.set(trim(issuer), why);
    d.log(answer === "no" ? `you did not allow its ${credential} to go to ${issuer} (pinned to ${pinned})` : `its metadata names ${issuer}, but its ${credential} is pinned to ${pinned}: refused, nobody can answer here`);
    throw new Error(why);
  }

  private question(pinned: string, issuer: string, credential: string): PinQuestion {
    const d = this.d;
    return {
      title: `Send the MCP server "${d.server}"'s ${credential} to another authorization server, ${issuer}? It has gone only to ${pinned} so far.`,
      detail: [
        `The server ${d.url} now names ${issuer} as its authorization server; until now it named ${pinned}.`,
        `An authorization server receives the credential itself: say yes only if you know "${d.server}" moved to ${issuer}.`,
        `Yes sends it there and remembers ${issuer} for "${d.server}" (${d.store.file}); no sends nothing.`,
      ],
    };
  }
}
