// Reasoning written into content and closed by </think> (OpenRouterTeam/ai-sdk-provider#163,
// tw93/Kaku#340) is moved to reasoning_content, out of the answer and the history.
import { describe, expect, it } from "vitest";
import { moveThinking } from "../../src/core/repair/think.js";
import type { ModelResponse } from "../../src/contract/index.js";

const reply = (content: string, reasoning?: string): ModelResponse => ({ message: { role: "assistant", content, ...(reasoning !== undefined ? { reasoning_content: reasoning } : {}) }, finishReason: "stop" });

describe("reasoning in the content, closed by </think>", () => {
  it("moves the text before </think> to reasoning when there is no opening tag", () => {
    const r = moveThinking(reply("The user wants 42.\n</think>\n\nIt is 42.", ""));
    expect(r?.message).toMatchObject({ content: "It is 42.", reasoning_content: "The user wants 42." });
  });

  it("drops the opening <think> tag too", () => {
    const r = moveThinking(reply("<think>\nShort greeting.\n</think>\n\nHello!"));
    expect(r?.message).toMatchObject({ content: "Hello!", reasoning_content: "Short greeting." });
  });

  it("keeps reasoning that already arrived, before the moved text", () => {
    const r = moveThinking(reply("more thoughts</think>Answer.", "first thoughts"));
    expect(r?.message.reasoning_content).toBe("first thoughts\n\nmore thoughts");
  });

  it("leaves content without </think>, or with </think> inside code, alone", () => {
    expect(moveThinking(reply("A plain answer."))).toBeNull();
    expect(moveThinking(reply("Models close it with `</think>` in their output."))).toBeNull();
    expect(moveThinking(reply("Example:\n```\n<think>x</think>\n```"))).toBeNull();
  });
});
