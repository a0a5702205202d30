// A cache note (or any other notice) never splits the model's sentence (issue 39):
// "Let me look at / · cache: … / src/cart.js." was on screen 9 times of 9. A note that arrives
// while a line of the answer is open waits for that line's end, or the reply's.
import { describe, expect, it } from "vitest";
import { makeStyle } from "../../src/cli/render/style.js";
import { TurnRenderer } from "../../src/cli/render/turn.js";
import type { StreamEvent } from "../../src/contract/index.js";
import { ZERO_USAGE } from "../../src/contract/index.js";

function screen(events: StreamEvent[]): string {
  let out = "";
  const sink = { write: (s: string) => ((out += s), true) } as unknown as NodeJS.WritableStream;
  const r = new TurnRenderer({ out: sink, style: makeStyle(false), showThinking: false, live: false });
  for (const e of events) r.handle(e);
  return out;
}

const text = (t: string): StreamEvent => ({ type: "model.delta", step: 1, delta: { kind: "content", text: t } });
const cache: StreamEvent = { type: "notice", level: "info", code: "cache-divergence", message: "cache: the tier changed; this request re-read 1200 tokens" };
const reply: StreamEvent = { type: "model.response", step: 1, finishReason: "stop" };
const complete: StreamEvent = { type: "turn.complete", sessionId: "s", turn: 1, stopReason: "completed", text: "", steps: 1, usage: { ...ZERO_USAGE }, costUsd: 0, durationMs: 1 };

describe("a note that arrives in the middle of the model's sentence", () => {
  it("is printed after the sentence's line, which stays whole", () => {
    const out = screen([text("Let me look at "), cache, text("`src/cart.js`."), reply, complete]);
    expect(out).toBe("Let me look at `src/cart.js`.\n· cache: the tier changed; this request re-read 1200 tokens\n");
  });

  it("is printed where the streamed text next ends a line, never inside one", () => {
    const out = screen([text("First line.\nLet me look"), cache, text(" at it.\nSecond line.\n"), reply, complete]);
    expect(out).toBe("First line.\nLet me look at it.\nSecond line.\n· cache: the tier changed; this request re-read 1200 tokens\n");
  });

  it("is printed at once between lines", () => {
    const repair: StreamEvent = { type: "repair", kind: "json", detail: "fixed a trailing comma" };
    const out = screen([text("One.\n"), cache, repair, text("Two.\n"), reply, complete]);
    expect(out).toBe("One.\n· cache: the tier changed; this request re-read 1200 tokens\n↻ repaired (json): fixed a trailing comma\nTwo.\n");
  });

  it("held when the reply stops mid-line, is printed when the turn ends", () => {
    const out = screen([text("Half a sen"), cache, complete]);
    expect(out).toBe("Half a sen\n· cache: the tier changed; this request re-read 1200 tokens\n");
  });
});
