import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../helpers/harness.js";
import { prng, testTools } from "../helpers/tools.js";
import { chatBodies, extensionBreaks } from "../helpers/extension.js";
import type { Reply } from "../sim/server.mjs";
import type { StreamEvent } from "../../src/contract/index.js";

const WORDS = ["cache", "prefix", "the", "tool", "read", "file", "缓存", "前缀", "函数", "test", "λ", "edit", "{}", "=>", "42"];
const DIGEST = "[deepcode] The conversation is about to be compacted";

/** A random model: text, single and parallel tool calls (read-only, mutating, failing). */
function randomModel(seed: number, sent: Array<Record<string, unknown>>): (json: { messages: Array<{ role: string; content?: string }> }) => Reply {
  const r = prng(seed);
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(" ");
  return (json) => {
    const last = json.messages[json.messages.length - 1];
    let reply: Reply;
    if (last.role === "user" && String(last.content).startsWith(DIGEST)) reply = { content: `digest: ${words(30)}` };
    else if (r() < (last.role === "tool" ? 0.45 : 0.65)) {
      const n = 1 + Math.floor(r() * 3);
      reply = {
        content: r() < 0.3 ? words(5) : "",
        tool_calls: Array.from({ length: n }, (_, k) => {
          const pick = r();
          if (pick < 0.5) return { name: "Echo", arguments: { text: `${words(3 + k)}` } };
          if (pick < 0.85) return { name: "Note", arguments: { note: words(4) } };
          return { name: "Fail", arguments: {} };
        }),
      };
    } else reply = { content: words(10 + Math.floor(r() * 200)) };
    sent.push({ content: reply.content ?? "", tool_calls: (reply.tool_calls ?? []).map((c) => ({ function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) });
    return reply;
  };
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function session(seed: number, turns: number, compactAt: number | null): Promise<{ breaks: ReturnType<typeof extensionBreaks>; notices: StreamEvent[]; digestAt: number[] }> {
  const sent: Array<Record<string, unknown>> = [];
  h = await startHarness({ script: { respond: randomModel(seed, sent) }, tools: testTools(), allowAll: true, engine: { compaction: { keepTurns: 2 } } });
  const notices: StreamEvent[] = [];
  for (let t = 1; t <= turns; t++) {
    if (t === compactAt) {
      const r = await h.engine.compact("keep it short");
      expect(r.ok).toBe(true);
    }
    const events = await h.turn(`turn ${t}: ${WORDS[t % WORDS.length]} ${"x".repeat(t * 37)}`);
    notices.push(...events.filter((e) => e.type === "notice"));
  }
  const bodies = chatBodies(h.sim.requests);
  const digestAt = bodies.map((b, i) => (String(b.messages[b.messages.length - 1].content).startsWith(DIGEST) ? i : -1)).filter((i) => i >= 0);
  return { breaks: extensionBreaks(bodies, sent), notices, digestAt };
}

describe("every request extends the previous request and its reply, byte for byte", () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`holds for random session ${seed} (text, single and parallel tool calls, tool errors)`, async () => {
      const { breaks, notices } = await session(seed, 8, null);
      expect(breaks).toEqual([]);
      expect(notices.filter((n) => n.type === "notice" && n.level === "warn")).toEqual([]);
    });
  }

  it("breaks only right after a compaction, and says so", async () => {
    const { breaks, notices, digestAt } = await session(7, 8, 5);
    expect(digestAt).toHaveLength(1);
    expect(breaks.map((b) => b.index)).toEqual([digestAt[0] + 1]);
    expect(notices).toContainEqual(expect.objectContaining({ type: "notice", level: "info", code: "cache-divergence", message: expect.stringContaining("compaction") }));
    expect(notices.filter((n) => n.type === "notice" && n.level === "warn")).toEqual([]);
  });

  it("hits every full 64-token unit of the previous prompt on each extending request", async () => {
    await session(11, 6, null);
    const billed = h!.sim.requests.filter((r) => r.status === 200 && r.usage).map((r) => r.usage!);
    for (let i = 1; i < billed.length; i++) {
      expect(billed[i].prompt_cache_hit_tokens).toBeGreaterThanOrEqual(Math.floor(billed[i - 1].prompt_tokens / 64) * 64);
    }
  });
});
