// Server-Sent Events: one byte-level parser for every event stream deepcode reads — the model's
// streamed replies (src/providers) and MCP's HTTP transports (mods/mcp) — following the WHATWG
// event-stream rules. Bytes may arrive split anywhere (inside a line, a CRLF pair, a UTF-8
// character), so decoding streams and a line is only taken at a complete terminator.

export interface SseEvent {
  /** The `event:` field, when the server names its events (`endpoint`, Anthropic's types). */
  event?: string;
  /** The `data:` lines of one event, joined with "\n". */
  data: string;
  /** The last `id:` seen on the stream when this event was dispatched, if any. */
  id?: string;
}

export interface SseSink {
  onEvent(ev: SseEvent): void;
  /** A comment line (`: keep-alive`); its text without the colon. */
  onComment?(text: string): void;
}

/** What a client needs to reopen the stream where it broke (Last-Event-ID, `retry:`). */
export interface SseState {
  lastEventId?: string;
  /** The server's `retry:` in ms, when it sent one. */
  retryMs?: number;
}

export class SseParser {
  readonly state: SseState = {};
  private readonly decoder = new TextDecoder("utf-8");
  private buffer = "";
  /** The previous chunk ended in CR: a LF starting the next one belongs to that terminator. */
  private skipLf = false;
  private data: string[] = [];
  private event: string | undefined;

  /** `flushAtEnd`: an event the stream ended without its blank line is still dispatched (a
   *  one-shot reply keeps its last words); without it, as the spec says, it is dropped. */
  constructor(private readonly sink: SseSink, private readonly opts: { flushAtEnd?: boolean } = {}) {}

  push(chunk: Uint8Array): void {
    this.feed(this.decoder.decode(chunk, { stream: true }));
  }

  end(): void {
    this.feed(this.decoder.decode());
    if (this.opts.flushAtEnd && this.buffer.length > 0) this.line(this.buffer);
    this.buffer = "";
    if (this.opts.flushAtEnd) this.dispatch();
    this.data = [];
    this.event = undefined;
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
    else if (field === "id" && !value.includes("\u0000")) this.state.lastEventId = value;
    else if (field === "retry" && /^\d+$/.test(value)) this.state.retryMs = Number(value);
    // Other fields are ignored, as the spec says.
  }

  private dispatch(): void {
    if (this.data.length === 0) {
      this.event = undefined;
      return;
    }
    const ev: SseEvent = { data: this.data.join("\n") };
    if (this.event) ev.event = this.event;
    if (this.state.lastEventId !== undefined) ev.id = this.state.lastEventId;
    this.data = [];
    this.event = undefined;
    this.sink.onEvent(ev);
  }
}
