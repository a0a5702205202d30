// The simulator's token accounting and prefix cache: what every cost figure of deepcode is
// measured against, so it is held to DeepSeek's rules exactly.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { countTokens, renderRequest, startSimulator, type Simulator, type WireUsage } from "./server.mjs";
import { call } from "./client.js";

const SYSTEM = "You are deepcode, a careful coding agent working in a TypeScript repository. ".repeat(12);
const TOOLS = [
  {
    type: "function",
    function: {
      name: "Read",
      description: "Read a file of the workspace and return its text with line numbers.",
      parameters: { type: "object", properties: { file_path: { type: "string", description: "Path to read" } }, required: ["file_path"] },
    },
  },
];
const floor64 = (n: number) => Math.floor(n / 64) * 64;
const tokensOf = (pieces: string[]) => pieces.reduce((n, p) => n + countTokens(p), 0);

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.resetCache();
  sim.setScript({ default: { reasoning: "Reading the file is the first step here.", content: "I will read it.", tool_calls: [{ name: "Read", arguments: { file_path: "src/a.ts" } }] } });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- request bodies are built freely here
type Body = any;
async function send(body: Body): Promise<{ usage: WireUsage; message: Body }> {
  const r = await call(`${sim.url}/chat/completions`, body);
  expect(r.status, r.raw).toBe(200);
  const json = JSON.parse(r.raw);
  return { usage: json.usage, message: json.choices[0].message };
}
const first = (): Body => ({ model: "deepseek-flash", messages: [{ role: "system", content: SYSTEM }, { role: "user", content: "What does src/a.ts export?" }], tools: TOOLS });

describe("prompt tokens", () => {
  it("counts the prompt with the real DeepSeek V3 tokenizer over the canonical rendering", async () => {
    const body = first();
    const { usage } = await send(body);
    expect(usage.prompt_tokens).toBe(tokensOf(renderRequest(body)));
    expect(usage.prompt_tokens).toBeGreaterThan(64);
  });

  it("counts the reply's reasoning, content and tool call names and arguments as completion tokens", async () => {
    const { usage } = await send(first());
    const expected = countTokens("Reading the file is the first step here.") + countTokens("I will read it.") + countTokens("Read") + countTokens('{"file_path":"src/a.ts"}');
    expect(usage.completion_tokens).toBe(expected);
    expect(usage.completion_tokens_details.reasoning_tokens).toBe(countTokens("Reading the file is the first step here."));
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
  });
});

describe("the prefix cache", () => {
  it("misses everything on a first request", async () => {
    const { usage } = await send(first());
    expect(usage.prompt_cache_hit_tokens).toBe(0);
    expect(usage.prompt_cache_miss_tokens).toBe(usage.prompt_tokens);
  });

  it("hits all full 64-token units of an exact repeat", async () => {
    await send(first());
    const { usage } = await send(first());
    expect(usage.prompt_cache_hit_tokens).toBe(floor64(usage.prompt_tokens));
    expect(usage.prompt_cache_hit_tokens).toBeGreaterThan(0);
  });

  it("misses everything when the first message changed", async () => {
    await send(first());
    const changed = first();
    changed.messages[0].content = `Today is Monday. ${SYSTEM}`;
    const { usage } = await send(changed);
    expect(usage.prompt_cache_hit_tokens).toBe(0);
  });

  it("hits the old prompt and the reply's full units on an appended turn (reasoning sent back)", async () => {
    const reasoning = "The user wants the exports of src/a.ts; reading the file answers that directly. ".repeat(4);
    sim.setScript({ default: { reasoning, content: "Reading it.", tool_calls: [{ name: "Read", arguments: { file_path: "src/a.ts" } }] } });
    const body = first();
    const { message } = await send(body);
    const next = { ...body, messages: [...body.messages, message, { role: "tool", tool_call_id: message.tool_calls[0].id, content: "export const a = 1;" }] };
    const { usage } = await send(next);
    const pieces = renderRequest(next);
    expect(usage.prompt_cache_hit_tokens).toBe(floor64(tokensOf(pieces.slice(0, -1))));
    expect(usage.prompt_cache_hit_tokens).toBeGreaterThan(floor64(tokensOf(renderRequest(body))));
  });

  it("hits the old prompt and the reply's full units when the reasoning is not sent back", async () => {
    sim.setScript({ default: { reasoning: "Short thought.", content: "A long enough answer to fill a unit or so. ".repeat(8) } });
    const body = { model: "deepseek-flash", messages: [{ role: "system", content: SYSTEM }, { role: "user", content: "Explain." }] };
    const { message } = await send(body);
    const next = { ...body, messages: [...body.messages, { role: "assistant", content: message.content }, { role: "user", content: "Go on." }] };
    const { usage } = await send(next);
    expect(usage.prompt_cache_hit_tokens).toBe(floor64(tokensOf(renderRequest(next).slice(0, -1))));
  });

  it("misses from the tools onward when the tool schemas are re-serialised with other key order", async () => {
    const body = first();
    await send(body);
    const f = TOOLS[0].function;
    const reordered = { ...body, tools: [{ function: { parameters: f.parameters, description: f.description, name: f.name }, type: "function" }] };
    const { usage } = await send(reordered);
    expect(usage.prompt_cache_hit_tokens).toBe(floor64(countTokens(renderRequest(body)[0])));
    expect(usage.prompt_cache_hit_tokens).toBeGreaterThan(0);
  });

  it("keeps hit + miss = prompt_tokens and cached_tokens = hit on every request", async () => {
    const usages: WireUsage[] = [];
    const body = first();
    usages.push((await send(body)).usage);
    usages.push((await send(body)).usage);
    usages.push((await send({ ...body, messages: [...body.messages.slice(0, 1), { role: "user", content: "x".repeat(500) }] })).usage);
    usages.push((await send({ model: "deepseek-chat", messages: [{ role: "user", content: "hi" }] })).usage);
    for (const u of usages) {
      expect(u.prompt_cache_hit_tokens + u.prompt_cache_miss_tokens).toBe(u.prompt_tokens);
      expect(u.prompt_tokens_details.cached_tokens).toBe(u.prompt_cache_hit_tokens);
      expect(u.prompt_cache_hit_tokens % 64).toBe(0);
    }
  });

  it("persists nothing for a request answered with an error status", async () => {
    sim.setScript({ replies: [{ fault: { status: 500 } }], default: { content: "ok" } });
    const body = first();
    expect((await call(`${sim.url}/chat/completions`, body)).status).toBe(500);
    const { usage } = await send(body);
    expect(usage.prompt_cache_hit_tokens).toBe(0);
  });

  it("persists nothing for a request the API rejects as invalid", async () => {
    const body = first();
    const invalid = { ...body, messages: [...body.messages, { role: "assistant", content: "No reasoning here." }, { role: "user", content: "Well?" }] };
    expect((await call(`${sim.url}/chat/completions`, invalid)).status).toBe(400);
    const { usage } = await send({ ...invalid, thinking: { type: "disabled" } });
    expect(usage.prompt_cache_hit_tokens).toBe(0);
  });

  it("does not share cached prefixes across model families or user_ids", async () => {
    const body = first();
    await send(body);
    expect((await send({ ...body, model: "deepseek-v4-pro" })).usage.prompt_cache_hit_tokens).toBe(0);
    expect((await send({ ...body, user_id: "someone-else" })).usage.prompt_cache_hit_tokens).toBe(0);
    expect((await send({ ...body, model: "deepseek-v4-flash" })).usage.prompt_cache_hit_tokens).toBeGreaterThan(0);
  });

  it("forgets everything on resetCache", async () => {
    await send(first());
    sim.resetCache();
    expect((await send(first())).usage.prompt_cache_hit_tokens).toBe(0);
  });
});

describe("stats", () => {
  it("add up exactly what the billed requests reported", async () => {
    const before = sim.stats();
    const a = (await send(first())).usage;
    const b = (await send(first())).usage;
    await call(`${sim.url}/chat/completions`, { model: "nope", messages: [] });
    const after = sim.stats();
    expect(after.requests - before.requests).toBe(2);
    expect(after.promptTokens - before.promptTokens).toBe(a.prompt_tokens + b.prompt_tokens);
    expect(after.hitTokens - before.hitTokens).toBe(a.prompt_cache_hit_tokens + b.prompt_cache_hit_tokens);
    expect(after.missTokens - before.missTokens).toBe(a.prompt_cache_miss_tokens + b.prompt_cache_miss_tokens);
    expect(after.completionTokens - before.completionTokens).toBe(a.completion_tokens + b.completion_tokens);
  });
});
