// The scripted sessions of the cache benchmark (and of any benchmark that wants the same
// workloads): what the user types and what the simulated model answers, over a generated
// repository (test/fixtures/bench/project.mjs) or a long document (…/document.mjs). Everything
// is deterministic — the project, the prompts, the replies — so two agents given the same
// session see the same model and the same tool results, and a run's hit rates do not depend
// on the clock.
//
// The scripted model is stateless: it finds the turn from the last user message that is one of
// the session's prompts and the step from the assistant messages after it. So it answers an
// agent that truncates its history, a compacted log, and a new process alike.
//
// Sessions (`sessions({ fast })`): coding (50 turns, ≥ 200 requests), document Q&A, compaction,
// resumed twice in new processes (the real CLI), AGENTS.md changed at turn 10, and plan mode's
// planner on some turns with a rewind of the conversation (two models, one log). Fast mode:
// the same shapes, fewer turns. Runners: `runDeepcode(spec)` and `runNaive(spec)` return every
// billed request with its usage and the rendered size of the reply (for the optimum).
// `delegatingSession({ fast })`: turns that start explore subagents (two at once) through the
// real CLI; its requests belong to several conversations (the main one and each subagent's), so
// each request also says which earlier request it extends (`pred`) for the optimum.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Chain } from "../dist/src/core/chain.js";
import { billedModel } from "../dist/src/core/billed-model.js";
import { registerEffects } from "../dist/src/core/effects.js";
import { registerRepairs } from "../dist/src/core/repair/index.js";
import { Engine } from "../dist/src/core/engine/engine.js";
import { ToolRegistry } from "../dist/src/core/engine/tools.js";
import { registerPlugin } from "../dist/src/core/plugins.js";
import { builtinTools } from "../dist/src/builtins/index.js";
import { capsFor, createProvider } from "../dist/src/providers/index.js";
import instructionsMod from "../dist/mods/instructions/index.js";
import { withOptions as mcpWithOptions } from "../dist/mods/mcp/index.js";
import planMod from "../dist/mods/plan/index.js";
import { profileOf } from "../dist/src/core/cost/run/tier-choice.js";
import { DEFAULT_TIERS } from "../dist/src/core/cost/index.js";
import { toolEffects } from "../dist/src/lib/effects/tool-effects.js";
import { CommandRegistry } from "../dist/src/core/commands.js";
import { countTokens, renderRequest, startSimulator } from "../test/sim/server.mjs";
import { renderMessage } from "../test/sim/render.mjs";
import { normalizeReply, replyAsMessage } from "../test/sim/script.mjs";
import { thinkingOn } from "../test/sim/validate.mjs";
import { NaiveAgent } from "./naive-agent.mjs";
import { AGENTS_MD_CHANGED, MODULE_MARKER, MODULES, TESTS_MARKER, helperSource, helperTest, makeProject } from "../test/fixtures/bench/project.mjs";
import { handbook } from "../test/fixtures/bench/document.mjs";

const MODEL = "deepseek-flash";
const API_KEY = "sk-bench-0000";
const CLI = fileURLToPath(new URL("../bin/deepcode.js", import.meta.url));
const AGENTS_CHANGE = "must also say what was received";
if (!AGENTS_MD_CHANGED.includes(AGENTS_CHANGE)) throw new Error("bench: the changed AGENTS.md lost its marker line");
/** deepcode's clock in the benchmark: fixed, so a run never straddles midnight. */
const NOW = new Date("2026-12-02T12:00:00Z");

/**
 * The six sessions. A spec: `id`, `label`, `turns` ({prompt, steps, final, planned?}), and optionally
 * `compaction` (the engine's window and threshold), `cli` (run by the real CLI, one process
 * per turn, `-c` each time), `agentsChangeAt` (AGENTS.md is rewritten before this turn, 0-based),
 * `mcp` (the mcp mod's configuration, from the project root: its servers run in process),
 * `plan` (turn indexes planned first, through the plan mod's /plan, answered "go") and
 * `rewind` ({ after, to }: the conversation is rewound to turn `to`'s end after turn `after`).
 */
export function sessions({ fast = false } = {}) {
  const coding = codingTurns(fast ? 10 : 50);
  const readOnly = codingTurns(50).filter((t) => t.readOnly).slice(0, 3);
  return [
    { id: "coding", label: `coding, ${coding.length} turns, tools`, turns: coding },
    { id: "document", label: "long-document Q&A", turns: documentTurns(fast ? 8 : 30, fast ? 16 : 80) },
    // Sized so that exactly one automatic compaction happens, about three quarters of the way
    // through, with ≥ 10% to spare either way (the test checks that it happens once).
    { id: "compaction", label: "compacts once", turns: codingTurns(fast ? 8 : 16), compaction: { window: fast ? 27_000 : 52_000, threshold: 0.8 } },
    { id: "resumed", label: "resumed twice (3 processes)", turns: readOnly, cli: true },
    { id: "agents", label: `AGENTS.md changed at turn ${fast ? 5 : 10}`, turns: codingTurns(fast ? 8 : 20), agentsChangeAt: fast ? 4 : 9 },
    plannedSession(fast),
  ];
}

/**
 * A session that delegates: each turn the main agent starts two explore subagents in one reply
 * (each greps and reads a module, then reports), then answers from what they returned. Run by
 * the real CLI, one process per turn (`-c`), so a subagent type's prefix must be cached across
 * its runs, its parallel runs and its processes. `tasks` are what the scripted model answers
 * the subagents with.
 */
export function delegatingSession({ fast = false } = {}) {
  const n = fast ? 3 : 5; // two modules a turn: each of the ten once
  const turns = [];
  const tasks = [];
  for (let t = 0; t < n; t++) {
    const a = MODULES[(2 * t) % MODULES.length];
    const b = MODULES[(2 * t + 1) % MODULES.length];
    const ask = (m) => `Find where the ${m.noun} helpers of the ${m.name} module are defined and which of them validate their input. Report file paths and line numbers.`;
    const explore = (m) => ({
      prompt: ask(m),
      steps: [
        { reasoning: `Search for the ${m.name} module's exports.`, tool_calls: [call("Grep", { pattern: "^export function", path: `src/${m.name}.js`, output_mode: "content", "-n": true })] },
        { reasoning: "Read the module to see its guards.", tool_calls: [call("Read", { file_path: `src/${m.name}.js` })] },
      ],
      final: { content: `src/${m.name}.js defines ${m.fns.map((f) => `${f.name} (line ${f.line + 5})`).join(", ")}; every one of them throws a TypeError on bad input.` },
    });
    tasks.push(explore(a), explore(b));
    turns.push({
      readOnly: true,
      prompt: `Use subagents in parallel: where are the ${a.name} and ${b.name} helpers, and do they validate their input?`,
      steps: [{ reasoning: "Two independent searches: one subagent each.", tool_calls: [call("Task", { subagent_type: "explore", description: `find ${a.name} helpers`, prompt: ask(a) }), call("Task", { subagent_type: "explore", description: `find ${b.name} helpers`, prompt: ask(b) })] }],
      final: { reasoning: "Both came back.", content: `The ${a.name} helpers are in src/${a.name}.js and the ${b.name} helpers in src/${b.name}.js; all of them validate their input and throw a TypeError.` },
    });
  }
  return { id: "subagents", label: `delegates to subagents (${n} turns, ${2 * n} explore runs)`, turns, tasks, cli: true };
}

/**
 * Plan mode and a rewind in one session: some change turns are planned first by the planner
 * (reasoner-budget, another model: its own cache line) and then carried out on the session's
 * tier after a "go"; after one turn the conversation is rewound to an earlier turn's end and
 * the session goes on from there. `plan` and `rewind` are 0-based turn indexes.
 */
function plannedSession(fast) {
  const n = fast ? 8 : 16;
  const plan = fast ? [2, 4] : [2, 4, 9, 12];
  const rewind = fast ? { after: 5, to: 3 } : { after: 11, to: 7 };
  const turns = codingTurns(n).map((t, i) => (plan.includes(i) ? plannedTurn(t) : t));
  return { id: "planned", label: `planner on ${plan.length} turns, rewind ${rewind.after + 1}→${rewind.to + 1}`, turns, plan, rewind };
}

/** A change turn as plan mode runs it: the planner's read-only steps and its plan (one turn),
 *  then the changes and the final answer after "go" (the next turn). The scripted model counts
 *  replies after the task's prompt, so one list covers both turns. */
export function plannedTurn(t) {
  const reads = (s) => (s.tool_calls ?? []).every((c) => ["Read", "Grep", "Glob"].includes(c.name));
  const k = t.steps.findIndex((s) => !reads(s));
  const look = t.steps.slice(0, k < 0 ? t.steps.length : k);
  const act = k < 0 ? [] : t.steps.slice(k);
  const plan = {
    reasoning: "I have read what I need; the plan follows the module's conventions.",
    content: `## Steps\n${act.map((s, i) => `${i + 1}. ${(s.tool_calls ?? []).map((c) => `${c.name} ${c.arguments.file_path ?? c.arguments.command ?? ""}`).join(", ")}`).join("\n")}\n## Files\n- as named in the steps\n## Verification\n- node test/run.js`,
  };
  return { ...t, planned: true, steps: [...look, plan, ...act] };
}

const call = (name, args) => ({ name, arguments: args });
const RUN_TESTS = call("Bash", { command: "node test/run.js", description: "Run the test suite" });
const VERBS = ["compact", "dedupe", "clean", "prune", "tidy", "filter", "strip", "sift", "trim", "squeeze"];
const NOUNS = ["Entries", "Rows", "Items", "Records", "Lines"];

/**
 * `n` turns of work on the fixture project, in five kinds that cycle: explore (Glob, Grep,
 * parallel Reads), fix an error message (Grep, Read, Edit, Bash), add a helper with its test
 * (parallel Reads, two Edits, Bash), answer a question (a Read that fails, Grep with context,
 * Read of a slice), change two modules (Grep, parallel Reads, two Edits, two Bash). About 5
 * requests per turn. Each (kind, module) pair occurs once in 50 turns, so every prompt differs.
 */
export function codingTurns(n) {
  const turns = [];
  for (let t = 0; t < n; t++) {
    const kind = t % 5;
    const mod = MODULES[(Math.floor(t / 5) + 3 * kind) % MODULES.length];
    const src = `src/${mod.name}.js`;
    const helper = VERBS[t % 10] + NOUNS[Math.floor(t / 10) % NOUNS.length];
    turns.push([explore, fixMessage, addHelper, question, twoModules][kind]({ t, mod, src, helper }));
  }
  return turns;
}

function explore({ mod, src }) {
  const others = MODULES.filter((m) => m !== mod).slice(0, 3).map((m) => m.name);
  return {
    readOnly: true,
    prompt: `I'm new to this codebase. Give me an overview of the ${mod.name} module: what it exports, how it fits with the rest, and how it is tested.`,
    steps: [
      { reasoning: `The user wants an overview of ${src}. I'll list the source and test files first.`, content: "Let me look at the layout first.", tool_calls: [call("Glob", { pattern: "src/**/*.js" }), call("Glob", { pattern: "test/*.js" })] },
      { reasoning: "Ten modules with one test file each. Counting exported functions per module shows how big each one is.", tool_calls: [call("Grep", { pattern: "^export function", path: "src", output_mode: "count" })] },
      { reasoning: `I'll read the README for the overall picture and ${src} itself.`, tool_calls: [call("Read", { file_path: "README.md" }), call("Read", { file_path: src })] },
    ],
    final: {
      reasoning: "I have what I need for the overview: the exports, the conventions and the test layout.",
      content: `\`${src}\` holds ledgerlite's ${mod.noun} helpers: ${mod.fns.map((f) => `\`${f.name}\``).join(", ")}. ` +
        `Each checks its input and throws a \`TypeError\` that starts with its own name, and none touches the disk or the clock, so they compose freely with ${others.join(", ")} and the rest.\n\n` +
        `Tests live in \`test/${mod.name}.test.js\` (one "accepts a typical value" and one "rejects a bad argument" test per function); \`node test/run.js\` runs every test file and prints one line per test.`,
    },
  };
}

function fixMessage({ mod, src }) {
  const fn = mod.fns[1];
  const fixed = fn.guard.replace(/"\);$/, ` (got " + typeof ${fn.param} + ")");`);
  return {
    prompt: `${fn.name} in ${src} throws a TypeError that doesn't say what it received. Make the message include the type of the bad argument, then run the tests.`,
    steps: [
      { reasoning: `First find where ${fn.name} is defined.`, tool_calls: [call("Grep", { pattern: `function ${fn.name}\\b`, path: "src", output_mode: "content", "-n": true })] },
      { reasoning: "Found it. I'll read the module before editing.", tool_calls: [call("Read", { file_path: src })] },
      { reasoning: `The guard on line ${fn.line + 6} throws without saying what it got; I'll add the type of ${fn.param}.`, content: "I'll update the guard's message.", tool_calls: [call("Edit", { file_path: src, old_string: fn.guard, new_string: fixed })] },
      { reasoning: "Now run the tests to make sure nothing depended on the exact message.", tool_calls: [RUN_TESTS] },
    ],
    final: { reasoning: "The tests pass.", content: `Updated the guard in \`${fn.name}\` (${src}, line ${fn.line + 6}): the \`TypeError\` now ends with "(got <type>)", e.g. "(got symbol)". The tests still pass (\`node test/run.js\`).` },
  };
}

function addHelper({ mod, src, helper }) {
  const test = `test/${mod.name}.test.js`;
  return {
    prompt: `Add a helper ${helper}(items) to ${src} that drops null and undefined entries from a list, with a test in ${test}.`,
    steps: [
      { reasoning: "I'll read the module and its tests to follow their style.", content: "Reading the module and its tests first.", tool_calls: [call("Read", { file_path: src }), call("Read", { file_path: test })] },
      { reasoning: "New helpers go above the end-of-module marker.", tool_calls: [call("Edit", { file_path: src, old_string: MODULE_MARKER, new_string: `${helperSource(helper, mod.noun)}\n\n${MODULE_MARKER}` })] },
      { reasoning: "And a test above the end-of-tests marker.", tool_calls: [call("Edit", { file_path: test, old_string: TESTS_MARKER, new_string: `${helperTest(helper)}\n${TESTS_MARKER}` })] },
      { reasoning: "Run the tests.", tool_calls: [RUN_TESTS] },
    ],
    final: { reasoning: "All tests pass, including the new one.", content: `Added \`${helper}(items)\` to ${src} (it validates its argument like the other helpers and keeps the order), and a test in ${test}. All tests pass.` },
  };
}

function question({ mod, src }) {
  const fn = mod.fns[3];
  return {
    readOnly: true,
    prompt: `Where is ${fn.name} defined, and what does it do with invalid input?`,
    steps: [
      { reasoning: `It is probably under lib/, let me check lib/${mod.name}.js.`, tool_calls: [call("Read", { file_path: `lib/${mod.name}.js` })] },
      { reasoning: "There is no lib/ folder; search for it instead.", tool_calls: [call("Grep", { pattern: fn.name, path: ".", output_mode: "content", "-n": true, "-C": 2 })] },
      { reasoning: "Read the function itself.", tool_calls: [call("Read", { file_path: src, offset: fn.line, limit: 12 })] },
    ],
    final: { reasoning: "The guard clause answers the second part.", content: `\`${fn.name}\` is defined in ${src} at line ${fn.line + 5} and tested in test/${mod.name}.test.js. Given invalid input it throws a \`TypeError\` whose message starts with "${fn.name}:"; it never returns a fallback value.` },
  };
}

function twoModules({ mod, src, helper }) {
  const other = MODULES[(MODULES.indexOf(mod) + 5) % MODULES.length];
  const src2 = `src/${other.name}.js`;
  const edit = (file, m) => call("Edit", { file_path: file, old_string: MODULE_MARKER, new_string: `${helperSource(helper, m.noun)}\n\n${MODULE_MARKER}` });
  return {
    prompt: `Both ${mod.name} and ${other.name} need a ${helper} helper like the other list helpers. Add it to both modules, run the tests, and show me the diff summary.`,
    steps: [
      { reasoning: "Which modules already have list helpers taking items?", tool_calls: [call("Grep", { pattern: "^export function \\w+\\(items\\)", path: "src", output_mode: "files_with_matches" })] },
      { reasoning: "Read both modules before changing them.", tool_calls: [call("Read", { file_path: src }), call("Read", { file_path: src2 })] },
      { reasoning: `Add ${helper} to ${src}.`, tool_calls: [edit(src, mod)] },
      { reasoning: `And to ${src2}.`, tool_calls: [edit(src2, other)] },
      { reasoning: "Run the tests.", tool_calls: [RUN_TESTS] },
      { reasoning: "The user wants the diff summary.", tool_calls: [call("Bash", { command: "git diff --stat", description: "Summarise the changes" })] },
    ],
    final: { reasoning: "Done; summarise.", content: `Added \`${helper}(items)\` to ${src} and ${src2}, in the same style as the existing helpers. The tests pass, and \`git diff --stat\` shows the changes are confined to src/ and test/.` },
  };
}

/** `questions` turns about a handbook of `sections` sections pasted in the first prompt. */
export function documentTurns(questions, sections) {
  const { text, facts } = handbook(sections);
  const turns = [];
  for (let i = 0; i < questions; i++) {
    const f = facts[(i * 7) % sections];
    const q = `According to section ${f.section} ("${f.title}"), what is the rule about the ${f.topic}? Quote the sentence and tell me what it means for the on-call engineer.`;
    turns.push({
      prompt: i === 0 ? `Here is our operations handbook. Read it carefully; I'll ask you several questions about it.\n\n<document>\n${text}\n</document>\n\nFirst question: ${q}` : q,
      steps: [],
      final: {
        reasoning: `Section ${f.section} covers the ${f.topic}; the rule is in its second paragraph.`,
        content: `Section ${f.section} says: "${f.sentence}"\n\nFor the on-call engineer this means the ${f.topic} is covered by that rule even at night: check it before acting, and note in the incident channel which part of section ${f.section} applied.`,
      },
    });
  }
  return turns;
}

/** The simulated model of a session, recording for each request what its reply renders to. */
export function scriptedModel(spec) {
  const all = [...spec.turns, ...(spec.tasks ?? [])];
  const byPrompt = new Map(all.map((t, i) => [t.prompt, i]));
  if (byPrompt.size !== all.length) throw new Error(`session ${spec.id}: prompts must be unique`);
  const replies = [];
  const entryFor = (json) => {
    const messages = json.messages;
    if (json.tool_choice === "none") return { entry: digestReply(messages), digest: true };
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i];
      if (m.role !== "user" || !byPrompt.has(m.content)) continue;
      const turn = all[byPrompt.get(m.content)];
      const step = messages.slice(i + 1).filter((x) => x.role === "assistant").length;
      return { entry: step < turn.steps.length ? turn.steps[step] : turn.final, digest: false, turn: byPrompt.get(m.content) };
    }
    throw new Error(`session ${spec.id}: the scripted model found no prompt of its session in the request`);
  };
  return {
    replies,
    respond(json) {
      const { entry, digest, turn } = entryFor(json);
      // A thinking model reasons for hundreds of tokens a round, not one sentence: give each
      // reply a realistic, deterministic amount of reasoning, so costs (and the cost estimate's
      // calibration) are measured on output like a real session's.
      const reply = { chunkSize: 512, ...entry, ...(thinkingOn(json) ? { reasoning: thinkLonger(entry.reasoning ?? "", json.messages.length) } : {}) };
      // What the simulator persists after this request: the input + this reply rendered as the
      // next request would send it back (with its reasoning, which deepcode keeps).
      const rendered = renderMessage(replyAsMessage(normalizeReply(reply, { thinking: thinkingOn(json) }), true));
      replies.push({ tokens: countTokens(rendered), digest, turn });
      return reply;
    },
  };
}

const THOUGHT = (
  "check the file first then the tests because the helper must keep the order and validate its argument " +
  "the guard throws a TypeError so the message should name what it got and the callers rely on the prefix " +
  "there may be another module with the same pattern so search before editing and run the tests afterwards " +
  "the user asked for a small change so keep the diff minimal and follow the existing style of the module"
).split(" ");

/** `first` followed by 60–340 more words of plausible reasoning (about 80–450 tokens), the
 *  same for the same request every run. */
function thinkLonger(first, seed) {
  let x = (seed * 2654435761) >>> 0;
  const next = () => (x = (Math.imul(x ^ (x >>> 15), 2246822519) + 0x9e3779b9) >>> 0);
  const words = 60 + (next() % 280);
  const out = [];
  for (let i = 0; i < words; i++) out.push(THOUGHT[next() % THOUGHT.length]);
  return `${first} ${out.join(" ")}.`.trim();
}

function digestReply(messages) {
  const prompts = messages.filter((m) => m.role === "user" && !m.content.startsWith("[deepcode]")).length;
  return {
    reasoning: "I need to summarise the conversation so far so that the work can continue from the digest alone.",
    content: `Digest: the user has asked ${prompts} questions and change requests about the ledgerlite project (src/*.js, tests in test/*.test.js, run with node test/run.js). ` +
      "Helpers were added to several modules with tests; error messages of guard clauses now name the type they got; all tests pass. " +
      "Open: nothing pending beyond the latest request. Next step: answer the next request the same way (read, edit, run the tests).",
  };
}

/** One billed request as the optimum and the cost need it. */
function record(r, reply) {
  const u = r.usage;
  return { model: r.json.model, turn: reply.turn, prompt: u.prompt_tokens, hit: u.prompt_cache_hit_tokens, miss: u.prompt_cache_miss_tokens, completion: u.completion_tokens, usage: u, replyTokens: reply.tokens, digest: reply.digest, prefixTokens: reply.digest ? prefixTokens(r.json) : undefined };
}

/**
 * For requests of several conversations: whether it is a subagent's (`subagent`), `pred`, the
 * latest earlier request this one extends
 * (its messages and tools are this one's start), and for a request that extends none — a
 * subagent's first — `shared`, the tokens of its leading rendered pieces (system prompt, tools,
 * messages) that an earlier request began with too.
 */
function conversations(billed, requests) {
  const keys = billed.map((r) => ({ tools: JSON.stringify(r.json.tools ?? null), messages: r.json.messages.map((m) => JSON.stringify(m)), pieces: renderRequest(r.json) }));
  keys.forEach((k, i) => {
    requests[i].subagent = String(billed[i].json.messages[0]?.content ?? "").startsWith("You are a subagent");
    for (let j = i - 1; j >= 0; j--) {
      const p = keys[j];
      if (p.tools === k.tools && p.messages.length < k.messages.length && p.messages.every((m, x) => m === k.messages[x])) {
        requests[i].pred = j;
        return;
      }
    }
    let shared = 0;
    for (let j = 0; j < i; j++) {
      let n = 0;
      let tokens = 0;
      while (n < k.pieces.length && n < keys[j].pieces.length && k.pieces[n] === keys[j].pieces[n]) tokens += countTokens(k.pieces[n++]);
      shared = Math.max(shared, tokens);
    }
    requests[i].shared = shared;
  });
}

/** Tokens of a request's immutable prefix: its leading system message(s) and its tools. */
function prefixTokens(json) {
  const leading = json.messages.findIndex((m) => m.role !== "system");
  const pieces = renderRequest(json).slice(0, (leading < 0 ? json.messages.length : leading) + (json.tools?.length ? 1 : 0));
  return pieces.reduce((n, p) => n + countTokens(p), 0);
}

async function withSimulator(spec, body) {
  const model = scriptedModel(spec);
  const sim = await startSimulator({ script: { respond: (json) => model.respond(json) }, apiKey: API_KEY });
  const root = makeProject(mkdtempSync(join(tmpdir(), `deepcode-bench-${spec.id}-`)));
  const home = mkdtempSync(join(tmpdir(), "deepcode-bench-home-"));
  try {
    const extra = await body({ sim, root, home });
    const billed = sim.requests.filter((r) => r.usage);
    if (billed.length !== model.replies.length) throw new Error(`session ${spec.id}: ${sim.requests.length - billed.length} request(s) were refused by the simulator`);
    // Evidence that the session had its shape: how many requests carried the changed AGENTS.md.
    const sawNewInstructions = billed.filter((r) => r.body.includes(AGENTS_CHANGE)).length;
    const requests = billed.map((r, i) => record(r, model.replies[i]));
    if (spec.tasks) conversations(billed, requests);
    return { requests, sawNewInstructions, ...extra };
  } finally {
    await sim.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

function beforeTurn(spec, i, root) {
  if (spec.agentsChangeAt === i) writeFileSync(join(root, "AGENTS.md"), AGENTS_MD_CHANGED);
}

/** deepcode on a session: in process (as test/helpers/harness.ts assembles it) or the real CLI.
 *  Besides the requests: deepcode's notices, and the tool calls that ended in an error. */
export function runDeepcode(spec) {
  return withSimulator(spec, async ({ sim, root, home }) => {
    const seen = { notices: [], toolErrors: [] };
    const observe = (e, i) => {
      if (e.type === "notice") seen.notices.push({ level: e.level, code: e.code, message: e.message });
      if (e.type === "tool.end" && e.output.isError) seen.toolErrors.push(`${e.tool}: ${e.output.content.split("\n")[0]}`);
      if (e.type === "turn.complete" && e.stopReason !== "completed") throw new Error(`session ${spec.id}, turn ${i + 1}: ${e.stopReason} ${e.error ?? ""}`);
    };
    const engine = spec.cli ? undefined : await inProcessEngine(spec, { sim, root, home });
    const endOf = []; // the engine's turn number at the end of each session turn (a planned one takes two)
    for (const [i, turn] of spec.turns.entries()) {
      beforeTurn(spec, i, root);
      if (spec.beforeTurn) await spec.beforeTurn(i);
      if (turn.planned) await planned(engine, turn.prompt, (e) => observe(e, i));
      else {
        const events = engine ? engine.submit(turn.prompt) : await cliTurn(turn.prompt, { root, home, url: sim.url });
        for await (const e of events) observe(e, i);
      }
      endOf.push(engine?.turns);
      if (spec.rewind?.after === i) {
        const r = await engine.chain.dispatch({ type: "context.rewind", sessionId: engine.sessionId, turn: endOf[spec.rewind.to] });
        if (!r.ok) throw new Error(`session ${spec.id}: the rewind failed: ${r.error}`);
      }
    }
    if (spec.mcp) await engine?.close("exit"); // its servers end with the session
    return seen;
  });
}

/** A planned turn through the plan mod's own `/plan` command, the person answering "go". */
async function planned(engine, prompt, observe) {
  const cmd = engine.commands.get("plan");
  await cmd.spec.run({
    args: prompt,
    sessionId: engine.sessionId,
    signal: new AbortController().signal,
    interactive: true,
    print: () => undefined,
    submit: async (p) => {
      for await (const e of engine.submit(p)) observe(e);
    },
  });
}

async function inProcessEngine(spec, { sim, root, home }) {
  const chain = new Chain();
  registerEffects(chain);
  const registry = new ToolRegistry();
  for (const t of builtinTools()) registry.add(t, "builtin");
  registerRepairs(chain, { tools: () => registry.list().map((t) => t.spec) });
  // No person to ask in a benchmark: every known tool is allowed (the CLI's gate would ask).
  chain.on("builtin", "bench-allow", "tool.check", null, (e) => (e.readOnly === null ? { decision: "deny", reason: "unknown tool" } : { decision: "allow", by: "bench" }));
  const load = await registerPlugin({ chain, root, home, addTool: (t, src) => registry.add(t, src), removeTool: (n) => registry.remove(n), log: () => undefined, config: () => ({}) }, instructionsMod, "builtin", "mods/instructions");
  if (!load.ok) throw new Error(`mod instructions: ${load.error}`);
  if (spec.mcp) {
    const commands = new CommandRegistry();
    const host = { chain, root, home, addTool: (t, src) => registry.add(t, src), removeTool: (n) => registry.remove(n), addCommand: (c, src) => commands.add(c, src), removeCommand: (n, c) => commands.remove(n, c), addMentions: () => () => undefined, log: () => undefined, config: () => ({}) };
    // The servers as the mod's configuration (configure/'s output), not from settings files.
    const m = await registerPlugin(host, mcpWithOptions(() => spec.mcp(root)), "builtin", "mods/mcp");
    if (!m.ok) throw new Error(`mod mcp: ${m.error}`);
  }
  let commands;
  if (spec.plan) {
    // Plan mode as assembly loads it: in the prepend tier (outside the benchmark's allow-all),
    // with the default planner; the person's answer to the plan is "go".
    commands = new CommandRegistry();
    chain.setCore("tool.effects", (e) => toolEffects(e.tool, e.input, { root, cwd: root, home, spec: registry.get(e.tool)?.spec }));
    chain.on("builtin", "bench-person", "person.ask", null, () => ({ decision: "allow", choice: "g" }));
    const profile = profileOf("reasoner-budget", structuredClone(DEFAULT_TIERS));
    const host = { chain, root, home, addTool: (t, src) => registry.add(t, src), removeTool: (n) => registry.remove(n), addCommand: (c, src) => commands.add(c, src), removeCommand: (n, c) => commands.remove(n, c), log: () => undefined, config: () => ({}), facts: { version: "bench", interactive: false, sessionsDir: join(home, "sessions"), env: {}, secretEnv: [], additionalDirectories: [], flags: { planMode: false, mcpConfig: [], strictMcpConfig: false }, models: [], model: "deepseek-flash", tiers: { "reasoner-budget": profile } } };
    const m = await registerPlugin(host, planMod, "prepend", "mods/plan");
    if (!m.ok) throw new Error(`mod plan: ${m.error}`);
  }
  const provider = createProvider({ baseUrl: sim.url, apiKey: API_KEY, keySource: "bench" });
  chain.setCore("model.request", billedModel(chain, (e) => provider.request(e.request, { signal: e.signal, onDelta: e.onDelta })));
  const engine = await Engine.start({ chain, root, model: MODEL, caps: capsFor, registry, version: "bench", now: () => NOW, compaction: spec.compaction });
  engine.commands = commands;
  return engine;
}

/** The stream-json lines of one `-p` run (Claude Code's shape) as the engine's events that
 *  runDeepcode observes: notices, tool ends with their error state, the turn's end. */
function asEvents(lines) {
  const names = new Map();
  const events = [];
  for (const l of lines) {
    if (l.type === "system" && l.subtype === "notice") events.push({ type: "notice", level: l.level, code: l.code, message: l.message });
    for (const b of l.type === "assistant" || l.type === "user" ? l.message.content : []) {
      if (b.type === "tool_use") names.set(b.id, b.name);
      if (b.type === "tool_result") events.push({ type: "tool.end", tool: names.get(b.tool_use_id) ?? "?", output: { isError: b.is_error, content: b.content } });
    }
    if (l.type === "result") events.push({ type: "turn.complete", stopReason: l.stop_reason, error: l.errors?.[0] });
  }
  return events;
}

/** One `deepcode -p PROMPT -c` in a new process; the events it printed. */
function cliTurn(prompt, { root, home, url }) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "-p", prompt, "-c", "--output-format", "stream-json"], {
      cwd: root,
      env: { ...process.env, DEEPSEEK_BASE_URL: url, DEEPSEEK_API_KEY: API_KEY, DEEPCODE_HOME: home, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const lines = out.split("\n").filter(Boolean).map((l) => JSON.parse(l));
      const result = lines.at(-1);
      if (code !== 0 || result?.type !== "result" || result.stop_reason !== "completed") return reject(new Error(`deepcode -p exited ${code}: ${err.trim() || out.slice(-500)}`));
      resolve(asEvents(lines));
    });
  });
}

/** The naive agent on the same session, in this process, against its own simulator. */
export function runNaive(spec) {
  return withSimulator(spec, async ({ sim, root }) => {
    const agent = new NaiveAgent({ baseUrl: sim.url, apiKey: API_KEY, model: MODEL, root, tools: builtinTools() });
    for (const [i, turn] of spec.turns.entries()) {
      beforeTurn(spec, i, root);
      await agent.turn(turn.prompt);
    }
    return { truncations: agent.truncations, toolErrors: agent.toolErrors };
  });
}
