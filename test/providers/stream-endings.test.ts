import { afterEach, describe, expect, it } from "vitest";
import { ask, chunk, collector, fakeSleep, provider, rawServer, startStream, tick, rejection } from "./helpers.js";
import type { RawServer } from "./helpers.js";

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const DONE = chunk({ content: "ok" }, "stop") + "data: [DONE]\n\n";

describe("connections that fail and streams that end early", () => {
  it("retries a connection reset before the first byte of the response", async () => {
    server = await rawServer((_req, res, n) => {
      if (n < 2) return void res.socket?.destroy();
      startStream(res);
      res.end(DONE);
    });
    const { sleep, delays } = fakeSleep();
    const { deltas, onDelta } = collector();
    const r = await provider(server.url, { sleep }).request(ask(), { onDelta });
    expect(r.message.content).toBe("ok");
    expect(server.received).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(deltas.filter((d) => d.kind === "retry")).toHaveLength(2);
  });

  it("retries when nothing listens on the port, and names the host when it gives up", async () => {
    server = await rawServer(() => undefined);
    const url = server.url;
    await server.close();
    server = undefined;
    const err = await rejection(provider(url).request(ask()));
    expect(err.kind).toBe("network");
    expect(err.attempts).toBe(4);
    expect(err.message).toMatch(/connection to 127\.0\.0\.1 failed \(ECONNREFUSED\)/);
  });

  it("retries a stream that closes before any content arrived", async () => {
    server = await rawServer((_req, res, n) => {
      startStream(res);
      if (n === 0) return void res.end(": keep-alive\n\n");
      res.end(DONE);
    });
    const r = await provider(server.url).request(ask());
    expect(r.message.content).toBe("ok");
    expect(server.received).toHaveLength(2);
  });

  it("keeps what arrived when the connection drops mid-stream on every attempt, marked incomplete", async () => {
    server = await rawServer(async (_req, res) => {
      startStream(res);
      res.write(chunk({ content: null, reasoning_content: "Plan." }));
      res.write(chunk({ content: "Part" }));
      res.write(chunk({ tool_calls: [{ index: 0, id: "call_00_a", type: "function", function: { name: "Read", arguments: "" } }] }));
      res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":"a' } }] }));
      await tick(20);
      res.socket?.destroy();
    });
    const { deltas, onDelta } = collector();
    const r = await provider(server.url).request(ask(), { onDelta });
    expect(server.received).toHaveLength(4);
    expect(r.finishReason).toBeNull();
    expect(r.incomplete?.reason).toMatch(/^disconnected: /);
    expect(r.message.content).toBe("Part");
    expect(r.message.reasoning_content).toBe("Plan.");
    // The cut-off call is kept as received: repairing it is the repair layer's job.
    expect(r.message.tool_calls).toEqual([{ id: "call_00_a", type: "function", function: { name: "Read", arguments: '{"path":"a' } }]);
    expect(deltas.filter((d) => d.kind === "retry")).toHaveLength(3);
  });

  it("ends the request when the stream goes silent after the first token, keeping what arrived", async () => {
    server = await rawServer((_req, res) => {
      startStream(res);
      res.write(chunk({ content: "Hello" }));
      // then nothing, not even keep-alives
    });
    const r = await provider(server.url, { idleTimeoutMs: 150 }).request(ask());
    expect(r.message.content).toBe("Hello");
    expect(r.finishReason).toBeNull();
    expect(r.incomplete?.reason).toMatch(/^idle_timeout: the stream went silent for/);
  });

  it("fails with a timeout when no reply starts within the first-byte limit, and does not retry it", async () => {
    server = await rawServer(() => undefined);
    const err = await rejection(provider(server.url, { firstByteTimeoutMs: 150 }).request(ask()));
    expect(err.kind).toBe("timeout");
    expect(err.message).toMatch(/no response from 127\.0\.0\.1 within/);
    expect(err.attempts).toBe(1);
    expect(server.received).toHaveLength(1);
  });

  it("ends a reply that outlives the total time limit, keeping what arrived", async () => {
    server = await rawServer(async (_req, res) => {
      startStream(res);
      res.write(chunk({ content: "slow" }));
      for (let i = 0; i < 100; i++) {
        await tick(20);
        if (res.destroyed) return;
        res.write(chunk({ content: "." }));
      }
    });
    const r = await provider(server.url, { totalTimeoutMs: 200 }).request(ask());
    expect(r.message.content).toMatch(/^slow\.*$/);
    expect(r.incomplete?.reason).toMatch(/^timeout: no complete reply within the total time limit/);
  });

  it("fails with a timeout when retries and their waits outlast the total time limit", async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    const slowSleep = (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 10_000 + ms);
        signal?.addEventListener("abort", () => clearTimeout(t));
      });
    const err = await rejection(provider(server.url, { totalTimeoutMs: 200, sleep: slowSleep }).request(ask()));
    expect(err.kind).toBe("timeout");
    expect(err.attempts).toBe(1);
  });

  it("keeps what arrived when a malformed chunk follows content", async () => {
    server = await rawServer((_req, res) => {
      startStream(res);
      res.write(chunk({ content: "Good start" }));
      res.end('data: {"choices": [ {"delta": \n\n' + DONE);
    });
    const r = await provider(server.url).request(ask());
    expect(r.message.content).toBe("Good start");
    expect(r.incomplete?.reason).toMatch(/^malformed_chunk: /);
  });

  it("fails with a protocol error, without retrying, when the first chunk is malformed", async () => {
    server = await rawServer((_req, res) => {
      startStream(res);
      res.end("data: {not json\n\n");
    });
    const err = await rejection(provider(server.url).request(ask()));
    expect(err.kind).toBe("protocol");
    expect(err.message).toContain("malformed chunk");
    expect(server.received).toHaveLength(1);
  });

  it("treats an error object in the stream before any content as a retryable server error", async () => {
    server = await rawServer((_req, res, n) => {
      startStream(res);
      if (n === 0) return void res.end(`data: ${JSON.stringify({ error: { message: "overloaded, try later" } })}\n\n`);
      res.end(DONE);
    });
    const { deltas, onDelta } = collector();
    const r = await provider(server.url).request(ask(), { onDelta });
    expect(r.message.content).toBe("ok");
    const retry = deltas.find((d) => d.kind === "retry");
    expect(retry && retry.kind === "retry" && retry.reason).toContain("overloaded, try later");
  });

  it("accepts a stream that ends after its finish reason without [DONE]", async () => {
    server = await rawServer((_req, res) => {
      startStream(res);
      res.end(chunk({ content: "ok" }, "length"));
    });
    const r = await provider(server.url).request(ask());
    expect(r.finishReason).toBe("length");
    expect(r.incomplete).toBeUndefined();
  });
});
