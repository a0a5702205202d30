// The simulator refuses what the real API refuses, with the real API's status and message, so
// a request deepcode builds wrongly fails in tests before it fails in front of a user.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "./server.mjs";
import { bearer, call } from "./client.js";

const KEY = "sk-sim-0123456789abcdef";
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, script: { default: { content: "fine" } } });
});
afterAll(() => sim.close());

const TOOLS = [{ type: "function", function: { name: "Read", description: "Read a file.", parameters: { type: "object", properties: {} } } }];
const toolTurn = (assistant: object) => [
  { role: "user", content: "Read a.ts" },
  { role: "assistant", content: "", tool_calls: [{ id: "call_00_a", type: "function", function: { name: "Read", arguments: "{}" } }], ...assistant },
  { role: "tool", tool_call_id: "call_00_a", content: "x" },
];
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- request bodies are built freely here
const post = (body: any, key = KEY) => call(`${sim.url}/chat/completions`, body, { headers: bearer(key) });
const errorOf = (raw: string) => JSON.parse(raw).error;

describe("the thinking-mode reasoning rule", () => {
  it("rejects a thinking request with tools whose earlier assistant message lacks reasoning_content, with the API's exact message", async () => {
    const r = await post({ model: "deepseek-flash", messages: toolTurn({}), tools: TOOLS });
    expect(r.status).toBe(400);
    expect(errorOf(r.raw)).toEqual({
      message: "The `reasoning_content` in the thinking mode must be passed back to the API.",
      type: "invalid_request_error",
      param: null,
      code: "invalid_request_error",
    });
  });

  it("accepts the same request when the reasoning is passed back, even empty", async () => {
    expect((await post({ model: "deepseek-flash", messages: toolTurn({ reasoning_content: "" }), tools: TOOLS })).status).toBe(200);
  });

  it("does not apply when thinking is disabled, when the model does not think, or when no tools are sent", async () => {
    expect((await post({ model: "deepseek-flash", thinking: { type: "disabled" }, messages: toolTurn({}), tools: TOOLS })).status).toBe(200);
    expect((await post({ model: "deepseek-chat", messages: toolTurn({}), tools: TOOLS })).status).toBe(200);
    expect((await post({ model: "deepseek-v4-pro", messages: toolTurn({}) })).status).toBe(200);
  });

  it("rejects tool_choice required or a named function in thinking mode, and accepts them with thinking disabled", async () => {
    const messages = [{ role: "user", content: "Read a.ts" }];
    for (const tool_choice of ["required", { type: "function", function: { name: "Read" } }]) {
      const r = await post({ model: "deepseek-flash", messages, tools: TOOLS, tool_choice });
      expect(r.status).toBe(400);
      expect(errorOf(r.raw).message).toBe("Thinking mode does not support this tool_choice");
      expect((await post({ model: "deepseek-flash", thinking: { type: "disabled" }, messages, tools: TOOLS, tool_choice })).status).toBe(200);
    }
    expect((await post({ model: "deepseek-flash", messages, tools: TOOLS, tool_choice: "auto" })).status).toBe(200);
  });
});

describe("message order", () => {
  it("rejects an assistant tool call that no tool message answers before the next message", async () => {
    const messages = [...toolTurn({ reasoning_content: "" }).slice(0, 2), { role: "user", content: "never mind" }];
    const r = await post({ model: "deepseek-chat", messages });
    expect(r.status).toBe(400);
    expect(errorOf(r.raw).message).toMatch(/^An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'/);
  });

  it("rejects a request that ends with unanswered tool calls, or answers only some of parallel calls", async () => {
    expect((await post({ model: "deepseek-chat", messages: toolTurn({}).slice(0, 2) })).status).toBe(400);
    const parallel = toolTurn({
      tool_calls: [
        { id: "call_00_a", type: "function", function: { name: "Read", arguments: "{}" } },
        { id: "call_01_b", type: "function", function: { name: "Read", arguments: "{}" } },
      ],
    });
    expect((await post({ model: "deepseek-chat", messages: [...parallel, { role: "user", content: "and?" }] })).status).toBe(400);
  });

  it("rejects a tool message that answers no call, and one without tool_call_id", async () => {
    const stray = await post({ model: "deepseek-chat", messages: [{ role: "user", content: "hi" }, { role: "tool", tool_call_id: "call_x", content: "?" }] });
    expect(stray.status).toBe(400);
    expect(errorOf(stray.raw).message).toBe("Messages with role 'tool' must be a response to a preceding message with 'tool_calls'");
    const noId = await post({ model: "deepseek-chat", messages: [...toolTurn({}).slice(0, 2), { role: "tool", content: "x" }] });
    expect(noId.status).toBe(400);
    expect(errorOf(noId.raw).message).toContain("tool_call_id");
  });
});

describe("the history rules DeepSeek enforces on tool calls", () => {
  const withCall = (args: string, id = "call_00_a") => [
    { role: "user", content: "Read a.ts" },
    { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "Read", arguments: args } }] },
    { role: "tool", tool_call_id: id, content: "x" },
    { role: "user", content: "and?" },
  ];

  it("rejects a history whose tool call arguments are not valid JSON, naming the message", async () => {
    for (const args of ['{"file_path": "a.ts"', "{", '{"a": 1}}', ""]) {
      const r = await post({ model: "deepseek-chat", messages: withCall(args) });
      expect(r.status, args).toBe(400);
      expect(errorOf(r.raw).message).toMatch(/^Failed to parse the request body as JSON: messages\[1\]\.tool_calls\[0\]\.function\.arguments: /);
    }
    expect((await post({ model: "deepseek-chat", messages: withCall('{"file_path": "a.ts"}') })).status).toBe(200);
  });

  it("rejects two tool calls with one id anywhere in the history, as DeepSeek does", async () => {
    const twice = [...withCall("{}", "call_dup"), ...withCall("{}", "call_dup").slice(1)];
    const r = await post({ model: "deepseek-chat", messages: twice });
    expect(r.status).toBe(400);
    expect(errorOf(r.raw).message).toBe("Duplicate value for 'tool_call_id' of call_dup in message[4]");
  });

  it("rejects contents that are not strings (an array of parts included)", async () => {
    const r = await post({ model: "deepseek-chat", messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] });
    expect(r.status).toBe(400);
    expect(errorOf(r.raw).message).toBe("Failed to deserialize the JSON body into the target type: messages[0]: invalid type: sequence, expected a string");
  });
});

describe("the request body", () => {
  it("rejects an unknown model with Model Not Exist", async () => {
    const r = await post({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
    expect(r.status).toBe(400);
    expect(errorOf(r.raw).message).toBe("Model Not Exist");
  });

  it("accepts every known model name and the latest_reminder role", async () => {
    for (const model of ["deepseek-flash", "deepseek-v4-flash", "deepseek-chat", "deepseek-reasoner", "deepseek-v4-pro"]) {
      const messages = [{ role: "system", content: "s" }, { role: "latest_reminder", content: "2026-11-30,Monday,,Web,English" }, { role: "user", content: "hi" }];
      expect((await post({ model, messages })).status, model).toBe(200);
    }
  });

  it("rejects no messages, an unknown role, and a body that is not JSON", async () => {
    expect((await post({ model: "deepseek-flash", messages: [] })).status).toBe(400);
    const role = await post({ model: "deepseek-flash", messages: [{ role: "bot", content: "hi" }] });
    expect(role.status).toBe(400);
    expect(errorOf(role.raw).message).toContain("unknown variant `bot`");
    expect((await post("{not json")).status).toBe(400);
  });

  it("lets a rejected request consume no scripted reply", async () => {
    sim.setScript({ replies: [{ content: "the first scripted reply" }] });
    await post({ model: "nope", messages: [{ role: "user", content: "hi" }] });
    const r = await post({ model: "deepseek-chat", messages: [{ role: "user", content: "hi" }], stream: false });
    expect(JSON.parse(r.raw).choices[0].message.content).toBe("the first scripted reply");
    sim.setScript({ default: { content: "fine" } });
  });
});

describe("authentication", () => {
  it("answers 401 without a key, in DeepSeek's error shape", async () => {
    const r = await call(`${sim.url}/chat/completions`, { model: "deepseek-chat", messages: [{ role: "user", content: "hi" }] });
    expect(r.status).toBe(401);
    expect(errorOf(r.raw)).toMatchObject({ type: "authentication_error", message: expect.stringMatching(/^Authentication Fails/) });
  });

  it("answers 401 for a wrong key, naming only its last characters", async () => {
    const wrong = "sk-wrong-key-7f3a9c";
    const r = await post({ model: "deepseek-chat", messages: [{ role: "user", content: "hi" }] }, wrong);
    expect(r.status).toBe(401);
    expect(errorOf(r.raw).message).toBe("Authentication Fails, Your api key: ****3a9c is invalid");
    expect(r.raw).not.toContain(wrong);
  });

  it("guards /models and /user/balance too, and lets the right key through", async () => {
    expect((await call(`${sim.url}/models`, undefined)).status).toBe(401);
    expect((await call(`${sim.url}/user/balance`, undefined, { headers: bearer("sk-nope-0000") })).status).toBe(401);
    expect((await call(`${sim.url}/user/balance`, undefined, { headers: bearer(KEY) })).status).toBe(200);
  });
});
