import { describe, expect, it } from "vitest";
import { enter, useRepl } from "./helpers.js";

const repl = useRepl();

const PARA =
  "Streaming renderers should never split a word across two lines, because reading a reply where halfway through a sentence the terminal cuts internationalization into two pieces is tiring and looks broken.";
const WORDS = new Set(PARA.split(" "));

describe("model text in a real terminal", () => {
  it("wraps at word boundaries at the terminal's width (40 columns), keeping every word whole", async () => {
    const t = await repl.open({ default: { content: PARA } }, {}, { width: 40, loaded: false });
    enter(t, "say it");
    // The reply's end, matched even when a terminal splits its last word (as it did before).
    const screen = await t.waitFor(/looks\s+b\s*r\s*o\s*k\s*e\s*n\s*\./);
    const lines = screen.split("\n");
    const first = lines.findIndex((l) => l.startsWith("Streaming"));
    const last = lines.findIndex((l, i) => i >= first && /\.\s*$/.test(l));
    expect(first).toBeGreaterThanOrEqual(0);
    const reply = lines.slice(first, last + 1).map((l) => l.trimEnd());
    expect(reply.length).toBeGreaterThan(3);
    for (const line of reply) for (const w of line.split(" ")) expect(WORDS.has(w), `"${w}" in "${line}"`).toBe(true);
    expect(reply.join(" ")).toBe(PARA);
  });
});
