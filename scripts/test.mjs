#!/usr/bin/env node
// `npm test`: build (which typechecks), typecheck tests, lint (eslint + boundaries), then
// vitest. The last line is "N passed, N failed", taken from vitest's own JSON report, so CI and humans read one figure.
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FILE_BUDGET_S, timingLines } from "./test-timing.mjs";

const npx = (args) => spawnSync("npx", args, { stdio: "inherit", shell: false });
// The build is the typecheck of src/, mods/ and plugins/: it checks with the very options a
// `--noEmit` run would and exits non-zero on any error, so one tsc does both (a separate
// `--noEmit` pass first cost a whole second compile).
const steps = [
  ["build (typecheck)", ["tsc", "-p", "tsconfig.json"]],
  ["typecheck tests", ["tsc", "-p", "tsconfig.test.json"]],
  ["eslint", ["eslint", "."]],
  ["boundaries", ["node", "scripts/check-boundaries.mjs"]],
  ["import cycles", ["node", "scripts/check-cycles.mjs"]],
  ["house rules", ["node", "scripts/check-house.mjs"]],
];
for (const [name, args] of steps) {
  const r = args[0] === "node" ? spawnSync(process.execPath, args.slice(1), { stdio: "inherit" }) : npx(args);
  if (r.status !== 0) {
    console.error(`\n${name} failed (exit ${r.status ?? r.signal})`);
    const summary = `FAILED ${name} (exit ${r.status ?? r.signal})\n0 passed, 1 failed`;
    console.log(summary);
    if (process.env.DEEPCODE_TEST_SUMMARY) appendFileSync(process.env.DEEPCODE_TEST_SUMMARY, `${summary}\n`);
    process.exit(1);
  }
}
const dir = mkdtempSync(join(tmpdir(), "deepcode-test-"));
const report = join(dir, "vitest.json");
const extra = process.argv.slice(2);
const v = npx(["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...extra]);
let passed = 0;
let failed = 0;
const why = [];
try {
  const json = JSON.parse(readFileSync(report, "utf8"));
  passed = json.numPassedTests;
  failed = json.numFailedTests + (json.numRuntimeErrorTestSuites ?? 0);
  for (const file of json.testResults ?? []) {
    const bad = (file.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const a of bad) why.push(`${file.name.replace(process.cwd() + "/", "")}: ${a.fullName}`);
    if (bad.length === 0 && file.status === "failed") why.push(`${file.name.replace(process.cwd() + "/", "")}: ${String(file.message ?? "failed to run").split("\n")[0]}`);
  }
  if (!json.success && failed === 0) failed = json.numFailedTestSuites || 1;
  // The slowest files and any over budget (scripts/test-timing.mjs): warnings, never failures.
  const fileBudgetS = Number(process.env.DEEPCODE_TEST_FILE_BUDGET) || FILE_BUDGET_S;
  for (const line of timingLines(json, { cwd: process.cwd(), fileBudgetS })) console.log(line);
} catch (err) {
  console.error(`could not read vitest's report (${err.message})`);
  failed = failed || 1;
}
// Every test passed but vitest still failed: an unhandled error or rejection (printed above
// under "Unhandled Errors"), which counts as a failure — the figure says so.
if (v.status !== 0 && failed === 0) {
  failed = 1;
  why.push(`vitest exited ${v.status ?? v.signal} with every test passing: an unhandled error (see "Unhandled Errors" above)`);
}
rmSync(dir, { recursive: true, force: true });
// What failed, last (CI shows the tail of the output): one line each.
const summary = [...why.map((w) => `FAILED ${w}`), `${passed} passed, ${failed} failed`].join("\n");
console.log(summary);
if (process.env.DEEPCODE_TEST_SUMMARY) appendFileSync(process.env.DEEPCODE_TEST_SUMMARY, `${summary}\n`);
process.exit(v.status === 0 && failed === 0 ? 0 : 1);
