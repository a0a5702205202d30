import { describe, expect, it } from "vitest";
import { SseParser, type SseEvent } from "../../src/lib/sse.js";

// The parser as MCP's HTTP transports use it (src/lib/sse.ts, shared with the providers):
// resumption state, and the spec's end of stream (an unfinished event is dropped).
function read(chunks: string[]): { messages: SseEvent[]; reader: SseParser } {
  const messages: SseEvent[] = [];
  const reader = new SseParser({ onEvent: (m) => messages.push(m) });
  for (const c of chunks) reader.push(Buffer.from(c));
  reader.end();
  return { messages, reader };
}

describe("the SSE reader of the MCP HTTP transports", () => {
  it("joins data lines, names events, and remembers the last id and the retry for resumption", () => {
    const { messages, reader } = read(["id: 7\nretry: 500\ndata: \n\n", "event: endpoint\ndata: /message?s=1\n\n", "id: 8\ndata: {\"a\":\ndata: 1}\n\n"]);
    expect(messages).toEqual([
      { data: "", id: "7" }, // MCP's priming event: only its id and retry matter (not JSON, so no message)
      { event: "endpoint", data: "/message?s=1", id: "7" },
      { data: '{"a":\n1}', id: "8" },
    ]);
    expect(reader.state).toEqual({ lastEventId: "8", retryMs: 500 });
  });

  it("survives bytes cut anywhere: inside a line, a CRLF pair, a UTF-8 character", () => {
    const whole = Buffer.from("data: héllo 缓存\r\n\r\ndata: two\r\n\r\n");
    for (let cut = 1; cut < whole.length; cut++) {
      const messages: SseEvent[] = [];
      const r = new SseParser({ onEvent: (m) => messages.push(m) });
      r.push(whole.subarray(0, cut));
      r.push(whole.subarray(cut));
      r.end();
      expect(messages.map((m) => m.data)).toEqual(["héllo 缓存", "two"]);
    }
  });

  it("ignores comments (keep-alives) and drops an event without its blank line at the end", () => {
    expect(read([": keep-alive\n\ndata: a\n\ndata: unfinished"]).messages.map((m) => m.data)).toEqual(["a"]);
  });
});
