// Server-Sent Events as MCP's HTTP transports use them: `data:` lines joined into one message,
// `event:` naming it, `id:` remembered for resumption (Last-Event-ID) and `retry:` telling how
// long to wait before reconnecting. Bytes may be cut anywhere (inside a line, a CRLF pair or a
// UTF-8 character): decoding streams, and a line is only taken at a complete terminator.

export interface SseMessage {
  /** `message` unless the server named it (`endpoint` on the legacy transport). */
  event: string;
  data: string;
  /** The id in force for this event (the last `id:` seen on the stream), if any. */
  id?: string;
}

export interface SseState {
  lastEventId?: string;
  /** The server's `retry:` in ms, when it sent one. */
  retryMs?: number;
}

export class SseReader {
  readonly state: SseState = {};
  private readonly decoder = new TextDecoder("utf-8");
  private rest = "";
  private pendingCr = false;
  private data: string[] = [];
  private event = "";

  constructor(private readonly onMessage: (m: SseMessage) => void) {}

  push(chunk: Uint8Array): void {
    this.take(this.decoder.decode(chunk, { stream: true }));
  }

  /** The stream ended; an event without its blank line is dropped, as the spec says. */
  end(): void {
    this.take(this.decoder.decode());
    this.rest = "";
    this.data = [];
    this.event = "";
  }

  private take(text: string): void {
    let s = this.rest + text;
    if (this.pendingCr && s.startsWith("\n")) s = s.slice(1);
    this.pendingCr = false;
    let from = 0;
    for (;;) {
      const m = /\r\n|\r|\n/g;
      m.lastIndex = from;
      const hit = m.exec(s);
      if (!hit) break;
      // A lone CR at the very end may be the first half of a CRLF still on its way.
      if (hit[0] === "\r" && hit.index === s.length - 1) {
        this.field(s.slice(from, hit.index));
        this.pendingCr = true;
        from = s.length;
        break;
      }
      this.field(s.slice(from, hit.index));
      from = hit.index + hit[0].length;
    }
    this.rest = s.slice(from);
  }

  private field(line: string): void {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return; // a comment (keep-alive)
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") this.data.push(value);
    else if (name === "event") this.event = value;
    else if (name === "id" && !value.includes("\u0000")) this.state.lastEventId = value;
    else if (name === "retry" && /^\d+$/.test(value)) this.state.retryMs = Number(value);
  }

  private dispatch(): void {
    const data = this.data;
    const event = this.event || "message";
    this.data = [];
    this.event = "";
    const text = data.join("\n");
    // An event with empty data (MCP's priming event) carries only its id and retry.
    if (text === "") return;
    this.onMessage({ event, data: text, id: this.state.lastEventId });
  }
}
