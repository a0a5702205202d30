// The core answer of `http.fetch`: one HTTP(S) request, one hop (HttpFetchRequest's contract).
//
// - Never a redirect followed here: a 3xx comes back as it is, so whoever asked dispatches the
//   next hop and the fence, the gate's rules and this check judge that one too.
// - Never a non-public address (loopback, link-local, private, …: src/lib/net-address.ts)
//   unless the host's policy says a rule names that exact host. Every address the name resolves
//   to is checked (one bad address in the answer refuses the request: a mixed answer is how DNS
//   rebinding starts), and the socket connects to the checked address through a `lookup` that
//   returns it, so the name is never resolved a second time.
// - The body is decompressed (gzip, deflate, br) and kept up to `maxBytes`; the rest is not
//   read. Text is decoded by the charset the response names (UTF-8 otherwise).
// - HTTPS_PROXY / HTTP_PROXY / NO_PROXY are honoured as for the model's requests (src/lib/proxy.ts):
//   https through a CONNECT tunnel, http as an absolute-URI request to the proxy. The address
//   check still runs on this machine's answer for the name; a name this machine cannot resolve
//   goes to the proxy unchecked (the proxy resolves it, and what it reaches is its policy).

import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { DeniedError, type HttpFetchRequest, type HttpFetchResult } from "../contract/index.js";
import { nonPublicKind } from "../lib/net-address.js";
import { proxyFor, proxyName, tunnel, type Env } from "../lib/proxy.js";

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BYTES = 10_000_000;

export interface FetchPolicy {
  /** This request may reach `host` on a non-public address (a test server on 127.0.0.1, an
   *  intranet documentation host): an allow rule names that exact host, a person said yes to
   *  the call that makes it, or it is a background job's forwarded port (the CLI's policy:
   *  src/cli/permissions/fence.ts privateFetchAllowed). Absent: never. */
  privateHostAllowed?(host: string, req: HttpFetchRequest): boolean;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (the process environment if absent). */
  env?: Env;
}

/** The request would reach an address it may not. A DeniedError: the chain hands it to the
 *  tool, whose call fails with this message. */
export class AddressRefusedError extends DeniedError {
  constructor(readonly url: string, message: string) {
    super(message, "http.fetch");
    this.name = "AddressRefusedError";
  }
}

export async function httpFetch(req: HttpFetchRequest, policy: FetchPolicy = {}): Promise<HttpFetchResult> {
  const url = new URL(req.url);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`only http and https URLs are fetched, not ${url.protocol}`);
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const signals = [AbortSignal.timeout(req.timeoutMs ?? DEFAULT_TIMEOUT_MS)];
  if (req.signal) signals.push(req.signal);
  const signal = AbortSignal.any(signals);
  const proxy = proxyFor(url, policy.env ?? process.env);
  const target = await checkedAddress(req, host, policy, proxy !== undefined);
  const options = { method: req.method ?? "GET", headers: { "accept-encoding": "gzip, deflate, br", ...req.headers }, agent: false as const, signal };
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const sent = (r: ReturnType<typeof httpRequest>): void => {
      r.on("error", reject);
      r.end(req.body);
    };
    if (!proxy) {
      const pinned: LookupFunction = (_name, o, callback) => {
        if ((o as { all?: boolean }).all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [target!]);
        else callback(null, target!.address, target!.family);
      };
      sent((url.protocol === "https:" ? httpsRequest : httpRequest)(url, { ...options, lookup: pinned }, resolve));
    } else if (url.protocol === "http:") {
      // Plain http through a proxy: the whole URL as the request target, sent to the proxy.
      const auth = proxy.username ? { "proxy-authorization": `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString("base64")}` } : {};
      sent(httpRequest({ ...options, host: proxy.hostname.replace(/^\[|\]$/g, ""), port: Number(proxy.port || 80), path: url.href, headers: { ...options.headers, host: url.host, ...auth } }, resolve));
    } else {
      tunnel(proxy, host, Number(url.port || 443), signal).then((raw: Socket) => {
        const secure = tlsConnect({ socket: raw, servername: isIP(host) ? undefined : host });
        secure.once("close", () => raw.destroy());
        sent(httpsRequest(url, { ...options, createConnection: () => secure }, resolve));
      }, reject);
    }
  });
  let body: { data: Buffer; truncated: boolean };
  try {
    body = await readBounded(decoded(res), req.maxBytes ?? DEFAULT_MAX_BYTES, signal);
  } finally {
    res.destroy(); // a cut or aborted body: the rest is not read (no-op once it has ended)
  }
  const { data, truncated } = body;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
  const address = proxy ? `via proxy ${proxyName(proxy)}` : target?.address;
  return { status: res.statusCode ?? 0, headers, body: decodeText(data, headers["content-type"]), ...(address ? { address } : {}), ...(truncated ? { truncated } : {}) };
}

/** The address the request may go to, checked; undefined when a proxy will resolve a name this
 *  machine cannot. */
async function checkedAddress(req: HttpFetchRequest, host: string, policy: FetchPolicy, proxied: boolean): Promise<{ address: string; family: number } | undefined> {
  const url = req.url;
  const literal = isIP(host);
  let all: Array<{ address: string; family: number }>;
  try {
    all = literal ? [{ address: host, family: literal }] : await dnsLookup(host, { all: true, verbatim: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (proxied && (code === "ENOTFOUND" || code === "EAI_AGAIN")) return undefined;
    throw err;
  }
  if (all.length === 0) throw new Error(`${host} has no address`);
  for (const a of all) {
    const kind = nonPublicKind(a.address);
    if (kind !== null && policy.privateHostAllowed?.(host, req) !== true) {
      const via = literal ? "" : ` (${host} resolves to ${a.address})`;
      throw new AddressRefusedError(url, `request refused: ${url} is a ${kind} address${via}; deepcode reaches loopback, link-local and private addresses only for a host an allow rule names, e.g. WebFetch(domain:${host}), after a person's yes to the call, or at a port a background job's server is forwarded at`);
    }
  }
  return all[0];
}

function decoded(res: IncomingMessage): Readable {
  const enc = String(res.headers["content-encoding"] ?? "").trim().toLowerCase();
  const unzip = enc === "gzip" || enc === "x-gzip" ? createGunzip() : enc === "deflate" ? createInflate() : enc === "br" ? createBrotliDecompress() : null;
  if (!unzip) return res;
  res.on("error", (err) => unzip.destroy(err));
  return res.pipe(unzip);
}

function readBounded(stream: Readable, max: number, signal: AbortSignal): Promise<{ data: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    const stop = (truncated: boolean): void => {
      signal.removeEventListener("abort", onAbort);
      resolve({ data: Buffer.concat(parts).subarray(0, max), truncated });
    };
    const onAbort = (): void => {
      stream.destroy();
      reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    stream.on("data", (chunk: Buffer) => {
      parts.push(chunk);
      size += chunk.length;
      if (size > max) {
        stream.destroy();
        stop(true);
      }
    });
    stream.on("end", () => stop(false));
    stream.on("error", (err) => {
      signal.removeEventListener("abort", onAbort);
      reject(err);
    });
  });
}

function decodeText(data: Buffer, contentType: string | undefined): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(data);
  } catch {
    return new TextDecoder("utf-8").decode(data); // a charset this Node does not know: UTF-8 is the web's default
  }
}
