// `context.rewind`, the engine's core answer: the log cut back to exactly what it was when a
// turn ended — across a compaction too — as a new epoch; the later turns out of the
// conversation but in the file; a resumed session on the rewound line.
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../helpers/harness.js";
import { replay } from "../../src/core/session/replay.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const rewind = (turn: number) => h!.chain.dispatch({ type: "context.rewind", sessionId: h!.engine.sessionId, turn });
const prompts = () => h!.engine.messages.filter((m) => m.role === "user" && !m.content.startsWith("[deepcode]")).map((m) => m.content);

describe("rewinding the conversation", () => {
  it("cuts the log to the end of a turn, exactly, and numbers the next turn after the last", async () => {
    h = await startHarness({ script: { respond: (json: { messages: Array<{ content: string }> }) => ({ content: `answer to ${json.messages.at(-1)!.content}` }) } });
    for (const p of ["one", "two", "three", "four"]) await h.turn(p);
    const atTwo = [...h.engine.messages];
    await h.turn("five");
    const cut = atTwo.length; // messages after turn 2 are those of turns 3–5
    const r = await rewind(2);
    expect(r).toEqual({ ok: true, turn: 2, rewound: [3, 4, 5], messages: expect.any(Number), notes: [] });
    expect(prompts()).toEqual(["one", "two"]);
    expect(h.engine.messages.length).toBeLessThan(cut);
    await h.turn("six");
    expect(h.engine.turns).toBe(6);
    expect(prompts()).toEqual(["one", "two", "six"]);
    // Turn 4 is no longer part of the conversation; turn 0 is before the first turn.
    expect(await rewind(4)).toMatchObject({ ok: false, error: expect.stringMatching(/turn 4 is not part of this conversation/) });
    expect(await rewind(6)).toMatchObject({ ok: false, error: expect.stringMatching(/nothing to rewind/) });
    expect(await rewind(0)).toMatchObject({ ok: true, rewound: [1, 2, 6], messages: 0 });
    expect(h.engine.messages).toEqual([]);
  });

  it("is replayed from the file: a resumed session goes on from the rewound state, and keeps the rewound turns marked", async () => {
    h = await startHarness({ script: { default: { content: "ok" } } });
    for (const p of ["one", "two", "three"]) await h.turn(p);
    await rewind(1);
    const before = JSON.stringify(h.engine.messages);
    const e = await h.resume();
    expect(JSON.stringify(e.messages)).toBe(before);
    const state = replay(h.store.load(e.sessionId));
    expect([...state.rewound]).toEqual([2, 3]);
    expect([...state.marks.keys()]).toEqual([1]);
    await h.turn("four");
    expect(h.engine.turns).toBe(4);
    expect(prompts()).toEqual(["one", "four"]);
  });

  it("goes back across a compaction to the log as it was then", async () => {
    h = await startHarness({ script: { default: { content: "a reply that is long enough to be worth compacting ".repeat(20) } }, engine: { compaction: { keepTurns: 1 } } });
    for (const p of ["one", "two", "three"]) await h.turn(p);
    const atThree = JSON.stringify(h.engine.messages);
    const c = await h.engine.compact();
    expect(c.ok).toBe(true);
    await h.turn("four");
    expect(prompts()).not.toContain("one");
    expect((await rewind(3)).ok).toBe(true);
    expect(JSON.stringify(h.engine.messages)).toBe(atThree);
    const e = await h.resume();
    expect(JSON.stringify(e.messages)).toBe(atThree);
  });
});
