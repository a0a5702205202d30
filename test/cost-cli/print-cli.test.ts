// The cost engine through the real CLI: `node bin/deepcode.js` (the compiled tree, so run
// `npm run build` first, as `npm test` does) against the simulator, in a fresh process each time.
// It needs src/cli/assemble.ts to call installCost (see src/core/cost/run/index.ts).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runSubcommand } from "../../src/cli/subcommands.js";
import { parseLedger, type LedgerRecord } from "../../src/core/cost/index.js";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { KEY, seedRecord, writeLedger } from "./rig.js";

const BIN = fileURLToPath(new URL("../../bin/deepcode.js", import.meta.url));

let sim: Simulator;
let root: string;
let home: string;

beforeEach(async () => {
  sim = await startSimulator({ script: { default: { content: "done" } }, apiKey: KEY });
  root = mkdtempSync(join(tmpdir(), "deepcode-cost-cli-root-"));
  home = mkdtempSync(join(tmpdir(), "deepcode-cost-cli-home-"));
});
afterEach(async () => {
  await sim.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

function deepcode(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DEEPCODE_HOME: home, DEEPSEEK_API_KEY: KEY, DEEPSEEK_BASE_URL: sim.url, NO_COLOR: "1" };
  for (const k of ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"]) delete env[k];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

let built: Promise<boolean> | undefined;
/** Fails with the reason when the compiled CLI does not install the cost engine. */
async function needsCostInCli(): Promise<void> {
  built ??= deepcode(["--events"]).then((r) => r.stdout.includes("prepend:cost-budget"));
  if (!(await built)) throw new Error("the compiled CLI does not install the cost engine: src/cli/assemble.ts must call installCost, then npm run build");
}

function ledger(): LedgerRecord[] {
  return parseLedger(readFileSync(join(home, "usage.jsonl"), "utf8")).records;
}

const settings = (s: object): void => writeFileSync(join(home, "settings.json"), JSON.stringify(s));

describe("deepcode -p with the cost engine", () => {
  it("is built in: the budget gate is the outermost turn.start hook and the ledger the outermost model.usage hook", async () => {
    const r = await deepcode(["--events"]);
    expect(r.code).toBe(0);
    // The first hook named is the outermost one.
    expect(r.stdout).toMatch(/^turn\.start\s.*\s{2}prepend:cost-budget,.* builtin:cost-tiers(,|$)/m);
    expect(r.stdout).toMatch(/^model\.usage\s.*\s{2}prepend:cost-ledger(,|$)/m);
    expect(r.stdout).toMatch(/^cost\.estimate\s+no\s+assembly\s/m);
  });

  it("at 80% of the daily budget runs at chat-fast, says so on stderr, and completes", async () => {
    await needsCostInCli();
    settings({ budget: { daily: 1 } });
    writeLedger(home, [seedRecord(0.85)]);
    const r = await deepcode(["-p", "design a plugin system for the renderer", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ stop_reason: "completed", is_error: false });
    expect(r.stderr).toMatch(/^deepcode: daily budget 8\d% used: \$0\.1\d\d of \$1\.00 left today; switching to chat-fast$/m);
    expect(sim.requests).toHaveLength(1);
    expect(sim.requests[0].json).toMatchObject({ model: "deepseek-flash", thinking: { type: "disabled" }, max_tokens: 8192 });
    expect(ledger().at(-1)).toMatchObject({ tier: "chat-fast", project: expect.stringContaining("deepcode-cost-cli-root-") });
  });

  it("at 100% stops with budget_exhausted and exit code 1, and sends nothing to the API", async () => {
    await needsCostInCli();
    settings({ budget: { daily: 1 } });
    writeLedger(home, [seedRecord(0.5), seedRecord(0.5)]);
    const json = await deepcode(["-p", "hello", "--output-format", "json"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      stop_reason: "budget_exhausted",
      is_error: true,
      subtype: "error_during_execution",
      errors: ["daily budget of $1.00 is spent ($1.00 today); new turns are refused; deepcode -p does not raise budgets: change budget.daily in settings or wait until tomorrow"],
    });
    const text = await deepcode(["-p", "hello"]);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain("deepcode: budget_exhausted: daily budget of $1.00 is spent");
    expect(sim.requests).toHaveLength(0);
    expect(ledger()).toHaveLength(2);
  });

  it("writes the ledger across runs, and deepcode stats --json totals what it holds", async () => {
    await needsCostInCli();
    expect((await deepcode(["-p", "hello"])).code).toBe(0);
    expect((await deepcode(["-p", "explain what the chain does"])).code).toBe(0);
    const lines = ledger();
    expect(lines).toHaveLength(2);
    expect(new Set(lines.map((l) => l.session)).size).toBe(2);
    lines.forEach((l, i) => {
      const u = sim.requests[i].usage!;
      expect([l.prompt, l.hit, l.completion]).toEqual([u.prompt_tokens, u.prompt_cache_hit_tokens, u.completion_tokens]);
      expect(l.estimate?.tier).toBe("chat-full");
    });
    // `deepcode stats --json`, run in-process: main.ts's argument parser rejects a subcommand's
    // own options (`--json`) before the subcommand sees them.
    let out = "";
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
    try {
      expect(await runSubcommand("stats", ["--json"], { root, home })).toBe(0);
    } finally {
      write.mockRestore();
    }
    const total = JSON.parse(out).months.total;
    const sum = (k: "prompt" | "hit" | "miss" | "completion" | "reasoning"): number => lines.reduce((a, l) => a + l[k], 0);
    expect(total).toMatchObject({ requests: 2, turns: 2, prompt: sum("prompt"), hit: sum("hit"), miss: sum("miss"), completion: sum("completion"), reasoning: sum("reasoning") });
    expect(total.usd).toBeCloseTo(lines.reduce((a, l) => a + l.usd, 0), 12);
    expect(total.savingCny).toBeCloseTo(lines.reduce((a, l) => a + l.savingCny, 0), 12);
  });
});
