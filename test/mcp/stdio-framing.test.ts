// The stdio transport's framing (issue 22: one 20 MB line from a server took 86 s to read, 60 MB
// never finished — the buffer was searched from its start again for every chunk). Linear work is
// checked by counting what the line-end search looks at, not by timing it (timings belong to
// `npm run bench -- mcp-stdio`).
import { afterEach, describe, expect, it } from "vitest";
import { LineSplitter, StdioTransport } from "../../mods/mcp/stdio.js";

const realIndexOf = String.prototype.indexOf;
afterEach(() => {
  String.prototype.indexOf = realIndexOf;
});

/** Feed `chunks` to the transport's stdout handling; what it parsed, and how many characters
 *  its searches for a line end looked at. */
function feed(chunks: readonly string[]): { messages: unknown[]; scanned: number } {
  const t = new StdioTransport({ command: "unused", args: [], env: {}, cwd: "/", stderr: () => undefined });
  const messages: unknown[] = [];
  let scanned = 0;
  String.prototype.indexOf = function (this: string, search: string, from?: number) {
    if (search === "\n") scanned += this.length - (from ?? 0);
    return realIndexOf.call(this, search, from);
  };
  try {
    const lines = (t as unknown as { lines(d: string, m: (x: unknown) => void): void }).lines.bind(t);
    for (const c of chunks) lines(c, (m) => messages.push(m));
  } finally {
    String.prototype.indexOf = realIndexOf;
  }
  return { messages, scanned };
}

describe("MCP stdio framing", () => {
  it("reads a 5 MB one-line message in 64 KiB chunks with work linear in its length", () => {
    const head = '{"jsonrpc":"2.0","id":1,"result":{"blob":"';
    const line = `${head}${"a".repeat(5 * 1024 * 1024)}"}}\n`;
    const chunks: string[] = [];
    for (let i = 0; i < line.length; i += 65536) chunks.push(line.slice(i, i + 65536));
    const { messages, scanned } = feed(chunks);
    expect(messages).toHaveLength(1);
    expect((messages[0] as { result: { blob: string } }).result.blob).toHaveLength(5 * 1024 * 1024);
    expect(scanned).toBeLessThanOrEqual(2 * line.length);
  });

  it("splits lines wherever the chunks break them, drops \\r and blank lines, and keeps what is not JSON out", () => {
    const text = '{"id":1}\r\n\n{"id":2}\n{"id"' + ':3}\nnot json\n{"id":4}';
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      expect(feed(chunks).messages, `chunks of ${size}`).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    }
  });

  it("gives the unfinished rest when the stream ends mid-line", () => {
    const s = new LineSplitter();
    const got: string[] = [];
    s.push("a\r\nb", (l) => got.push(l));
    s.push("c", (l) => got.push(l));
    expect(got).toEqual(["a"]);
    expect(s.rest()).toBe("bc");
    expect(s.rest()).toBe("");
  });
});
