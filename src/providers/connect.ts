// The connection for one exchange: direct or through a CONNECT tunnel, TLS for https targets.
// Each request gets its own connection (a model request lasts seconds to minutes; pooling would
// save nothing and would keep sockets alive after an abort).

import { connect as netConnect, isIP } from "node:net";
import type { Socket } from "node:net";
import { connect as tlsConnect, rootCertificates } from "node:tls";
import type { TLSSocket } from "node:tls";
import { AttemptFailure, networkFailure } from "./errors.js";
import { bareHost, proxyFor as proxyOf, proxyName, ProxyError, tunnel as openTunnel } from "../lib/proxy.js";
import type { Env } from "../lib/proxy.js";

/** The shared proxy code's errors as this layer's (the same kind, message and retry). */
function asAttempt(err: unknown): unknown {
  return err instanceof ProxyError ? new AttemptFailure(err.kind, err.message, err.retryable) : err;
}
function proxyFor(target: URL, env: Env): URL | undefined {
  try {
    return proxyOf(target, env);
  } catch (err) {
    throw asAttempt(err);
  }
}
function tunnel(proxy: URL, host: string, port: number, signal: AbortSignal, onReached?: () => void): Promise<Socket> {
  return openTunnel(proxy, host, port, signal, onReached).catch((err: unknown) => Promise.reject(asAttempt(err)));
}

export interface Target {
  url: URL;
  host: string;
  port: number;
  secure: boolean;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|::1)$/i;

/** Parse and check a base URL: https anywhere, http only for loopback hosts. */
export function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new AttemptFailure("config", `base URL ${JSON.stringify(baseUrl)} is not a URL`, false);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new AttemptFailure("config", `base URL ${url.origin} must use https://`, false);
  }
  if (url.protocol === "http:" && !LOOPBACK.test(bareHost(url.hostname))) {
    throw new AttemptFailure(
      "config",
      `base URL ${url.origin} uses plain http:// for a host that is not this machine: ` +
        `the API key would cross the network unencrypted; use https://`,
      false,
    );
  }
  return url;
}

export function targetOf(url: URL): Target {
  const secure = url.protocol === "https:";
  return { url, host: bareHost(url.hostname), port: url.port ? Number(url.port) : secure ? 443 : 80, secure };
}

export interface ConnectOptions {
  env: Env;
  ca?: string | Buffer;
  /** Time allowed to have a connected socket: TCP, the proxy's answer to CONNECT, the TLS
   *  handshake (default: no limit of its own). A proxy or server that accepts and says nothing
   *  ends here with a message naming it, instead of holding the run until the first-byte limit. */
  connectTimeoutMs?: number;
}

/** Open a connected socket to the target (TLS handshake done for https). Rejects with an
 *  AttemptFailure; on abort or at the connect limit it destroys whatever it opened. */
export async function openSocket(t: Target, o: ConnectOptions, signal: AbortSignal): Promise<Socket> {
  const proxy = proxyFor(t.url, o.env);
  const ctl = new AbortController();
  const onAbort = () => ctl.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  // What is being waited for, for the message when the limit is reached.
  const stage: { what: () => string; retryable: boolean } = { what: () => `could not connect to ${t.host}:${t.port}`, retryable: true };
  const timer =
    o.connectTimeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          const s = Math.round(o.connectTimeoutMs! / 1000);
          ctl.abort(new AttemptFailure("timeout", `${stage.what()} within ${s} s (settings apiIdleTimeoutMs shortens this limit)`, stage.retryable));
        }, o.connectTimeoutMs);
  try {
    return await connectStages(t, o, proxy, stage, ctl.signal);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}

async function connectStages(t: Target, o: ConnectOptions, proxy: URL | undefined, stage: { what: () => string; retryable: boolean }, signal: AbortSignal): Promise<Socket> {
  let raw: Socket | undefined;
  if (proxy) {
    const via = proxyName(proxy);
    // A proxy that takes the connection and never answers will not answer a retry either.
    stage.retryable = false;
    let reached = false;
    stage.what = () => (reached ? `the proxy ${via} accepted the connection but did not answer the CONNECT to ${t.host}:${t.port}` : `could not connect to the proxy ${via}`);
    raw = await tunnel(proxy, t.host, t.port, signal, () => (reached = true));
    stage.what = () => `the TLS handshake with ${t.host} through the proxy ${via} did not finish`;
  }
  if (!t.secure) {
    if (raw) return raw;
    return settle(netConnect({ host: t.host, port: t.port }), "connect", t.host, signal);
  }
  if (!raw) stage.what = () => `could not connect to ${t.host}:${t.port} (TCP and TLS)`;
  const tlsOptions = {
    host: t.host,
    port: t.port,
    ...(isIP(t.host) ? {} : { servername: t.host }),
    // An extra CA is added to the system roots, not put in their place.
    ...(o.ca ? { ca: [...rootCertificates, o.ca.toString()] } : {}),
    ...(raw ? { socket: raw } : {}),
  };
  const secure = tlsConnect(tlsOptions);
  // Destroying the TLS socket must also close the tunnel beneath it.
  if (raw) secure.once("close", () => raw.destroy());
  return settle(secure, "secureConnect", t.host, signal);
}

function settle<S extends Socket | TLSSocket>(socket: S, ready: string, host: string, signal: AbortSignal): Promise<S> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      socket.destroy();
      reject(signal.reason instanceof AttemptFailure ? signal.reason : new AttemptFailure("aborted", "aborted", false));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    socket.once(ready, () => {
      signal.removeEventListener("abort", onAbort);
      resolve(socket);
    });
    socket.once("error", (err) => {
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      reject(networkFailure(err, host));
    });
  });
}
