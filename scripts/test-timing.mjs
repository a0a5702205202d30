// What `npm test` says about its own speed, read from vitest's JSON report (scripts/test.mjs
// prints it just above the "N passed, N failed" line, where CI's tail shows it).
//
// DEVELOPERS.md keeps the whole suite well under 15 minutes on a 2-core machine. The budget per
// file is a warning, not a failure: a file's time depends on what else the machine runs (the
// suite must pass with another suite beside it, AGENTS.md), so a hard limit would fail good
// changes on a busy machine. The warning names the file, so the one who made it slow sees it.

/** Seconds a test file may take before it is named as over budget (DEEPCODE_TEST_FILE_BUDGET). */
export const FILE_BUDGET_S = 60;
/** Seconds the whole vitest run may take on a 2-core machine (DEVELOPERS.md: well under 15 min). */
export const RUN_BUDGET_S = 600;

/**
 * Lines to print about a vitest JSON report: the `top` slowest files, each with its seconds,
 * then one warning per file over `fileBudgetS`, then the run's own time against `runBudgetS`.
 * `cwd` is taken off the file names. A report without times (a run that did not start) gives
 * no lines.
 * @param {{ startTime?: number, testResults?: Array<{ name: string, startTime?: number, endTime?: number }> }} json vitest's JSON report
 * @param {{ cwd?: string, top?: number, fileBudgetS?: number, runBudgetS?: number }} [options]
 * @returns {string[]}
 */
export function timingLines(json, { cwd = "", top = 10, fileBudgetS = FILE_BUDGET_S, runBudgetS = RUN_BUDGET_S } = {}) {
  const files = (json?.testResults ?? [])
    .filter((f) => typeof f.startTime === "number" && typeof f.endTime === "number")
    .map((f) => ({ name: cwd && f.name.startsWith(`${cwd}/`) ? f.name.slice(cwd.length + 1) : f.name, s: (Number(f.endTime) - Number(f.startTime)) / 1000 }))
    .sort((a, b) => b.s - a.s);
  if (files.length === 0) return [];
  const lines = [`slowest ${Math.min(top, files.length)} of ${files.length} test files:`];
  for (const f of files.slice(0, top)) lines.push(`  ${f.s.toFixed(1).padStart(7)} s  ${f.name}`);
  for (const f of files.filter((x) => x.s > fileBudgetS)) {
    lines.push(`WARNING slow test file: ${f.name} took ${f.s.toFixed(0)} s (budget ${fileBudgetS} s): share its setup or split it (AGENTS.md, "Keep the suite fast")`);
  }
  const start = typeof json.startTime === "number" ? json.startTime : Math.min(...(json.testResults ?? []).map((f) => f.startTime ?? Infinity));
  const end = Math.max(...(json.testResults ?? []).map((f) => f.endTime ?? 0));
  if (Number.isFinite(start) && end > start) {
    const s = (end - start) / 1000;
    lines.push(`vitest took ${s.toFixed(0)} s${s > runBudgetS ? ` — WARNING: over the suite's budget of ${runBudgetS} s on a 2-core machine` : ""}`);
  }
  return lines;
}
