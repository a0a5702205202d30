// What a context-limit recovery cuts (src/core/context/context-limit.ts): the tail, then the
// whole turn, then (last resort) the log — each cut message keeps its start, its role and its
// call id (every call keeps its result), and names its tool; a compaction's digest is left to
// the last resort, and nothing is cut twice.
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/contract/index.js";
import { boundAll, boundTail, boundTurn } from "../../src/core/context/context-limit.js";

const big = (tag: string, n = 3000): string => `${tag}:` + "z".repeat(n);
const digest = `[deepcode] Digest of the earlier conversation (compacted; the most recent turns follow verbatim).\n${"d".repeat(3000)}`;
const log: ChatMessage[] = [
  { role: "system", content: "sys" },
  { role: "user", content: digest },
  { role: "assistant", content: "ok" },
  { role: "user", content: "read both" },
  { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "Read", arguments: "{}" } }] },
  { role: "tool", tool_call_id: "call_1", content: big("first") },
  { role: "assistant", content: null, tool_calls: [{ id: "call_2", type: "function", function: { name: "Grep", arguments: "{}" } }] },
  { role: "tool", tool_call_id: "call_2", content: "small" },
];

describe("context-limit cuts", () => {
  it("finds nothing in the tail when only an earlier result of the turn is large", () => {
    expect(boundTail(log)).toBeNull();
  });

  it("cuts the turn's large result to its first 600 characters, names its tool and keeps its call id", () => {
    const b = boundTurn(log, 3)!;
    expect(b.cut).toEqual(["the Read result of 3006 characters to its first 600"]);
    expect(b.prompt).toBe(false);
    const cut = b.messages[5] as Extract<ChatMessage, { role: "tool" }>;
    expect(cut.tool_call_id).toBe("call_1");
    expect(cut.content).toContain(big("first").slice(0, 600));
    expect(cut.content).not.toContain(big("first").slice(0, 601));
    expect(b.messages.map((m) => m.role)).toEqual(log.map((m) => m.role));
    // The digest is not the turn's to cut, even from the log's start; and a cut is not cut again.
    expect(boundTurn(log, 0)!.messages[1]).toBe(log[1]);
    expect(boundTurn(b.messages, 3)).toBeNull();
  });

  it("says when the person's own prompt is what it cut", () => {
    const b = boundTail([...log.slice(0, 3), { role: "user", content: big("pasted") }])!;
    expect(b.prompt).toBe(true);
    expect(b.cut).toEqual(["your message of 3007 characters to its first 600"]);
  });

  it("the last resort cuts the digest too", () => {
    const b = boundAll(log, 1000, 300)!;
    expect(b.cut.length).toBe(2);
    expect(b.messages[1].content).toMatch(/^\[deepcode\] This message \(\d+ characters\) was cut to its first 300 characters/);
  });
});
