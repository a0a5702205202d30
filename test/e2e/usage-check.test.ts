// Usage from the wire that cannot all be true (Alishahryar1/free-claude-code#1593: a negative
// cache-miss count came through as `input_tokens: -400`) is repaired before any figure is shown
// or booked, and the repair is said.
import { afterEach, describe, expect, it } from "vitest";
import { cliRig, type CliRig } from "./helpers.js";
import type { WireUsage } from "../sim/server.mjs";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function replyWith(usage: WireUsage) {
  return { chunks: [{ delta: { role: "assistant", content: "ok", reasoning_content: null } }, { delta: { content: "", reasoning_content: null }, finish_reason: "stop" as const, usage }] };
}

async function resultOf(usage: WireUsage) {
  rig = await cliRig({ replies: [replyWith(usage)] });
  const r = await rig.run(["-p", "hi", "--output-format", "stream-json", "--verbose"]);
  const lines = rig.lines(r);
  const result = lines.find((l) => l.type === "result") as { usage: Record<string, number>; total_cost_usd: number } | undefined;
  const notices = lines.filter((l) => l.type === "system" && l.subtype === "notice" && l.code === "usage-repaired").map((l) => String(l.message));
  return { r, result, notices };
}

const base = { completion_tokens: 10, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } };

describe("usage from the wire that does not add up", () => {
  it("derives a negative cache-miss count from the prompt and hit counts, and says so", async () => {
    const { r, result, notices } = await resultOf({ ...base, prompt_tokens: 600, total_tokens: 610, prompt_cache_hit_tokens: 1000, prompt_cache_miss_tokens: -400 });
    expect(r.code, r.stderr).toBe(0);
    const u = result!.usage;
    expect(u.input_tokens).toBeGreaterThanOrEqual(0);
    expect(u.cache_read_input_tokens).toBeGreaterThanOrEqual(0);
    expect(u.input_tokens + u.cache_read_input_tokens).toBe(600);
    expect(u.cache_read_input_tokens).toBeLessThanOrEqual(600);
    expect(result!.total_cost_usd).toBeGreaterThan(0);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/token counts that cannot all be true.*prompt_cache_hit_tokens 1000 → 600/);
  });

  it("derives a negative prompt count from the total, counting the prompt as cache misses", async () => {
    const { result, notices } = await resultOf({ ...base, prompt_tokens: -400, total_tokens: 510, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: -400 });
    expect(result!.usage).toMatchObject({ input_tokens: 500, cache_read_input_tokens: 0, output_tokens: 10 });
    expect(notices[0]).toMatch(/prompt_tokens -400 → 500 \(total − completion\)/);
  });

  it("books the repaired figures in the usage ledger that stats reads", async () => {
    await resultOf({ ...base, prompt_tokens: 600, total_tokens: 610, prompt_cache_hit_tokens: 200, prompt_cache_miss_tokens: -400 });
    const s = await rig!.run(["stats", "--json"]);
    const total = (JSON.parse(s.stdout) as { days: { total: Record<string, number> } }).days.total;
    expect(total).toMatchObject({ requests: 1, prompt: 600, hit: 200, miss: 400, completion: 10 });
  });

  it("leaves consistent usage alone and says nothing", async () => {
    const { result, notices } = await resultOf({ ...base, prompt_tokens: 600, total_tokens: 610, prompt_cache_hit_tokens: 512, prompt_cache_miss_tokens: 88 });
    expect(result!.usage).toMatchObject({ input_tokens: 88, cache_read_input_tokens: 512, output_tokens: 10 });
    expect(notices).toEqual([]);
  });
});
