import { describe, expect, it } from "vitest";
import { countTokens, renderRequest } from "../sim/server.mjs";
import { call, chats, deepcode, isSubagent, ledger, prefixTokens, task, projects } from "./helpers.js";

const p = projects();

const FILES = { "src/a.ts": "export const a = 1;\n", "src/b.ts": "export const b = 2;\n", "AGENTS.md": "Keep answers short.\n" };
const explore = (what: string) => ({ marker: "You are an exploring agent", steps: (prompt: string) => [call("Grep", { pattern: prompt.includes("a.ts") ? "a" : "b" }), { content: `found ${prompt.includes("a.ts") ? "a" : "b"}` }] , what });

describe("a subagent type's prefix is the same bytes every time, so the cache keeps it", () => {
  it("hits the cache for its whole prefix on its second run in a session, and again in the next process", async () => {
    await p.open(
      {
        main: {
          "look at a": [{ tool_calls: [task("explore", "find a", "Where is a.ts's export?")] }, { tool_calls: [task("explore", "find b", "Where is b.ts's export?")] }, { content: "a and b found" }],
          "look again": [{ tool_calls: [task("explore", "find a", "Where is a.ts's export?")] }, { content: "found again" }],
        },
        agents: [explore("both")],
      },
      FILES,
    );
    const first = await deepcode(p.env, ["-p", "look at a", "--output-format", "json"]);
    expect(first.code).toBe(0);
    const second = await deepcode(p.env, ["-p", "look again", "--output-format", "json"]);
    expect(second.code).toBe(0);
    // The first request of each subagent run: its system prompt and tools are byte-identical.
    const starts = chats(p.sim.requests).filter((c) => isSubagent(c.json) && c.json.messages.filter((m: { role: string }) => m.role === "assistant").length === 0);
    expect(starts).toHaveLength(3);
    const prefixOf = (j: { messages: Array<{ role: string; content: string }>; tools: unknown }) => JSON.stringify([j.messages[0], j.tools]);
    expect(new Set(starts.map((s) => prefixOf(s.json))).size).toBe(1);
    const prefix = prefixTokens(starts[0].json, countTokens, renderRequest);
    expect(prefix).toBeGreaterThan(500); // several 64-token units, so "the whole prefix" means something
    const full = Math.floor(prefix / 64) * 64;
    expect(starts[0].usage!.prompt_cache_hit_tokens).toBeLessThan(64); // nothing of it was cached yet
    expect(starts[1].usage!.prompt_cache_hit_tokens).toBeGreaterThanOrEqual(full);
    expect(starts[2].usage!.prompt_cache_hit_tokens).toBeGreaterThanOrEqual(full);
    // explore is the cheap tier: flash without thinking.
    expect(starts[0].json.model).toBe("deepseek-flash");
    expect(starts[0].json.thinking).toEqual({ type: "disabled" });
  });
});

describe("several Task calls in one reply", () => {
  it("run at the same time, and their results come back in the order the calls were made", async () => {
    const arrivals: string[] = [];
    await p.open(
      {
        main: [{ tool_calls: [task("slow", "slow one", "Take your time."), task("quick", "quick one", "Be quick.")] }, { content: "both done" }],
        agents: [
          // About two seconds of streaming: the quick one, started at the same time, ends well before.
          { marker: "SLOW-AGENT", steps: [{ content: "slow result", chunkSize: 1, chunkDelayMs: 180 }] },
          { marker: "QUICK-AGENT", steps: [{ content: "quick result" }] },
        ],
      },
      {
        ".claude/agents/slow.md": "---\nname: slow\ndescription: slow\ntools: Read\n---\nYou are the SLOW-AGENT.\n",
        ".claude/agents/quick.md": "---\nname: quick\ndescription: quick\ntools: Read\n---\nYou are the QUICK-AGENT.\n",
      },
      (r) => {
        const s = r.json?.messages?.[0]?.content ?? "";
        arrivals.push(String(s).includes("SLOW-AGENT") ? "slow:done" : String(s).includes("QUICK-AGENT") ? "quick:done" : "main:done");
      },
    );
    const r = await deepcode(p.env, ["-p", "do both", "--output-format", "json"]);
    expect(r.code).toBe(0);
    // The quick one finished while the slow one was still streaming: they overlapped.
    expect(arrivals.indexOf("quick:done")).toBeLessThan(arrivals.indexOf("slow:done"));
    const last = chats(p.sim.requests).filter((c) => !isSubagent(c.json)).at(-1)!.json;
    const results = last.messages.filter((m: { role: string }) => m.role === "tool").map((m: { content: string }) => m.content);
    expect(results).toEqual(["slow result", "quick result"]);
    const result = JSON.parse(r.stdout) as { total_cost_usd: number };
    const lines = ledger(p.env);
    expect(lines.filter((l) => l.agent === "slow")).toHaveLength(1);
    expect(lines.filter((l) => l.agent === "quick")).toHaveLength(1);
    const mainUsd = lines.filter((l) => l.agent === undefined).reduce((a, l) => a + (l.usd as number), 0);
    const agentUsd = lines.filter((l) => l.agent !== undefined).reduce((a, l) => a + (l.usd as number), 0);
    expect(agentUsd).toBeGreaterThan(0);
    expect(result.total_cost_usd).toBeCloseTo(mainUsd + agentUsd, 8);
  });
});
