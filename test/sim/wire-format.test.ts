// The simulator's replies on the Chat Completions endpoint match DeepSeek's wire format, streamed
// and not, so a provider that reads them correctly reads the real API correctly.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dsml, startSimulator, type Simulator } from "./server.mjs";
import { assemble, call, chunksOf, parseSse } from "./client.js";

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.resetCache());

const ask = (extra: object = {}) => ({ model: "deepseek-flash", stream: true, messages: [{ role: "user", content: "Look at both files." }], ...extra });
const stream = async (extra: object = {}) => {
  const r = await call(`${sim.url}/chat/completions`, ask(extra));
  expect(r.status, r.raw).toBe(200);
  return r;
};

describe("a streamed reply", () => {
  it("is served as text/event-stream of chat.completion.chunk objects ending with data: [DONE]", async () => {
    sim.setScript({ replies: [{ content: "Hello." }] });
    const r = await stream();
    expect(r.headers["content-type"]).toMatch(/^text\/event-stream/);
    const { events } = parseSse(r.raw);
    expect(events[events.length - 1].data).toBe("[DONE]");
    const chunks = chunksOf(r.raw);
    for (const c of chunks) {
      expect(c).toMatchObject({ object: "chat.completion.chunk", model: "deepseek-flash", choices: [{ index: 0 }] });
      expect(typeof c.id).toBe("string");
      expect(typeof c.created).toBe("number");
      expect(typeof c.system_fingerprint).toBe("string");
    }
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
  });

  it("opens the message in its first chunk, then streams reasoning before content, one of them null in each delta", async () => {
    sim.setScript({ replies: [{ reasoning: "Both files matter here.", content: "Here is what I found in them.", chunkSize: 5 }] });
    const chunks = chunksOf((await stream()).raw);
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: null, reasoning_content: "" });
    const middle = chunks.slice(1, -1).map((c) => c.choices[0].delta);
    const firstContent = middle.findIndex((d) => d.content !== null);
    expect(firstContent).toBeGreaterThan(0);
    for (const [i, d] of middle.entries()) {
      if (i < firstContent) expect(d.content === null && typeof d.reasoning_content === "string").toBe(true);
      else expect(d.reasoning_content === null && typeof d.content === "string").toBe(true);
    }
    const a = assemble(chunks);
    expect(a.reasoning).toBe("Both files matter here.");
    expect(a.content).toBe("Here is what I found in them.");
    expect(middle.every((d) => [d.content, d.reasoning_content].some((t) => t !== null && t.length <= 5))).toBe(true);
  });

  it("never carries reasoning_content when thinking is off", async () => {
    sim.setScript({ replies: [{ reasoning: "unused", content: "Plain answer." }, { reasoning: "unused", content: "Plain again." }] });
    for (const extra of [{ model: "deepseek-chat" }, { thinking: { type: "disabled" } }]) {
      const r = await stream(extra);
      expect(r.raw).not.toContain("reasoning_content");
      const chunks = chunksOf(r.raw);
      expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: "" });
      expect(assemble(chunks).content).toMatch(/^Plain/);
      expect(chunks[chunks.length - 1].usage.completion_tokens_details.reasoning_tokens).toBe(0);
    }
  });

  it("streams parallel tool calls by index: id, type and name first, then argument fragments only", async () => {
    sim.setScript({
      replies: [{
        content: "Reading both.",
        tool_calls: [{ name: "Read", arguments: { file_path: "src/a.ts" } }, { id: "call_fixed", name: "Read", arguments: { file_path: "src/b.ts" } }],
        chunkSize: 6,
      }],
    });
    const chunks = chunksOf((await stream()).raw);
    const calls = chunks.flatMap((c) => c.choices[0].delta.tool_calls ?? []);
    const heads = calls.filter((tc) => tc.id !== undefined);
    expect(heads).toHaveLength(2);
    expect(heads[0]).toMatchObject({ index: 0, type: "function", function: { name: "Read", arguments: "" } });
    expect(heads[0].id).toMatch(/^call_00_[A-Za-z0-9]+$/);
    expect(heads[1]).toMatchObject({ index: 1, id: "call_fixed", type: "function", function: { name: "Read", arguments: "" } });
    for (const tc of calls.filter((t) => t.id === undefined)) {
      expect(Object.keys(tc).sort()).toEqual(["function", "index"]);
      expect(Object.keys(tc.function)).toEqual(["arguments"]);
    }
    const indexes = calls.map((tc) => tc.index);
    expect(indexes).toEqual([...indexes].sort());
    const a = assemble(chunks);
    expect(a.content).toBe("Reading both.");
    expect(a.calls.map((c) => JSON.parse(c.arguments))).toEqual([{ file_path: "src/a.ts" }, { file_path: "src/b.ts" }]);
    expect(a.finish).toBe("tool_calls");
  });

  it("puts usage on the final chunk, the one with finish_reason, and on no other", async () => {
    sim.setScript({ replies: [{ content: "Done.", finish_reason: "length" }] });
    const chunks = chunksOf((await stream({ stream_options: { include_usage: true } })).raw);
    const withUsage = chunks.filter((c) => c.usage !== undefined);
    expect(withUsage).toHaveLength(1);
    expect(withUsage[0]).toBe(chunks[chunks.length - 1]);
    expect(withUsage[0].choices[0].finish_reason).toBe("length");
    expect(chunks.slice(0, -1).every((c) => c.choices[0].finish_reason === null)).toBe(true);
    expect(Object.keys(withUsage[0].usage).sort()).toEqual([
      "completion_tokens", "completion_tokens_details", "prompt_cache_hit_tokens", "prompt_cache_miss_tokens",
      "prompt_tokens", "prompt_tokens_details", "total_tokens",
    ]);
  });

  it("sends keep-alive comments while queued, all before the first chunk", async () => {
    sim.setScript({ replies: [{ content: "After the queue.", keepAliveMs: 120, keepAliveEveryMs: 20 }] });
    const { comments, order } = parseSse((await stream()).raw);
    expect(comments.length).toBeGreaterThanOrEqual(2);
    expect(comments.every((c) => c === ": keep-alive")).toBe(true);
    expect(order.indexOf("event")).toBe(comments.length);
  });

  it("cuts content into chunkSize pieces whatever it holds, so DSML markers can split across chunks", async () => {
    const markup = dsml([{ name: "Read", params: { file_path: "a.ts" } }]);
    sim.setScript({ replies: [{ content: markup, chunkSize: 3 }] });
    const chunks = chunksOf((await stream()).raw);
    const pieces = chunks.map((c) => c.choices[0].delta.content).filter((t) => t);
    expect(pieces.join("")).toBe(markup);
    expect(pieces.some((p) => p.includes("｜") && !p.includes("DSML"))).toBe(true);
    expect(chunks[chunks.length - 1].choices[0].finish_reason).toBe("stop");
  });
});

describe("a whole reply", () => {
  it("has DeepSeek's chat.completion shape with reasoning, content, tool calls and usage", async () => {
    sim.setScript({ replies: [{ reasoning: "Think.", content: "", tool_calls: [{ name: "Read", arguments: { file_path: "a.ts" } }] }] });
    const r = await call(`${sim.url}/chat/completions`, ask({ stream: false }));
    expect(r.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(r.raw);
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "deepseek-flash",
      choices: [{
        index: 0,
        finish_reason: "tool_calls",
        logprobs: null,
        message: {
          role: "assistant",
          content: "",
          reasoning_content: "Think.",
          tool_calls: [{ index: 0, type: "function", function: { name: "Read", arguments: '{"file_path":"a.ts"}' } }],
        },
      }],
    });
    expect(body.choices[0].message.tool_calls[0].id).toMatch(/^call_00_/);
    expect(typeof body.id).toBe("string");
    expect(typeof body.system_fingerprint).toBe("string");
    expect(body.usage.prompt_tokens).toBe(body.usage.prompt_cache_hit_tokens + body.usage.prompt_cache_miss_tokens);
  });

  it("leaves reasoning_content out when thinking is off", async () => {
    sim.setScript({ replies: [{ content: "Hi." }] });
    const r = await call(`${sim.url}/chat/completions`, ask({ stream: false, model: "deepseek-chat" }));
    expect(JSON.parse(r.raw).choices[0].message).toEqual({ role: "assistant", content: "Hi." });
  });

  it("is preceded by blank lines while queued", async () => {
    sim.setScript({ replies: [{ content: "Queued, then answered.", keepAliveMs: 60, keepAliveEveryMs: 20 }] });
    const r = await call(`${sim.url}/chat/completions`, ask({ stream: false }));
    expect(r.raw).toMatch(/^\n+\{/);
    expect(JSON.parse(r.raw).choices[0].message.content).toBe("Queued, then answered.");
  });
});

describe("the other endpoints", () => {
  it("lists models, reports a balance, and answers the /v1 alias the same way", async () => {
    const models = JSON.parse((await call(`${sim.url}/models`, undefined)).raw);
    expect(models.object).toBe("list");
    expect(models.data.map((m: { id: string }) => m.id)).toContain("deepseek-flash");
    const balance = JSON.parse((await call(`${sim.url}/v1/user/balance`, undefined)).raw);
    expect(balance.is_available).toBe(true);
    expect(balance.balance_infos[0]).toMatchObject({ currency: "USD" });
    sim.setScript({ replies: [{ content: "Via v1." }] });
    const r = await call(`${sim.url}/v1/chat/completions`, ask({ stream: false }));
    expect(JSON.parse(r.raw).choices[0].message.content).toBe("Via v1.");
  });

  it("answers 404 with the error shape for a path the API does not have", async () => {
    const r = await call(`${sim.url}/completions/nope`, {});
    expect(r.status).toBe(404);
    expect(JSON.parse(r.raw).error.message).toContain("Not Found");
  });
});
