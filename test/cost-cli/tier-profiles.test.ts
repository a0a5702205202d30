import { capsFor } from "../../src/providers/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_TIERS, type TierProfiles } from "../../src/core/cost/index.js";
import { planTurn } from "../../src/core/cost/run/tier-choice.js";
import { readCostSettings } from "../../src/core/cost/run/settings.js";
import type { LoadedSettings } from "../../src/cli/settings/types.js";
import { startRig, type Rig } from "./rig.js";


let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const tiers = structuredClone(DEFAULT_TIERS) as TierProfiles;

function sent(r: Rig, i: number): Record<string, unknown> {
  const { model, thinking, reasoning_effort, max_tokens } = r.chats()[i].json;
  return { model, thinking: thinking?.type, reasoning_effort, max_tokens };
}

describe("tiers and turn profiles", () => {
  it("without a tier setting runs at the tier matching the configured model, keeping the model's name", async () => {
    rig = await startRig();
    await rig.turn("hello");
    expect(sent(rig, 0)).toEqual({ model: "deepseek-flash", thinking: "enabled", reasoning_effort: undefined, max_tokens: 32768 });
    expect((await rig.ledger())[0].tier).toBe("chat-full");
    await rig.close();

    rig = await startRig({ model: "deepseek-chat" });
    await rig.turn("hello");
    expect(sent(rig, 0)).toEqual({ model: "deepseek-chat", thinking: "disabled", reasoning_effort: undefined, max_tokens: 8192 });
    expect((await rig.ledger())[0].tier).toBe("chat-fast");
  });

  it("leaves a model no tier matches untouched, with no tier", () => {
    const base = { model: "my-proxy-model" };
    expect(planTurn({ mode: { kind: "model" }, base, taskClass: "routine", state: {}, firstTurn: true, tiers, caps: capsFor })).toEqual({ profile: base });
  });

  it("starts pinned at the settings tier, or auto, or following the model; a bad value names the file", () => {
    const loaded = (tier?: unknown): LoadedSettings => ({
      layers: [{ name: "user", file: "/home/me/.deepcode/settings.json", settings: tier === undefined ? {} : { tier: tier as string }, present: true }],
      merged: tier === undefined ? {} : { tier: tier as string },
      rules: [],
      warnings: [],
      managed: { path: "/etc/deepcode/managed-settings.json", dropInDir: "/etc/deepcode/managed-settings.d", state: "absent", files: [] },
    });
    expect(readCostSettings(loaded("reasoner-budget")).tierMode).toEqual({ kind: "pinned", tier: "reasoner-budget" });
    expect(readCostSettings(loaded("auto")).tierMode).toEqual({ kind: "auto" });
    expect(readCostSettings(loaded()).tierMode).toEqual({ kind: "model" });
    expect(() => readCostSettings(loaded("turbo"))).toThrow('/home/me/.deepcode/settings.json: tier: expected "auto" or one of chat-fast, chat-full, reasoner-budget, reasoner, got "turbo"');
  });

  it("pins a tier with setTier for the following turns, saying what the switch costs", async () => {
    rig = await startRig();
    expect(rig.cost.setTier("reasoner-budget").ok).toBe(true);
    await rig.turn("hello");
    expect(rig.cost.setTier("chat-fast")).toEqual({
      ok: true,
      message: "tier: chat-fast (deepseek-flash, no thinking) pinned — the model changes, so the next request re-reads the whole context",
    });
    await rig.turn("hello again");
    expect(sent(rig, 0)).toEqual({ model: "deepseek-v4-pro", thinking: "enabled", reasoning_effort: "high", max_tokens: 65536 });
    expect(sent(rig, 1)).toEqual({ model: "deepseek-flash", thinking: "disabled", reasoning_effort: undefined, max_tokens: 8192 });
  });

  it("refuses an unknown tier name and lists the valid ones", async () => {
    rig = await startRig();
    expect(rig.cost.setTier("turbo")).toEqual({ ok: false, message: 'unknown tier "turbo": auto, default, chat-fast, chat-full, reasoner-budget, reasoner' });
    expect(rig.cost.tierMode()).toEqual({ kind: "model" });
  });

  it("says when a pinned tier switches thinking, which re-reads the log from the first reply with reasoning", async () => {
    rig = await startRig();
    await rig.turn("hello");
    expect(rig.cost.setTier("chat-fast").message).toBe(
      "tier: chat-fast (deepseek-flash, no thinking) pinned — thinking switches, so the next request re-reads the log from the first reply with reasoning",
    );
    expect(rig.cost.setTier("chat-full").message).toBe("tier: chat-full (deepseek-flash, thinking) pinned");
  });

  it("sends the profile settings give a tier", async () => {
    rig = await startRig({ settings: { tiers: { "chat-full": { effort: "high", maxTokens: 1000 } } } });
    await rig.turn("hello");
    expect(sent(rig, 0)).toEqual({ model: "deepseek-flash", thinking: "enabled", reasoning_effort: "high", max_tokens: 1000 });
  });

  it("runs the chooser's pick for the next turn only", async () => {
    rig = await startRig();
    expect(rig.cost.pick(4)).toEqual({ ok: true, message: "this turn runs at reasoner" });
    await rig.turn("hello");
    await rig.turn("hello again");
    expect(sent(rig, 0).model).toBe("deepseek-v4-pro");
    expect(sent(rig, 0).reasoning_effort).toBe("max");
    expect(sent(rig, 1)).toEqual({ model: "deepseek-flash", thinking: "enabled", reasoning_effort: undefined, max_tokens: 32768 });
    expect(rig.cost.pick(5).ok).toBe(false);
  });

  it("lets a user plugin change the profile the tier chose", async () => {
    rig = await startRig({
      before: (app) => {
        app.chain.on("user", "short-replies", "turn.start", null, async (e, next) => {
          const r = await next(e);
          return r?.profile ? { ...r, profile: { ...r.profile, maxTokens: 500 } } : r;
        });
      },
    });
    await rig.turn("hello");
    expect(sent(rig, 0).max_tokens).toBe(500);
  });

  it("describes the tiers for /tier, marking the one in force", async () => {
    rig = await startRig();
    await rig.turn("hello");
    const text = rig.cost.tierReport(rig.engine);
    expect(text.split("\n")[0]).toBe("tier: chat-full (follows the configured model)");
    expect(text).toMatch(/^\* 2 chat-full\s+deepseek-flash\s+thinking\s+max 32\.8k$/m);
    expect(text).toMatch(/^ {2}4 reasoner\s+deepseek-v4-pro\s+thinking \(max\)\s+max 131k$/m);
  });
});
