import { afterEach, describe, expect, it } from "vitest";
import { call, cliRig, type CliRig } from "./helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const json = (stdout: string): Record<string, unknown> => JSON.parse(stdout) as Record<string, unknown>;

describe("deepcode -p --output-format json prints Claude Code's result object", () => {
  it("says success, and result is the final assistant message, not every message joined", async () => {
    rig = await cliRig({ replies: [{ content: "Let me read a.txt first.", ...call("Read", { file_path: "a.txt" }) }, { content: "a.txt says alpha." }] }, { "a.txt": "alpha\n" });
    const r = await rig.run(["-p", "what does a.txt say?", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const o = json(r.stdout);
    expect(o).toMatchObject({ type: "result", subtype: "success", is_error: false, result: "a.txt says alpha.", num_turns: 2, stop_reason: "completed", permission_denials: [] });
    expect(o.session_id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(o.duration_api_ms).toEqual(expect.any(Number));
    expect(o.duration_api_ms as number).toBeGreaterThan(0);
    expect(o.duration_api_ms as number).toBeLessThanOrEqual(o.duration_ms as number);
  });

  it("reports usage under Claude Code's names beside DeepSeek's own, and a cost without float noise", async () => {
    rig = await cliRig({ default: { content: "ok" } });
    await rig.run(["-p", "warm the cache"]);
    const o = json((await rig.run(["-p", "again", "--output-format", "json"])).stdout);
    const u = o.usage as Record<string, number>;
    expect(u.input_tokens).toBe(u.prompt_cache_miss_tokens);
    expect(u.cache_read_input_tokens).toBe(u.prompt_cache_hit_tokens);
    expect(u.cache_read_input_tokens).toBeGreaterThan(0);
    expect(u.cache_creation_input_tokens).toBe(0);
    expect(u.output_tokens).toBe(u.completion_tokens);
    expect(u.input_tokens + u.cache_read_input_tokens).toBe(u.prompt_tokens);
    const cost = o.total_cost_usd as number;
    expect(cost).toBeGreaterThan(0);
    expect(Number(cost.toFixed(9))).toBe(cost);
    expect(String(cost)).not.toMatch(/\d{12,}/);
  });

  it("says error_max_turns when --max-turns stops the turn, with the reason in errors", async () => {
    rig = await cliRig({ default: call("Read", { file_path: "a.txt" }) }, { "a.txt": "a" });
    const r = await rig.run(["-p", "loop", "--max-turns", "2", "--output-format", "json"]);
    expect(r.code).toBe(1);
    expect(json(r.stdout)).toMatchObject({ subtype: "error_max_turns", is_error: true, stop_reason: "max_turns", num_turns: 2, errors: ["stopped after 2 model rounds"] });
  });

  it("says error_during_execution when the API fails, never error_error", async () => {
    rig = await cliRig({ replies: [{ fault: { status: 401 } }] });
    const r = await rig.run(["-p", "hi", "--output-format", "json"]);
    expect(r.code).toBe(1);
    const o = json(r.stdout);
    expect(o).toMatchObject({ subtype: "error_during_execution", is_error: true, stop_reason: "error" });
    expect((o.errors as string[])[0]).toMatch(/API key rejected/);
  });

  it("lists each denied call in permission_denials with its tool, id, input and why", async () => {
    rig = await cliRig({ replies: [call("Bash", { command: "touch made" }), { content: "could not" }] });
    const o = json((await rig.run(["-p", "make a file", "--output-format", "json"])).stdout);
    const denials = o.permission_denials as Array<Record<string, unknown>>;
    expect(denials).toHaveLength(1);
    expect(denials[0]).toMatchObject({ tool_name: "Bash", tool_input: { command: "touch made" } });
    expect(denials[0].tool_use_id).toMatch(/^call_/);
    expect(denials[0].reason).toMatch(/nobody can approve Bash; to allow it, pass --allowedTools 'Bash\(touch:\*\)'/);
  });

  it("still prints one result object, with is_error, when there is no API key", async () => {
    rig = await cliRig({ default: { content: "never" } });
    const r = await rig.run(["-p", "hi", "--output-format", "json"], { env: { DEEPSEEK_API_KEY: undefined } });
    expect(r.code).toBe(1);
    const o = json(r.stdout);
    expect(o).toMatchObject({ type: "result", subtype: "error_during_execution", is_error: true, num_turns: 0, total_cost_usd: 0 });
    expect((o.errors as string[])[0]).toContain(`${rig.env.home}/credentials`);
    expect(rig.sim.requests).toHaveLength(0);
  });

  it("still prints one result object when a settings file is malformed (a failure before the first request)", async () => {
    rig = await cliRig({ default: { content: "never" } }, { ".deepcode/settings.json": "{ \"model\": " });
    const r = await rig.run(["-p", "hi", "--output-format", "json"]);
    expect(r.code).toBe(1);
    const o = json(r.stdout);
    expect(o).toMatchObject({ type: "result", is_error: true, subtype: "error_during_execution" });
    expect((o.errors as string[])[0]).toMatch(/\.deepcode\/settings\.json:1:\d+: /);
  });

  it("names the real credentials file under DEEPCODE_HOME when there is no key, in text mode too", async () => {
    rig = await cliRig({ default: { content: "never" } });
    const r = await rig.run(["-p", "hi"], { env: { DEEPSEEK_API_KEY: undefined } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`deepcode setup                         (stores it in ${rig.env.home}/credentials, mode 0600)`);
    expect(r.stderr).not.toContain("~/.deepcode/credentials");
  });
});
