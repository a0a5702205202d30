// A streaming renderer for the Markdown subset models write most: headings, bullet and
// numbered lists, quotes, **bold**, `inline code` and fenced code blocks. It styles text as it
// arrives (no waiting for the end of a paragraph); only the first few characters of a line are
// held back until the line's kind is known, and one `*` until its partner is.
//
// A code block is framed, in colour or not: a dim `┌─ lang` line, each code line after a dim
// `│ ` exactly as written (no reflow, indentation kept), and a dim `└─` line. Blank lines pass
// through one for one, so paragraphs keep single spacing. Without colour every other marker is
// left as written (`**bold**` stays readable as text).
//
// Given a width, text lines wrap at word boundaries (wrap.ts): a list item's or quote's
// continuation lines keep its hanging indent, escapes take no columns, and code-block lines are
// printed as written however long. Only the partial word at the stream's end is held back.

import type { Style } from "./style.js";
import { Wrapper, textWidth } from "./wrap.js";

type Kind = "text" | "heading" | "code" | "frame" | "quote" | "inline" | "bold" | "marker";
type LineKind = "text" | "heading" | "quote" | "raw" | "code" | "fence-open" | "fence-close";

export class MarkdownStream {
  private lineStart = true;
  private head = ""; // the start of a line, held until its kind is known
  private inFence = false;
  private lineKind: LineKind = "text";
  private labelStarted = false;
  private bold = false;
  private code = false;
  private pending = ""; // a lone `*` waiting for the next character
  /** Output spans, merged by kind when taken: one escape sequence per run, not per character. */
  private spans: Array<[Kind, string]> = [];

  private readonly wrapper: Wrapper<Kind>;

  /** `width`: the terminal's columns (Infinity, the default: lines are never broken). */
  constructor(
    private readonly style: Style,
    width = Infinity,
  ) {
    this.wrapper = new Wrapper<Kind>(width, (kind, text) => this.spans.push([kind ?? "text", text]));
  }

  /** Feed streamed text; returns what to print now. */
  write(chunk: string): string {
    for (const ch of chunk) this.char(ch);
    return this.take();
  }

  /** Nothing is held back: the last line fed was ended and printed whole. */
  idle(): boolean {
    return this.lineStart && this.head === "" && this.pending === "";
  }

  /** The stream ended: print whatever was held back. */
  end(): string {
    if (this.head) this.classify(true);
    if (this.pending) this.emit(this.pending, this.inlineKind());
    this.pending = "";
    this.wrapper.flush();
    return this.take();
  }

  private get plain(): boolean {
    return !this.style.enabled;
  }

  private take(): string {
    let s = "";
    let i = 0;
    while (i < this.spans.length) {
      const kind = this.spans[i][0];
      let text = "";
      for (; i < this.spans.length && this.spans[i][0] === kind; i++) text += this.spans[i][1];
      s += this.styled(kind, text);
    }
    this.spans = [];
    return s;
  }

  private char(ch: string): void {
    if (this.lineStart) {
      this.head += ch;
      if (ch === "\n") this.classify(true);
      else if (this.decidable()) this.classify(false);
      return;
    }
    if (ch === "\n") return this.endLine();
    switch (this.lineKind) {
      case "code":
        return this.emit(ch, "code");
      case "raw":
        return this.emit(ch, "text");
      case "fence-close":
        return; // whatever follows a closing fence is not shown
      case "fence-open":
        if (!this.labelStarted && /\s/.test(ch)) return;
        if (!this.labelStarted) this.emit(" ", "frame");
        this.labelStarted = true;
        return this.emit(ch, "frame");
      default:
        return this.inline(ch);
    }
  }

  private inline(ch: string): void {
    if (this.pending === "*") {
      this.pending = "";
      if (ch === "*") {
        this.bold = !this.bold;
        return;
      }
      this.emit("*", this.inlineKind());
    }
    if (ch === "*" && !this.code) {
      this.pending = "*";
      return;
    }
    if (ch === "`") {
      this.code = !this.code;
      return;
    }
    this.emit(ch, this.inlineKind());
  }

  private inlineKind(): Kind {
    if (this.code) return "inline";
    if (this.bold) return "bold";
    return this.lineKind === "heading" ? "heading" : this.lineKind === "quote" ? "quote" : "text";
  }

  /** Enough of the line is held to know its kind (a marker, or something that is none). */
  private decidable(): boolean {
    const t = this.head.trimStart();
    if (t === "") return this.head.length > 8;
    if (t === "`" || t === "``") return false;
    // Without colour a marker stays as written, but is still held: it sets the hanging indent.
    if (this.inFence) return true;
    if (/^#{1,6}$/.test(t) || /^\d{1,3}\.?$/.test(t)) return false;
    if (/^[-*+]$/.test(t) || t === ">") return false;
    return true;
  }

  private classify(lineEnded: boolean): void {
    const h = lineEnded ? this.head.slice(0, -1) : this.head;
    this.head = "";
    this.lineStart = false;
    const t = h.trimStart();
    const indent = h.slice(0, h.length - t.length);
    if (t.startsWith("```") || this.inFence) this.wrapper.startLine([], false);
    if (t.startsWith("```")) {
      this.lineKind = this.inFence ? "fence-close" : "fence-open";
      this.inFence = !this.inFence;
      this.labelStarted = false;
      this.emit(`${indent}${this.lineKind === "fence-open" ? "┌─" : "└─"}`, "frame");
      if (this.lineKind === "fence-open") for (const ch of t.slice(3)) this.char(ch);
    } else if (this.inFence) {
      this.lineKind = "code";
      this.emit("│ ", "frame");
      this.emit(h, "code");
    } else if (this.plain) {
      this.lineKind = "raw";
      // Markers stay as written; continuation lines align under the text after them.
      const m = /^(?:[-*+]|\d{1,3}\.|>) /.exec(t);
      const lead = indent + (m?.[0] ?? "");
      this.wrapper.startLine([["text", " ".repeat(textWidth(lead))]], true);
      this.wrapper.prefix("text", lead);
      this.emit(h.slice(lead.length), "text");
    } else {
      const m = /^(#{1,6}) |^([-*+]) |^(\d{1,3}\.) |^> /.exec(t);
      let rest = t;
      this.lineKind = "text";
      let lead: [Kind, string] = ["text", indent];
      if (m?.[1]) {
        this.lineKind = "heading";
        rest = t.slice(m[0].length);
      } else if (m?.[2]) {
        lead = ["text", `${indent}• `];
        rest = t.slice(m[0].length);
      } else if (m?.[3]) {
        lead = ["text", `${indent}${m[3]} `];
        rest = t.slice(m[0].length);
      } else if (m) {
        lead = ["marker", `${indent}│ `];
        rest = t.slice(m[0].length);
        this.lineKind = "quote";
      }
      // A quote's bar repeats on its continuation lines; a list item's text aligns after its marker.
      this.wrapper.startLine([lead[0] === "marker" ? lead : ["text", " ".repeat(textWidth(lead[1]))]], true);
      this.wrapper.prefix(lead[0], lead[1]);
      for (const ch of rest) this.inline(ch);
    }
    if (lineEnded) this.endLine();
  }

  private endLine(): void {
    if (this.pending) this.emit(this.pending, this.inlineKind());
    this.pending = "";
    this.wrapper.endLine();
    this.lineStart = true;
    this.bold = false;
    this.code = false;
    this.lineKind = "text";
  }

  private emit(text: string, kind: Kind): void {
    if (text) this.wrapper.put(kind, text);
  }

  private styled(kind: Kind, text: string): string {
    if (!text) return "";
    // Newlines stay outside escape sequences, so a style never bleeds into the next line.
    if (kind !== "text" && text.includes("\n")) return text.split("\n").map((l) => this.styled(kind, l)).join("\n");
    switch (kind) {
      case "heading":
        return this.style(["bold", "underline"], text);
      case "bold":
        return this.style("bold", text);
      case "inline":
      case "code":
        return this.style("cyan", text);
      case "frame":
      case "marker":
        return this.style("dim", text);
      case "quote":
        return this.style("italic", text);
      default:
        return text;
    }
  }
}
