// The agent loop's own overhead per model round, at 10K and 200K tokens of context: the time
// deepcode spends between the model's answers, not in them. The `model.request` core answers
// at once with a canned reply (no HTTP, no simulator); it does only what the provider must do
// before sending — prepareRequest and JSON.stringify of the body — so that work is counted.
// The context is filled with tool results (slices of this repository's sources) to the size,
// then each measured turn is R rounds (R − 1 calls of a no-op tool, then a text answer) through
// the real engine: context.build, the miss explainer, repairs, usage and cost, argument
// validation, the tool gate, the session file on disk. Per round = turn time ÷ R (the turn's
// own start — tail notes, the prompt — amortised over its rounds).
// The floor it is shown against: JSON.stringify of the same request, the least any client
// must do per round to send it.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Chain } from "../dist/src/core/chain.js";
import { billedModel } from "../dist/src/core/billed-model.js";
import { registerEffects } from "../dist/src/core/effects.js";
import { registerRepairs } from "../dist/src/core/repair/index.js";
import { Engine } from "../dist/src/core/engine/engine.js";
import { ToolRegistry } from "../dist/src/core/engine/tools.js";
import { SessionStore } from "../dist/src/core/session/store.js";
import { builtinTools } from "../dist/src/builtins/index.js";
import { capsFor, prepareRequest } from "../dist/src/providers/index.js";
import { countTokens, renderRequest } from "../test/sim/server.mjs";
import { fast, fmt, median, table } from "./lib.mjs";

const MODEL = "deepseek-flash";
const SLICE = 2048;

/** Real text to fill the context with: this repository's TypeScript sources, end to end. */
function corpus() {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".ts")) files.push(readFileSync(p, "utf8"));
    }
  };
  walk(fileURLToPath(new URL("../src", import.meta.url)));
  return files.join("\n");
}

const noop = {
  name: "Noop",
  description: "Does nothing and answers ok (benchmark tool).",
  inputSchema: { type: "object", properties: { n: { type: "number", description: "round number" } }, required: ["n"], additionalProperties: false },
  readOnly: true,
  run: async () => ({ content: "ok" }),
};

function fillTool(text) {
  let next = 0;
  return {
    name: "Fill",
    description: "Returns the next slice of a long text (benchmark tool).",
    inputSchema: { type: "object", properties: { part: { type: "number" } }, required: ["part"], additionalProperties: false },
    readOnly: true,
    run: async () => {
      const at = (next++ * SLICE) % (text.length - SLICE);
      return { content: `part ${next}\n${text.slice(at, at + SLICE)}` };
    },
  };
}

/** A session whose model answers instantly, by `answer(request)`: `start()` a new one, or
 *  `resume(id)` a stored one in a new engine, as a new process would. */
function instantSession(root, home, text, answer) {
  const caps = capsFor(MODEL);
  const store = new SessionStore(home, root);
  let prompt = 0;
  const options = () => {
    const chain = new Chain();
    registerEffects(chain);
    const registry = new ToolRegistry();
    for (const t of [...builtinTools(), noop, fillTool(text)]) registry.add(t, "builtin");
    registerRepairs(chain, { tools: () => registry.list().map((t) => t.spec) });
    chain.on("builtin", "bench-allow", "tool.check", null, (e) => (e.readOnly === null ? { decision: "deny", reason: "unknown tool" } : { decision: "allow", by: "bench" }));
    chain.setCore("model.request", billedModel(chain, async (e) => {
      const body = JSON.stringify(prepareRequest(e.request, caps));
      const reply = answer(e.request, body);
      const hit = Math.min(prompt, Math.floor(prompt / 64) * 64);
      prompt = reply.promptTokens ?? prompt + 40;
      const message = { role: "assistant", content: reply.content ?? null, reasoning_content: "Next step." };
      if (reply.calls) message.tool_calls = reply.calls.map((c, i) => ({ id: `call_${i}_${Math.random().toString(36).slice(2)}`, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
      return {
        message,
        finishReason: reply.calls ? "tool_calls" : "stop",
        usage: { prompt_tokens: prompt, completion_tokens: 20, prompt_cache_hit_tokens: hit, prompt_cache_miss_tokens: prompt - hit, reasoning_tokens: 3 },
      };
    }));
    return { chain, root, model: MODEL, caps: capsFor, registry, store, version: "bench", now: () => new Date("2026-12-02T12:00:00Z") };
  };
  return { store, start: () => Engine.start(options()), resume: (id) => Engine.resume(options(), id) };
}

async function drain(engine, prompt) {
  for await (const e of engine.submit(prompt)) {
    if (e.type === "turn.complete" && e.stopReason !== "completed") throw new Error(`loop bench: ${e.stopReason} ${e.error ?? ""}`);
  }
}

const time = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

const tokensOf = (request) => renderRequest(request).reduce((n, p) => n + countTokens(p), 0);

/** Fill a session to `target` tokens, then time turns of `rounds` rounds, each from the same
 *  filled state (the session file is restored and resumed, so the context does not grow
 *  from one measurement to the next; one warm-up round after each resume is not timed). */
async function measure(target, text, rounds, turns) {
  const root = mkdtempSync(join(tmpdir(), "deepcode-loop-"));
  const home = mkdtempSync(join(tmpdir(), "deepcode-loop-home-"));
  let mode = "fill";
  let filled = 0;
  let step = 0;
  let last;
  const session = instantSession(root, home, text, (request) => {
    last = request;
    if (mode === "fill") {
      filled = tokensOf(request);
      const done = filled >= target || ++step % 10 === 0;
      return done ? { content: "Loaded.", promptTokens: filled } : { calls: [1, 2, 3, 4].map((p) => ({ name: "Fill", arguments: { part: p } })), promptTokens: filled };
    }
    return ++step < rounds ? { calls: [{ name: "Noop", arguments: { n: step } }] } : { content: "Done." };
  });
  try {
    const filling = await session.start();
    for (let part = 1; filled < target; part++) await drain(filling, `Load part ${part} of the material into the conversation.`);
    const file = session.store.fileOf(filling.sessionId);
    const snapshot = readFileSync(file);
    mode = "measure";
    const perRound = [];
    const floor = [];
    for (let t = 0; t <= turns; t++) {
      writeFileSync(file, snapshot);
      const engine = await session.resume(filling.sessionId);
      step = rounds - 1;
      await drain(engine, "Warm up: answer at once.");
      step = 0;
      const t0 = performance.now();
      await drain(engine, `Round trip ${t}: call Noop until told otherwise.`);
      if (t > 0) perRound.push((performance.now() - t0) / rounds); // the first turn warms the JIT
      // The floor is timed right after each turn, so both see the same load on a busy machine.
      for (let i = 0; i < 3; i++) {
        const t1 = performance.now();
        JSON.stringify(last);
        if (t > 0) floor.push(performance.now() - t1);
      }
    }
    return { tokens: tokensOf(last), messages: last.messages.length, perRound: median(perRound), floor: median(floor) };
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

export async function run() {
  const text = corpus();
  const rounds = fast ? 10 : 20;
  const turns = fast ? 3 : 7;
  const rows = [["context", "tokens", "messages", "deepcode per round", "JSON.stringify (floor)", "ratio", "deepcode minus floor"]];
  for (const target of [10_000, 200_000]) {
    const r = await measure(target, text, rounds, turns);
    rows.push([`${target / 1000}K`, String(r.tokens), String(r.messages), time(r.perRound), time(r.floor), fmt.ratio(r.perRound / r.floor), time(r.perRound - r.floor)]);
  }
  table("loop: deepcode's own time per model round (instant model) against serialising the request", rows);
}
