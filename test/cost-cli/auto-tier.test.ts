import { capsFor } from "../../src/providers/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { classifyTask, DEFAULT_TIERS, type TierProfiles } from "../../src/core/cost/index.js";
import { autoTier } from "../../src/core/cost/run/tier-choice.js";
import { startRig, type Rig } from "./rig.js";


let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const tiers = structuredClone(DEFAULT_TIERS) as TierProfiles;

/** What a request asked of the API, in the fields a tier sets. */
function asked(json: { model: string; thinking?: { type: string }; reasoning_effort?: string }): string {
  return `${json.model} ${json.thinking?.type ?? "-"} ${json.reasoning_effort ?? "-"}`;
}

describe("auto-tier", () => {
  const cases: Array<[string, string, string]> = [
    ["what does the chain do?", "question", "deepseek-flash disabled -"],
    ["解释一下这个函数是做什么的", "question", "deepseek-flash disabled -"],
    ["fix the null check in src/loop.ts", "routine", "deepseek-flash enabled -"],
    ["修复登录页面的报错", "routine", "deepseek-flash enabled -"],
    ["Refactor all the handlers across the codebase to use the new logger", "refactor", "deepseek-v4-pro enabled high"],
    ["把所有的模块迁移到新的日志接口", "refactor", "deepseek-v4-pro enabled high"],
    ["Design a plugin system for the renderer, with trade-offs", "architecture", "deepseek-v4-pro enabled max"],
    ["设计一个新的缓存架构", "architecture", "deepseek-v4-pro enabled max"],
  ];

  it("runs a session's first turn at the tier its task class calls for, in English and Chinese", async () => {
    rig = await startRig();
    expect(rig.cost.setTier("auto").ok).toBe(true);
    for (const [i, [prompt, taskClass, request]] of cases.entries()) {
      expect(classifyTask(prompt)).toBe(taskClass);
      if (i > 0) await rig.newSession();
      await rig.turn(prompt);
      expect(asked(rig.chats()[i].json)).toBe(request);
    }
  });

  it("moves up at once when a harder task comes", async () => {
    rig = await startRig();
    rig.cost.setTier("auto");
    await rig.turn("what does the chain do?");
    await rig.turn("Refactor all the handlers across the codebase to use the new logger");
    expect(rig.chats().map((c) => asked(c.json))).toEqual(["deepseek-flash disabled -", "deepseek-v4-pro enabled high"]);
  });

  it("keeps the tier (and its cache) for one cheap question between edits, and steps down after two", async () => {
    rig = await startRig();
    rig.cost.setTier("auto");
    await rig.turn("fix the null check in src/loop.ts");
    await rig.turn("what does the chain do?");
    await rig.turn("解释一下这个函数是做什么的");
    expect(rig.chats().map((c) => asked(c.json))).toEqual([
      "deepseek-flash enabled -",
      "deepseek-flash enabled -",
      "deepseek-flash disabled -",
    ]);
    const lines = await rig.ledger();
    expect(lines.map((l) => l.tier)).toEqual(["chat-full", "chat-full", "chat-fast"]);
  });

  it("follows the class every turn when the switch keeps model and thinking (effort only)", () => {
    expect(autoTier("refactor", { current: "reasoner", lastAsked: "reasoner" }, false, tiers, capsFor)).toEqual({ tier: "reasoner-budget", reason: "auto: refactor" });
  });

  it("steps down to the stronger of the two cheaper asks", () => {
    expect(autoTier("question", { current: "reasoner", lastAsked: "chat-full" }, false, tiers, capsFor).tier).toBe("chat-full");
    expect(autoTier("question", { current: "reasoner", lastAsked: "reasoner" }, false, tiers, capsFor)).toEqual({
      tier: "reasoner",
      reason: "auto: kept reasoner (one question turn does not pay for a cache switch)",
    });
  });

  it("shows the tier it will choose in the estimate, with the reason", async () => {
    rig = await startRig();
    rig.cost.setTier("auto");
    await rig.turn("fix the null check in src/loop.ts");
    const e = await rig.cost.estimate("what does the chain do?", rig.engine);
    expect(e.taskClass).toBe("question");
    expect(e.recommended).toBe("chat-full");
    expect(e.reason).toBe("auto: kept chat-full (one question turn does not pay for a cache switch)");
  });
});
