import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../helpers/harness.js";
import { testTools } from "../helpers/tools.js";
import type { ScriptEntry } from "../sim/server.mjs";
import type { StreamEvent } from "../../src/contract/index.js";

const DIGEST = "[deepcode] The conversation is about to be compacted";
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function model(digest: string) {
  let n = 0;
  return (json: { messages: Array<{ role: string; content?: string }> }): ScriptEntry => {
    const last = json.messages[json.messages.length - 1];
    if (String(last.content).startsWith(DIGEST)) return { content: digest };
    n++;
    return { content: `answer ${n}: ${"lorem ipsum dolor sit amet ".repeat(40)}` };
  };
}

const notices = (events: StreamEvent[]) => events.filter((e): e is Extract<StreamEvent, { type: "notice" }> => e.type === "notice").map((n) => n.message);

describe("figures that agree", () => {
  it("keeps the tool definitions' size the same across a compaction that leaves the prefix alone", async () => {
    h = await startHarness({ script: { respond: model("short digest") }, tools: testTools(), allowAll: true, engine: { compaction: { keepTurns: 1 } } });
    for (const q of ["one", "two", "three"]) await h.turn(q);
    const before = h.engine.ledger().zones;
    const r = await h.engine.compact();
    expect(r.ok).toBe(true);
    const after = h.engine.ledger().zones;
    expect(after.tools).toBe(before.tools);
    expect(after.system).toBe(before.system);
    expect(after.log + after.tail).toBeLessThan(before.log + before.tail);
  });

  it("does not apply a compaction whose digest would not shrink the context, and keeps the log as it was", async () => {
    h = await startHarness({ script: { respond: model("a digest far longer than what it replaces ".repeat(200)) }, tools: testTools(), allowAll: true, engine: { compaction: { keepTurns: 1 } } });
    for (const q of ["one", "two", "three"]) await h.turn(q);
    const messages = h.engine.messages.length;
    const tokens = h.engine.ledger().nextPromptTokens;
    const r = await h.engine.compact();
    expect(r).toMatchObject({ ok: false, tokensBefore: tokens, tokensAfter: tokens });
    expect(r.error).toMatch(/^the digest would not make the context smaller \(\d+ tokens now, about \d+ after\), so it was not applied$/);
    expect(h.engine.messages).toHaveLength(messages);
  });

  it("names a model switch as the cache note's reason: not a thinking switch, not a cache the server lost", async () => {
    h = await startHarness({ script: { default: { content: "ok", reasoning: "thinking it over" } }, tools: testTools(), allowAll: true });
    await h.turn("first");
    await h.turn("second");
    h.engine.setModel("deepseek-v4-pro");
    const said = notices(await h.turn("third"));
    expect(said).toEqual([expect.stringMatching(/^cache: the model changed \(deepseek-flash → deepseek-v4-pro\); the server caches per model; this request re-read \d+ tokens$/)]);
  });

  it("names a thinking switch only when it is what changed the request", async () => {
    h = await startHarness({ script: { default: { content: "ok", reasoning: "thinking it over" } }, tools: testTools(), allowAll: true });
    await h.turn("first");
    await h.turn("second");
    h.engine.profile = { ...h.engine.profile, thinking: "disabled" };
    const said = notices(await h.turn("third"));
    expect(said).toContainEqual(expect.stringMatching(/^cache: thinking turned off, so earlier replies are sent without their reasoning; this request re-read \d+ tokens$/));
    const quiet = notices(await h.turn("fourth"));
    expect(quiet.filter((m) => m.startsWith("cache:"))).toEqual([]);
  });
});
