// The same script through both protocols gives the same reply: the rest of deepcode cannot
// tell which protocol is in use.
import { afterEach, describe, expect, it } from "vitest";
import type { ChatRequest, ModelDelta, ModelResponse, ToolDefinition } from "../../src/contract/index.js";
import { startSimulator } from "../sim/server.mjs";
import type { ScriptEntry, Simulator } from "../sim/server.mjs";
import { ProviderError } from "../../src/contract/index.js";
import { KEY, collector, fakeSleep, provider } from "./helpers.js";

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const READ: ToolDefinition = {
  type: "function",
  function: { name: "Read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
};

const ENTRY: ScriptEntry = {
  reasoning: "Both files are needed before answering.",
  content: "Let me look at both files — ünïcödé 🎉 included.",
  tool_calls: [
    { id: "call_00_parity", name: "Read", arguments: { path: "src/a.ts" } },
    { id: "call_01_parity", name: "Read", arguments: { path: "src/b.ts" } },
  ],
  chunkSize: 5,
};

const REQUEST: ChatRequest = {
  model: "deepseek-flash",
  messages: [
    { role: "system", content: "You are a careful coding agent. ".repeat(20) },
    { role: "user", content: "Compare src/a.ts and src/b.ts." },
  ],
  tools: [READ],
};

/** Each protocol's reply to the same script and request, from a cold cache each time. */
async function both(entry: ScriptEntry, req: ChatRequest): Promise<Record<"openai" | "anthropic", { r: ModelResponse; deltas: ModelDelta[] }>> {
  sim = await startSimulator({ script: { default: entry }, apiKey: KEY });
  const out: Partial<Record<"openai" | "anthropic", { r: ModelResponse; deltas: ModelDelta[] }>> = {};
  for (const protocol of ["openai", "anthropic"] as const) {
    sim.resetCache();
    const base = protocol === "openai" ? sim.url : `${sim.url}/anthropic`;
    const { deltas, onDelta } = collector();
    const r = await provider(base, { protocol }).request(req, { onDelta });
    out[protocol] = { r, deltas };
  }
  expect(sim.requests.map((q) => [q.path, q.status])).toEqual([
    ["/chat/completions", 200],
    ["/anthropic/v1/messages", 200],
  ]);
  return out as Record<"openai" | "anthropic", { r: ModelResponse; deltas: ModelDelta[] }>;
}

/** The reply without its message id, which each protocol forms its own way. */
function comparable(r: ModelResponse): Omit<ModelResponse, "id"> {
  const { id: _id, ...rest } = r;
  return rest;
}

describe("protocol parity", () => {
  it("gives the same streamed reply and deltas through both protocols, thinking off", async () => {
    const { openai, anthropic } = await both(ENTRY, { ...REQUEST, thinking: { type: "disabled" } });
    expect(openai.r.message.tool_calls).toHaveLength(2);
    expect(openai.r.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(comparable(anthropic.r)).toEqual(comparable(openai.r));
    expect(anthropic.deltas).toEqual(openai.deltas);
  });

  it("gives the same content, reasoning, tool calls, finish reason and token counts through both protocols, thinking on", async () => {
    const { openai, anthropic } = await both(ENTRY, REQUEST);
    expect(openai.r.message.reasoning_content).toBe(ENTRY.reasoning);
    // The Anthropic reply also carries its thinking block's signature, which goes back with it.
    const { reasoning_signature: signature, ...message } = anthropic.r.message;
    expect(signature).toMatch(/^sig_/);
    expect(message).toEqual(openai.r.message);
    expect(anthropic.r.finishReason).toBe(openai.r.finishReason);
    // The Anthropic format has no reasoning-token count; every other count is the same.
    expect({ ...anthropic.r.usage, reasoning_tokens: undefined }).toEqual({ ...openai.r.usage, reasoning_tokens: undefined });
    expect(anthropic.deltas).toEqual(openai.deltas);
  });

  it("gives the same non-streamed reply through both protocols", async () => {
    const { openai, anthropic } = await both(ENTRY, { ...REQUEST, stream: false, thinking: { type: "disabled" } });
    expect(comparable(anthropic.r)).toEqual(comparable(openai.r));
  });

  it("bills the follow-up request the same through both protocols: the history translates to the same prompt", async () => {
    sim = await startSimulator({ script: { default: ENTRY }, apiKey: KEY });
    const usages = [];
    for (const protocol of ["openai", "anthropic"] as const) {
      sim.resetCache();
      const p = provider(protocol === "openai" ? sim.url : `${sim.url}/anthropic`, { protocol });
      const r1 = await p.request(REQUEST);
      const follow: ChatRequest = {
        ...REQUEST,
        messages: [
          ...REQUEST.messages,
          r1.message,
          { role: "tool", tool_call_id: "call_00_parity", content: "export const a = 1;" },
          { role: "tool", tool_call_id: "call_01_parity", content: "export const b = 2;" },
        ],
      };
      usages.push((await p.request(follow)).usage);
    }
    expect(usages[0]?.prompt_cache_hit_tokens).toBeGreaterThan(0);
    expect({ ...usages[1], reasoning_tokens: 0 }).toEqual({ ...usages[0], reasoning_tokens: 0 });
  });

  it.each([400, 401, 402, 422, 429, 500, 503])("fails the same way through both protocols on a %i", async (status) => {
    sim = await startSimulator({ script: { default: { fault: { status, retryAfter: 2 } } }, apiKey: KEY });
    const seen = [];
    for (const protocol of ["openai", "anthropic"] as const) {
      const { sleep, delays } = fakeSleep();
      const base = protocol === "openai" ? sim.url : `${sim.url}/anthropic`;
      const err = await provider(base, { protocol, sleep })
        .request(REQUEST)
        .then(
          () => undefined,
          (e: unknown) => e as ProviderError,
        );
      expect(err).toBeInstanceOf(ProviderError);
      seen.push({ kind: err?.kind, status: err?.status, message: err?.message, attempts: err?.attempts, delays });
    }
    expect(seen[1]).toEqual(seen[0]);
  });
});
