import { afterEach, describe, expect, it } from "vitest";
import { formatMoney } from "../../src/core/cost/index.js";
import { seedRecord, startRig, type Rig } from "./rig.js";


let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** The cells of the report's row named `label`. */
function row(report: string, label: string): string[] {
  const line = report.split("\n").find((l) => l.startsWith(label));
  if (!line) throw new Error(`no row "${label}" in:\n${report}`);
  return line.slice(label.length).trim().split(/\s+/);
}

describe("/cost", () => {
  it("shows this session, today and this month: requests, turns, tokens, hit rate, cost and saving", async () => {
    const now = new Date();
    const firstOfMonth = new Date(now.getFullYear(), now.getMonth(), 1, 0, 0, 1);
    const lastMonth = new Date(now.getFullYear(), now.getMonth() - 1, 15, 12);
    const seed = [seedRecord(0.5, new Date(now.getTime() - 1000), "other-today"), seedRecord(0.25, firstOfMonth, "other-month"), seedRecord(9, lastMonth, "other-old")];
    rig = await startRig({ seed });
    await rig.turn("hello");
    await rig.turn("hello again");
    const mine = (await rig.ledger()).filter((l) => l.session === rig!.engine.sessionId);
    const sessionUsd = mine.reduce((a, l) => a + l.usd, 0);
    const report = rig.cost.costReport(rig.engine);

    const session = row(report, "this session");
    expect(session.slice(0, 2)).toEqual(["2", "2"]);
    expect(session[5]).toBe(formatMoney(sessionUsd, "USD"));
    const hit = mine.reduce((a, l) => a + l.hit, 0);
    expect(hit).toBeGreaterThan(0);
    expect(session[4]).toBe(`${((hit / mine.reduce((a, l) => a + l.hit + l.miss, 0)) * 100).toFixed(1)}%`);

    const firstIsToday = firstOfMonth.getDate() === now.getDate();
    const today = row(report, "today");
    expect(today[0]).toBe(String(firstIsToday ? 4 : 3));
    expect(today[5]).toBe(formatMoney(sessionUsd + 0.5 + (firstIsToday ? 0.25 : 0), "USD"));
    const month = row(report, "this month");
    expect(month[0]).toBe("4");
    expect(month[5]).toBe(formatMoney(sessionUsd + 0.75, "USD"));
    expect(month[6]).toBe(formatMoney(mine.reduce((a, l) => a + l.savingUsd, 0) + 0.375, "USD"));
    expect(report).toMatch(/^tier: chat-full \(follows the configured model\) · (peak hours now: prices are higher|off-peak now)$/m);
  });

  it("speaks the display currency and lists each budget with the layer that set it", async () => {
    rig = await startRig({
      settings: { currency: "CNY", budget: { daily: 10 } },
      managed: { budget: { monthly: 100 } },
      seed: [seedRecord(1)],
    });
    await rig.turn("hello");
    const report = rig.cost.costReport(rig.engine);
    expect(row(report, "today")[5]).toMatch(/^¥7\.0\d$/);
    expect(report).not.toContain("$");
    expect(report).toMatch(/^daily budget: ¥7\.0\d of ¥10\.00 \(70%\) \(user settings\)$/m);
    expect(report).toMatch(/^monthly budget: ¥7\.0\d of ¥100\.00 \(7%\) \(managed policy\)$/m);
  });

  it("shows a raised budget as raised for this session", async () => {
    rig = await startRig({ settings: { budget: { daily: 1 } }, seed: [seedRecord(0.9)] });
    expect(rig.cost.raiseBudget().ok).toBe(true);
    expect(rig.cost.costReport(rig.engine)).toMatch(/^daily budget: \$0\.900 of \$2\.00 \(45%\) \(user settings\), raised from \$1\.00 for this session$/m);
  });
});
