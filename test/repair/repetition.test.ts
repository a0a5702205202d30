// Degenerate repetition (DeepSeek-V3#1630, DeepSeek-R1#253, sglang#5224, Reasonix#8085): a
// reply whose tail is one unit over and over is recognised; ordinary text is not.
import { describe, expect, it } from "vitest";
import { trailingRepetition } from "../../src/core/repair/repetition.js";

describe("a reply that degenerated into repetition", () => {
  it("is recognised when one word repeats until the output limit (cut mid-word included)", () => {
    expect(trailingRepetition("Summary: " + "the ".repeat(200) + "th")).toMatchObject({ unit: expect.stringMatching(/the|he t|e th| the/), times: expect.any(Number) });
  });

  it("is recognised when a sentence repeats", () => {
    const r = trailingRepetition("In Emacs:\n" + "Press M-< to go to the beginning of the buffer. ".repeat(30));
    expect(r?.times).toBeGreaterThanOrEqual(10);
    expect(r?.unit.length).toBe(48);
  });

  it("is recognised for the call-section opener repeated 31 times, and for M repeated after it", () => {
    expect(trailingRepetition("<｜tool▁calls▁begin｜>".repeat(31))).toMatchObject({ unit: "<｜tool▁calls▁begin｜>", times: 31 });
    expect(trailingRepetition("<｜tool▁calls▁begin｜>".repeat(31) + "M".repeat(500))?.unit).toBe("M");
  });

  it("is not claimed for prose, code, a table or a short ruler", () => {
    const prose = Array.from({ length: 40 }, (_, i) => `Step ${i + 1}: update the file number ${i * 7} and run the tests again.`).join("\n");
    expect(trailingRepetition(prose)).toBeNull();
    expect(trailingRepetition("| a | b |\n|---|---|\n" + Array.from({ length: 30 }, (_, i) => `| ${i} | ${i * i} |`).join("\n"))).toBeNull();
    expect(trailingRepetition("Result\n" + "=".repeat(80) + "\nAll good.")).toBeNull();
    expect(trailingRepetition("short")).toBeNull();
  });
});
