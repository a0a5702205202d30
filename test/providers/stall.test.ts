// A stream that goes silent mid-reasoning and stays open (DeepSeek-V3#1608, oh-my-pi#9741):
// detected by the stall limit (settings apiStallTimeoutMs), keep-alives not counting as
// progress; an attempt that produced only reasoning is retried, one with an answer started
// ends incomplete with what arrived.
import { afterEach, describe, expect, it } from "vitest";
import type { ServerResponse } from "node:http";
import { ask, chunk, collector, fakeSleep, provider, rawServer, startStream } from "./helpers.js";
import type { RawServer } from "./helpers.js";

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function keepAlives(res: ServerResponse, everyMs: number): void {
  const t = setInterval(() => res.write(": keep-alive\n\n"), everyMs);
  res.on("close", () => clearInterval(t));
}

describe("a stream that stalls after it started (settings apiStallTimeoutMs)", () => {
  it("retries an attempt that stalled with only reasoning, keep-alives notwithstanding, and says why", async () => {
    server = await rawServer((_req, res, n) => {
      startStream(res);
      if (n === 0) {
        res.write(chunk({ role: "assistant", content: null, reasoning_content: "Let me think about" }));
        keepAlives(res, 20);
        return;
      }
      res.write(chunk({ role: "assistant", content: "Twelve.", reasoning_content: null }, "stop"));
      res.end("data: [DONE]\n\n");
    });
    const { sleep } = fakeSleep();
    const c = collector();
    const r = await provider(server.url, { stallTimeoutMs: 200, sleep }).request(ask("hi", { thinking: { type: "enabled" } }), { onDelta: c.onDelta });
    expect(r.message.content).toBe("Twelve.");
    expect(r.incomplete).toBeUndefined();
    expect(server.received).toHaveLength(2);
    const retry = c.deltas.find((d) => d.kind === "retry");
    expect(retry).toMatchObject({ kind: "retry", attempt: 2 });
    expect(retry && "reason" in retry ? retry.reason : "").toMatch(/stalled: no reasoning, content or tool call for 0\.2 s .*only reasoning had arrived/);
  });

  it("retries a silent stall (no byte at all) with only reasoning before the idle limit", async () => {
    server = await rawServer((_req, res, n) => {
      startStream(res);
      if (n === 0) return void res.write(chunk({ role: "assistant", content: null, reasoning_content: "Hmm" }));
      res.write(chunk({ role: "assistant", content: "Done.", reasoning_content: null }, "stop"));
      res.end("data: [DONE]\n\n");
    });
    const { sleep } = fakeSleep();
    const r = await provider(server.url, { stallTimeoutMs: 200, sleep }).request(ask());
    expect(r.message.content).toBe("Done.");
    expect(server.received).toHaveLength(2);
  });

  it("ends a stalled attempt whose answer had started, keeping what arrived, without retrying", async () => {
    server = await rawServer((_req, res) => {
      startStream(res);
      res.write(chunk({ role: "assistant", content: "Half an", reasoning_content: null }));
      keepAlives(res, 20);
    });
    const r = await provider(server.url, { stallTimeoutMs: 200 }).request(ask());
    expect(r.message.content).toBe("Half an");
    expect(r.incomplete?.reason).toMatch(/^idle_timeout: the stream stalled/);
    expect(server.received).toHaveLength(1);
  });

  it("does not count empty chunks as progress", async () => {
    server = await rawServer((_req, res, n) => {
      startStream(res);
      if (n === 0) {
        res.write(chunk({ role: "assistant", content: null, reasoning_content: "Thinking" }));
        const t = setInterval(() => res.write(chunk({ content: "", reasoning_content: null })), 20);
        res.on("close", () => clearInterval(t));
        return;
      }
      res.write(chunk({ role: "assistant", content: "Yes.", reasoning_content: null }, "stop"));
      res.end("data: [DONE]\n\n");
    });
    const { sleep } = fakeSleep();
    const r = await provider(server.url, { stallTimeoutMs: 200, sleep }).request(ask());
    expect(r.message.content).toBe("Yes.");
    expect(server.received).toHaveLength(2);
  });
});

describe("a stream that began but sends only keep-alives (issue #37)", () => {
  it("is a stall at the stall limit, not the keep-alive limit, and is asked again since nothing was shown", async () => {
    server = await rawServer((_req, res, n) => {
      startStream(res);
      if (n === 0) {
        // The first chunk carries no token (role only), then keep-alives for as long as the client waits.
        res.write(chunk({ role: "assistant", content: "", reasoning_content: null }));
        return keepAlives(res, 20);
      }
      res.write(chunk({ role: "assistant", content: "Here.", reasoning_content: null }, "stop"));
      res.end("data: [DONE]\n\n");
    });
    const { sleep } = fakeSleep();
    const c = collector();
    const r = await provider(server.url, { stallTimeoutMs: 200, keepAliveLimitMs: 600_000, sleep }).request(ask(), { onDelta: c.onDelta });
    expect(r.message.content).toBe("Here.");
    expect(server.received).toHaveLength(2);
    const retry = c.deltas.find((d) => d.kind === "retry");
    expect(retry && "reason" in retry ? retry.reason : "").toBe("the stream stalled: the stream began but sent no token, only keep-alives, for 0.2 s (settings apiStallTimeoutMs sets this limit)");
  });

  it("ends with the stall named once every attempt stalled that way", async () => {
    server = await rawServer((_req, res) => {
      startStream(res);
      res.write(chunk({ role: "assistant", content: "", reasoning_content: null }));
      keepAlives(res, 20);
    });
    const err = await provider(server.url, { stallTimeoutMs: 150, maxAttempts: 2 }).request(ask()).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/^the stream stalled: the stream began but sent no token, only keep-alives, for 0\.15 s .*\(gave up after 2 attempts\)$/);
    expect(server.received).toHaveLength(2);
  });
});
