// A byte-level Server-Sent Events parser (the WHATWG event-stream rules that matter here).
// Bytes may arrive split anywhere — inside a line, inside a CRLF pair, inside a UTF-8
// character — so decoding is streaming and lines are only cut at complete terminators.

export interface SseEvent {
  /** The `event:` field, when the server names its events (the Anthropic protocol does). */
  event?: string;
  /** The `data:` lines of one event, joined with "\n". */
  data: string;
}

export interface SseSink {
  onEvent(ev: SseEvent): void;
  /** A comment line (`: keep-alive`); its text without the colon. */
  onComment?(text: string): void;
}

export class SseParser {
  private readonly decoder = new TextDecoder("utf-8");
  private buffer = "";
  /** The previous chunk ended in CR: a LF starting the next one belongs to that terminator. */
  private skipLf = false;
  private data: string[] = [];
  private event: string | undefined;

  constructor(private readonly sink: SseSink) {}

  push(chunk: Uint8Array): void {
    this.feed(this.decoder.decode(chunk, { stream: true }));
  }

  /** The stream ended: flush a last event that had no blank line after it. */
  end(): void {
    this.feed(this.decoder.decode());
    if (this.buffer.length > 0) this.line(this.buffer);
    this.buffer = "";
    this.dispatch();
  }

  private feed(text: string): void {
    let s = text;
    if (this.skipLf && s.startsWith("\n")) s = s.slice(1);
    this.skipLf = false;
    let start = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(this.buffer + s.slice(start, i));
      this.buffer = "";
      if (c === 13) {
        if (i + 1 < s.length) {
          if (s.charCodeAt(i + 1) === 10) i++;
        } else {
          this.skipLf = true;
        }
      }
      start = i + 1;
    }
    this.buffer += s.slice(start);
  }

  private line(line: string): void {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) {
      this.sink.onComment?.(line.slice(1).trimStart());
      return;
    }
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    // `id:` and `retry:` mean nothing to a one-shot request; other fields are ignored by the spec.
  }

  private dispatch(): void {
    if (this.data.length === 0) {
      this.event = undefined;
      return;
    }
    const ev: SseEvent = { data: this.data.join("\n") };
    if (this.event !== undefined) ev.event = this.event;
    this.data = [];
    this.event = undefined;
    this.sink.onEvent(ev);
  }
}
