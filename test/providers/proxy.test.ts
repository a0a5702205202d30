import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { IncomingMessage } from "node:http";
import { connect } from "node:net";
import type { AddressInfo, Socket } from "node:net";
import { ProviderError } from "../../src/contract/index.js";
import { bypassed, proxyFor } from "../../src/lib/proxy.js";
import { startSimulator } from "../sim/server.mjs";
import { ask, provider } from "./helpers.js";

const tlsDir = new URL("../fixtures/tls/", import.meta.url);
const CERT = readFileSync(new URL("cert.pem", tlsDir), "utf8");
const KEY_PEM = readFileSync(new URL("key.pem", tlsDir), "utf8");

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

interface Proxy {
  url: string;
  tunnels: string[];
  auth: Array<string | undefined>;
  bytesToTarget: () => number;
}

/** A minimal CONNECT proxy on 127.0.0.1 that records every tunnel it opens. */
async function startProxy(opts: { requireAuth?: string } = {}): Promise<Proxy> {
  const tunnels: string[] = [];
  const auth: Array<string | undefined> = [];
  let bytes = 0;
  const sockets: Socket[] = [];
  const server = createServer();
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.push(client);
    auth.push(req.headers["proxy-authorization"]);
    if (opts.requireAuth && req.headers["proxy-authorization"] !== opts.requireAuth) {
      client.end("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n");
      return;
    }
    tunnels.push(req.url ?? "");
    const [host, port] = (req.url ?? "").split(":");
    const upstream = connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) upstream.write(head);
      client.on("data", (d: Buffer) => (bytes += d.length));
      client.pipe(upstream);
      upstream.pipe(client);
    });
    sockets.push(upstream);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(() => {
    for (const s of sockets) s.destroy();
    return new Promise<void>((r) => server.close(() => r()));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, tunnels, auth, bytesToTarget: () => bytes };
}

/** The simulator as the target: over https with the fixture certificate, or plain http. */
async function simTarget(tls: boolean): Promise<{ url: string; hits: () => number }> {
  const sim = await startSimulator({ script: { default: { content: "through the tunnel" } }, ...(tls ? { tls: { key: KEY_PEM, cert: CERT } } : {}) });
  cleanups.push(() => sim.close());
  return { url: sim.url, hits: () => sim.requests.length };
}
const httpsTarget = () => simTarget(true);
const httpTarget = () => simTarget(false);

describe("the proxy tunnel", () => {
  it("sends an https request through HTTPS_PROXY with a CONNECT tunnel and TLS inside it", async () => {
    const proxy = await startProxy();
    const target = await httpsTarget();
    const p = provider(target.url, { env: { HTTPS_PROXY: proxy.url }, ca: CERT });
    const r = await p.request(ask());
    expect(r.message.content).toBe("through the tunnel");
    expect(proxy.tunnels).toEqual([new URL(target.url).host]);
    expect(proxy.bytesToTarget()).toBeGreaterThan(0);
    expect(target.hits()).toBe(1);
  });

  it("sends an http request to a loopback target through HTTP_PROXY unless NO_PROXY lists it", async () => {
    const proxy = await startProxy();
    const target = await httpTarget();
    const r = await provider(target.url, { env: { http_proxy: proxy.url } }).request(ask());
    expect(r.message.content).toBe("through the tunnel");
    expect(proxy.tunnels).toEqual([new URL(target.url).host]);

    await provider(target.url, { env: { HTTP_PROXY: proxy.url, NO_PROXY: "localhost,127.0.0.1" } }).request(ask());
    expect(proxy.tunnels).toHaveLength(1);
    expect(target.hits()).toBe(2);
  });

  it("sends the proxy's credentials as basic Proxy-Authorization", async () => {
    const expected = `Basic ${Buffer.from("me:s3cr:t").toString("base64")}`;
    const proxy = await startProxy({ requireAuth: expected });
    const target = await httpsTarget();
    const url = new URL(proxy.url);
    const withAuth = `http://me:s3cr%3At@${url.host}`;
    const r = await provider(target.url, { env: { HTTPS_PROXY: withAuth }, ca: CERT }).request(ask());
    expect(r.message.content).toBe("through the tunnel");
    expect(proxy.auth).toEqual([expected]);
  });

  it("says so when the proxy wants credentials it was not given, without retrying", async () => {
    const proxy = await startProxy({ requireAuth: "Basic x" });
    const target = await httpsTarget();
    const err = await provider(target.url, { env: { HTTPS_PROXY: proxy.url }, ca: CERT })
      .request(ask())
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).message).toMatch(/requires authentication \(407\)/);
    expect((err as ProviderError).attempts).toBe(1);
    expect(target.hits()).toBe(0);
  });

  it("refuses a TLS certificate it does not trust, without retrying", async () => {
    const target = await httpsTarget();
    const err = await provider(target.url).request(ask()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as ProviderError).kind).toBe("network");
    expect((err as ProviderError).message).toMatch(/TLS certificate of 127\.0\.0\.1 is not trusted/);
    expect((err as ProviderError).attempts).toBe(1);
  });
});

describe("which targets go through the proxy", () => {
  const https = new URL("https://api.deepseek.com/chat/completions");
  it("uses HTTPS_PROXY or https_proxy for https targets and HTTP_PROXY or http_proxy for http ones", () => {
    expect(proxyFor(https, { HTTPS_PROXY: "http://p:3128" })?.host).toBe("p:3128");
    expect(proxyFor(https, { https_proxy: "p2:8080" })?.host).toBe("p2:8080");
    expect(proxyFor(https, { HTTP_PROXY: "http://p:3128" })).toBeUndefined();
    expect(proxyFor(new URL("http://127.0.0.1:9/x"), { HTTP_PROXY: "http://p:3128" })?.host).toBe("p:3128");
    expect(proxyFor(https, {})).toBeUndefined();
  });

  it.each([
    ["*", true],
    ["deepseek.com", true],
    [".deepseek.com", true],
    ["*.deepseek.com", true],
    ["api.deepseek.com", true],
    ["API.DeepSeek.com", true],
    ["api.deepseek.com:443", true],
    ["api.deepseek.com:8443", false],
    ["seek.com", false],
    ["other.com, deepseek.com", true],
    ["localhost,127.0.0.1", false],
    ["", false],
  ])("NO_PROXY=%j exempts https://api.deepseek.com: %s", (noProxy, expected) => {
    expect(bypassed(https, noProxy)).toBe(expected);
  });

  it("matches loopback only when NO_PROXY lists it", () => {
    const local = new URL("http://127.0.0.1:8080/");
    expect(bypassed(local, "")).toBe(false);
    expect(bypassed(local, "127.0.0.1")).toBe(true);
    expect(bypassed(new URL("http://[::1]:8080/"), "::1")).toBe(true);
  });

  it("refuses a proxy scheme it cannot speak", () => {
    expect(() => proxyFor(https, { HTTPS_PROXY: "socks5://p:1080" })).toThrow(/not supported/);
  });
});
