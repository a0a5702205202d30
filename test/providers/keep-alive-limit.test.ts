import { afterEach, describe, expect, it } from "vitest";
import type { ServerResponse } from "node:http";
import { ask, chunk, provider, rawServer, rejection, startStream, tick } from "./helpers.js";
import type { RawServer } from "./helpers.js";

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Keep-alive comments every `everyMs` until the response closes. */
function keepAlives(res: ServerResponse, everyMs: number, text = ": keep-alive\n\n"): void {
  const t = setInterval(() => res.write(text), everyMs);
  res.on("close", () => clearInterval(t));
}

describe("a response that sends only keep-alives (settings apiIdleTimeoutMs)", () => {
  it("ends with a clear error naming the setting when no reply starts within the limit, and is not retried", async () => {
    server = await rawServer((_req, res) => {
      startStream(res);
      keepAlives(res, 20);
    });
    const err = await rejection(provider(server.url, { keepAliveLimitMs: 250 }).request(ask()));
    expect(err.kind).toBe("timeout");
    expect(err.message).toBe("the API sent only keep-alives and no reply for 0.25 s; gave up (settings apiIdleTimeoutMs sets this limit)");
    expect(server.received).toHaveLength(1);
  });

  it("ends a reply that started and then sends only keep-alives, keeping what arrived", async () => {
    server = await rawServer((_req, res) => {
      startStream(res);
      res.write(chunk({ content: "Half an answer" }));
      keepAlives(res, 20);
    });
    const r = await provider(server.url, { keepAliveLimitMs: 250 }).request(ask());
    expect(r.message.content).toBe("Half an answer");
    expect(r.incomplete?.reason).toMatch(/^timeout: after the reply started, the API sent only keep-alives for 0\.25 s; gave up \(settings apiIdleTimeoutMs/);
  });

  it("waits through keep-alives shorter than the limit and takes the reply that follows", async () => {
    server = await rawServer(async (_req, res) => {
      startStream(res);
      for (let i = 0; i < 5; i++) {
        res.write(": keep-alive\n\n");
        await tick(20);
      }
      res.end(chunk({ content: "ok" }, "stop") + "data: [DONE]\n\n");
    });
    const r = await provider(server.url, { keepAliveLimitMs: 1000 }).request(ask());
    expect(r.message.content).toBe("ok");
    expect(r.incomplete).toBeUndefined();
  });

  it("counts the blank lines before a non-streamed body as keep-alives too", async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      keepAlives(res, 20, "\n");
    });
    const err = await rejection(provider(server.url, { keepAliveLimitMs: 250 }).request(ask("hi", { stream: false })));
    expect(err.message).toMatch(/^the API sent only keep-alives and no reply for 0\.25 s; gave up/);
  });
});
