#!/usr/bin/env node
// `npm test`: typecheck, lint (eslint + boundaries), build, then vitest. The last line is
// "N passed, N failed", taken from vitest's own JSON report, so CI and humans read one figure.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const npx = (args) => spawnSync("npx", args, { stdio: "inherit", shell: false });
const steps = [
  ["typecheck", ["tsc", "-p", "tsconfig.json", "--noEmit"]],
  ["typecheck tests", ["tsc", "-p", "tsconfig.test.json"]],
  ["eslint", ["eslint", "."]],
  ["boundaries", ["node", "scripts/check-boundaries.mjs"]],
  ["build", ["tsc", "-p", "tsconfig.json"]],
];
for (const [name, args] of steps) {
  const r = args[0] === "node" ? spawnSync(process.execPath, args.slice(1), { stdio: "inherit" }) : npx(args);
  if (r.status !== 0) {
    console.error(`\n${name} failed (exit ${r.status ?? r.signal})`);
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
}
const dir = mkdtempSync(join(tmpdir(), "deepcode-test-"));
const report = join(dir, "vitest.json");
const extra = process.argv.slice(2);
const v = npx(["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...extra]);
let passed = 0;
let failed = 0;
try {
  const json = JSON.parse(readFileSync(report, "utf8"));
  passed = json.numPassedTests;
  failed = json.numFailedTests + (json.numRuntimeErrorTestSuites ?? 0);
  if (!json.success && failed === 0) failed = json.numFailedTestSuites || 1;
} catch (err) {
  console.error(`could not read vitest's report (${err.message})`);
  failed = failed || 1;
}
rmSync(dir, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(v.status === 0 && failed === 0 ? 0 : 1);
