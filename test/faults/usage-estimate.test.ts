// A reply that comes without usage is billed by the API all the same: deepcode estimates its
// tokens from the text, books it in the usage ledger marked as estimated, and says so.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { runBounded } from "./bounded.js";

let sim: Simulator | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  await sim?.close();
  env?.cleanup();
  sim = undefined;
  env = undefined;
});

describe("a reply without usage", () => {
  it("is estimated, booked once in the ledger marked as estimated, and said", async () => {
    const answer = "The answer is forty-two, as computed by a rather large machine over a long time.";
    sim = await startSimulator({ script: { replies: [{ chunks: [{ delta: { role: "assistant", content: answer } }, { delta: {}, finish_reason: "stop", usage: false }] }] }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url);
    const r = await runBounded(["-p", "what is the answer?"], { cwd: env.root, env: env.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${answer}\n`);
    expect(r.stderr).toMatch(/the API sent no token usage for this reply; deepcode estimated it from the text \(≈\d+ prompt, ≈\d+ completion tokens/);
    const lines = readFileSync(join(env.home, "usage.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    const rec = lines[0];
    expect(rec.estimated).toBe(true);
    expect(rec.completion).toBeGreaterThan(10);
    expect(rec.prompt).toBeGreaterThan(100); // the system prompt and tools are part of every request
    expect(rec.usd).toBeGreaterThan(0);
    // `deepcode stats` marks the cost it did not get from the API, and --json counts it.
    const stats = await runBounded(["stats"], { cwd: env.root, env: env.env });
    expect(stats.code).toBe(0);
    expect(stats.stdout).toMatch(/^total +1 +1 .* ~\$[0-9.]+ /m);
    expect(stats.stdout).toContain("~ estimated: 1 request");
    const json = await runBounded(["stats", "--json"], { cwd: env.root, env: env.env });
    const parsed = JSON.parse(json.stdout) as { days: { total: { estimatedRequests: number; estimatedUsd: number; usd: number } } };
    expect(parsed.days.total.estimatedRequests).toBe(1);
    expect(parsed.days.total.estimatedUsd).toBe(parsed.days.total.usd);
  });
});
