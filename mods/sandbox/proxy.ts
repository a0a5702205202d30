// The filtering HTTP proxy for `sandbox.network.allowedDomains`. It runs in deepcode's own
// process and listens on a unix socket in a private folder (mode 0700) the sandbox does not
// see; each command's channel (channel.ts) connects to it on the host side, and inside the
// sandbox a forwarder (forward.ts) turns the channel into 127.0.0.1:PORT of the command's own
// network namespace. It speaks the two forms every HTTP client uses with a proxy:
//   - `CONNECT host:port` (https and anything tunnelled): the tunnel is opened only to a host
//     on the list;
//   - a plain request with an absolute URI (`GET http://host:port/path`): forwarded to a host
//     on the list, with `Host` set to that host.
// The host is judged by its text BEFORE anything is resolved or connected (hosts.ts: canonical
// form only; no userinfo, no trailing dot, no uppercase, no numeric tricks). A refusal is a
// `403` whose body and `X-Deepcode-Proxy` header give a one-line reason; nothing reaches the
// host. The host's loopback is reachable only through a listed name that resolves there.
//
// The server does not keep deepcode alive (unref), and its socket folder is removed when it
// closes or deepcode exits.

import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canonicalHostProblem, hostAllowed, type HostRule } from "./hosts.js";

export interface Target {
  host: string;
  port: number;
}

/** Split `authority` (host[:port]) strictly; `defaultPort` when none is given. A reason when
 *  it is not acceptable (before any list is consulted). */
export function parseAuthority(authority: string, defaultPort: number | null): Target | { refused: string } {
  if (authority.includes("@")) return { refused: "user information in the address is not accepted" };
  if (authority.startsWith("[")) return { refused: "IPv6 addresses are not accepted" };
  const m = /^([^:]*)(?::(\d{1,5}))?$/.exec(authority);
  if (!m) return { refused: `cannot read the address '${authority}'` };
  const port = m[2] !== undefined ? Number(m[2]) : defaultPort;
  if (port === null) return { refused: "a port is required" };
  if (port < 1 || port > 65535) return { refused: `port ${port} is out of range` };
  const problem = canonicalHostProblem(m[1]);
  if (problem) return { refused: `${problem} ('${m[1]}')` };
  return { host: m[1], port };
}

/** The decision for one request's target. */
export function judge(rules: readonly HostRule[], authority: string, defaultPort: number | null): Target | { refused: string } {
  const t = parseAuthority(authority, defaultPort);
  if ("refused" in t) return t;
  if (!hostAllowed(rules, t.host, t.port)) return { refused: `${t.host}:${t.port} is not in sandbox.network.allowedDomains` };
  return t;
}

const HOP_HEADERS = new Set(["proxy-connection", "proxy-authorization", "connection", "keep-alive", "te", "trailer", "upgrade", "host"]);

export interface FilteringProxy {
  /** The unix socket it listens on (host side). */
  socketPath: string;
  /** What it refused, newest last (for tests and diagnostics; bounded). */
  refused: string[];
  close(): Promise<void>;
}

const REFUSED_KEPT = 50;

/** Start the proxy on a fresh unix socket. */
export async function startProxy(rules: readonly HostRule[]): Promise<FilteringProxy> {
  const dir = mkdtempSync(join(tmpdir(), "deepcode-net-"));
  const socketPath = join(dir, "proxy.sock");
  const refused: string[] = [];
  const open = new Set<Socket>();
  const note = (why: string): void => {
    refused.push(why);
    if (refused.length > REFUSED_KEPT) refused.shift();
  };
  const deny = (res: ServerResponse, why: string): void => {
    note(why);
    const line = `deepcode sandbox proxy: refused: ${why}`;
    res.writeHead(403, { "content-type": "text/plain", "x-deepcode-proxy": line.replace(/[^\x20-\x7e]/g, "?"), connection: "close" });
    res.end(`${line}\n`);
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const m = /^http:\/\/([^/?#]*)(.*)$/i.exec(req.url ?? "");
    if (!m) return deny(res, `only absolute http:// requests and CONNECT are served (got '${(req.url ?? "").slice(0, 80)}')`);
    const t = judge(rules, m[1], 80);
    if ("refused" in t) return deny(res, t.refused);
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_HEADERS.has(k)) headers[k] = v;
    headers.host = t.port === 80 ? t.host : `${t.host}:${t.port}`;
    const path = m[2] === "" ? "/" : m[2].startsWith("/") ? m[2] : `/${m[2]}`;
    const up = httpRequest({ host: t.host, port: t.port, method: req.method, path, headers }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    up.on("error", (err) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain", connection: "close" });
      res.end(`deepcode sandbox proxy: ${t.host}:${t.port}: ${err.message}\n`);
    });
    req.pipe(up);
  });

  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    open.add(client);
    client.on("close", () => open.delete(client));
    client.on("error", () => client.destroy()); // the sandboxed side went away: nothing to tell
    const t = judge(rules, req.url ?? "", null);
    if ("refused" in t) {
      note(t.refused);
      const line = `deepcode sandbox proxy: refused: ${t.refused}`;
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(line) + 1}\r\nconnection: close\r\n\r\n${line}\n`);
      return;
    }
    const upstream = connect({ host: t.host, port: t.port });
    open.add(upstream);
    upstream.on("close", () => open.delete(upstream));
    upstream.once("connect", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", (err) => {
      if (upstream.connecting || client.bytesWritten === 0) client.end(`HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\ndeepcode sandbox proxy: ${t.host}:${t.port}: ${err.message}\n`);
      else client.destroy();
    });
    client.on("close", () => upstream.destroy());
  });
  server.on("clientError", (_err, socket) => socket.destroy()); // malformed request: drop it

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  server.unref();
  const cleanup = (): void => rmSync(dir, { recursive: true, force: true });
  process.once("exit", cleanup);
  let closed: Promise<void> | undefined;
  return {
    socketPath,
    refused,
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => {
          cleanup();
          process.removeListener("exit", cleanup);
          resolve();
        });
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
