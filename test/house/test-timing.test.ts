// `npm test` keeps an eye on its own speed (scripts/test-timing.mjs): above its last line it
// names the slowest test files, warns about each file over the budget, and says how long vitest
// took against the suite's budget — so a change that makes the suite slow is named in CI's tail.
import { describe, expect, it } from "vitest";
import { FILE_BUDGET_S, timingLines } from "../../scripts/test-timing.mjs";

const at = 1_000_000;
const report = (secs: Record<string, number>) => ({
  startTime: at,
  testResults: Object.entries(secs).map(([name, s], i) => ({ name: `/repo/${name}`, startTime: at + i * 1000, endTime: at + i * 1000 + s * 1000 })),
});
const lines = (json: object, o: object = {}): string[] => timingLines(json, { cwd: "/repo", ...o });

describe("the timing lines of npm test", () => {
  it("names the ten slowest files, slowest first, without the checkout's path", () => {
    const secs = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`test/f${i}.test.ts`, i + 1]));
    const out = lines(report(secs));
    expect(out[0]).toBe("slowest 10 of 14 test files:");
    expect(out.slice(1, 11).map((l) => l.trim())).toEqual(Array.from({ length: 10 }, (_, i) => `${(14 - i).toFixed(1)} s  test/f${13 - i}.test.ts`));
    expect(out.join("\n")).not.toContain("/repo/");
  });

  it("warns about each file over the budget by name, and about no other", () => {
    const out = lines(report({ "test/slow.test.ts": FILE_BUDGET_S + 30, "test/quick.test.ts": 2 }));
    const warnings = out.filter((l) => l.startsWith("WARNING"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`test/slow.test.ts took ${FILE_BUDGET_S + 30} s (budget ${FILE_BUDGET_S} s)`);
  });

  it("takes a budget given to it, and says when the whole run is over the suite's", () => {
    const out = lines(report({ "test/a.test.ts": 50, "test/b.test.ts": 20 }), { fileBudgetS: 10, runBudgetS: 30 });
    expect(out.filter((l) => l.startsWith("WARNING slow test file")).length).toBe(2);
    expect(out.at(-1)).toMatch(/^vitest took 50 s — WARNING: over the suite's budget of 30 s/);
    expect(lines(report({ "test/a.test.ts": 5 })).at(-1)).toBe("vitest took 5 s");
  });

  it("says nothing about a run that has no times (vitest did not start)", () => {
    expect(lines({})).toEqual([]);
    expect(lines({ testResults: [{ name: "/repo/test/x.test.ts" }] })).toEqual([]);
  });
});
