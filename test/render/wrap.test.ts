import { describe, expect, it } from "vitest";
import { cellWidth, Wrapper } from "../../src/cli/render/wrap.js";
import { MarkdownStream } from "../../src/cli/render/markdown.js";
import { makeStyle } from "../../src/cli/render/style.js";
import { TurnRenderer } from "../../src/cli/render/turn.js";
import type { StreamEvent } from "../../src/contract/index.js";
import { ZERO_USAGE } from "../../src/contract/index.js";

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

/** Feed `text` to a Wrapper of `width` in chunks of `size`; the lines it printed. */
function wrap(text: string, width: number, size = 1, hang = ""): string {
  let out = "";
  const w = new Wrapper<string>(width, (_k, t) => (out += t));
  w.startLine(hang ? [["text", " ".repeat(hang.length)]] : [], true);
  if (hang) w.prefix("text", hang);
  for (let i = 0; i < text.length; i += size) for (const ch of text.slice(i, i + size)) w.put("text", ch);
  w.flush();
  return out;
}

/** Markdown at `width`, fed in chunks of `size`. */
function md(text: string, width: number, size: number, colour = true): string {
  const m = new MarkdownStream(makeStyle(colour), width);
  let out = "";
  for (let i = 0; i < text.length; i += size) out += m.write(text.slice(i, i + size));
  return out + m.end();
}

const PARA =
  "Streaming renderers should never split a word across two lines, because reading a reply where halfway through a sentence the terminal cuts internationalization into two pieces is tiring and looks broken.";
const WORDS = new Set(PARA.split(/\s+/));

describe("the wrapper breaks lines at word boundaries", () => {
  it("breaks at spaces, never mid-word, whatever the chunking, and leaves no trailing space", () => {
    const whole = wrap(PARA, 30, PARA.length);
    for (const size of [1, 3, 7]) expect(wrap(PARA, 30, size)).toBe(whole);
    for (const line of whole.split("\n")) {
      expect(line.length).toBeLessThanOrEqual(30);
      expect(line).not.toMatch(/\s$/);
      for (const w of line.split(" ")) expect(WORDS.has(w)).toBe(true);
    }
    expect(whole.split("\n").join(" ")).toBe(PARA);
  });

  it("breaks a word longer than the width, filling lines", () => {
    expect(wrap("see https://example.com/a/very/long/path ok", 12)).toBe("see\nhttps://exam\nple.com/a/ve\nry/long/path\nok");
  });

  it("indents continuation lines by the hanging prefix", () => {
    expect(wrap("alpha beta gamma delta", 14, 1, "• ")).toBe("• alpha beta\n  gamma delta");
  });

  it("counts East Asian wide characters as two columns and may break between them", () => {
    expect(cellWidth("中")).toBe(2);
    expect(cellWidth("a")).toBe(1);
    expect(cellWidth("\u0301")).toBe(0);
    const out = wrap("ab 中文中文中文", 8);
    for (const line of out.split("\n")) expect([...line].reduce((n, c) => n + cellWidth(c), 0)).toBeLessThanOrEqual(8);
    expect(out.replace(/\n/g, "")).toBe("ab 中文中文中文");
  });
});

describe("Markdown wraps at the width", () => {
  it("does not count styling escapes toward the width", () => {
    const text = "Some **bold words here** and `inline code` then more plain words to wrap.\n";
    const out = md(text, 20, 1);
    expect(out).toContain("\x1b[1m");
    for (const line of plain(out).split("\n")) expect(line.length).toBeLessThanOrEqual(20);
    // Without escapes counted, the first line is filled to what fits in 20 columns.
    expect(plain(out).split("\n")[0]).toBe("Some bold words here");
  });

  it("keeps a list item's and a quote's hanging indent", () => {
    const text = "- first item that is long enough to wrap twice over\n> a quoted remark that also runs long\n";
    for (const size of [1, 4, text.length]) {
      expect(plain(md(text, 20, size))).toBe("• first item that is\n  long enough to\n  wrap twice over\n│ a quoted remark\n│ that also runs\n│ long\n");
    }
  });

  it("never reflows a code block", () => {
    const code = "```\nconst aVeryLongIdentifierName = someFunction(argumentOne, argumentTwo);\n```\n";
    expect(plain(md(code, 20, 3))).toBe("┌─\n│ const aVeryLongIdentifierName = someFunction(argumentOne, argumentTwo);\n└─\n");
  });

  it("wraps without colour too, keeping the markers as written", () => {
    expect(md("- one two three four five six\n", 12, 2, false)).toBe("- one two\n  three four\n  five six\n");
  });
});

describe("a turn wraps the model's text at the terminal's width", () => {
  it("ends no line mid-word at 40 columns, streamed in small pieces", () => {
    let out = "";
    const sink = { columns: 40, isTTY: true, write: (s: string) => ((out += s), true) } as unknown as NodeJS.WritableStream;
    const r = new TurnRenderer({ out: sink, style: makeStyle(true), showThinking: false, live: false });
    for (let i = 0; i < PARA.length; i += 5) r.handle({ type: "model.delta", step: 1, delta: { kind: "content", text: PARA.slice(i, i + 5) } });
    r.handle({ type: "turn.complete", sessionId: "s", turn: 1, stopReason: "completed", text: "", steps: 1, usage: { ...ZERO_USAGE }, costUsd: 0, durationMs: 1 } as StreamEvent);
    const lines = plain(out).trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) {
      expect(line.length).toBeLessThanOrEqual(40);
      for (const w of line.split(" ")) expect(WORDS.has(w)).toBe(true);
    }
  });
});
