// Which proxy (if any) a target goes through, and the CONNECT tunnel to it (the model requests
// and `http.fetch` both go through here). Node 20's fetch
// cannot use a proxy, so deepcode opens the tunnel itself: an HTTP CONNECT request to the
// proxy (node:http), then TLS (or plain HTTP) over the tunnelled socket.
//
// Variables: HTTPS_PROXY/https_proxy for https targets, HTTP_PROXY/http_proxy for http ones
// (lower case first, as curl does); NO_PROXY/no_proxy is a comma list of `*`, host names
// (matching the host and its subdomains, with or without a leading dot or `*.`), IP
// addresses and `host:port`. Loopback is not special-cased: list it in NO_PROXY to bypass.
// CIDR ranges are not supported. Only http:// proxies are supported.

import { request as httpRequest } from "node:http";
import type { Socket } from "node:net";

/** A proxy that cannot be used or did not tunnel: `kind` as the providers' errors name it
 *  ("config": a setting to fix; "network": the proxy refused or could not be reached). */
export class ProxyError extends Error {
  constructor(
    readonly kind: "config" | "network" | "aborted",
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "ProxyError";
  }
}

export type Env = Record<string, string | undefined>;

/** The proxy URL for a target, or undefined for a direct connection. Throws on a proxy URL
 *  deepcode cannot use. */
export function proxyFor(target: URL, env: Env): URL | undefined {
  const secure = target.protocol === "https:";
  const raw = secure ? env.https_proxy || env.HTTPS_PROXY : env.http_proxy || env.HTTP_PROXY;
  if (!raw || !raw.trim()) return undefined;
  if (bypassed(target, env.no_proxy ?? env.NO_PROXY ?? "")) return undefined;
  const text = raw.includes("://") ? raw.trim() : `http://${raw.trim()}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ProxyError("config", `the proxy setting ${secure ? "HTTPS_PROXY" : "HTTP_PROXY"} is not a URL`, false);
  }
  if (url.protocol !== "http:") {
    throw new ProxyError("config", `proxy scheme ${url.protocol} is not supported: use an http:// proxy`, false);
  }
  return url;
}

export function bareHost(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

function defaultPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/** Does NO_PROXY exempt this target? */
export function bypassed(target: URL, noProxy: string): boolean {
  const host = bareHost(target.hostname).toLowerCase();
  const port = defaultPort(target);
  for (const raw of noProxy.split(/[\s,]+/)) {
    let entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === "*") return true;
    let entryPort: number | undefined;
    const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    if (m) {
      entry = m[1];
      entryPort = Number(m[2]);
    }
    entry = bareHost(entry);
    if (entryPort !== undefined && entryPort !== port) continue;
    if (entry.startsWith("*.")) entry = entry.slice(1);
    const suffix = entry.startsWith(".") ? entry : `.${entry}`;
    if (host === entry || host === suffix.slice(1) || host.endsWith(suffix)) return true;
  }
  return false;
}

/** The proxy as host:port, for messages. */
export function proxyName(proxy: URL): string {
  const host = bareHost(proxy.hostname);
  return `${host.includes(":") ? `[${host}]` : host}:${defaultPort(proxy)}`;
}

/** Open a CONNECT tunnel to host:port through the proxy; resolves with the raw socket.
 *  `onReached` is called when the TCP connection to the proxy is up (the CONNECT is sent).
 *  An abort destroys the request and its socket, and rejects with the signal's reason when it
 *  is an Error (the connect limit's, naming the proxy). */
export function tunnel(proxy: URL, host: string, port: number, signal: AbortSignal, onReached?: () => void): Promise<Socket> {
  const authority = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
  const headers: Record<string, string> = { host: authority };
  if (proxy.username) {
    const user = decodeURIComponent(proxy.username);
    const pass = decodeURIComponent(proxy.password);
    headers["proxy-authorization"] = `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
  }
  const where = `proxy ${proxyName(proxy)}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: bareHost(proxy.hostname),
      port: defaultPort(proxy),
      method: "CONNECT",
      path: authority,
      headers,
      signal,
    });
    req.on("socket", (s: Socket) => {
      if (!s.connecting) onReached?.();
      else s.once("connect", () => onReached?.());
    });
    req.on("connect", (res, socket, head) => {
      const status = res.statusCode ?? 0;
      if (status === 200) {
        if (head.length > 0) socket.unshift(head);
        resolve(socket);
        return;
      }
      socket.destroy();
      if (status === 407) {
        reject(new ProxyError("config", `the ${where} requires authentication (407): put user:password in the proxy URL`, false));
      } else {
        reject(new ProxyError("network", `the ${where} refused to tunnel to ${authority} (${status})`, status >= 500));
      }
    });
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (signal.aborted) {
        reject(signal.reason instanceof Error ? signal.reason : new ProxyError("aborted", "the request was cancelled", false));
        return;
      }
      reject(new ProxyError("network", `cannot reach the ${where} (${err.code ?? err.message})`, true));
    });
    req.end();
  });
}
