import { describe, expect, it } from "vitest";
import { toolOutput } from "../../mods/mcp/results.js";
import { estimateTokens } from "../../src/lib/tokens.js";

describe("an MCP tool result as the model reads it", () => {
  it("keeps text, and an error result is an error", () => {
    expect(toolOutput("s", "t", { content: [{ type: "text", text: "hello" }] }, 25_000)).toMatchObject({ content: "hello" });
    expect(toolOutput("s", "t", { content: [{ type: "text", text: "boom" }], isError: true }, 25_000)).toMatchObject({ content: "boom", isError: true });
  });

  it("names what it leaves out: images, audio, binary resources (DeepSeek reads text only)", () => {
    const r = toolOutput("s", "t", { content: [{ type: "image", mimeType: "image/png", data: "AAAA" }, { type: "audio", mimeType: "audio/wav", data: "AAAA" }, { type: "resource", resource: { uri: "file:///x.bin", blob: "AAAA", mimeType: "application/zip" } }] }, 25_000);
    expect(r.content).toMatch(/an image \(image\/png, 3 bytes\); audio \(audio\/wav, 3 bytes\); the binary resource file:\/\/\/x\.bin \(application\/zip/);
    expect(r.summary).toMatch(/3 non-text parts left out/);
  });

  it("keeps an embedded text resource with its URI and names a resource link with how to attach it", () => {
    const r = toolOutput("srv", "t", { content: [{ type: "resource", resource: { uri: "file:///a.md", text: "# A", mimeType: "text/markdown" } }, { type: "resource_link", uri: "file:///b.md", name: "b" }] }, 25_000);
    expect(r.content).toContain('<resource uri="file:///a.md" mimeType="text/markdown">\n# A\n</resource>');
    expect(r.content).toContain("@srv:file:///b.md");
  });

  it("adds structuredContent as JSON unless a text block already carries it", () => {
    expect(toolOutput("s", "t", { content: [], structuredContent: { a: 1 } }, 25_000).content).toBe('structured result: {"a":1}');
    expect(toolOutput("s", "t", { content: [{ type: "text", text: '{"a": 1}' }], structuredContent: { a: 1 } }, 25_000).content).toBe('{"a": 1}');
  });

  it("bounds a long result by mcpMaxOutputTokens, head and tail kept, and says so", () => {
    const text = `HEAD${"x".repeat(100_000)}TAIL`;
    const r = toolOutput("s", "t", { content: [{ type: "text", text }] }, 1000);
    expect(estimateTokens(r.content)).toBeLessThan(1100); // the kept text within 1000 tokens, and the marker
    expect(r.content.startsWith("HEAD")).toBe(true);
    expect(r.content.endsWith("TAIL")).toBe(true);
    expect(r.content).toMatch(/cut by deepcode: the result is longer than mcpMaxOutputTokens \(1000 tokens\)/);
  });

  it("sends server-filesystem's result once: text plus structuredContent repeating it is the text alone", () => {
    const text = "[FILE] a.txt\n[DIR] src";
    expect(toolOutput("fs", "list_directory", { content: [{ type: "text", text }], structuredContent: { content: text } }, 25_000).content).toBe(text);
    // Structured facts the text does not carry are still sent.
    expect(toolOutput("s", "t", { content: [{ type: "text", text: "done" }], structuredContent: { id: "x-42" } }, 25_000).content).toBe('done\n\nstructured result: {"id":"x-42"}');
  });

  it("never sends an image's base64 as text, in content or in structuredContent", () => {
    const png = "iVBORw0KGgo".repeat(100);
    const r = toolOutput("s", "t", { content: [{ type: "text", text: "the picture:" }, { type: "image", data: png, mimeType: "image/png" }], structuredContent: { content: [{ type: "image", data: png, mimeType: "image/png" }] } }, 25_000);
    expect(r.content).not.toContain("iVBORw0KGgo");
    expect(r.content).toMatch(/the picture:\n\n\[deepcode left out what the model cannot read \(it reads text only\): an image \(image\/png, 825 bytes\)\]$/);
    const alone = toolOutput("s", "t", { content: [], structuredContent: { thumbnail: png } }, 25_000);
    expect(alone.content).toBe('structured result: {"thumbnail":"[825 bytes of base64 data left out]"}');
  });

  it("counts mcpMaxOutputTokens (MAX_MCP_OUTPUT_TOKENS) in tokens, not characters: digits-heavy JSON stays within it", () => {
    const text = JSON.stringify(Array.from({ length: 5000 }, (_, i) => i * 7919));
    const r = toolOutput("s", "t", { content: [{ type: "text", text }] }, 1000);
    expect(r.content).toMatch(/cut by deepcode/);
    const kept = r.content.replace(/\n\[… \d+ characters cut by deepcode[^\]]*\]\n/, "");
    expect(estimateTokens(kept)).toBeLessThanOrEqual(1000);
    expect(estimateTokens(kept)).toBeGreaterThan(900);
  });
});
