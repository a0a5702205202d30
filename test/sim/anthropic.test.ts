// The Anthropic Messages endpoint (/anthropic/v1/messages): the same script answers it, and the
// same conversation is billed the same as on the Chat Completions endpoint, so the Anthropic
// provider can be held to parity with the DeepSeek one.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator, type Script, type Simulator } from "./server.mjs";
import { bearer, call, parseSse } from "./client.js";

const KEY = "sk-sim-anthropic-42";
const SYSTEM = "You are deepcode, a careful coding agent. Keep answers short and exact. ".repeat(10);
const SCHEMA = { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"] };
const SCRIPT: Script = {
  replies: [
    { reasoning: "The user wants src/a.ts; reading it comes first.", content: "Let me look.", tool_calls: [{ name: "Read", arguments: { file_path: "src/a.ts" } }] },
    { reasoning: "The file exports one constant.", content: "src/a.ts exports the constant `a`." },
  ],
};

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY });
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.resetCache();
  sim.setScript(SCRIPT);
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- request and reply bodies are checked field by field
type Json = any;
const anthropic = async (body: Json, headers: Record<string, string> = { "x-api-key": KEY }) => {
  const r = await call(`${sim.url}/anthropic/v1/messages`, body, { headers: { "anthropic-version": "2023-06-01", ...headers } });
  return { ...r, json: r.raw.startsWith("{") ? JSON.parse(r.raw) : null };
};
const openai = async (body: Json) => JSON.parse((await call(`${sim.url}/chat/completions`, body, { headers: bearer(KEY) })).raw);

/** Plays the same two-turn conversation through both protocols. */
async function bothWays() {
  const o1req = {
    model: "deepseek-flash",
    messages: [{ role: "system", content: SYSTEM }, { role: "user", content: "What does src/a.ts export?" }],
    tools: [{ type: "function", function: { name: "Read", description: "Read a file.", parameters: SCHEMA } }],
  };
  const o1 = await openai(o1req);
  const m1 = o1.choices[0].message;
  const o2 = await openai({ ...o1req, messages: [...o1req.messages, m1, { role: "tool", tool_call_id: m1.tool_calls[0].id, content: "export const a = 1;" }] });

  sim.resetCache();
  sim.setScript(SCRIPT);
  const a1req = {
    model: "deepseek-flash",
    max_tokens: 4096,
    system: SYSTEM,
    messages: [{ role: "user", content: "What does src/a.ts export?" }],
    tools: [{ name: "Read", description: "Read a file.", input_schema: SCHEMA }],
  };
  const a1 = (await anthropic(a1req)).json;
  const use = a1.content.find((b: Json) => b.type === "tool_use");
  const a2 = (await anthropic({
    ...a1req,
    messages: [...a1req.messages, { role: "assistant", content: a1.content }, { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "export const a = 1;" }] }],
  })).json;
  return { o1, o2, a1, a2 };
}

describe("parity with the Chat Completions endpoint", () => {
  it("gives the same reasoning, text and tool calls from the same script", async () => {
    const { o1, o2, a1, a2 } = await bothWays();
    const m1 = o1.choices[0].message;
    expect(a1.content.map((b: Json) => b.type)).toEqual(["thinking", "text", "tool_use"]);
    expect(a1.content[0].thinking).toBe(m1.reasoning_content);
    expect(a1.content[1].text).toBe(m1.content);
    expect(a1.content[2]).toMatchObject({ name: "Read", input: JSON.parse(m1.tool_calls[0].function.arguments) });
    expect(a1.stop_reason).toBe("tool_use");
    expect(a2.content.find((b: Json) => b.type === "text").text).toBe(o2.choices[0].message.content);
    expect(a2.stop_reason).toBe("end_turn");
  });

  it("bills the same tokens and cache hits on both turns", async () => {
    const { o1, o2, a1, a2 } = await bothWays();
    for (const [o, a] of [[o1, a1], [o2, a2]]) {
      expect(a.usage.cache_read_input_tokens).toBe(o.usage.prompt_cache_hit_tokens);
      expect(a.usage.input_tokens).toBe(o.usage.prompt_cache_miss_tokens);
      expect(a.usage.output_tokens).toBe(o.usage.completion_tokens);
    }
    expect(a2.usage.cache_read_input_tokens).toBeGreaterThan(0);
  });
});

describe("the Messages wire format", () => {
  it("streams message_start, content blocks for thinking, text and tool input, message_delta, message_stop", async () => {
    const r = await anthropic({ model: "deepseek-flash", max_tokens: 1024, stream: true, messages: [{ role: "user", content: "Read src/a.ts" }] });
    expect(r.headers["content-type"]).toMatch(/^text\/event-stream/);
    const events = parseSse(r.raw).events.map((e) => ({ event: e.event, data: JSON.parse(e.data) }));
    for (const e of events) expect(e.data.type).toBe(e.event);
    const types = events.map((e) => e.event);
    expect(types[0]).toBe("message_start");
    expect(types.slice(-2)).toEqual(["message_delta", "message_stop"]);
    const starts = events.filter((e) => e.event === "content_block_start").map((e) => [e.data.index, e.data.content_block.type]);
    expect(starts).toEqual([[0, "thinking"], [1, "text"], [2, "tool_use"]]);
    const joined = (kind: string, field: string) =>
      events.filter((e) => e.event === "content_block_delta" && e.data.delta.type === kind).map((e) => e.data.delta[field]).join("");
    expect(joined("thinking_delta", "thinking")).toBe(SCRIPT.replies?.[0].reasoning);
    expect(joined("text_delta", "text")).toBe("Let me look.");
    expect(JSON.parse(joined("input_json_delta", "partial_json"))).toEqual({ file_path: "src/a.ts" });
    const delta = events.find((e) => e.event === "message_delta")?.data;
    expect(delta.delta.stop_reason).toBe("tool_use");
    expect(delta.usage.output_tokens).toBeGreaterThan(0);
    expect(events[0].data.message.usage.input_tokens).toBeGreaterThan(0);
  });

  it("sends ping events while queued, all before message_start", async () => {
    sim.setScript({ replies: [{ content: "After the queue.", keepAliveMs: 80, keepAliveEveryMs: 20 }] });
    const r = await anthropic({ model: "deepseek-flash", max_tokens: 64, stream: true, messages: [{ role: "user", content: "hi" }] });
    const types = parseSse(r.raw).events.map((e) => e.event);
    const pings = types.indexOf("message_start");
    expect(pings).toBeGreaterThanOrEqual(2);
    expect(types.slice(0, pings).every((t) => t === "ping")).toBe(true);
    expect(types.slice(pings)).not.toContain("ping");
  });

  it("returns a non-streamed message with Anthropic's usage fields", async () => {
    sim.setScript({ replies: [{ content: "Hi." }] });
    const { json } = await anthropic({ model: "deepseek-flash", max_tokens: 64, thinking: { type: "disabled" }, messages: [{ role: "user", content: "hi" }] });
    expect(json).toMatchObject({ type: "message", role: "assistant", model: "deepseek-flash", content: [{ type: "text", text: "Hi." }], stop_reason: "end_turn" });
    expect(json.id).toMatch(/^msg_/);
    expect(Object.keys(json.usage).sort()).toEqual(["cache_creation_input_tokens", "cache_read_input_tokens", "input_tokens", "output_tokens"]);
  });

  it("accepts claude-* model names as DeepSeek maps them, and rejects other unknown names", async () => {
    sim.setScript({ default: { content: "ok" } });
    const mapped = await anthropic({ model: "claude-sonnet-4-5", max_tokens: 64, messages: [{ role: "user", content: "hi" }] });
    expect(mapped.status).toBe(200);
    expect(mapped.json.model).toBe("claude-sonnet-4-5");
    const unknown = await anthropic({ model: "gpt-4o", max_tokens: 64, messages: [{ role: "user", content: "hi" }] });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({ type: "error", error: { type: "invalid_request_error", message: "Model Not Exist" } });
  });

  it("takes an earlier assistant turn without its thinking block as one without reasoning (a session begun on the OpenAI protocol)", async () => {
    sim.setScript({ default: { content: "ok" } });
    const r = await anthropic({
      model: "deepseek-flash",
      max_tokens: 64,
      tools: [{ name: "Read", description: "Read a file.", input_schema: SCHEMA }],
      messages: [
        { role: "user", content: "Read a.ts" },
        { role: "assistant", content: [{ type: "tool_use", id: "call_00_abc", name: "Read", input: { file_path: "a.ts" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "call_00_abc", content: "x" }] },
        { role: "assistant", content: [{ type: "text", text: "It says x." }] },
        { role: "user", content: "Again?" },
      ],
    });
    expect(r.status).toBe(200);
  });

  it("refuses a tool loop whose last assistant turn comes back without its thinking block while thinking is on", async () => {
    const r = await anthropic({
      model: "deepseek-flash",
      max_tokens: 64,
      tools: [{ name: "Read", description: "Read a file.", input_schema: SCHEMA }],
      messages: [
        { role: "user", content: "Read a.ts" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "a.ts" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "x" }] },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/a final `assistant` message must start with a thinking block/);
  });

  it("requires the key in x-api-key and answers 401 in Anthropic's error shape", async () => {
    const body = { model: "deepseek-flash", max_tokens: 64, messages: [{ role: "user", content: "hi" }] };
    const none = await anthropic(body, {});
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ type: "error", error: { type: "authentication_error" } });
    const wrong = await anthropic(body, { "x-api-key": "sk-not-the-key-0000" });
    expect(wrong.status).toBe(401);
    expect(wrong.raw).not.toContain("sk-not-the-key-0000");
  });
});
