import { afterEach, describe, expect, it } from "vitest";
import { startHarness, complete, type Harness } from "../helpers/harness.js";
import { testTools } from "../helpers/tools.js";
import { chatBodies } from "../helpers/extension.js";
import type { ScriptEntry } from "../sim/server.mjs";
import type { StreamEvent } from "../../src/contract/index.js";

const DIGEST = "[deepcode] The conversation is about to be compacted";
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Long answers so the context grows fast; digests are short (or fail when asked to). */
function model(opts: { failDigest?: boolean; answerWords?: number; firstAnswerWords?: number } = {}) {
  let n = 0;
  return (json: { messages: Array<{ role: string; content?: string }> }): ScriptEntry => {
    const last = json.messages[json.messages.length - 1];
    if (String(last.content).startsWith(DIGEST)) {
      return opts.failDigest ? { fault: { status: 400, message: "digest refused by the test" } } : { content: "DIGEST: the user asked about caching; decided to keep the prefix stable." };
    }
    n++;
    const words = n === 1 && opts.firstAnswerWords !== undefined ? opts.firstAnswerWords : (opts.answerWords ?? 60);
    return { content: `answer ${n}: ${"lorem ipsum dolor sit amet ".repeat(words)}` };
  };
}

const notices = (events: StreamEvent[]) => events.filter((e): e is Extract<StreamEvent, { type: "notice" }> => e.type === "notice");

describe("compaction", () => {
  it("happens automatically at the threshold and leaves prefix + one digest + the recent tail", async () => {
    h = await startHarness({ script: { respond: model() }, tools: testTools(), allowAll: true, engine: { compaction: { window: 4000, threshold: 0.5, keepTurns: 1 } } });
    const all: StreamEvent[] = [];
    for (let t = 1; t <= 6; t++) all.push(...(await h.turn(`question ${t}: please read src/file${t}.ts`)));
    expect(notices(all).some((n) => n.code === "compacted" && /automatically/.test(n.message))).toBe(true);
    const bodies = chatBodies(h.sim.requests);
    const digestIndex = bodies.findIndex((b) => String(b.messages[b.messages.length - 1].content).startsWith(DIGEST));
    const after = bodies[digestIndex + 1];
    expect(after.messages[0].role).toBe("system");
    expect(after.messages[0].content).toBe(bodies[0].messages[0].content); // the same prefix
    expect(after.messages[1]).toMatchObject({ role: "user", content: expect.stringMatching(/^\[deepcode\] Digest of the earlier conversation/) });
    expect(String(after.messages[1].content)).toContain("DIGEST: the user asked about caching");
    expect(String(after.messages[1].content)).toMatch(/The user's own words, in order:\n- question 1: please read src\/file1.ts/);
    expect(after.messages.filter((m) => m.role === "user" && String(m.content).startsWith("question"))).toHaveLength(1);
  });

  it("keeps the turn going uncompacted when the digest request fails, and reports it", async () => {
    h = await startHarness({ script: { respond: model({ failDigest: true }) }, tools: testTools(), allowAll: true, engine: { compaction: { window: 4000, threshold: 0.5, keepTurns: 1 } } });
    const all: StreamEvent[] = [];
    for (let t = 1; t <= 6; t++) {
      const events = await h.turn(`question ${t}`);
      expect(complete(events).stopReason).toBe("completed");
      all.push(...events);
    }
    expect(notices(all).some((n) => n.code === "compaction-failed" && /continuing uncompacted/.test(n.message) && /digest refused/.test(n.message))).toBe(true);
    const last = chatBodies(h.sim.requests).pop()!;
    expect(last.messages.filter((m) => m.role === "user" && String(m.content).startsWith("question"))).toHaveLength(6);
  });

  it("returns a clear failure from a manual /compact when there is nothing to compact", async () => {
    h = await startHarness({ script: { respond: model() }, tools: testTools(), allowAll: true });
    await h.turn("only turn");
    const r = await h.engine.compact();
    expect(r).toMatchObject({ ok: false, error: "nothing to compact yet (too few turns)" });
  });

  it("compacts before a turn's first round at the lower mark, keeping only the new prompt verbatim", async () => {
    // The threshold is out of reach; only the between-turns mark (half of the window) can fire.
    h = await startHarness({ script: { respond: model({ answerWords: 120 }) }, tools: testTools(), allowAll: true, engine: { compaction: { window: 6000, threshold: 0.99, betweenTurns: 0.5 } } });
    const compactedAt: number[] = [];
    for (let t = 1; t <= 12; t++) {
      const events = await h.turn(`q${t}`);
      expect(complete(events).stopReason).toBe("completed");
      if (notices(events).some((n) => n.code === "compacted")) compactedAt.push(t);
    }
    // It fires again whenever the context passes the mark again: each compaction left it smaller.
    expect(compactedAt.length).toBeGreaterThanOrEqual(2);
    const bodies = chatBodies(h.sim.requests);
    const digestIndex = bodies.findIndex((b) => String(b.messages[b.messages.length - 1].content).startsWith(DIGEST));
    // The digest was asked before the new prompt's first answer: the prompt is the last message.
    expect(bodies[digestIndex].messages.at(-2)).toMatchObject({ role: "user", content: expect.stringMatching(/^q\d+$/) });
    const after = bodies[digestIndex + 1];
    expect(after.messages[1]).toMatchObject({ role: "user", content: expect.stringMatching(/^\[deepcode\] Digest/) });
    expect(after.messages.slice(2).filter((m) => m.role === "assistant")).toHaveLength(0);
    expect(after.messages.filter((m) => m.role === "user" && /^q\d+$/.test(String(m.content)))).toHaveLength(1);
  });

  it("tries a failed compaction again only three turns later", async () => {
    h = await startHarness({ script: { respond: model({ failDigest: true, answerWords: 120 }) }, tools: testTools(), allowAll: true, engine: { compaction: { window: 3000, threshold: 0.3 } } });
    const triedAt: number[] = [];
    for (let t = 1; t <= 8; t++) {
      const before = h.sim.requests.length;
      await h.turn(`q${t}`);
      const asked = h.sim.requests.slice(before).some((r) => String((r.json as { messages?: Array<{ content?: unknown }> })?.messages?.at(-1)?.content).startsWith(DIGEST));
      if (asked) triedAt.push(t);
    }
    expect(triedAt.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < triedAt.length; i++) expect(triedAt[i] - triedAt[i - 1]).toBeGreaterThanOrEqual(3);
  });
});

describe("the digest request is a request like any other", () => {
  it("is priced and recorded (model.usage, hence the ledger and budgets) and billed to the turn", async () => {
    h = await startHarness({ script: { respond: model() }, tools: testTools(), allowAll: true, engine: { compaction: { window: 4000, threshold: 0.5, keepTurns: 1 } } });
    const priced: Array<{ step: number; cost: number }> = [];
    h.chain.on("user", "ledger-spy", "model.usage", null, async (e, next) => {
      const r = await next();
      priced.push({ step: e.step, cost: r.costUsd });
      return r;
    });
    let turnCost = 0;
    for (let t = 1; t <= 6; t++) turnCost += complete(await h.turn(`question ${t}`)).costUsd;
    const billed = h.sim.requests.filter((r) => r.status === 200);
    expect(priced).toHaveLength(billed.length);
    expect(priced.map((p) => p.step)).toContain(0); // step 0: the digest, not a model round
    expect(turnCost).toBeCloseTo(priced.reduce((a, p) => a + p.cost, 0), 12);
  });
});
