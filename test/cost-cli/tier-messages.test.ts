// What `/tier` says (issue 39): auto's message says when it switches as it does, and pinning a
// model that already holds part of the session says it re-reads only what that model lacks.
import { afterEach, describe, expect, it } from "vitest";
import { startRig, type Rig } from "./rig.js";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("what /tier says", () => {
  it("says auto takes a stronger tier, or a cheaper one that keeps the cache, at once", async () => {
    rig = await startRig();
    const m = rig.cost.setTier("auto").message;
    expect(m).toContain("a stronger one at once");
    expect(m).toContain("a cheaper one at once when it keeps the cache");
  });

  it("says a model that ran earlier in the session re-reads only what it has not cached, not the whole context", async () => {
    rig = await startRig();
    rig.cost.setTier("reasoner-budget");
    await rig.turn("hello");
    rig.cost.setTier("chat-fast");
    await rig.turn("hello again");
    const m = rig.cost.setTier("reasoner").message;
    expect(m).toMatch(/re-reads what deepseek-v4-pro has not cached \(it holds [\d.]+k? tokens of this session\)/);
    expect(m).not.toContain("the whole context");
  });
});
