// A real receiver end to end: Debian's Prometheus (package `prometheus`, installed by .ci/run)
// scrapes the endpoint deepcode serves when the managed policy says OTEL_METRICS_EXPORTER=
// prometheus, and its query API then answers with the session's tokens, cost and decisions.
// The session is held at its second model request (the simulator answers when the test says)
// so Prometheus scrapes a live process. Skips, naming the package, where Prometheus is absent.
import { afterEach, describe, expect, it } from "vitest";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call } from "../e2e/helpers.js";
import { freePort } from "../helpers/free-port.js";
import { otelRig, type OtelRig } from "./helpers.js";

const HAVE_PROMETHEUS = spawnSync("prometheus", ["--version"], { encoding: "utf8" }).status === 0;
if (!HAVE_PROMETHEUS) console.warn("test/otel/prometheus.test.ts skipped: Prometheus is not installed (Debian package prometheus)");

let t: OtelRig | undefined;
let prom: ChildProcess | undefined;
let dir: string | undefined;
afterEach(async () => {
  prom?.kill();
  prom = undefined;
  await t?.close();
  t = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

async function query(port: number, q: string): Promise<Sample[]> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(q)}`, { signal: AbortSignal.timeout(10_000) });
    const body = (await res.json()) as { data?: { result?: Sample[] } };
    return body.data?.result ?? [];
  } catch {
    return []; // Prometheus is not up yet
  }
}

async function targets(port: number): Promise<string> {
  try {
    return await (await fetch(`http://127.0.0.1:${port}/api/v1/targets`, { signal: AbortSignal.timeout(10_000) })).text();
  } catch (err) {
    return String(err);
  }
}

describe.skipIf(!HAVE_PROMETHEUS)("Prometheus scraping deepcode", () => {
  it("reads the session's tokens, cost and tool decisions from the live endpoint", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    t = await otelRig({
      replies: [call("Bash", { command: "echo hi" })],
      respond: async () => {
        await held;
        return { content: "done" };
      },
    });
    const [scrapePort, promPort] = [await freePort(), await freePort()];
    const policy = {
      env: { CLAUDE_CODE_ENABLE_TELEMETRY: "1", OTEL_METRICS_EXPORTER: "prometheus", OTEL_EXPORTER_PROMETHEUS_PORT: String(scrapePort) },
    };
    const run = t.run(["-p", "look", "--allowedTools", "Bash(echo:*)"], policy);
    dir = mkdtempSync(join(tmpdir(), "deepcode-prom-"));
    const config = join(dir, "prometheus.yml");
    const targetsYaml = `    static_configs:\n      - targets: ["127.0.0.1:${scrapePort}"]\n`;
    writeFileSync(config, `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: deepcode\n${targetsYaml}`);
    const args = [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, "data")}`, `--web.listen-address=127.0.0.1:${promPort}`];
    prom = spawn("prometheus", args, { stdio: ["ignore", "ignore", "pipe"] });
    let promLog = "";
    prom.stderr?.on("data", (d: Buffer) => (promLog = (promLog + d.toString()).slice(-4000)));
    let tokens: Sample[] = [];
    for (let i = 0; i < 240 && tokens.length === 0; i++) {
      tokens = await query(promPort, "deepcode_token_usage_tokens_total");
      if (tokens.length === 0) await new Promise((r) => setTimeout(r, 250));
    }
    if (tokens.length === 0) throw new Error(`Prometheus never had deepcode's tokens; its targets: ${await targets(promPort)}; its log: ${promLog}`);
    const decisions = await query(promPort, "deepcode_tool_decision_total");
    const cost = await query(promPort, "deepcode_cost_usage_USD_total");
    const sessions = await query(promPort, "deepcode_session_count_total");
    release();
    const r = await run;
    expect(r.code, r.stderr).toBe(0);
    expect(new Set(tokens.map((s) => s.metric.type))).toEqual(new Set(["input", "output"])); // the first request has no cache hit
    expect(tokens.every((s) => s.metric.model === "deepseek-flash" && s.metric.job === "deepcode")).toBe(true);
    expect(Number(cost[0]?.value[1])).toBeGreaterThan(0);
    expect(decisions.map((s) => [s.metric.tool_name, s.metric.decision, s.metric.source])).toEqual([["Bash", "allow", "flag"]]);
    expect(sessions.map((s) => s.value[1])).toEqual(["1"]);
  });
});
