import { describe, expect, it } from "vitest";
import { STORM_BY } from "../../src/core/repair/index.js";
import { harness } from "./helpers.js";

const readA = { file_path: "a.ts" };

describe("the same call made over and over is suppressed", () => {
  it("denies the third identical call within six, with a reason written to the model", async () => {
    const h = harness();
    expect((await h.check("Read", readA)).decision).toBe("allow");
    expect((await h.check("Glob", { pattern: "*" })).decision).toBe("allow");
    expect((await h.check("Read", readA)).decision).toBe("allow");
    const third = await h.check("Read", readA);
    expect(third.decision).toBe("deny");
    expect(third.by).toBe(STORM_BY);
    expect(third.reason).toContain("called Read with these same arguments 3 times");
    expect(third.reason).toContain("the result would not change");
    expect(h.repairs).toEqual([{ step: 1, kind: "call-storm", detail: "Read(file_path=a.ts) suppressed: call 3 of the same in the last 6" }]);
  });

  it("counts arguments by value, not by key order", async () => {
    const h = harness();
    await h.check("Read", { file_path: "a.ts", limit: 5 });
    await h.check("Read", { limit: 5, file_path: "a.ts" });
    expect((await h.check("Read", { file_path: "a.ts", limit: 5 })).decision).toBe("deny");
  });

  it("keeps denying further repeats", async () => {
    const h = harness();
    for (let i = 0; i < 3; i++) await h.check("Read", readA);
    expect((await h.check("Read", readA)).decision).toBe("deny");
    expect(h.repairs).toHaveLength(2);
  });

  it("allows the same tool with different arguments", async () => {
    const h = harness();
    for (const p of ["a.ts", "b.ts", "c.ts", "d.ts"]) expect((await h.check("Read", { file_path: p })).decision).toBe("allow");
    expect(h.repairs).toEqual([]);
  });

  it("allows a repeat whose earlier copies are more than six calls back", async () => {
    const h = harness();
    await h.check("Read", readA);
    await h.check("Read", readA);
    for (const p of ["1", "2", "3", "4", "5"]) await h.check("Glob", { pattern: p });
    expect((await h.check("Read", readA)).decision).toBe("allow");
  });

  it("forgets read-only calls once a mutating call went through: re-reading after a change is legitimate", async () => {
    const h = harness();
    await h.check("Read", readA);
    await h.check("Read", readA);
    expect((await h.check("Edit", { file_path: "a.ts", old_string: "x", new_string: "y" })).decision).toBe("allow");
    expect((await h.check("Read", readA)).decision).toBe("allow");
    expect((await h.check("Read", readA)).decision).toBe("allow");
    expect((await h.check("Read", readA)).decision).toBe("deny");
  });

  it("still suppresses a mutating call repeated with only reads in between", async () => {
    const h = harness();
    await h.check("Bash", { command: "npm test" });
    await h.check("Read", readA);
    await h.check("Bash", { command: "npm test" });
    expect((await h.check("Bash", { command: "npm test" })).decision).toBe("deny");
  });

  it("starts over at each user turn", async () => {
    const h = harness();
    await h.check("Read", readA);
    await h.check("Read", readA);
    await h.turn();
    expect((await h.check("Read", readA)).decision).toBe("allow");
    expect((await h.check("Read", readA)).decision).toBe("allow");
  });

  it("keeps each session's history apart", async () => {
    const h = harness();
    await h.check("Read", readA, "s1");
    await h.check("Read", readA, "s1");
    expect((await h.check("Read", readA, "s2")).decision).toBe("allow");
    await h.turn("s2");
    expect((await h.check("Read", readA, "s1")).decision).toBe("deny");
  });
});

describe("checks that are not the model's calls", () => {
  it("do not count toward a storm (an @-mention's Read check)", async () => {
    const { harness } = await import("./helpers.js");
    const h = harness();
    for (let i = 0; i < 3; i++) {
      await h.chain.dispatch({ type: "tool.check", sessionId: "s1", tool: "Read", input: { file_path: "a.ts" }, callId: `mention-${i}`, readOnly: true, step: 0 });
    }
    expect(await h.check("Read", { file_path: "a.ts" })).not.toMatchObject({ by: "repair:call-storm" });
  });
});
