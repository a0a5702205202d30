// HTTP for the MCP transports: one request, its response as a stream. Each request has its own
// connection (no pool: a pooled socket would keep deepcode alive after the last call). Where
// the host opens connections itself (its proxy settings: PluginApi.connect) the socket comes
// from there; TLS for https targets is then done by the host as well.

import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";

/** Opens the connection for a URL the way the host does (direct, or through its proxy). */
export type Connector = (url: URL, signal: AbortSignal) => Promise<Socket>;

/** What a request is (its method and URL), for authorization that signs each request (a DPoP
 *  proof: oauth/dpop.ts). */
export interface AuthTarget {
  method: string;
  url: URL;
}

/** Authorization for a remote server (OAuth: oauth/auth.ts): headers for each request, and
 *  what to do about a 401 or a 403 (`unauthorized` sees both: a 403 matters when its challenge
 *  asks for more scope). */
export interface HttpAuth {
  /** `refresh: false`: the token as it is, never refreshed first (a session's closing DELETE,
   *  which an exit must not wait on). */
  headers(target: AuthTarget, o?: { refresh?: boolean }): Promise<Record<string, string>>;
  /** Make `headers` answer better and say true to send the request again; false leaves the
   *  status as it is (an error). May throw an error that says what the person must do. */
  unauthorized?(res: IncomingMessage, body: string, target: AuthTarget): Promise<boolean>;
  /** Every other answer, for what it tells (a new DPoP nonce). */
  answered?(res: IncomingMessage, target: AuthTarget): void;
}

/** How often one request is sent again after `unauthorized` (a sign-in, then a step-up, a
 *  server's DPoP nonce). */
const AUTH_RETRIES = 3;

/** One request with authorization: `send` is called with the auth headers, again after each
 *  401/403 the auth hook answers with true. */
export async function authorized(auth: HttpAuth | undefined, target: AuthTarget, send: (headers: Record<string, string>) => Promise<IncomingMessage>): Promise<IncomingMessage> {
  let res = await send(auth ? await auth.headers(target) : {});
  for (let i = 0; auth?.unauthorized && i < AUTH_RETRIES && (res.statusCode === 401 || res.statusCode === 403); i++) {
    const status = res.statusCode;
    const text = await readBody(res, 64 * 1024).catch(() => ""); // the status is what counts
    if (!(await auth.unauthorized(res, text, target))) throw new Error(`the server answered ${status}${text.trim() ? ` (${text.trim().slice(0, 200)})` : ""}`);
    res = await send(await auth.headers(target));
  }
  auth?.answered?.(res, target);
  return res;
}

export interface Exchange {
  method: "GET" | "POST" | "DELETE";
  url: URL;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  connect?: Connector;
}

/** Aborting a connection's requests with one listener on its life signal, however many are in
 *  flight (node's request adds a listener to the signal it is given: one shared signal for
 *  every request drew a MaxListenersExceededWarning onto the screen past ten at once). */
export class RequestSignals {
  private readonly live = new Set<AbortController>();

  constructor(private readonly life: AbortSignal) {
    life.addEventListener("abort", () => {
      for (const c of this.live) c.abort();
      this.live.clear();
    }, { once: true });
  }

  /** An exchange on a signal of its own that ends with the connection; `done` lets it go. */
  async exchange(x: Omit<Exchange, "signal">): Promise<IncomingMessage> {
    const c = new AbortController();
    if (this.life.aborted) c.abort();
    else this.live.add(c);
    const done = (): void => void this.live.delete(c);
    try {
      const res = await exchange({ ...x, signal: c.signal });
      res.once("close", done);
      return res;
    } catch (err) {
      done();
      throw err;
    }
  }
}

export function exchange(x: Exchange): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...x.headers };
    if (x.body !== undefined) headers["content-length"] = String(Buffer.byteLength(x.body));
    const secure = x.url.protocol === "https:";
    // Without a connector: a fresh agent per request (not kept alive). With one: no agent at
    // all, so node asks createConnection for the socket.
    // A host connector hands over a ready (TLS-wrapped) socket: plain HTTP is spoken over it,
    // so the request names host and path itself rather than an https: URL.
    const req = x.connect
      ? httpRequest({ method: x.method, host: x.url.hostname, port: x.url.port || (secure ? 443 : 80), path: `${x.url.pathname}${x.url.search}`, headers: { host: x.url.host, ...headers }, signal: x.signal, createConnection: viaHost(x.connect, x.url, x.signal) }, resolve)
      : (secure ? httpsRequest : httpRequest)(x.url, { method: x.method, headers, signal: x.signal, agent: false }, resolve);
    req.on("error", (err: NodeJS.ErrnoException) => reject(new Error(x.signal.aborted ? "aborted" : `cannot reach ${x.url.origin}: ${err.code ?? err.message}`)));
    if (x.body !== undefined) req.write(x.body);
    req.end();
  });
}

function viaHost(connect: Connector, url: URL, signal: AbortSignal) {
  return (_opts: unknown, done: (err: Error | null, socket: Duplex) => void): undefined => {
    connect(url, signal).then(
      (s) => done(null, s),
      (err: unknown) => done(err instanceof Error ? err : new Error(String(err)), undefined as unknown as Duplex),
    );
    return undefined;
  };
}

export async function readBody(res: IncomingMessage, max = 8 * 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of res as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > max) {
      res.destroy();
      throw new Error(`the server's answer is larger than ${max} bytes`);
    }
    chunks.push(c);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** What an unexpected status means, for the person. */
export async function statusError(res: IncomingMessage, what: string): Promise<Error> {
  const body = await readBody(res, 64 * 1024).then(
    (b) => b.trim(),
    () => "", // the body could not be read: the status says enough
  );
  const status = res.statusCode ?? 0;
  if (status === 401 || status === 403) {
    return new Error(`${what}: the server answered ${status} (it refuses the authorization deepcode sent${body ? `: ${body.slice(0, 200)}` : ""})`);
  }
  return new Error(`${what}: the server answered ${status}${body ? ` (${body.slice(0, 200)})` : ""}`);
}

export function contentType(res: IncomingMessage): string {
  return String(res.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
}
