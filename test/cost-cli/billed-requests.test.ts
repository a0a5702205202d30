// Every model request is billed where it is made: the `model.request` core prices it through
// `model.usage`, so a plugin's own call for a session (api.dispatch) lands in the usage ledger
// and the session's account exactly once, like the engine's rounds, without the plugin pricing
// anything itself.
import { afterEach, describe, expect, it, vi } from "vitest";

vi.mock("../../src/cli/version.js", () => ({ packageVersion: () => "0.0.0-test" }));

import type { ChatRequest } from "../../src/contract/index.js";
import { Engine } from "../../src/core/engine/engine.js";
import { startRig, type Rig } from "./rig.js";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const ASK: ChatRequest = { model: "deepseek-flash", messages: [{ role: "user", content: "summarise: the sky is blue" }], max_tokens: 64, thinking: { type: "disabled" } };

function usageLines(r: Rig): Array<Record<string, unknown>> {
  return r.app.store.load(r.engine.sessionId).records.filter((x) => x.t === "usage") as unknown as Array<Record<string, unknown>>;
}

describe("a model request a plugin makes for a session", () => {
  it("is priced once by the request's core: one ledger line, one usage line in the session, the price on the reply", async () => {
    rig = await startRig({ script: { replies: [{ content: "first answer" }, { content: "The sky is blue." }] } });
    expect((await rig.turn("hello")).stopReason).toBe("completed");
    const seen: string[] = [];
    rig.app.chain.on("user", "usage-spy", "model.usage", null, async (e, next) => {
      seen.push(`${e.sessionId}:${e.turn}:${e.step}`);
      return next(e);
    });

    const reply = await rig.app.chain.dispatch({ type: "model.request", sessionId: rig.engine.sessionId, turn: 1, step: 0, request: ASK });

    expect(reply.message.content).toBe("The sky is blue.");
    expect(seen).toEqual([`${rig.engine.sessionId}:1:0`]);
    const ledger = await rig.ledger();
    expect(ledger).toHaveLength(2);
    const mine = ledger[1];
    expect(mine.session).toBe(rig.engine.sessionId);
    expect([mine.turn, mine.step]).toEqual([1, 0]);
    expect(mine.prompt).toBe(rig.chats()[1].usage!.prompt_tokens);
    expect(mine.usd).toBeGreaterThan(0);
    expect(reply.billed?.costUsd).toBe(mine.usd);
    expect(reply.billed?.estimated).toBeUndefined();
    // The session's own account has it too (a resumed session's totals hold what the ledger holds).
    const lines = usageLines(rig);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ via: "sampling", step: 0, costUsd: mine.usd });
  });

  it("is billed at deepcode's estimate, marked as such, when the reply came without usage", async () => {
    rig = await startRig({ script: { replies: [{ chunks: [{ delta: { role: "assistant", content: "An answer with no usage chunk after it." } }, { delta: {}, finish_reason: "stop", usage: false }] }] } });

    const reply = await rig.app.chain.dispatch({ type: "model.request", sessionId: rig.engine.sessionId, turn: 0, step: 0, request: ASK });

    expect(reply.usage).toBeUndefined();
    expect(reply.billed?.estimated).toBe(true);
    const ledger = await rig.ledger();
    expect(ledger).toHaveLength(1);
    expect(ledger[0].estimated).toBe(true);
    expect(ledger[0].completion).toBeGreaterThan(5);
  });

  it("is not billed when a hook answered it without making it", async () => {
    rig = await startRig();
    rig.app.chain.on("user", "canned", "model.request", null, () => ({ message: { role: "assistant", content: "canned" }, finishReason: "stop", usage: { prompt_tokens: 10, completion_tokens: 2, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 10 } }));

    const reply = await rig.app.chain.dispatch({ type: "model.request", sessionId: rig.engine.sessionId, turn: 0, step: 0, request: ASK });

    expect(reply.message.content).toBe("canned");
    expect(reply.billed).toBeUndefined();
    expect(await rig.ledger()).toHaveLength(0);
    expect(rig.chats()).toHaveLength(0);
  });
});

describe("the engine's own rounds", () => {
  it("carry their session, turn, step and tier on model.request, and are booked once each", async () => {
    rig = await startRig({ script: { default: { content: "done" } } });
    const requests: string[] = [];
    rig.app.chain.on("user", "request-spy", "model.request", null, async (e, next) => {
      requests.push(`${e.sessionId}:${e.turn}:${e.step}:${e.tier ?? "-"}`);
      return next(e);
    });
    expect((await rig.turn("hello")).stopReason).toBe("completed");
    expect((await rig.turn("again")).stopReason).toBe("completed");
    const ledger = await rig.ledger();
    expect(requests).toEqual(ledger.map((l) => `${rig!.engine.sessionId}:${l.turn}:${l.step}:${l.tier ?? "-"}`));
    expect(requests.map((r) => r.split(":").slice(1, 3).join(":"))).toEqual(["1:1", "2:1"]);
    expect(usageLines(rig).map((l) => l.via)).toEqual([undefined, undefined]);
  });

  it("are priced at the session's clock: a session run on a fixed clock has its ledger lines at that instant", async () => {
    rig = await startRig({ script: { default: { content: "done" } } });
    const at = new Date("2026-11-22T03:04:05.000Z");
    await rig.engine.close("replaced");
    rig.engine = await Engine.start({ ...rig.app.engineOptions(), now: () => at });
    rig.app.engine = rig.engine;
    expect((await rig.turn("hello")).stopReason).toBe("completed");
    const ledger = await rig.ledger();
    expect(ledger.map((l) => l.time)).toEqual([at.toISOString()]);
    expect(usageLines(rig).map((l) => l.at)).toEqual([at.toISOString()]);
  });
});
