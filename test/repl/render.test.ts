import { describe, expect, it } from "vitest";
import { MarkdownStream } from "../../src/cli/render/markdown.js";
import { colourEnabled, makeStyle } from "../../src/cli/render/style.js";
import { TurnRenderer, statusLine } from "../../src/cli/render/turn.js";
import type { StreamEvent } from "../../src/contract/index.js";
import { ZERO_USAGE } from "../../src/contract/index.js";

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");
const ESC = "\x1b[";

/** Render `text` fed in chunks of `size` characters. */
function render(text: string, size: number, colour = true): string {
  const md = new MarkdownStream(makeStyle(colour));
  let out = "";
  for (let i = 0; i < text.length; i += size) out += md.write(text.slice(i, i + size));
  return out + md.end();
}

describe("the Markdown subset renders as it streams", () => {
  const doc = "# Title\nSome **bold** and `code` here.\n- one\n* two\n3. three\n> a quote\n```ts\nconst x = 1;\n```\nafter";

  it("gives the same text whatever the chunking", () => {
    const whole = plain(render(doc, doc.length));
    for (const size of [1, 2, 3, 7]) expect(plain(render(doc, size))).toBe(whole);
  });

  it("drops the markers it renders and keeps the text", () => {
    expect(plain(render(doc, 3))).toBe("Title\nSome bold and code here.\n• one\n• two\n3. three\n│ a quote\n┌─ ts\n│ const x = 1;\n└─\nafter");
  });

  it("styles headings, bold, inline code and code blocks", () => {
    const out = render(doc, doc.length);
    expect(out).toContain(`${ESC}1m${ESC}4mTitle`);
    expect(out).toContain(`${ESC}1mbold${ESC}22m`);
    expect(out).toContain(`${ESC}36mcode${ESC}39m`);
    expect(out).toContain(`${ESC}36mconst x = 1;${ESC}39m`);
  });

  it("leaves a lone asterisk and unmatched markers as text", () => {
    expect(plain(render("2 * 3 = 6\n", 1))).toBe("2 * 3 = 6\n");
  });

  it("leaves the inline markers as written without colour (NO_COLOR or not a terminal), and frames code blocks", () => {
    expect(render(doc, 4, false)).toBe("# Title\nSome **bold** and `code` here.\n- one\n* two\n3. three\n> a quote\n┌─ ts\n│ const x = 1;\n└─\nafter");
  });

  it("frames a code block as written: language label, no reflow, indentation kept, nothing after a closing fence", () => {
    const code = "Run:\n\n```\nif (x) {\n    deep();\n}\n```  \n\nDone.\n";
    for (const colour of [false, true]) {
      for (const size of [1, 5, code.length]) expect(plain(render(code, size, colour))).toBe("Run:\n\n┌─\n│ if (x) {\n│     deep();\n│ }\n└─\n\nDone.\n");
    }
  });

  it("keeps paragraph spacing single: one blank line in, one blank line out", () => {
    const text = "First paragraph.\n\nSecond one.\n\n- a\n\nEnd.\n";
    for (const size of [1, 3, text.length]) expect(plain(render(text, size))).toBe("First paragraph.\n\nSecond one.\n\n• a\n\nEnd.\n");
  });
});

describe("colour follows NO_COLOR and the terminal", () => {
  const tty = { isTTY: true } as unknown as NodeJS.WritableStream;
  const pipe = { isTTY: false } as unknown as NodeJS.WritableStream;
  it("is on for a terminal", () => expect(colourEnabled(tty, {})).toBe(true));
  it("is off when NO_COLOR is set", () => expect(colourEnabled(tty, { NO_COLOR: "1" })).toBe(false));
  it("is off for a pipe", () => expect(colourEnabled(pipe, {})).toBe(false));
  it("is on when FORCE_COLOR asks, even for a pipe", () => expect(colourEnabled(pipe, { FORCE_COLOR: "1" })).toBe(true));
});

describe("a turn renders as lines a person can scan", () => {
  function run(events: StreamEvent[], showThinking = false): string {
    let out = "";
    const sink = { write: (s: string) => ((out += s), true) } as unknown as NodeJS.WritableStream;
    const r = new TurnRenderer({ out: sink, style: makeStyle(false), showThinking, live: false });
    for (const e of events) r.handle(e);
    return out;
  }
  const usage = { ...ZERO_USAGE };
  const complete: StreamEvent = { type: "turn.complete", sessionId: "s", turn: 1, stopReason: "completed", text: "", steps: 1, usage, costUsd: 0, durationMs: 1 };

  it("folds reasoning into one line unless /think on", () => {
    const ev: StreamEvent[] = [
      { type: "model.delta", step: 1, delta: { kind: "reasoning", text: "let me think" } },
      { type: "model.delta", step: 1, delta: { kind: "content", text: "Answer." } },
      complete,
    ];
    expect(run(ev)).toMatch(/^✻ thought for [\d.]+ s \(12 characters; \/think on to show\)\nAnswer\.\n$/);
    expect(run(ev, true)).toBe("let me think\nAnswer.\n");
  });

  it("names streamed text the session did not keep, and says nothing when the screen agrees with it", () => {
    const said = (text: string, kept: string, extra: Partial<Extract<StreamEvent, { type: "model.response" }>> = {}, before: StreamEvent[] = []): string =>
      run([...before, { type: "model.delta", step: 1, delta: { kind: "content", text } }, { type: "model.response", step: 1, finishReason: "stop", text: kept, ...extra }, complete]);
    expect(said("Answer.", "Answer.")).toBe("Answer.\n");
    expect(said("x ".repeat(700), "", { dropped: "the model's answer repeated \"x \" 700 times" })).toMatch(/\n↻ 1\.4k characters of repeated text shown above were not kept\n$/);
    expect(said("Let me think.</think>", "", {}, [{ type: "repair", kind: "reasoning-in-content", detail: "moved" }])).toMatch(/↻ 21 characters shown above were not kept: it was reasoning \(before <\/think>\), kept as reasoning, not as the answer\n$/);
    expect(said("Half an ans", "", {}, [{ type: "model.delta", step: 1, delta: { kind: "retry", reason: "the stream stalled", delayMs: 0, attempt: 2 } }])).toMatch(/↻ 11 characters shown above were not kept: it came from an attempt that failed and was sent again\n$/);
  });

  it("shows each tool as one line with its summary, errors in their own form", () => {
    const out = run([
      { type: "tool.start", step: 1, callId: "1", tool: "Read", input: { file_path: "a.ts" } },
      { type: "tool.end", step: 1, callId: "1", tool: "Read", output: { content: "…", summary: "Read a.ts (120 lines)" }, durationMs: 3 },
      { type: "tool.end", step: 1, callId: "2", tool: "Edit", output: { content: "old_string was not found in a.ts\nmore", isError: true, summary: "Edit a.ts" }, durationMs: 3 },
      complete,
    ]);
    expect(out).toBe("● Read a.ts (120 lines)\n✗ Edit a.ts: old_string was not found in a.ts\n");
  });

  it("gives a failed command's reason as its first line with something on it (npm starts with a blank one)", () => {
    const out = run([
      { type: "tool.end", step: 1, callId: "1", tool: "Bash", output: { content: "\n> app@1.0.0 test\n> vitest run\n\nFAIL  a.test.ts\n[exit code 1]", isError: true, summary: "Bash npm test → exit 1 (8.9 s)" }, durationMs: 3 },
      complete,
    ]);
    expect(out).toBe("✗ Bash npm test → exit 1 (8.9 s): > app@1.0.0 test\n");
  });

  it("ends a turn that did not complete with its stop reason", () => {
    expect(run([{ ...complete, stopReason: "error", error: "API key rejected" } as StreamEvent])).toBe("■ error: API key rejected\n");
  });

  it("prints one status line: tokens, cache hit, this turn's cost and the session's", () => {
    const u = { prompt_tokens: 12_000, completion_tokens: 850, prompt_cache_hit_tokens: 11_520, prompt_cache_miss_tokens: 480, reasoning_tokens: 0 };
    expect(statusLine({ usage: u, costUsd: 0.0012 }, { usage: u, costUsd: 0.0345 }, makeStyle(false))).toBe("12.0k in (96% cached) · 850 out · $0.0012 this turn · $0.0345 session");
  });

  it("fits the status line to the terminal, dropping words and then parts, never cutting a figure", () => {
    const u = { prompt_tokens: 123_456, completion_tokens: 4_321, prompt_cache_hit_tokens: 120_000, prompt_cache_miss_tokens: 3_456, reasoning_tokens: 0 };
    const full = statusLine({ usage: u, costUsd: 0.0123 }, { usage: u, costUsd: 1.5 }, makeStyle(false));
    expect(full).toBe("123k in (97% cached) · 4.32k out · $0.012 this turn · $1.500 session");
    for (const width of [70, 60, 50, 40, 30, 20]) {
      const line = statusLine({ usage: u, costUsd: 0.0123 }, { usage: u, costUsd: 1.5 }, makeStyle(false), width);
      expect(line.length <= width || line === "$0.012 · $1.500").toBe(true);
      for (const figure of line.match(/[\d.$k%]+/g) ?? []) expect(full).toContain(figure);
    }
    expect(statusLine({ usage: u, costUsd: 0.0123 }, { usage: u, costUsd: 1.5 }, makeStyle(false), 40)).toBe("$0.012 turn · $1.500 session");
  });
});
