// What logging repaired arguments (instead of the bytes the model sent) costs in cache: the
// request after the repair stops extending "request + reply as sent" inside the rewritten call,
// so at most that reply's tail (and the 64-token unit it falls in) is re-read once. Measured
// against a control session whose call was valid JSON to begin with.
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../helpers/harness.js";
import type { ToolSpec } from "../../src/contract/index.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const read: ToolSpec = {
  name: "Read",
  description: "read a file",
  inputSchema: { type: "object", properties: { file_path: { type: "string" }, note: { type: "string" } }, required: ["file_path"] },
  readOnly: true,
  run: async () => ({ content: "the file text ".repeat(40) }),
};

async function hitsAfter(raw: string): Promise<{ prompt1: number; prompt2: number; hit2: number; completion1: number; logged: string }> {
  h = await startHarness({ script: { replies: [{ tool_calls: [{ name: "Read", raw_arguments: raw }] }, { content: "done" }] }, tools: [read], allowAll: true });
  await h.turn(`read the file ${"and summarise it carefully ".repeat(60)}`);
  const [r1, r2] = h.sim.requests.filter((r) => r.usage);
  const logged = (h.engine.messages.find((m) => m.role === "assistant" && m.tool_calls) as { tool_calls: Array<{ function: { arguments: string } }> }).tool_calls[0].function.arguments;
  const out = { prompt1: r1.usage!.prompt_tokens, prompt2: r2.usage!.prompt_tokens, hit2: r2.usage!.prompt_cache_hit_tokens, completion1: r1.usage!.completion_tokens, logged };
  await h.close();
  h = undefined;
  return out;
}

describe("the cache cost of logging repaired arguments", () => {
  const long = "x".repeat(1500);
  it.each([
    ["garbage after the object", `{"file_path": "d.ts", "note": "${long}"}`, `{"file_path": "d.ts", "note": "${long}"}} and some trailing words`],
    ["a bare key at the start", `{"file_path": "d.ts", "note": "${long}"}`, `{file_path: "d.ts", "note": "${long}"}`],
  ])("re-reads at most the repaired reply's own tokens once (%s), and the log holds valid JSON", async (what, valid, broken) => {
    const control = await hitsAfter(valid);
    const repaired = await hitsAfter(broken);
    expect(JSON.parse(repaired.logged)).toEqual({ file_path: "d.ts", note: long });
    // The input of the first request is cached either way (whole 64-token units of it).
    expect(repaired.hit2).toBeGreaterThanOrEqual(Math.floor(repaired.prompt1 / 64) * 64);
    const lost = control.hit2 - repaired.hit2;
    expect(lost).toBeGreaterThanOrEqual(0);
    expect(lost).toBeLessThanOrEqual(repaired.completion1 + 64);
    console.info(`repaired arguments (${what}, reply of ${repaired.completion1} tokens): request 2 hit ${repaired.hit2}/${repaired.prompt2} tokens, control ${control.hit2}/${control.prompt2}: ${lost} tokens re-read once`);
  });
});
