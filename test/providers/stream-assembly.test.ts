import { afterEach, describe, expect, it } from "vitest";
import type { ModelDelta } from "../../src/contract/index.js";
import { WIRE_USAGE, ask, chunk, collector, provider, rawServer, startStream, tick } from "./helpers.js";
import type { RawServer } from "./helpers.js";

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("a streamed reply is assembled from its chunks", () => {
  it("joins reasoning and content, hands each piece on as it arrives, and reads usage from the final chunk", async () => {
    server = await rawServer(async (_req, res) => {
      startStream(res);
      res.write(chunk({ role: "assistant", content: null, reasoning_content: "" }));
      res.write(chunk({ content: null, reasoning_content: "Let me " }));
      await tick();
      res.write(chunk({ content: null, reasoning_content: "think." }));
      res.write(chunk({ content: "Hello", reasoning_content: null }));
      res.write(chunk({ content: ", world", reasoning_content: null }));
      res.write(chunk({ content: "", reasoning_content: null }, "stop", WIRE_USAGE));
      res.end("data: [DONE]\n\n");
    });
    const { deltas, onDelta } = collector();
    const r = await provider(server.url).request(ask(), { onDelta });
    expect(r.message).toEqual({ role: "assistant", content: "Hello, world", reasoning_content: "Let me think." });
    expect(r.finishReason).toBe("stop");
    expect(r.incomplete).toBeUndefined();
    expect(r.usage).toEqual({
      prompt_tokens: 100,
      completion_tokens: 20,
      prompt_cache_hit_tokens: 64,
      prompt_cache_miss_tokens: 36,
      reasoning_tokens: 7,
    });
    expect(deltas).toEqual<ModelDelta[]>([
      { kind: "reasoning", text: "Let me " },
      { kind: "reasoning", text: "think." },
      { kind: "content", text: "Hello" },
      { kind: "content", text: ", world" },
    ]);
  });

  it("assembles parallel tool calls by index, the first piece carrying id and name and later ones argument fragments", async () => {
    server = await rawServer((_req, res) => {
      startStream(res);
      res.write(chunk({ content: "Reading both." }));
      res.write(chunk({ tool_calls: [{ index: 0, id: "call_00_a", type: "function", function: { name: "Read", arguments: "" } }] }));
      res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] }));
      res.write(chunk({ tool_calls: [{ index: 1, id: "call_01_b", type: "function", function: { name: "Grep", arguments: "" } }] }));
      res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: '"a.ts"}' } }] }));
      res.write(chunk({ tool_calls: [{ index: 1, function: { arguments: '{"pattern":"x"}' } }] }));
      res.write(chunk({}, "tool_calls", WIRE_USAGE));
      res.end("data: [DONE]\n\n");
    });
    const { deltas, onDelta } = collector();
    const r = await provider(server.url).request(ask("", { thinking: { type: "disabled" } }), { onDelta });
    expect(r.finishReason).toBe("tool_calls");
    expect(r.message.content).toBe("Reading both.");
    expect(r.message.tool_calls).toEqual([
      { id: "call_00_a", type: "function", function: { name: "Read", arguments: '{"path":"a.ts"}' } },
      { id: "call_01_b", type: "function", function: { name: "Grep", arguments: '{"pattern":"x"}' } },
    ]);
    expect(deltas.filter((d) => d.kind === "tool_call")).toEqual([
      { kind: "tool_call", index: 0, id: "call_00_a", name: "Read", argumentsDelta: "" },
      { kind: "tool_call", index: 0, argumentsDelta: '{"path":' },
      { kind: "tool_call", index: 1, id: "call_01_b", name: "Grep", argumentsDelta: "" },
      { kind: "tool_call", index: 0, argumentsDelta: '"a.ts"}' },
      { kind: "tool_call", index: 1, argumentsDelta: '{"pattern":"x"}' },
    ]);
  });

  it("ignores keep-alive comments, which also keep an otherwise silent stream from timing out", async () => {
    server = await rawServer(async (_req, res) => {
      startStream(res);
      res.write(": keep-alive\n\n");
      res.write(chunk({ content: "first" }));
      // Over a second without a token, but a keep-alive every 30 ms: the 400 ms idle limit never trips.
      for (let i = 0; i < 40; i++) {
        await tick(30);
        res.write(": keep-alive\n\n");
      }
      res.write(chunk({ content: " second" }, "stop", WIRE_USAGE));
      res.end("data: [DONE]\n\n");
    });
    const r = await provider(server.url, { idleTimeoutMs: 400 }).request(ask());
    expect(r.message.content).toBe("first second");
    expect(r.finishReason).toBe("stop");
    expect(r.incomplete).toBeUndefined();
  });

  it("always asks for usage in the stream and sends the request fields it was given", async () => {
    server = await rawServer((_req, res) => {
      startStream(res);
      res.end(chunk({ content: "ok" }, "stop") + "data: [DONE]\n\n");
    });
    await provider(server.url).request(
      ask("hi", { max_tokens: 100, reasoning_effort: "high", user_id: "u-1", stop: ["END"], response_format: { type: "text" } }),
    );
    const req = server.received[0];
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/chat/completions");
    expect(req.headers.authorization).toBe("Bearer sk-test-0123456789abcdef");
    expect(JSON.parse(req.body)).toEqual({
      model: "deepseek-flash",
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 100,
      reasoning_effort: "high",
      user_id: "u-1",
      stop: ["END"],
      response_format: { type: "text" },
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("gives a thinking-mode reply an empty reasoning_content when no reasoning arrived, so it can be sent back later", async () => {
    server = await rawServer((_req, res) => {
      startStream(res);
      res.end(chunk({ content: "ok" }, "stop") + "data: [DONE]\n\n");
    });
    const thinking = await provider(server.url).request(ask());
    expect(thinking.message.reasoning_content).toBe("");
    const plain = await provider(server.url).request(ask("hi", { thinking: { type: "disabled" } }));
    expect(plain.message).not.toHaveProperty("reasoning_content");
  });

  it("maps every documented finish_reason", async () => {
    const reasons = ["stop", "length", "tool_calls", "content_filter", "insufficient_system_resource"];
    server = await rawServer((_req, res, n) => {
      startStream(res);
      res.end(chunk({ content: "x" }, reasons[n]) + "data: [DONE]\n\n");
    });
    const p = provider(server.url);
    for (const reason of reasons) expect((await p.request(ask())).finishReason).toBe(reason);
  });

  it("reads a non-streamed reply (stream: false), blank keep-alive lines before the JSON included", async () => {
    server = await rawServer(async (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("\n\n");
      await tick();
      res.end(
        JSON.stringify({
          id: "chatcmpl-2",
          object: "chat.completion",
          model: "deepseek-flash",
          choices: [
            {
              index: 0,
              finish_reason: "tool_calls",
              message: {
                role: "assistant",
                content: "",
                reasoning_content: "Need the file.",
                tool_calls: [{ index: 0, id: "call_00_x", type: "function", function: { name: "Read", arguments: '{"path":"a"}' } }],
              },
            },
          ],
          usage: WIRE_USAGE,
        }),
      );
    });
    const r = await provider(server.url).request(ask("hi", { stream: false }));
    expect(JSON.parse(server.received[0].body)).toMatchObject({ stream: false });
    expect(JSON.parse(server.received[0].body)).not.toHaveProperty("stream_options");
    expect(r).toEqual({
      id: "chatcmpl-2",
      model: "deepseek-flash",
      message: {
        role: "assistant",
        content: "",
        reasoning_content: "Need the file.",
        tool_calls: [{ id: "call_00_x", type: "function", function: { name: "Read", arguments: '{"path":"a"}' } }],
      },
      finishReason: "tool_calls",
      usage: { prompt_tokens: 100, completion_tokens: 20, prompt_cache_hit_tokens: 64, prompt_cache_miss_tokens: 36, reasoning_tokens: 7 },
    });
  });
});
