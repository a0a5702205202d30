// When automatic compaction may run (src/core/engine/compaction.ts): the rules that keep it from
// looping, on their own.
import { describe, expect, it } from "vitest";
import { CompactionBreakers } from "../../src/core/engine/compaction.js";

const ok = (before: number, after: number) => ({ ok: true, tokensBefore: before, tokensAfter: after });

describe("automatic compaction's breakers", () => {
  it("is due only once the context has reached the mark", () => {
    const b = new CompactionBreakers();
    expect(b.due(1, 799, 800)).toBe(false);
    expect(b.due(1, 800, 800)).toBe(true);
  });

  it("is due again at the next crossing after a compaction that freed enough", () => {
    const b = new CompactionBreakers();
    b.record(3, ok(1000, 200));
    expect(b.due(4, 900, 800)).toBe(true);
  });

  it("never runs again after a compaction that freed less than 20%", () => {
    const b = new CompactionBreakers();
    b.record(3, ok(1000, 850));
    expect(b.due(4, 900, 800)).toBe(false);
    expect(b.due(40, 5000, 800)).toBe(false);
  });

  it("waits three turns after a failed attempt, and ignores 'nothing to compact yet'", () => {
    const b = new CompactionBreakers();
    b.record(2, { ok: false, tokensBefore: 900, tokensAfter: 900, error: "nothing to compact yet (too few turns)" });
    expect(b.due(2, 900, 800)).toBe(true);
    b.record(2, { ok: false, tokensBefore: 900, tokensAfter: 900, error: "the model returned an empty digest" });
    expect(b.due(4, 900, 800)).toBe(false);
    expect(b.due(5, 900, 800)).toBe(true);
  });
});
