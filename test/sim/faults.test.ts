// Every fault the script can inject, as a plain node:http client observes it: the failures a
// provider must survive (retry, give up, keep what arrived) are real socket-level behaviour.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "./server.mjs";
import { assemble, call, chunksOf, parseSse } from "./client.js";

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.resetCache());

const REPLY = { content: "A reply long enough to take several chunks to stream.", chunkSize: 8 };
const ask = (stream = true) => ({ model: "deepseek-chat", stream, messages: [{ role: "user", content: "hi" }] });
const post = (stream = true, idleMs?: number) => call(`${sim.url}/chat/completions`, ask(stream), idleMs ? { idleMs } : {});

describe("status faults", () => {
  it("answer 429, 500 and 503 with the error shape, and Retry-After only when the script gives one", async () => {
    sim.setScript({
      replies: [
        { fault: { status: 429, retryAfter: 1.5 } },
        { fault: { status: 500 } },
        { fault: { status: 503, retryAfter: 2 } },
      ],
    });
    const a = await post();
    expect(a.status).toBe(429);
    expect(a.headers["retry-after"]).toBe("1.5");
    expect(JSON.parse(a.raw).error).toMatchObject({ message: "Rate Limit Reached", type: "rate_limit_error" });
    const b = await post();
    expect(b.status).toBe(500);
    expect(b.headers["retry-after"]).toBeUndefined();
    const c = await post(false);
    expect(c.status).toBe(503);
    expect(c.headers["retry-after"]).toBe("2");
    expect(JSON.parse(c.raw).error.message).toBe("Server Overloaded");
  });

  it("answer 401, 402, 400 and 422 with DeepSeek's messages, or the scripted one", async () => {
    sim.setScript({
      replies: [{ fault: { status: 401 } }, { fault: { status: 402 } }, { fault: { status: 400, message: "Invalid Format: bad thing" } }, { fault: { status: 422 } }],
    });
    const got = [];
    for (let i = 0; i < 4; i++) {
      const r = await post();
      got.push([r.status, JSON.parse(r.raw).error.message]);
    }
    expect(got).toEqual([
      [401, "Authentication Fails (no such user)"],
      [402, "Insufficient Balance"],
      [400, "Invalid Format: bad thing"],
      [422, "Invalid Parameters"],
    ]);
  });

  it("are consumed like replies: the next request gets the next entry, and nothing is billed", async () => {
    sim.setScript({ replies: [{ fault: { status: 500 } }, { content: "recovered" }] });
    const before = sim.stats().requests;
    expect((await post(false)).status).toBe(500);
    expect(JSON.parse((await post(false)).raw).choices[0].message.content).toBe("recovered");
    expect(sim.stats().requests - before).toBe(1);
    expect(sim.requests[sim.requests.length - 2]).toMatchObject({ status: 500, usage: null });
  });
});

describe("stream faults", () => {
  it("dropAfterChunks destroys the connection after that many chunks, with no [DONE]", async () => {
    sim.setScript({ replies: [{ ...REPLY, fault: { dropAfterChunks: 3 } }] });
    const r = await post();
    expect(r.status).toBe(200);
    expect(r.error).toBe("aborted");
    expect(parseSse(r.raw).events).toHaveLength(3);
    expect(r.raw).not.toContain("[DONE]");
  });

  it("stallAfterChunks stops sending with the connection open, until the client's idle timeout", async () => {
    sim.setScript({ replies: [{ ...REPLY, fault: { stallAfterChunks: 2 } }] });
    const r = await post(true, 300);
    expect(r.idle).toBe(true);
    expect(parseSse(r.raw).events).toHaveLength(2);
  });

  it("malformedChunkAt puts one data line that is not JSON at that chunk, and the stream goes on", async () => {
    sim.setScript({ replies: [{ ...REPLY, fault: { malformedChunkAt: 2 } }] });
    const r = await post();
    const data = parseSse(r.raw).events.map((e) => e.data);
    const bad = data.map((d, i) => [d, i] as const).filter(([d]) => {
      if (d === "[DONE]") return false;
      try {
        JSON.parse(d);
        return false;
      } catch {
        return true; // the malformed one
      }
    });
    expect(bad.map(([, i]) => i)).toEqual([2]);
    expect(data[data.length - 1]).toBe("[DONE]");
    const good = chunksOf(data.filter((_, i) => i !== 2).map((d) => `data: ${d}\n\n`).join(""));
    expect(assemble(good).content).toBe(REPLY.content);
  });

  it("resetBeforeResponse closes the connection before any byte, and the next request is answered", async () => {
    sim.setScript({ replies: [{ fault: { resetBeforeResponse: true } }, { content: "second try" }] });
    const r = await post();
    expect(r.error).toBe("reset");
    expect(r.status).toBe(0);
    expect(assemble(chunksOf((await post()).raw)).content).toBe("second try");
  });

  it("keepAliveOnlyMs sends only keep-alives for that long, then the next entry answers the same request", async () => {
    sim.setScript({ replies: [{ fault: { keepAliveOnlyMs: 100, keepAliveEveryMs: 20 } }, { content: "after the wait" }, { content: "third" }] });
    const r = await post();
    const { comments, order } = parseSse(r.raw);
    expect(comments.length).toBeGreaterThanOrEqual(2);
    expect(order.indexOf("event")).toBe(comments.length);
    expect(assemble(chunksOf(r.raw)).content).toBe("after the wait");
    expect(assemble(chunksOf((await post()).raw)).content).toBe("third");
  });

  it("keepAliveOnlyMs with thenClose ends the response after the keep-alives with no data at all", async () => {
    sim.setScript({ replies: [{ fault: { keepAliveOnlyMs: 60, keepAliveEveryMs: 20, thenClose: true } }] });
    const r = await post();
    expect(r.status).toBe(200);
    expect(r.error).toBeUndefined();
    expect(parseSse(r.raw).events).toHaveLength(0);
    expect(parseSse(r.raw).comments.length).toBeGreaterThan(0);
  });

  it("a slow stream paces its chunks by chunkDelayMs and still delivers the whole reply", async () => {
    sim.setScript({ replies: [{ content: "slowly but surely", chunkSize: 4, chunkDelayMs: 10 }] });
    expect(assemble(chunksOf((await post()).raw)).content).toBe("slowly but surely");
  });
});

describe("faults on a non-streamed request", () => {
  it("drop sends part of the body then destroys the connection; malformed sends a body that is not JSON", async () => {
    sim.setScript({ replies: [{ ...REPLY, fault: { dropAfterChunks: 1 } }, { ...REPLY, fault: { malformedChunkAt: 0 } }] });
    const dropped = await post(false);
    expect(dropped.status).toBe(200);
    expect(dropped.error).toBe("aborted");
    expect(dropped.raw.length).toBeGreaterThan(0);
    const malformed = await post(false);
    expect(() => JSON.parse(malformed.raw)).toThrow();
  });
});

describe("billing of broken streams", () => {
  it("bills a dropped stream and persists its input, not its output", async () => {
    const long = { content: "word ".repeat(200), chunkSize: 50 };
    sim.setScript({ replies: [{ ...long, fault: { dropAfterChunks: 2 } }], default: { content: "ok" } });
    const question = { model: "deepseek-chat", stream: true, messages: [{ role: "user", content: "Please explain this in detail. ".repeat(30) }] };
    await call(`${sim.url}/chat/completions`, question);
    const dropped = sim.requests[sim.requests.length - 1].usage;
    expect(dropped?.completion_tokens).toBeGreaterThan(0);
    const followUp = { ...question, stream: false, messages: [...question.messages, { role: "assistant", content: long.content }, { role: "user", content: "again" }] };
    const r = JSON.parse((await call(`${sim.url}/chat/completions`, followUp)).raw);
    expect(r.usage.prompt_cache_hit_tokens).toBe(Math.floor((dropped?.prompt_tokens ?? 0) / 64) * 64);
    expect(r.usage.prompt_cache_hit_tokens).toBeGreaterThan(0);
  });
});
