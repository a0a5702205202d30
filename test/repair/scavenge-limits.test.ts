import { describe, expect, it } from "vitest";
import { callsOf, harness, reply } from "./helpers.js";

function readInvoke(path: string): string {
  return `<｜DSML｜invoke name="Read">\n<｜DSML｜parameter name="file_path" string="true">${path}</｜DSML｜parameter>\n</｜DSML｜invoke>\n`;
}
function block(invokes: string): string {
  return `<｜DSML｜tool_calls>\n${invokes}</｜DSML｜tool_calls>`;
}

describe("scavenged calls are capped, deduplicated and each announced once", () => {
  it("keeps at most four calls from one reply, the first four written", async () => {
    const h = harness();
    const out = await h.respond(reply(block(["a", "b", "c", "d", "e", "f"].map((p) => readInvoke(`${p}.ts`)).join(""))));
    expect(callsOf(out).map((c) => c.input)).toEqual([{ file_path: "a.ts" }, { file_path: "b.ts" }, { file_path: "c.ts" }, { file_path: "d.ts" }]);
    expect(h.repairs).toHaveLength(4);
  });

  it("honours a smaller maxScavenged", async () => {
    const h = harness(undefined, 2);
    const out = await h.respond(reply(block(["a", "b", "c"].map((p) => readInvoke(`${p}.ts`)).join(""))));
    expect(out.message.tool_calls).toHaveLength(2);
  });

  it("removes duplicate calls, whatever the order of their arguments", async () => {
    const h = harness();
    const content = [
      '{"name": "Read", "arguments": {"file_path": "a.ts", "limit": 5}}',
      '{"name": "Read", "arguments": {"limit": 5, "file_path": "a.ts"}}',
      '{"name": "Read", "arguments": {"file_path": "b.ts"}}',
    ].join("\n");
    const out = await h.respond(reply(content));
    expect(callsOf(out)).toEqual([
      { name: "Read", input: { file_path: "a.ts", limit: 5 } },
      { name: "Read", input: { file_path: "b.ts" } },
    ]);
    expect(h.repairs.map((r) => r.detail)).toEqual(["Read(file_path=a.ts, limit=5)", "Read(file_path=b.ts)"]);
  });

  it("gives every scavenged call its own id, also across replies", async () => {
    const h = harness();
    const first = await h.respond(reply(block(readInvoke("a.ts") + readInvoke("b.ts"))), 1);
    const second = await h.respond(reply(block(readInvoke("c.ts"))), 2);
    const ids = [...first.message.tool_calls!, ...second.message.tool_calls!].map((c) => c.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^call_scav_[A-Za-z0-9]{16}$/);
    expect(h.repairs.map((r) => r.step)).toEqual([1, 1, 2]);
  });

  it("sends the arguments as a JSON string, as the API does", async () => {
    const h = harness();
    const out = await h.respond(reply(block(readInvoke("a.ts"))));
    expect(out.message.tool_calls![0].function.arguments).toBe('{"file_path":"a.ts"}');
  });

  it("reads a wrapper opener that lost its closing bracket", async () => {
    const h = harness();
    const out = await h.respond(reply(`<｜DSML｜tool_calls\n${readInvoke("a.ts")}</｜DSML｜tool_calls>`));
    expect(callsOf(out)).toEqual([{ name: "Read", input: { file_path: "a.ts" } }]);
  });

  it("scavenges a reply whose stream ended early (no finish reason) and keeps what else it carried", async () => {
    const h = harness();
    const r = { ...reply(block(readInvoke("a.ts")), undefined, null), usage: { prompt_tokens: 10, completion_tokens: 5, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 10, reasoning_tokens: 0 } };
    const out = await h.respond(r);
    expect(out.finishReason).toBe("tool_calls");
    expect(out.usage).toEqual(r.usage);
    expect(out.id).toBe("r1");
  });

  it("leaves an ordinary answer alone and announces nothing", async () => {
    const h = harness();
    const r = reply("The function returns {\"a\": 1} when called with no arguments.");
    expect(await h.respond(r)).toEqual(r);
    expect(h.repairs).toEqual([]);
  });

  it("hands the rewritten reply to the hooks below it", async () => {
    const h = harness();
    const seen: number[] = [];
    h.chain.on("builtin", "after", "model.response", null, (e, next) => {
      seen.push(e.response.message.tool_calls?.length ?? 0);
      return next();
    });
    await h.respond(reply(block(readInvoke("a.ts"))));
    expect(seen).toEqual([1]);
  });
});
