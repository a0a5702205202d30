import { describe, expect, it } from "vitest";
import { toolOutput } from "../../mods/mcp/results.js";

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
    expect(r.content.length).toBeLessThan(4000);
    expect(r.content.startsWith("HEAD")).toBe(true);
    expect(r.content.endsWith("TAIL")).toBe(true);
    expect(r.content).toMatch(/cut by deepcode: the result is longer than mcpMaxOutputTokens \(1000 tokens\)/);
  });
});
