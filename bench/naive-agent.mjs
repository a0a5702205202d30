// The naive baseline: a deliberately typical agent loop, the way many agents are first
// written. It is correct — every request is valid and every tool call gets its result — but
// it ignores how the prompt cache works:
//   - the system prompt carries the current time with seconds (and re-reads AGENTS.md each time);
//   - the tool schemas are re-serialised on every request, with their keys in a new order;
//   - when the history grows past a token budget, the oldest messages are dropped from the front;
//   - per-turn facts have no reminder role; they live in the system prompt.
// Its clock is simulated (seven seconds a request: a model reply plus tool time), so its
// requests, and therefore its hit rate, are the same on every run.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Chain } from "../dist/src/core/chain.js";
import { registerEffects } from "../dist/src/core/effects.js";
import { createToolContext } from "../dist/src/core/tool-context.js";

const SYSTEM = `You are CodeHelper, an AI programming assistant that works inside the user's project.
You can read files, search the code, edit files and run shell commands with the tools provided.
Always look at the relevant code before changing it, keep changes small, and run the tests after editing.
Answer concisely. When you are done, summarise what you changed.`;

/** History budget, estimated as characters / 4 (no tokenizer), as such agents do. */
export const NAIVE_BUDGET_TOKENS = 64_000;
const SECONDS_PER_REQUEST = 7;

export class NaiveAgent {
  /**
   * @param {{ baseUrl: string, apiKey: string, model: string, root: string, tools: import("../dist/src/contract/index.js").ToolSpec[], budgetTokens?: number, start?: Date }} o
   */
  constructor(o) {
    this.o = o;
    this.history = [];
    this.clock = (o.start ?? new Date("2026-12-02T12:00:00Z")).getTime();
    this.random = seeded(42);
    this.truncations = 0;
    this.chain = new Chain();
    registerEffects(this.chain);
    this.reads = new Map();
    this.shell = { cwd: o.root };
    this.calls = 0;
    /** Tool calls that ended in an error, as `Tool: first line of the result`. */
    this.toolErrors = [];
  }

  /** One user turn: model rounds until a reply without tool calls. */
  async turn(prompt) {
    this.history.push({ role: "user", content: prompt });
    const turnStart = this.history.length - 1;
    for (let round = 0; round < 50; round++) {
      const reply = await this.request(turnStart);
      const message = { role: "assistant", content: reply.content ?? "", reasoning_content: reply.reasoning_content ?? "" };
      if (reply.tool_calls?.length) message.tool_calls = reply.tool_calls;
      this.history.push(message);
      if (!reply.tool_calls?.length) return reply.content;
      for (const c of reply.tool_calls) this.history.push({ role: "tool", tool_call_id: c.id, content: await this.runTool(c) });
    }
    throw new Error("the naive agent gave up after 50 rounds");
  }

  async request(turnStart) {
    this.clock += SECONDS_PER_REQUEST * 1000;
    const body = { model: this.o.model, messages: [{ role: "system", content: this.system() }, ...this.window(turnStart)], tools: this.toolDefinitions(), stream: false };
    const res = await fetch(`${this.o.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${this.o.apiKey}` },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`naive agent: HTTP ${res.status}: ${json?.error?.message}`);
    return json.choices[0].message;
  }

  system() {
    const stamp = new Date(this.clock).toISOString().replace("T", " ").slice(0, 19);
    let agents = "";
    try {
      agents = readFileSync(join(this.o.root, "AGENTS.md"), "utf8");
    } catch {
      // no AGENTS.md: no project instructions
    }
    return `${SYSTEM}\n\nWorking directory: ${this.o.root}\nCurrent time: ${stamp} UTC${agents ? `\n\nProject instructions (AGENTS.md):\n${agents}` : ""}`;
  }

  /** The history from the front-most message that fits the budget, never cutting the current
   *  turn and always starting at a user message (so no tool result loses its call). */
  window(turnStart) {
    const budget = (this.o.budgetTokens ?? NAIVE_BUDGET_TOKENS) * 4;
    const sizes = this.history.map((m) => JSON.stringify(m).length);
    let total = sizes.reduce((a, b) => a + b, 0);
    let from = 0;
    while (total > budget && from < turnStart) total -= sizes[from++];
    while (from < turnStart && this.history[from].role !== "user") from++;
    if (from > 0) this.truncations++;
    return this.history.slice(from);
  }

  toolDefinitions() {
    return this.o.tools.map((t) => shuffleKeys({ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }, this.random));
  }

  async runTool(c) {
    const tool = this.o.tools.find((t) => t.name === c.function.name);
    let out;
    try {
      if (!tool) throw new Error(`unknown tool ${c.function.name}`);
      const input = JSON.parse(c.function.arguments || "{}");
      const ctx = createToolContext(this.chain, { root: this.o.root, sessionId: "naive", callId: `naive-${++this.calls}`, reads: this.reads, shell: this.shell });
      out = await tool.run(input, ctx);
    } catch (err) {
      out = { content: `Error: ${err instanceof Error ? err.message : String(err)}`, isError: true };
    }
    if (out.isError) this.toolErrors.push(`${c.function.name}: ${out.content.split("\n")[0]}`);
    return out.content;
  }
}

/** A copy of `v` with the keys of every object in a random order (arrays keep theirs). */
function shuffleKeys(v, random) {
  if (Array.isArray(v)) return v.map((x) => shuffleKeys(x, random));
  if (v === null || typeof v !== "object") return v;
  const keys = Object.keys(v);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [keys[i], keys[j]] = [keys[j], keys[i]];
  }
  return Object.fromEntries(keys.map((k) => [k, shuffleKeys(v[k], random)]));
}

function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    return a / 4294967296;
  };
}
