import { afterEach, describe, expect, it } from "vitest";
import type { ChatRequest, ModelDelta } from "../../src/contract/index.js";
import { collector, provider, rawServer, tick } from "./helpers.js";
import type { RawServer } from "./helpers.js";

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ev = (type: string, data: Record<string, unknown>): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

const STREAM = [
  ev("message_start", {
    message: { id: "msg_1", type: "message", role: "assistant", model: "deepseek-flash", content: [], usage: { input_tokens: 36, cache_read_input_tokens: 64, output_tokens: 1 } },
  }),
  "event: ping\ndata: {\"type\": \"ping\"}\n\n",
  ev("content_block_start", { index: 0, content_block: { type: "thinking", thinking: "" } }),
  ev("content_block_delta", { index: 0, delta: { type: "thinking_delta", thinking: "Need " } }),
  ev("content_block_delta", { index: 0, delta: { type: "thinking_delta", thinking: "files." } }),
  ev("content_block_delta", { index: 0, delta: { type: "signature_delta", signature: "sig" } }),
  ev("content_block_stop", { index: 0 }),
  ev("content_block_start", { index: 1, content_block: { type: "text", text: "" } }),
  ev("content_block_delta", { index: 1, delta: { type: "text_delta", text: "Reading." } }),
  ev("content_block_stop", { index: 1 }),
  ev("content_block_start", { index: 2, content_block: { type: "tool_use", id: "toolu_a", name: "Read", input: {} } }),
  ev("content_block_delta", { index: 2, delta: { type: "input_json_delta", partial_json: '{"path":' } }),
  ev("content_block_delta", { index: 2, delta: { type: "input_json_delta", partial_json: '"a.ts"}' } }),
  ev("content_block_stop", { index: 2 }),
  ev("content_block_start", { index: 3, content_block: { type: "tool_use", id: "toolu_b", name: "Grep", input: {} } }),
  ev("content_block_delta", { index: 3, delta: { type: "input_json_delta", partial_json: '{"pattern":"x"}' } }),
  ev("content_block_stop", { index: 3 }),
  ev("message_delta", { delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 20 } }),
  ev("message_stop", {}),
];

const REQUEST: ChatRequest = {
  model: "deepseek-flash",
  messages: [
    { role: "system", content: "Be terse." },
    { role: "system", content: "Project: demo." },
    { role: "user", content: "read a.ts" },
    {
      role: "assistant",
      content: "Sure.",
      reasoning_content: "Read it.",
      reasoning_signature: "sig-1",
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "Read", arguments: '{"path":"a.ts"}' } },
        { id: "call_2", type: "function", function: { name: "Read", arguments: '{"path":"b' } },
      ],
    },
    { role: "tool", tool_call_id: "call_1", content: "export {}" },
    { role: "tool", tool_call_id: "call_2", content: "error: no such file" },
    { role: "latest_reminder", content: "2026-11-30,Monday,,Terminal,English" },
    { role: "user", content: "and now?" },
  ],
  tools: [{ type: "function", function: { name: "Read", description: "read a file", parameters: { type: "object", properties: { path: { type: "string" } } } } }],
  tool_choice: "auto",
  reasoning_effort: "max",
  stop: "END",
  temperature: 0.2,
  user_id: "u-1",
};

describe("the Anthropic protocol", () => {
  it("translates the OpenAI-shaped request into a Messages request with the Anthropic headers", async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(STREAM.join(""));
    });
    await provider(server.url + "/anthropic", { protocol: "anthropic" }).request(REQUEST);
    const got = server.received[0];
    expect(got.url).toBe("/anthropic/v1/messages");
    expect(got.headers["x-api-key"]).toBe("sk-test-0123456789abcdef");
    expect(got.headers["anthropic-version"]).toBe("2023-06-01");
    expect(got.headers.authorization).toBeUndefined();
    expect(JSON.parse(got.body)).toEqual({
      model: "deepseek-flash",
      max_tokens: 384_000,
      system: [
        { type: "text", text: "Be terse." },
        { type: "text", text: "Project: demo." },
      ],
      messages: [
        { role: "user", content: [{ type: "text", text: "read a.ts" }] },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "Read it.", signature: "sig-1" },
            { type: "text", text: "Sure." },
            { type: "tool_use", id: "call_1", name: "Read", input: { path: "a.ts" } },
            { type: "tool_use", id: "call_2", name: "Read", input: {} },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "call_1", content: "export {}" },
            { type: "tool_result", tool_use_id: "call_2", content: "error: no such file" },
            { type: "text", text: "2026-11-30,Monday,,Terminal,English" },
            { type: "text", text: "and now?" },
          ],
        },
      ],
      tools: [{ name: "Read", description: "read a file", input_schema: { type: "object", properties: { path: { type: "string" } } } }],
      tool_choice: { type: "auto" },
      thinking: { type: "enabled", budget_tokens: 383_999 },
      output_config: { effort: "max" },
      stop_sequences: ["END"],
      temperature: 0.2,
      metadata: { user_id: "u-1" },
      stream: true,
    });
  });

  it("leaves out reasoning that has no signature (written on the OpenAI protocol), and turns thinking off for a tool loop it began", async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(STREAM.join(""));
    });
    const unsigned = REQUEST.messages.map((m) => (m.role === "assistant" ? { ...m, reasoning_signature: undefined } : m));
    await provider(server.url + "/anthropic", { protocol: "anthropic" }).request({ ...REQUEST, messages: unsigned });
    const body = JSON.parse(server.received[0].body) as { messages: Array<{ role: string; content: Array<{ type: string }> }>; thinking: unknown };
    expect(body.messages[1].content.map((b) => b.type)).toEqual(["text", "tool_use", "tool_use"]);
    expect(body.thinking).toEqual({ type: "disabled" });
    // After a turn that ended with an answer, thinking stays on: only the signed loop needs it.
    const ended = [...unsigned.slice(0, 6), { role: "assistant" as const, content: "done", reasoning_content: "" }, { role: "user" as const, content: "next" }];
    await provider(server.url + "/anthropic", { protocol: "anthropic" }).request({ ...REQUEST, messages: ended });
    expect((JSON.parse(server.received[1].body) as { thinking: unknown }).thinking).toEqual({ type: "enabled", budget_tokens: 383_999 });
  });

  it("sends thinking disabled, a forced tool and max_tokens as asked", async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(STREAM.join(""));
    });
    await provider(server.url, { protocol: "anthropic" }).request({
      model: "deepseek-flash",
      messages: [{ role: "user", content: "x" }],
      tools: REQUEST.tools,
      tool_choice: { type: "function", function: { name: "Read" } },
      thinking: { type: "disabled" },
      max_tokens: 50,
    });
    const body = JSON.parse(server.received[0].body) as Record<string, unknown>;
    expect(body).toMatchObject({ max_tokens: 50, tool_choice: { type: "tool", name: "Read" }, thinking: { type: "disabled" } });
  });

  it("turns the event stream into the same deltas and reply the OpenAI protocol gives", async () => {
    server = await rawServer(async (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const e of STREAM) {
        res.write(e);
        await tick(1);
      }
      res.end();
    });
    const { deltas, onDelta } = collector();
    const r = await provider(server.url, { protocol: "anthropic" }).request({ model: "deepseek-flash", messages: [{ role: "user", content: "x" }] }, { onDelta });
    expect(r).toEqual({
      id: "msg_1",
      model: "deepseek-flash",
      message: {
        role: "assistant",
        content: "Reading.",
        reasoning_content: "Need files.",
        // The thinking block's signature, kept to be sent back with it.
        reasoning_signature: "sig",
        tool_calls: [
          { id: "toolu_a", type: "function", function: { name: "Read", arguments: '{"path":"a.ts"}' } },
          { id: "toolu_b", type: "function", function: { name: "Grep", arguments: '{"pattern":"x"}' } },
        ],
      },
      finishReason: "tool_calls",
      usage: { prompt_tokens: 100, completion_tokens: 20, prompt_cache_hit_tokens: 64, prompt_cache_miss_tokens: 36, reasoning_tokens: 0 },
    });
    expect(deltas).toEqual<ModelDelta[]>([
      { kind: "reasoning", text: "Need " },
      { kind: "reasoning", text: "files." },
      { kind: "content", text: "Reading." },
      { kind: "tool_call", index: 0, id: "toolu_a", name: "Read", argumentsDelta: "" },
      { kind: "tool_call", index: 0, argumentsDelta: '{"path":' },
      { kind: "tool_call", index: 0, argumentsDelta: '"a.ts"}' },
      { kind: "tool_call", index: 1, id: "toolu_b", name: "Grep", argumentsDelta: "" },
      { kind: "tool_call", index: 1, argumentsDelta: '{"pattern":"x"}' },
    ]);
  });

  it("maps stop reasons: end_turn and stop_sequence to stop, max_tokens to length, refusal to content_filter", async () => {
    const reasons = [
      ["end_turn", "stop"],
      ["stop_sequence", "stop"],
      ["max_tokens", "length"],
      ["refusal", "content_filter"],
    ];
    server = await rawServer((_req, res, n) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(
        ev("message_start", { message: { id: "m", model: "x", usage: { input_tokens: 1, output_tokens: 0 } } }) +
          ev("content_block_start", { index: 0, content_block: { type: "text", text: "hi" } }) +
          ev("message_delta", { delta: { stop_reason: reasons[n][0] }, usage: { output_tokens: 1 } }) +
          ev("message_stop", {}),
      );
    });
    const p = provider(server.url, { protocol: "anthropic" });
    for (const [, ours] of reasons) {
      const r = await p.request({ model: "deepseek-flash", messages: [{ role: "user", content: "x" }] });
      expect(r.finishReason).toBe(ours);
      expect(r.message.content).toBe("hi");
    }
  });

  it("reads a whole (non-streamed) Messages reply", async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "msg_2",
          type: "message",
          role: "assistant",
          model: "deepseek-flash",
          content: [
            { type: "thinking", thinking: "Hm." },
            { type: "text", text: "Done." },
            { type: "tool_use", id: "toolu_c", name: "Read", input: { path: "b" } },
          ],
          stop_reason: "tool_use",
          usage: { input_tokens: 10, cache_read_input_tokens: 0, output_tokens: 5 },
        }),
      );
    });
    const r = await provider(server.url, { protocol: "anthropic" }).request({ model: "deepseek-flash", stream: false, messages: [{ role: "user", content: "x" }] });
    expect(JSON.parse(server.received[0].body)).not.toHaveProperty("stream");
    expect(r.message).toEqual({
      role: "assistant",
      content: "Done.",
      reasoning_content: "Hm.",
      tool_calls: [{ id: "toolu_c", type: "function", function: { name: "Read", arguments: '{"path":"b"}' } }],
    });
    expect(r.finishReason).toBe("tool_calls");
    expect(r.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 10, reasoning_tokens: 0 });
  });

  it("keeps what arrived when an error event interrupts the stream", async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(
        STREAM.slice(0, 9).join("") + ev("error", { error: { type: "overloaded_error", message: "Overloaded" } }),
      );
    });
    const r = await provider(server.url, { protocol: "anthropic" }).request({ model: "deepseek-flash", messages: [{ role: "user", content: "x" }] });
    expect(r.message.content).toBe("Reading.");
    expect(r.incomplete?.reason).toMatch(/^api_error: .*Overloaded/);
  });

  it("says the key was rejected in the same words as the OpenAI protocol", async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }));
    });
    const err = await provider(server.url, { protocol: "anthropic", keySource: "~/.deepcode/credentials" })
      .request({ model: "deepseek-flash", messages: [{ role: "user", content: "x" }] })
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(err?.message).toMatch(/API key rejected \(key from ~\/\.deepcode\/credentials\).*invalid x-api-key/);
  });
});

describe("the thinking block's signature", () => {
  const history: ChatRequest = {
    model: "deepseek-flash",
    messages: [
      { role: "user", content: "read a.ts" },
      { role: "assistant", content: null, reasoning_content: "Read it.", reasoning_signature: "sig-abc", tool_calls: [{ id: "call_1", type: "function", function: { name: "Read", arguments: '{"path":"a.ts"}' } }] },
      { role: "tool", tool_call_id: "call_1", content: "export {}" },
    ],
    // With tools in thinking mode the reasoning goes back (and with it, its signature).
    tools: [{ type: "function", function: { name: "Read", description: "read a file", parameters: { type: "object", properties: { path: { type: "string" } } } } }],
    thinking: { type: "enabled" },
  };
  const reply = (res: import("node:http").ServerResponse): void => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id: "m", type: "message", role: "assistant", model: "deepseek-flash", content: [{ type: "text", text: "ok" }], stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1 } }));
  };

  it("goes back with its thinking block on the Anthropic wire", async () => {
    server = await rawServer((_req, res) => reply(res));
    await provider(server.url, { protocol: "anthropic" }).request({ ...history, stream: false });
    const sent = JSON.parse(server.received[0].body) as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    expect(sent.messages[1].content[0]).toEqual({ type: "thinking", thinking: "Read it.", signature: "sig-abc" });
  });

  it("never reaches the OpenAI wire", async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "c", object: "chat.completion", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "ok" } }] }));
    });
    await provider(server.url).request({ ...history, stream: false });
    expect(server.received[0].body).not.toContain("sig-abc");
    expect(server.received[0].body).toContain('"reasoning_content":"Read it."');
  });
});
