// The miss explainer with two models over one log (plan mode's planner and the session's
// executor): each model's request is compared with that model's previous one, because the
// server caches per model. Switching back is a pure extension; only a model's first request
// starts over, and a named reason (a compaction, a rewind) reaches each model's next request.
import { describe, expect, it } from "vitest";
import { CacheFirstContext } from "../../src/core/context/context.js";
import { buildPrefix } from "../../src/core/context/prefix.js";
import { capsFor } from "../../src/providers/index.js";
import type { Usage } from "../../src/contract/index.js";

const usage = (prompt: number, hit: number): Usage => ({ prompt_tokens: prompt, completion_tokens: 10, prompt_cache_hit_tokens: hit, prompt_cache_miss_tokens: prompt - hit, reasoning_tokens: 0 });

function context(): CacheFirstContext {
  const prefix = buildPrefix([{ id: "base", text: "You are deepcode. ".repeat(40) }], []);
  return new CacheFirstContext(prefix, capsFor("deepseek-flash"), { capsOf: capsFor });
}

const flash = { model: "deepseek-flash", thinking: "enabled" as const };
const pro = { model: "deepseek-v4-pro", thinking: "enabled" as const, effort: "high" as const };

describe("two models over one log", () => {
  it("compares each request with its own model's previous request, and expects that model's hits", () => {
    const c = context();
    c.append({ role: "user", content: "first" });
    expect(c.build(flash).divergence).toBeUndefined();
    c.observe(usage(700, 0));
    c.append({ role: "assistant", content: "ok", reasoning_content: "r" });
    c.append({ role: "user", content: "plan it" });
    // The planner's first request: nothing of its model is cached yet, and that is expected.
    expect(c.build(pro).divergence).toEqual(expect.objectContaining({ piece: 0, expected: true, reason: "the model changed (deepseek-flash → deepseek-v4-pro); the server caches per model" }));
    expect(c.observe(usage(760, 0)).unexpectedMiss).toBeUndefined();
    c.append({ role: "assistant", content: "## Steps", reasoning_content: "r" });
    c.append({ role: "user", content: "go" });
    // Back on the executor: a pure extension of its own last request, which must hit.
    expect(c.build(flash).divergence).toBeUndefined();
    const back = c.observe(usage(820, 640));
    expect(back.expectedHitTokens).toBe(640);
    expect(back.unexpectedMiss).toBeUndefined();
    // A hit below what the executor's own previous request guarantees is still caught.
    c.append({ role: "assistant", content: "done", reasoning_content: "r" });
    c.append({ role: "user", content: "plan again" });
    expect(c.build(pro).divergence).toBeUndefined();
    expect(c.observe(usage(900, 0)).unexpectedMiss).toMatch(/extended the previous one \(760 tokens\) but hit only 0/);
  });

  it("names a new epoch's divergence for each model's next request, and a rewind to what a model sent extends it", () => {
    const c = context();
    c.append({ role: "user", content: "one" });
    c.build(flash);
    c.observe(usage(700, 0));
    c.append({ role: "user", content: "two" });
    c.build(pro);
    c.observe(usage(710, 0));
    c.append({ role: "user", content: "three" });
    c.build(flash);
    c.observe(usage(720, 640));
    c.startEpoch([{ role: "user", content: "one" }, { role: "user", content: "two" }], "rewind to turn 2");
    c.append({ role: "user", content: "four" });
    expect(c.build(flash).divergence).toEqual(expect.objectContaining({ zone: "log", message: 2, reason: "rewind to turn 2", expected: true }));
    c.observe(usage(715, 640));
    // The planner's last request was exactly the kept log: the rewind extends it.
    c.startEpoch([{ role: "user", content: "one" }, { role: "user", content: "two" }], "rewind to turn 2");
    expect(c.build(pro).divergence).toBeUndefined();
  });
});
