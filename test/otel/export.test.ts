// The OpenTelemetry export end to end (issue #42, item 7): a managed policy rolls it out, the
// real CLI runs a session, and what a collector receives — decoded with the official OTLP
// definitions — carries the session's spend and every tool decision with its deciding layer.
import { afterEach, describe, expect, it } from "vitest";
import { call } from "../e2e/helpers.js";
import { otelRig, rollout, type OtelRig } from "./helpers.js";

let t: OtelRig | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A Read the managed policy denies, a Bash the command line allows, then an answer. */
const session = { replies: [call("Read", { file_path: ".env" }), call("Bash", { command: "echo hi" }), { content: "done" }] };
const sum = (points: Array<{ value: number }>): number => points.reduce((a, p) => a + p.value, 0);

describe.each(["http/protobuf", "http/json"])("the export over %s", (protocol) => {
  it("carries sessions, requests, tokens by type, cost and each decision with its layer", async () => {
    t = await otelRig(session, { files: { ".env": "TOKEN=1\n" } });
    const policy = {
      env: rollout(t.collector.url, { OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Bearer team-token" }),
      permissions: { deny: ["Read(.env)"] },
    };
    const r = await t.run(["-p", "look around", "--allowedTools", "Bash(echo:*)"], policy);
    expect(r.code, r.stderr).toBe(0);
    const c = t.collector;
    // Logs flush every 5 s as well as at the end, so a slow machine may see more than one request.
    expect(new Set(c.received.map((x) => x.path))).toEqual(new Set(["/v1/logs", "/v1/metrics"]));
    for (const x of c.received) {
      expect(x.headers["content-type"]).toBe(protocol === "http/json" ? "application/json" : "application/x-protobuf");
      expect(x.headers.authorization).toBe("Bearer team-token");
    }
    expect(c.resource()).toMatchObject({ "service.name": "deepcode" });
    const points = c.points();
    const named = (n: string) => points.filter((p) => p.name === n);
    expect(sum(named("deepcode.session.count"))).toBe(1);
    expect(sum(named("deepcode.api_request.count"))).toBe(3);
    const tokens = named("deepcode.token.usage");
    expect(new Set(tokens.map((p) => p.attrs.type))).toEqual(new Set(["input", "cacheRead", "output"]));
    const labels = tokens.map((p) => ({ model: p.attrs.model, agent: p.attrs["agent.type"], unit: p.unit }));
    for (const l of labels) expect(l).toEqual({ model: "deepseek-flash", agent: "main", unit: "tokens" });
    expect(sum(named("deepcode.cost.usage"))).toBeGreaterThan(0);
    expect(named("deepcode.cost.usage")[0].unit).toBe("USD");
    expect(sum(named("deepcode.cache.savings"))).toBeGreaterThan(0); // requests 2 and 3 hit the cache
    expect(points.every((p) => p.temporality === 2 && p.monotonic)).toBe(true);
    const decisions = named("deepcode.tool.decision").map((p) => ({
      tool: p.attrs.tool_name, decision: p.attrs.decision, source: p.attrs.source,
    }));
    expect(decisions).toContainEqual({ tool: "Read", decision: "deny", source: "managed" });
    expect(decisions).toContainEqual({ tool: "Bash", decision: "allow", source: expect.any(String) });
    const events = c.events();
    expect(events.map((e) => e.name).filter((n) => n !== "tool_result")).toEqual([
      "user_prompt", "api_request", "tool_decision", "api_request", "tool_decision", "api_request", "turn_complete",
    ]);
    expect(events.find((e) => e.name === "tool_decision")?.attrs).toMatchObject({ tool_name: "Read", decision: "deny", source: "managed" });
    expect(events.find((e) => e.name === "turn_complete")?.attrs).toMatchObject({ stop: "completed", turn: 1 });
    expect(events.find((e) => e.name === "user_prompt")?.attrs).toMatchObject({ prompt_length: "look around".length });
  });
});

describe("the export's errors", () => {
  it("counts a failed model request by its kind", async () => {
    t = await otelRig({ replies: [{ fault: { status: 401 } }] });
    await t.run(["-p", "hi"], { env: rollout(t.collector.url) });
    expect(t.collector.points().filter((p) => p.name === "deepcode.error.count").map((p) => p.attrs.error)).toEqual(["auth"]);
    expect(t.collector.events().filter((e) => e.name === "api_error").map((e) => e.attrs.error)).toEqual(["auth"]);
  });
});
