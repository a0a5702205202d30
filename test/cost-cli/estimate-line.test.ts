import { afterEach, describe, expect, it } from "vitest";
import { formatRange, isPeak } from "../../src/core/cost/index.js";
import { seedRecord, startRig, type Rig } from "./rig.js";


let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const MONDAY_PEAK = new Date("2026-11-30T02:00:00Z"); // 10:00 Beijing time, a working Monday
const SUNDAY = new Date("2026-11-29T02:00:00Z");

const RANGE = String.raw`\$\d+\.\d+–\d+\.\d+`;

describe("the chooser's estimate line", () => {
  it("names the class, the tier that will run with its range and why, then the four tiers numbered 1–4", async () => {
    rig = await startRig({ now: () => SUNDAY });
    rig.cost.setTier("auto");
    const e = await rig.cost.estimate("fix the null check in src/loop.ts", rig.engine);
    const line = rig.cost.estimateLine(e);
    expect(isPeak(SUNDAY)).toBe(false);
    expect(line).toMatch(new RegExp(
      `^routine → chat-full ${RANGE} \\(auto: routine\\) · 1 chat-fast ${RANGE} · 2 chat-full ${RANGE} · 3 reasoner-budget ${RANGE} · 4 reasoner ${RANGE}$`,
    ));
    const full = e.tiers[1];
    if (full.error !== undefined) throw new Error(full.error);
    expect(line).toContain(`2 chat-full ${formatRange(full.lowUsd, full.highUsd, "USD")}`);
  });

  it("says peak hours during peak hours, when prices are higher", async () => {
    rig = await startRig({ now: () => MONDAY_PEAK });
    const e = await rig.cost.estimate("what does the chain do?", rig.engine);
    expect(isPeak(MONDAY_PEAK)).toBe(true);
    expect(rig.cost.estimateLine(e)).toMatch(/^question → chat-full .* · 4 reasoner \$[\d.–]+ · peak hours$/);
  });

  it("shows the display currency from settings", async () => {
    rig = await startRig({ settings: { currency: "CNY" }, now: () => SUNDAY });
    const e = await rig.cost.estimate("what does the chain do?", rig.engine);
    const line = rig.cost.estimateLine(e);
    expect(rig.cost.currency).toBe("CNY");
    expect(line).toMatch(/^question → chat-full ¥[\d.]+–[\d.]+ \(the configured model\) · 1 chat-fast ¥/);
    expect(line).not.toContain("$");
    expect(rig.cost.estimateLine(e, "USD")).toContain("1 chat-fast $");
  });

  it("says why the tier is chat-fast when a budget is at 80%", async () => {
    rig = await startRig({ settings: { budget: { monthly: 10 } }, seed: [seedRecord(9, SUNDAY)], now: () => SUNDAY });
    const e = await rig.cost.estimate("Design a plugin system for the renderer, with trade-offs", rig.engine);
    expect(rig.cost.estimateLine(e)).toMatch(/^architecture → chat-fast \$[\d.–]+ \(budget at 80%: downgraded\) · 1 chat-fast/);
  });
});
