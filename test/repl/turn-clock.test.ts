// The turn renderer's clock (issue 30): from the request's start, before the first token too,
// redrawn at most once a second and only when its text changed; a quick reply never flashes it.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Writable } from "node:stream";
import { makeStyle } from "../../src/cli/render/style.js";
import { TurnRenderer } from "../../src/cli/render/turn.js";
import type { StreamEvent } from "../../src/contract/index.js";
import { ZERO_USAGE } from "../../src/contract/index.js";

const complete: StreamEvent = { type: "turn.complete", sessionId: "s", turn: 1, stopReason: "completed", text: "", steps: 1, usage: ZERO_USAGE, costUsd: 0, durationMs: 1 };

function terminal() {
  const writes: string[] = [];
  const out = new Writable({ write: (c, _e, cb) => (writes.push(String(c)), cb()) }) as unknown as NodeJS.WritableStream;
  let paused = false;
  const r = new TurnRenderer({ out, style: makeStyle(false), showThinking: false, live: true, paused: () => paused });
  /** The transient lines drawn so far (each redraw starts with the clear-line sequence). */
  const drawn = () => writes.join("").split("\r\x1b[2K").map((x) => x.trim()).filter((x) => x.startsWith("✻"));
  return { r, writes, drawn, pause: (p: boolean) => (paused = p) };
}

describe("the clock while the model is awaited", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("shows elapsed seconds before the first token, once a second has passed, redrawn once a second", () => {
    const t = terminal();
    t.r.handle({ type: "turn.start", sessionId: "s", turn: 1, prompt: "hi" });
    vi.advanceTimersByTime(900);
    expect(t.drawn()).toEqual([]); // a quick reply never flashes a line
    vi.advanceTimersByTime(3_200);
    expect(t.drawn()).toEqual(["✻ thinking… (1 s)", "✻ thinking… (2 s)", "✻ thinking… (3 s)", "✻ thinking… (4 s)"]);
    t.r.handle({ type: "model.delta", step: 1, delta: { kind: "content", text: "Hello.\n" } });
    t.r.handle(complete);
    expect(t.writes.join("")).toMatch(/\r\x1b\[2KHello\.\n$/); // the line went before the answer
    const before = t.writes.length;
    vi.advanceTimersByTime(5_000);
    expect(t.writes.length).toBe(before); // the clock stopped with the turn
  });

  it("counts reasoning from the request's start, not from its first characters", () => {
    const t = terminal();
    t.r.handle({ type: "turn.start", sessionId: "s", turn: 1, prompt: "hi" });
    vi.advanceTimersByTime(5_500);
    t.r.handle({ type: "model.delta", step: 1, delta: { kind: "reasoning", text: "hmm, let" } });
    expect(t.drawn().at(-1)).toBe("✻ thinking… (8 characters · 5 s)");
    t.r.handle(complete);
  });

  it("starts again after a round's tools end, and stays still while a question is on screen", () => {
    const t = terminal();
    t.r.handle({ type: "turn.start", sessionId: "s", turn: 1, prompt: "hi" });
    t.r.handle({ type: "model.response", step: 1, finishReason: "tool_calls" });
    t.r.handle({ type: "tool.start", step: 1, callId: "c", tool: "Read", input: { file_path: "a.ts" } });
    vi.advanceTimersByTime(10_000);
    t.r.handle({ type: "tool.end", step: 1, callId: "c", tool: "Read", output: { content: "x", summary: "Read a.ts" }, durationMs: 10_000 });
    vi.advanceTimersByTime(2_100);
    expect(t.drawn().at(-1)).toBe("✻ thinking… (2 s)"); // the next request's clock, not the turn's
    t.pause(true);
    const before = t.writes.length;
    vi.advanceTimersByTime(3_000);
    expect(t.writes.length).toBe(before);
    t.r.handle(complete);
  });
});
