import { describe, expect, it } from "vitest";
import { AppendOnlyLog, buildPrefix } from "../../src/core/context/prefix.js";
import { boundResult } from "../../src/core/context/bound.js";
import type { ToolDefinition } from "../../src/contract/index.js";

const tool = (parameters: ToolDefinition["function"]["parameters"]): ToolDefinition => ({ type: "function", function: { name: "Read", description: "read", parameters } });

describe("the immutable prefix", () => {
  it("serialises tools canonically: the same set in any key order has the same bytes and fingerprint", () => {
    const a = buildPrefix([{ id: "base", text: "You are deepcode." }], [tool({ type: "object", properties: { file_path: { type: "string" }, limit: { type: "number" } }, required: ["file_path"] })]);
    const b = buildPrefix([{ id: "base", text: "You are deepcode." }], [{ function: { parameters: { required: ["file_path"], properties: { limit: { type: "number" }, file_path: { type: "string" } }, type: "object" }, description: "read", name: "Read" }, type: "function" }]);
    expect(JSON.stringify(a.tools)).toBe(JSON.stringify(b.tools));
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(a.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it("changes its fingerprint when a section changes", () => {
    const a = buildPrefix([{ id: "base", text: "one" }], []);
    const b = buildPrefix([{ id: "base", text: "two" }], []);
    expect(a.fingerprint).not.toBe(b.fingerprint);
  });

  it("cannot be modified after it is built", () => {
    const p = buildPrefix([{ id: "base", text: "x" }], [tool({ type: "object" })]);
    expect(() => ((p.tools[0].function as { name: string }).name = "Evil")).toThrow();
  });
});

describe("the append-only log", () => {
  it("only appends, and what it stores cannot be rewritten later", () => {
    const log = new AppendOnlyLog(0);
    const stored = log.append({ role: "user", content: "hello" });
    expect(() => ((stored as { content: string }).content = "rewritten")).toThrow();
    expect(() => (log.messages as unknown as unknown[]).splice(0, 1)).toThrow();
    expect(log.messages).toEqual([{ role: "user", content: "hello" }]);
  });
});

describe("tool results are bounded once, when they enter the log", () => {
  it("keeps results under the bound unchanged", () => {
    expect(boundResult("small", 32 * 1024)).toBe("small");
  });

  it("keeps the head and the tail of a large result with a marker saying how much was cut", () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} ${"x".repeat(20)}`).join("\n");
    const out = boundResult(lines, 32 * 1024);
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(32 * 1024);
    expect(out.startsWith("line 0 ")).toBe(true);
    expect(out.endsWith(`line 4999 ${"x".repeat(20)}`)).toBe(true);
    expect(out).toMatch(/\[… \d+ bytes cut by deepcode: results are kept to 32 KiB\. To see the middle, narrow the command or search, or Read the file with offset\/limit …\]/);
  });

  it("never splits a multi-byte character", () => {
    const out = boundResult("缓存".repeat(20000), 1024);
    expect(out).not.toContain("\uFFFD");
  });

  it("is idempotent: a bounded result bounded again is unchanged", () => {
    const once = boundResult("y".repeat(100_000), 4096);
    expect(boundResult(once, 4096)).toBe(once);
  });
});
