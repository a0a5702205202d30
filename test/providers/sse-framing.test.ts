import { afterEach, describe, expect, it } from "vitest";
import { SseParser, type SseEvent } from "../../src/lib/sse.js";
import { WIRE_USAGE, ask, chunk, provider, rawServer, startStream, tick } from "./helpers.js";
import type { RawServer } from "./helpers.js";

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function parse(parts: Uint8Array[]): { events: SseEvent[]; comments: string[] } {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const p = new SseParser({ onEvent: (e) => events.push(e), onComment: (c) => comments.push(c) }, { flushAtEnd: true });
  for (const part of parts) p.push(part);
  p.end();
  return { events, comments };
}

const STREAM =
  ": keep-alive\r\n\r\n" +
  'data: {"text":"héllo wörld — 你好 🎉"}\r\n\r\n' +
  "event: named\ndata: line one\ndata: line two\n\n" +
  'data: {"text":"crlf"}\r\r' +
  "data: [DONE]\n\n";

const EXPECTED: SseEvent[] = [
  { data: '{"text":"héllo wörld — 你好 🎉"}' },
  { event: "named", data: "line one\nline two" },
  { data: '{"text":"crlf"}' },
  { data: "[DONE]" },
];

describe("SSE framing survives any split of the byte stream", () => {
  it("parses the same events whatever single byte boundary the stream is cut at, mid-character and mid-CRLF included", () => {
    const bytes = new TextEncoder().encode(STREAM);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const { events, comments } = parse([bytes.slice(0, cut), bytes.slice(cut)]);
      expect(events, `cut at byte ${cut}`).toEqual(EXPECTED);
      expect(comments).toEqual(["keep-alive"]);
    }
  });

  it("parses the same events when the stream arrives one byte at a time", () => {
    const bytes = new TextEncoder().encode(STREAM);
    const parts = Array.from(bytes, (b) => Uint8Array.of(b));
    expect(parse(parts).events).toEqual(EXPECTED);
  });

  it("delivers a last event that has no blank line after it when the stream ends", () => {
    expect(parse([new TextEncoder().encode("data: tail")]).events).toEqual([{ data: "tail" }]);
  });

  it("assembles a reply whose TCP writes split lines, JSON and a multi-byte character at awkward places", async () => {
    const body =
      chunk({ content: "Grüße " }) + ": keep-alive\n\n" + chunk({ content: "🎉 done" }, "stop", WIRE_USAGE) + "data: [DONE]\n\n";
    const bytes = Buffer.from(body, "utf8");
    const emoji = bytes.indexOf(Buffer.from("🎉"));
    // Cut inside "data:", inside the JSON, between the bytes of ü and of the emoji, between \n\n.
    const cuts = [3, 20, bytes.indexOf(Buffer.from("ü")) + 1, emoji + 1, emoji + 3, bytes.indexOf("\n\n") + 1, bytes.length - 2];
    server = await rawServer(async (_req, res) => {
      startStream(res);
      let at = 0;
      for (const cut of [...cuts].sort((a, b) => a - b)) {
        res.write(bytes.subarray(at, cut));
        at = cut;
        await tick(10);
      }
      res.end(bytes.subarray(at));
    });
    const r = await provider(server.url).request(ask());
    expect(r.message.content).toBe("Grüße 🎉 done");
    expect(r.finishReason).toBe("stop");
  });
});
