import { afterEach, describe, expect, it } from "vitest";
import { startHarness, complete, type Harness } from "../helpers/harness.js";
import { testTools } from "../helpers/tools.js";
import { chatBodies } from "../helpers/extension.js";
import type { Script } from "../sim/server.mjs";
import type { StreamEvent } from "../../src/contract/index.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function run(script: Script, opts: { maxSteps?: number; abortAfterMs?: number; refuse?: boolean } = {}): Promise<StreamEvent[]> {
  h = await startHarness({ script, tools: testTools(), allowAll: true, engine: { maxSteps: opts.maxSteps } });
  if (opts.refuse) {
    h.chain.on("prepend", "budget-test", "turn.start", null, () => ({ refuse: { stopReason: "budget_exhausted" as const, message: "daily budget of $1.00 is spent" } }));
  }
  const ctl = new AbortController();
  if (opts.abortAfterMs !== undefined) setTimeout(() => ctl.abort(), opts.abortAfterMs);
  return h.turn("do the thing", ctl.signal);
}

describe("every turn ends with exactly one turn.complete and one of seven stop reasons", () => {
  it("completed: the model answers without tools", async () => {
    const end = complete(await run({ replies: [{ content: "all done" }] }));
    expect(end).toMatchObject({ stopReason: "completed", text: "all done", steps: 1 });
  });

  it("max_turns: the model keeps calling tools past --max-turns", async () => {
    const end = complete(await run({ default: { tool_calls: [{ name: "Echo", arguments: { text: "again" } }] } }, { maxSteps: 3 }));
    expect(end.stopReason).toBe("max_turns");
    expect(end.steps).toBe(3); // three model rounds were made
    const last = chatBodies(h!.sim.requests).pop()!;
    expect(last.messages[last.messages.length - 1].role).toBe("tool"); // every call answered
  });

  it("output_truncated: after three announced continuations the reply is still cut", async () => {
    const events = await run({ default: { content: "part", finish_reason: "length" } });
    expect(complete(events).stopReason).toBe("output_truncated");
    const continuations = events.filter((e) => e.type === "notice" && e.code === "continuation");
    expect(continuations.map((e) => (e as { message: string }).message)).toEqual([
      "reply cut by the output limit; continuing (1/3)",
      "reply cut by the output limit; continuing (2/3)",
      "reply cut by the output limit; continuing (3/3)",
    ]);
    expect(chatBodies(h!.sim.requests)).toHaveLength(4);
  });

  it("completes when a continuation finishes the reply", async () => {
    const end = complete(await run({ replies: [{ content: "first half", finish_reason: "length" }, { content: "second half" }] }));
    expect(end).toMatchObject({ stopReason: "completed", text: "first half\n\nsecond half" });
  });

  it("content_filter: the API's filter stopped the reply, and what arrived is kept", async () => {
    const end = complete(await run({ replies: [{ content: "partial text", finish_reason: "content_filter" }] }));
    expect(end).toMatchObject({ stopReason: "content_filter", text: "partial text" });
  });

  it("interrupted: the person pressed Ctrl-C mid-stream; the partial reply stays in the transcript", async () => {
    h = await startHarness({ script: { replies: [{ reasoning: "ok", content: "a long answer that streams slowly ".repeat(20), chunkSize: 4, chunkDelayMs: 20 }] }, tools: testTools(), allowAll: true });
    const ctl = new AbortController();
    const events: StreamEvent[] = [];
    for await (const e of h.engine.submit("do the thing", { signal: ctl.signal })) {
      events.push(e);
      if (e.type === "model.delta" && e.delta.kind === "content" && events.filter((x) => x.type === "model.delta" && x.delta.kind === "content").length === 3) ctl.abort();
    }
    expect(complete(events).stopReason).toBe("interrupted");
    const partial = h.engine.messages.filter((m) => m.role === "assistant");
    expect(partial).toHaveLength(1);
    expect(String(partial[0].content)).toMatch(/^a long an/);
  });

  it("error: the API rejected the key; the transcript is intact and the next turn can run", async () => {
    const events = await run({ replies: [{ fault: { status: 401 } }, { content: "works again" }] });
    const end = complete(events);
    expect(end.stopReason).toBe("error");
    expect(end.error).toMatch(/API key rejected \(key from test\)/);
    expect(end.error).not.toContain("sk-test-harness");
    // The failed turn is closed by a note, so the next prompt never follows it as a second
    // user message in a row (DeepSeek-R1#21: the reasoner refuses that history).
    expect(h!.engine.messages.at(-2)).toEqual({ role: "user", content: "do the thing" });
    expect(h!.engine.messages.at(-1)).toMatchObject({ role: "assistant", content: expect.stringMatching(/^\[deepcode\] This turn ended without an answer \(error: API key rejected/) });
    expect(complete(await h!.turn("try again")).stopReason).toBe("completed");
    const sent = (chatBodies(h!.sim.requests).at(-1) as { messages: Array<{ role: string; content: string }> }).messages;
    const prompt = sent.findIndex((m) => m.role === "user" && m.content === "do the thing");
    expect(sent[prompt + 1]?.role).toBe("assistant");
  });

  it("budget_exhausted: a hook on turn.start refuses the turn before anything is sent", async () => {
    const end = complete(await run({ replies: [{ content: "never" }] }, { refuse: true }));
    expect(end).toMatchObject({ stopReason: "budget_exhausted", error: "daily budget of $1.00 is spent", steps: 0 });
    expect(chatBodies(h!.sim.requests)).toHaveLength(0);
  });
});

describe("a reply that ends early keeps what arrived", () => {
  it("marks a mid-stream drop as an error and keeps the partial text", async () => {
    const cut = { reasoning: "ok", content: "hello there, this arrives in pieces", chunkSize: 5, fault: { dropAfterChunks: 4 } };
    // Both attempts the harness makes are cut (a single cut is asked again, as after a 500).
    const end = complete(await run({ replies: [cut, cut] }));
    expect(end.stopReason).toBe("error");
    expect(end.error).toMatch(/the reply ended early/);
    expect(h!.engine.messages.filter((m) => m.role === "assistant")[0].content).toMatch(/^hello/);
  });

  it("answers a tool call cut off mid-stream so the log never holds an orphaned call", async () => {
    const cut = { content: "checking", tool_calls: [{ name: "Echo", arguments: { text: "abc" } }], chunkSize: 3, fault: { dropAfterChunks: 12 } };
    await run({ replies: [cut, cut, { content: "ok" }] });
    const log = h!.engine.messages;
    const calls = log.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []) : []));
    const answered = new Set(log.flatMap((m) => (m.role === "tool" ? [m.tool_call_id] : [])));
    for (const c of calls) expect(answered.has(c.id)).toBe(true);
    expect(complete(await h!.turn("go on")).stopReason).toBe("completed");
  });
});
