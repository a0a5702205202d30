// The provider against the DeepSeek API simulator (test/sim): the wire as the real API speaks it.
import { afterEach, describe, expect, it } from "vitest";
import type { ChatMessage, ChatRequest, ModelDelta, ToolDefinition } from "../../src/contract/index.js";
import { startSimulator } from "../sim/server.mjs";
import type { Script, Simulator } from "../sim/server.mjs";
import { call } from "../sim/client.js";
import { KEY, collector, fakeSleep, provider, rejection } from "./helpers.js";

const REASONING_BACK = "The `reasoning_content` in the thinking mode must be passed back to the API.";

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(script: Script): Promise<Simulator> {
  sim = await startSimulator({ script, apiKey: KEY });
  return sim;
}

const READ: ToolDefinition = {
  type: "function",
  function: { name: "Read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
};

const user = (content: string): ChatMessage => ({ role: "user", content });

describe("the provider against the simulator", () => {
  it("assembles reasoning, content, parallel tool calls and exact usage from the simulated stream", async () => {
    const s = await start({
      replies: [
        {
          reasoning: "Two files to read.",
          content: "Reading both.",
          tool_calls: [
            { name: "Read", arguments: { path: "a.ts" } },
            { name: "Read", arguments: { path: "b.ts" } },
          ],
          chunkSize: 3,
        },
      ],
    });
    const { deltas, onDelta } = collector();
    const r = await provider(s.url).request({ model: "deepseek-flash", messages: [user("read a.ts and b.ts")], tools: [READ] }, { onDelta });
    expect(r.message.content).toBe("Reading both.");
    expect(r.message.reasoning_content).toBe("Two files to read.");
    expect(r.message.tool_calls?.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([
      ["Read", { path: "a.ts" }],
      ["Read", { path: "b.ts" }],
    ]);
    expect(r.finishReason).toBe("tool_calls");
    const billed = s.requests[0].usage!;
    expect(r.usage).toEqual({
      prompt_tokens: billed.prompt_tokens,
      completion_tokens: billed.completion_tokens,
      prompt_cache_hit_tokens: billed.prompt_cache_hit_tokens,
      prompt_cache_miss_tokens: billed.prompt_cache_miss_tokens,
      reasoning_tokens: billed.completion_tokens_details.reasoning_tokens,
    });
    expect(r.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(deltas.filter((d) => d.kind === "content").map((d) => (d as { text: string }).text)).toEqual(["Rea", "din", "g b", "oth", "."]);
    expect(JSON.parse(s.requests[0].body)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it("reads a non-streamed reply", async () => {
    const s = await start({ replies: [{ content: "Whole.", reasoning: "Brief." }] });
    const r = await provider(s.url).request({ model: "deepseek-v4-pro", stream: false, messages: [user("hi")] });
    expect(r.message).toEqual({ role: "assistant", content: "Whole.", reasoning_content: "Brief." });
    expect(r.finishReason).toBe("stop");
    expect(r.usage?.prompt_tokens).toBe(s.requests[0].usage?.prompt_tokens);
  });

  it("waits through keep-alives while the request is queued", async () => {
    const s = await start({ replies: [{ fault: { keepAliveOnlyMs: 600, keepAliveEveryMs: 20 } }, { content: "after the queue" }] });
    const r = await provider(s.url, { firstByteTimeoutMs: 250 }).request({ model: "deepseek-flash", messages: [user("hi")] });
    expect(r.message.content).toBe("after the queue");
  });
});

describe("the thinking-mode round trip against the simulator", () => {
  it("sends the reasoning back with tools, and the simulator accepts the follow-up", async () => {
    const s = await start({
      replies: [{ reasoning: "I need a.ts.", tool_calls: [{ id: "call_00_x", name: "Read", arguments: { path: "a.ts" } }] }, { content: "It exports nothing." }],
    });
    const p = provider(s.url);
    const first: ChatRequest = { model: "deepseek-flash", messages: [user("what is in a.ts?")], tools: [READ] };
    const r1 = await p.request(first);
    const second: ChatRequest = {
      ...first,
      messages: [...first.messages, r1.message, { role: "tool", tool_call_id: "call_00_x", content: "export {}" }],
    };
    const r2 = await p.request(second);
    expect(s.requests.map((q) => q.status)).toEqual([200, 200]);
    expect(r2.message.content).toBe("It exports nothing.");
    expect(s.requests[1].json.messages[1]).toMatchObject({ role: "assistant", reasoning_content: "I need a.ts." });
  });

  it("is what the simulator demands: the same request without reasoning_content is rejected with the API's message", async () => {
    const s = await start({ default: { content: "unused" } });
    const body = {
      model: "deepseek-flash",
      tools: [READ],
      messages: [
        user("what is in a.ts?"),
        { role: "assistant", content: "", tool_calls: [{ id: "call_00_x", type: "function", function: { name: "Read", arguments: '{"path":"a.ts"}' } }] },
        { role: "tool", tool_call_id: "call_00_x", content: "export {}" },
      ],
    };
    const raw = await call(`${s.url}/chat/completions`, body, { headers: { authorization: `Bearer ${KEY}` } });
    expect(raw.status).toBe(400);
    expect(JSON.parse(raw.raw).error.message).toBe(REASONING_BACK);

    // The provider never lets such a request out: it refuses it before sending, naming the message.
    const err = await rejection(provider(s.url).request(body as ChatRequest));
    expect(err.kind).toBe("bad_request");
    expect(err.message).toMatch(/message 1 \(assistant\) has no reasoning_content/);
    expect(s.requests).toHaveLength(1);
  });

  it("strips reasoning the model does not need: a follow-up without tools carries none", async () => {
    const s = await start({ replies: [{ reasoning: "Thinking hard.", content: "Hi." }, { content: "Bye." }] });
    const p = provider(s.url);
    const r1 = await p.request({ model: "deepseek-flash", messages: [user("hi")] });
    expect(r1.message.reasoning_content).toBe("Thinking hard.");
    await p.request({ model: "deepseek-flash", messages: [user("hi"), r1.message, user("bye")] });
    expect(s.requests[1].body).not.toContain("reasoning_content");
    expect(s.requests[1].status).toBe(200);
  });

  it("refuses a forced tool call in thinking mode before sending, and sends it with thinking disabled", async () => {
    const s = await start({ default: { tool_calls: [{ name: "Read", arguments: { path: "x" } }] } });
    const p = provider(s.url);
    const forced: ChatRequest = { model: "deepseek-flash", messages: [user("read x")], tools: [READ], tool_choice: "required" };
    const err = await rejection(p.request(forced));
    expect(err.kind).toBe("config");
    expect(s.requests).toHaveLength(0);
    const r = await p.request({ ...forced, thinking: { type: "disabled" } });
    expect(r.finishReason).toBe("tool_calls");
    expect(s.requests[0].status).toBe(200);
  });
});

describe("faults injected by the simulator", () => {
  it("retries a 429 after the Retry-After it sends, announcing the retry", async () => {
    const s = await start({ replies: [{ fault: { status: 429, retryAfter: 3 } }, { fault: { status: 503 } }, { content: "ok" }] });
    const { sleep, delays } = fakeSleep();
    const { deltas, onDelta } = collector();
    const r = await provider(s.url, { sleep, random: () => 0 }).request({ model: "deepseek-flash", messages: [user("hi")] }, { onDelta });
    expect(r.message.content).toBe("ok");
    expect(delays).toEqual([3000, 1000]);
    expect(deltas.filter((d): d is Extract<ModelDelta, { kind: "retry" }> => d.kind === "retry").map((d) => d.reason)).toEqual([
      "rate limited (429): Rate Limit Reached",
      "the API is overloaded (503): Server Overloaded",
    ]);
    expect(s.requests).toHaveLength(3);
  });

  it("says where a rejected key came from, never the key", async () => {
    const s = await start({ default: { content: "unused" } });
    const wrong = "sk-wrong-key-000000000000";
    const err = await rejection(provider(s.url, { apiKey: wrong, keySource: "DEEPSEEK_API_KEY" }).request({ model: "deepseek-flash", messages: [user("hi")] }));
    expect(err.kind).toBe("auth");
    expect(err.message).toMatch(/^API key rejected \(key from DEEPSEEK_API_KEY\)/);
    expect(err.message).not.toContain(wrong);
    expect(err.attempts).toBe(1);
  });

  it("does not retry an exhausted balance", async () => {
    const s = await start({ replies: [{ fault: { status: 402 } }] });
    const err = await rejection(provider(s.url).request({ model: "deepseek-flash", messages: [user("hi")] }));
    expect(err.kind).toBe("balance");
    expect(err.message).toBe("balance exhausted: top up your DeepSeek account (402): Insufficient Balance");
    expect(s.requests).toHaveLength(1);
  });

  it("retries a connection reset before the response", async () => {
    const s = await start({ replies: [{ fault: { resetBeforeResponse: true } }, { content: "second time lucky" }] });
    const r = await provider(s.url).request({ model: "deepseek-flash", messages: [user("hi")] });
    expect(r.message.content).toBe("second time lucky");
    expect(s.requests).toHaveLength(2);
  });

  it("retries a queue that gave up: keep-alives, then the connection closed with no data", async () => {
    const s = await start({ replies: [{ fault: { keepAliveOnlyMs: 60, keepAliveEveryMs: 20, thenClose: true } }, { content: "served" }] });
    const { deltas, onDelta } = collector();
    const r = await provider(s.url).request({ model: "deepseek-flash", messages: [user("hi")] }, { onDelta });
    expect(r.message.content).toBe("served");
    expect(deltas.filter((d) => d.kind === "retry")).toHaveLength(1);
  });

  it("asks again when a stream drops mid-reply, as after a 500, and keeps the whole reply", async () => {
    const s = await start({ replies: [{ reasoning: "Hmm.", content: "This answer is cut short", chunkSize: 4, fault: { dropAfterChunks: 5 } }, { reasoning: "Hmm.", content: "This answer is whole." }] });
    const { deltas, onDelta } = collector();
    const r = await provider(s.url).request({ model: "deepseek-flash", messages: [user("hi")] }, { onDelta });
    expect(r.incomplete).toBeUndefined();
    expect(r.finishReason).toBe("stop");
    expect(r.message.content).toBe("This answer is whole.");
    expect(s.requests).toHaveLength(2);
    const retry = deltas.find((d): d is Extract<ModelDelta, { kind: "retry" }> => d.kind === "retry");
    expect(retry?.reason).toMatch(/closed before the reply was complete \(the reply was cut mid-stream; asking again\)/);
  });

  it("keeps the longest partial reply, marked incomplete, when every attempt drops", async () => {
    const cut = { reasoning: "Hmm.", content: "This answer is cut short", chunkSize: 4, fault: { dropAfterChunks: 5 } };
    const s = await start({ replies: [cut, { ...cut, fault: { dropAfterChunks: 3 } }, cut, { ...cut, fault: { dropAfterChunks: 2 } }] });
    const r = await provider(s.url).request({ model: "deepseek-flash", messages: [user("hi")] });
    expect(r.incomplete?.reason).toMatch(/^disconnected/);
    expect(r.finishReason).toBeNull();
    expect(r.message.reasoning_content).toBe("Hmm.");
    // Events: the opening chunk, "Hmm.", then "This", " ans", "wer " before the drop.
    expect(r.message.content).toBe("This answer ");
    expect(s.requests).toHaveLength(4);
  });

  it("ends a stalled stream at the idle limit, keeping what arrived", async () => {
    const s = await start({ replies: [{ content: "stalls here", chunkSize: 6, fault: { stallAfterChunks: 2 } }] });
    const r = await provider(s.url, { idleTimeoutMs: 150 }).request({ model: "deepseek-flash", messages: [user("hi")], thinking: { type: "disabled" } });
    // Events: the opening chunk and "stalls"; then silence with the socket open.
    expect(r.message.content).toBe("stalls");
    expect(r.incomplete?.reason).toMatch(/^idle_timeout/);
  });

  it("keeps what arrived before a malformed chunk", async () => {
    const s = await start({ replies: [{ content: "abcdefgh", chunkSize: 2, fault: { malformedChunkAt: 3 } }] });
    const r = await provider(s.url).request({ model: "deepseek-chat", messages: [user("hi")] });
    expect(r.message.content).toBe("abcd");
    expect(r.incomplete?.reason).toMatch(/^malformed_chunk/);
  });

  it("ends the request at once when aborted mid-stream, keeping what arrived", async () => {
    const s = await start({ replies: [{ content: "one two three four five six", chunkSize: 4, chunkDelayMs: 30 }] });
    const ctl = new AbortController();
    const r = await provider(s.url).request(
      { model: "deepseek-chat", messages: [user("hi")] },
      { signal: ctl.signal, onDelta: (d) => d.kind === "content" && ctl.abort() },
    );
    expect(r.message.content).toBe("one ");
    expect(r.incomplete?.reason).toMatch(/^aborted/);
  });
});

describe("the doctor's check against the simulator", () => {
  it("reports the balance for a good key and a rejection for a bad one", async () => {
    const s = await start({});
    expect(await provider(s.url).check()).toEqual({ ok: true, status: 200, message: "key from DEEPSEEK_API_KEY accepted; balance 100.00 USD" });
    const bad = await provider(s.url, { apiKey: "sk-nope-nope-nope" }).check();
    expect(bad.ok).toBe(false);
    expect(bad.message).toMatch(/API key rejected/);
  });
});
