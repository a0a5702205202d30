import { describe, expect, it } from "vitest";
import { ProviderError } from "../../src/contract/index.js";
import type { ChatMessage, ChatRequest, ToolDefinition } from "../../src/contract/index.js";
import { capsFor, prepareRequest } from "../../src/providers/index.js";

const TOOL: ToolDefinition = {
  type: "function",
  function: { name: "Read", description: "read a file", parameters: { type: "object", properties: { path: { type: "string" } } } },
};

const HISTORY: ChatMessage[] = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "read a.ts" },
  {
    role: "assistant",
    content: "",
    reasoning_content: "I should read it.",
    tool_calls: [{ id: "call_00_a", type: "function", function: { name: "Read", arguments: '{"path":"a.ts"}' } }],
  },
  { role: "tool", tool_call_id: "call_00_a", content: "export {}" },
  { role: "assistant", content: "It is empty.", reasoning_content: "" },
  { role: "user", content: "thanks" },
];

function deepFreeze<T>(o: T): T {
  if (typeof o === "object" && o !== null) {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

const req = (extra: Partial<ChatRequest> = {}, model = "deepseek-flash"): ChatRequest =>
  deepFreeze({ model, messages: HISTORY, tools: [TOOL], ...extra });

function thrown(f: () => unknown): ProviderError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderError);
    return e as ProviderError;
  }
  throw new Error("expected a ProviderError");
}

describe("the thinking-mode rule", () => {
  it("keeps every assistant message's reasoning_content when the model thinks and tools are offered", () => {
    const out = prepareRequest(req(), capsFor("deepseek-flash"));
    const assistants = out.messages.filter((m) => m.role === "assistant");
    expect(assistants.map((m) => m.role === "assistant" && m.reasoning_content)).toEqual(["I should read it.", ""]);
  });

  it("refuses, naming the message, a request whose earlier assistant message lacks reasoning_content", () => {
    const messages = HISTORY.map((m, i) => (i === 4 ? { role: "assistant" as const, content: "It is empty." } : m));
    const err = thrown(() => prepareRequest(deepFreeze({ model: "deepseek-v4-pro", messages, tools: [TOOL] }), capsFor("deepseek-v4-pro")));
    expect(err.kind).toBe("bad_request");
    expect(err.message).toMatch(/message 4 \(assistant\) has no reasoning_content/);
  });

  it("strips reasoning where it is not needed: no tools, thinking off, or a model that does not want it back", () => {
    const cases: Array<[ChatRequest, string]> = [
      [req({ tools: undefined }), "deepseek-flash"],
      [req({ thinking: { type: "disabled" } }), "deepseek-flash"],
      [req({}, "deepseek-chat"), "deepseek-chat"],
      [req({ thinking: { type: "enabled" } }, "some-vendor-model"), "some-vendor-model"],
    ];
    for (const [r, model] of cases) {
      const out = prepareRequest(r, capsFor(model));
      for (const m of out.messages) expect(m).not.toHaveProperty("reasoning_content");
      expect(out.messages).toHaveLength(HISTORY.length);
    }
  });

  it("does not insist on reasoning_content when thinking is off", () => {
    const messages = HISTORY.map((m) => (m.role === "assistant" ? { role: "assistant" as const, content: m.content } : m));
    expect(() => prepareRequest(deepFreeze({ model: "deepseek-flash", messages, tools: [TOOL], thinking: { type: "disabled" } }), capsFor("deepseek-flash"))).not.toThrow();
  });

  it("returns a new request and leaves the (frozen) input as it was", () => {
    const input = req({ tools: undefined });
    const before = JSON.stringify(input);
    const out = prepareRequest(input, capsFor("deepseek-flash"));
    expect(out).not.toBe(input);
    expect(out.messages).not.toBe(input.messages);
    expect(JSON.stringify(input)).toBe(before);
  });

  it.each([["required" as const], [{ type: "function" as const, function: { name: "Read" } }]])(
    "refuses tool_choice %j in thinking mode, saying to send thinking disabled for a forced call",
    (choice) => {
      const err = thrown(() => prepareRequest(req({ tool_choice: choice }), capsFor("deepseek-flash")));
      expect(err.kind).toBe("config");
      expect(err.message).toMatch(/thinking: \{type: "disabled"\}/);
      expect(() => prepareRequest(req({ tool_choice: choice, thinking: { type: "disabled" } }), capsFor("deepseek-flash"))).not.toThrow();
      expect(() => prepareRequest(req({ tool_choice: choice }), capsFor("deepseek-chat"))).not.toThrow();
    },
  );

  it("accepts tool_choice auto and none in thinking mode", () => {
    expect(() => prepareRequest(req({ tool_choice: "auto" }), capsFor("deepseek-flash"))).not.toThrow();
    expect(() => prepareRequest(req({ tool_choice: "none" }), capsFor("deepseek-flash"))).not.toThrow();
  });

  it("refuses function names the API would reject and more than 128 tools", () => {
    const named = (name: string): ToolDefinition => ({ ...TOOL, function: { ...TOOL.function, name } });
    for (const bad of ["has space", "", "x".repeat(65), "dot.name", "ünïcode"]) {
      expect(thrown(() => prepareRequest(req({ tools: [named(bad)] }), capsFor("deepseek-flash"))).message).toMatch(/tool name/);
    }
    expect(() => prepareRequest(req({ tools: [named("a-Z_09"), named("x".repeat(64))] }), capsFor("deepseek-flash"))).not.toThrow();
    const many = Array.from({ length: 129 }, (_, i) => named(`t${i}`));
    expect(thrown(() => prepareRequest(req({ tools: many }), capsFor("deepseek-flash"))).message).toMatch(/at most 128/);
  });
});
