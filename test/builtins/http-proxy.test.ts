// http.fetch (WebFetch, plugin tools' ctx.fetch) honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY as the
// model's own requests do: a person behind a corporate proxy can fetch a documentation page.
// Everything here is loopback: the "proxy" is a server on 127.0.0.1 that records what it is asked.
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Chain } from "../../src/core/chain.js";
import { registerEffects } from "../../src/core/effects.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function listen(s: Server): Promise<number> {
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return (s.address() as AddressInfo).port;
}

/** A proxy that answers plain requests itself and refuses every CONNECT, recording both. */
async function recordingProxy(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const s = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} host=${req.headers.host} auth=${req.headers["proxy-authorization"] ?? "-"}`);
    res.end("page served by the proxy");
  });
  s.on("connect", (req, socket) => {
    seen.push(`CONNECT ${req.url}`);
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  return { url: `http://user:pw@127.0.0.1:${await listen(s)}`, seen };
}

function chain(env: Record<string, string>): Chain {
  const c = new Chain();
  registerEffects(c, { fetch: { privateHostAllowed: (host) => host === "localhost", env } });
  return c;
}

describe("http.fetch through a proxy", () => {
  it("sends a plain http request to HTTP_PROXY as an absolute URI, with the proxy's credentials", async () => {
    const origin = await listen(createServer((_q, r) => r.end("the origin itself")));
    const proxy = await recordingProxy();
    const r = await chain({ HTTP_PROXY: proxy.url }).dispatch({ type: "http.fetch", url: `http://localhost:${origin}/docs` });
    expect(r.body).toBe("page served by the proxy");
    expect(proxy.seen).toEqual([`GET http://localhost:${origin}/docs host=localhost:${origin} auth=Basic ${Buffer.from("user:pw").toString("base64")}`]);
    expect(r.address).toMatch(/^via proxy 127\.0\.0\.1:\d+$/);
  });

  it("opens an https request with CONNECT through HTTPS_PROXY, and says so when the proxy refuses", async () => {
    const proxy = await recordingProxy();
    await expect(chain({ HTTPS_PROXY: proxy.url }).dispatch({ type: "http.fetch", url: "https://localhost:9/x" })).rejects.toThrow(/proxy 127\.0\.0\.1:\d+ refused to tunnel to localhost:9 \(403\)/);
    expect(proxy.seen).toEqual(["CONNECT localhost:9"]);
  });

  it("goes direct for a host NO_PROXY names, and still refuses a private address no rule names", async () => {
    const origin = await listen(createServer((_q, r) => r.end("the origin itself")));
    const proxy = await recordingProxy();
    const direct = await chain({ HTTP_PROXY: proxy.url, NO_PROXY: "localhost" }).dispatch({ type: "http.fetch", url: `http://localhost:${origin}/` });
    expect(direct.body).toBe("the origin itself");
    expect(proxy.seen).toEqual([]);
    // A proxy is no way around the address check: 127.0.0.1 is named by no rule here.
    await expect(chain({ HTTP_PROXY: proxy.url }).dispatch({ type: "http.fetch", url: `http://127.0.0.1:${origin}/` })).rejects.toThrow(/request refused: .* loopback address/);
    expect(proxy.seen).toEqual([]);
  });
});
