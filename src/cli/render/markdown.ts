// A streaming renderer for the Markdown subset models write most: headings, bullet and
// numbered lists, quotes, **bold**, `inline code` and fenced code blocks. It styles text as it
// arrives (no waiting for the end of a paragraph); only the first few characters of a line are
// held back until the line's kind is known, and one `*` or backtick until its partner is.
// Without colour it passes the text through unchanged, markers and all.

import type { Style } from "./style.js";

type Kind = "text" | "heading" | "code" | "fence" | "quote" | "inline" | "bold" | "marker";

export class MarkdownStream {
  private lineStart = true;
  private head = ""; // the start of a line, held until its kind is known
  private inFence = false;
  private lineKind: Kind = "text";
  private bold = false;
  private code = false;
  private pending = ""; // a lone `*` waiting for the next character
  /** Output spans, merged by kind when taken: one escape sequence per run, not per character. */
  private spans: Array<[Kind, string]> = [];

  constructor(private readonly style: Style) {}

  /** Feed streamed text; returns what to print now. */
  write(chunk: string): string {
    if (!this.style.enabled) return chunk;
    for (const ch of chunk) this.char(ch);
    return this.take();
  }

  /** The stream ended: print whatever was held back. */
  end(): string {
    if (!this.style.enabled) return "";
    if (this.head) this.classify(true);
    if (this.pending) this.emit(this.pending, this.inlineKind());
    this.pending = "";
    return this.take();
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
      if (ch === "\n") {
        this.head += ch;
        this.classify(true);
        return;
      }
      this.head += ch;
      if (this.decidable()) this.classify(false);
      return;
    }
    if (ch === "\n") {
      if (this.pending) this.emit(this.pending, this.inlineKind());
      this.pending = "";
      this.spans.push(["text", "\n"]);
      this.newLine();
      return;
    }
    if (this.inFence || this.lineKind === "fence") return this.emit(ch, "code");
    this.inline(ch);
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
    const h = this.head;
    if (this.inFence) return h.length >= 3 || !"```".startsWith(h.trimStart());
    const t = h.trimStart();
    if (t === "") return h.length > 8;
    if (/^#{1,6}$/.test(t) || /^\d{1,3}\.?$/.test(t) || t === "`" || t === "``") return false;
    if (/^[-*+]$/.test(t) || t === ">") return false;
    return true;
  }

  private classify(lineEnded: boolean): void {
    const h = this.head;
    this.head = "";
    this.lineStart = false;
    const t = h.trimStart();
    const indent = h.slice(0, h.length - t.length);
    if (this.inFence) {
      if (t.startsWith("```")) {
        this.inFence = false;
        this.lineKind = "fence";
        this.emit(h.replace(/\n$/, ""), "fence");
      } else {
        this.lineKind = "code";
        this.emit(h.replace(/\n$/, ""), "code");
      }
    } else if (t.startsWith("```")) {
      this.inFence = true;
      this.lineKind = "fence";
      this.emit(h.replace(/\n$/, ""), "fence");
    } else {
      const m = /^(#{1,6}) |^([-*+]) |^(\d{1,3}\.) |^> /.exec(t);
      let rest = t;
      if (m?.[1]) {
        this.lineKind = "heading";
        rest = t.slice(m[0].length);
      } else if (m?.[2]) {
        this.spans.push(["text", `${indent}• `]);
        rest = t.slice(m[0].length);
        this.lineKind = "text";
      } else if (m?.[3]) {
        this.spans.push(["text", `${indent}${m[3]} `]);
        rest = t.slice(m[0].length);
        this.lineKind = "text";
      } else if (m) {
        this.spans.push(["marker", `${indent}│ `]);
        rest = t.slice(m[0].length);
        this.lineKind = "quote";
      } else {
        this.spans.push(["text", indent]);
        this.lineKind = "text";
      }
      for (const ch of rest.replace(/\n$/, "")) this.inline(ch);
    }
    if (lineEnded && h.endsWith("\n")) {
      if (this.pending) this.emit(this.pending, this.inlineKind());
      this.pending = "";
      this.spans.push(["text", "\n"]);
      this.newLine();
    }
  }

  private newLine(): void {
    this.lineStart = true;
    this.bold = false;
    this.code = false;
    this.lineKind = this.inFence ? "code" : "text";
  }

  private emit(text: string, kind: Kind): void {
    if (text) this.spans.push([kind, text]);
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
      case "fence":
      case "marker":
        return this.style("dim", text);
      case "quote":
        return this.style("italic", text);
      default:
        return text;
    }
  }
}
