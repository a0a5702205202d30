// A real-shaped session with subagents, for the cost estimate's calibration (bench/cost.mjs):
// the coding session's turns (bench/sessions.mjs `codingTurns`: explore, fix, add a helper,
// answer a question, change two modules) with, every third turn, a turn that hands work to
// one to three subagents through the Task tool — explore agents that grep and read a module
// (the built-in `explore` type runs at chat-fast: flash without thinking) and now and then a
// general-purpose agent (it inherits the calling turn's tier, chat-full) that runs the tests
// and reads a failure. Some delegating prompts say how many subagents to use, some only ask
// for delegation; one overview turn delegates without being asked (a model may). The main
// agent's reply after the Task results answers from them. A second, shorter session in the same
// project follows (the coding turns go on where the first stopped), so a session's first
// delegating turn is seen both with no earlier run anywhere and with the project's earlier runs.
//
// The scripted model (sessions.mjs `scriptedModel`) answers the subagents' own requests from
// `tasks`: it finds the task by its prompt, so each task prompt occurs once.

import { MODULES } from "../test/fixtures/bench/project.mjs";
import { codingTurns } from "./sessions.mjs";

const call = (name, args) => ({ name, arguments: args });
const COUNT = ["", "one", "two", "three"];

/** What an explore subagent is asked about a module, in one of three ways (each pair once). */
const ASKS = [
  (m) => `Find where the ${m.noun} helpers of the ${m.name} module are defined and which of them validate their input. Report file paths and line numbers.`,
  (m) => `List the exported functions of src/${m.name}.js with the line each starts on, and say which test file covers them.`,
  (m) => `In src/${m.name}.js, which functions take a string and how do they reject other types? Quote the guard lines.`,
];

function exploreTask(m, way) {
  const steps = way === 1
    ? [
      { reasoning: "Count and list the exports first.", tool_calls: [call("Grep", { pattern: "^export function", path: `src/${m.name}.js`, output_mode: "content", "-n": true })] },
      { reasoning: "Check the test file exists.", tool_calls: [call("Glob", { pattern: `test/${m.name}*.js` })] },
    ]
    : [
      { reasoning: `Search the ${m.name} module's guards.`, tool_calls: [call("Grep", { pattern: "throw new TypeError", path: `src/${m.name}.js`, output_mode: "content", "-n": true })] },
      { reasoning: "Read the module to see its guards in context.", tool_calls: [call("Read", { file_path: `src/${m.name}.js` })] },
    ];
  return {
    prompt: ASKS[way](m),
    steps,
    final: { content: `src/${m.name}.js: ${m.fns.map((f) => `${f.name} (line ${f.line + 5})`).join(", ")}; each throws a TypeError naming itself on bad input; tests in test/${m.name}.test.js.` },
  };
}

/** A general-purpose subagent (the calling turn's tier): runs the tests and reads one test file. */
function testerTask(m) {
  return {
    prompt: `Run the test suite and tell me whether anything in the ${m.name} module fails; if all pass, say how many tests cover it.`,
    steps: [
      { reasoning: "Run the whole suite once.", tool_calls: [call("Bash", { command: "node test/run.js", description: "Run the test suite" })] },
      { reasoning: `Count the ${m.name} tests.`, tool_calls: [call("Read", { file_path: `test/${m.name}.test.js` })] },
    ],
    final: { reasoning: "All green.", content: `All tests pass; test/${m.name}.test.js has two tests per function of src/${m.name}.js.` },
  };
}

/**
 * `n` turns, then a second session of `later` turns in the same project (its first delegating
 * turn has only the first session's runs to learn from); `tasks` the subagents' scripts. Turn i with i % 3 === 2 delegates: the number of
 * runs cycles 1, 2, 3, 2, 3, 1, …; every other delegating prompt says the number.
 */
export function subagentSession({ fast = false } = {}) {
  const n = fast ? 12 : 30;
  const later = fast ? 6 : 15;
  const base = codingTurns(n + later);
  const turns = [];
  const tasks = [];
  const RUNS = [1, 2, 3, 2, 3, 1, 2, 3, 1, 2];
  let d = 0; // delegating turns so far
  let next = 0; // the next (module, way) pair for an explore task
  const pick = () => {
    const k = next++;
    return { m: MODULES[k % MODULES.length], way: Math.floor(k / MODULES.length) % ASKS.length };
  };
  for (let i = 0; i < n + later; i++) {
    if (i % 3 !== 2) {
      // One overview turn of each session (the eleventh, an "explore" kind) delegates unasked.
      if ((i === 10 || i === n + 10) && base[i].readOnly) {
        const { m, way } = pick();
        const t = exploreTask(m, way);
        tasks.push(t);
        turns.push({ ...base[i], steps: [{ reasoning: "An explore agent can gather this.", tool_calls: [call("Task", { subagent_type: "explore", description: `survey ${m.name}`, prompt: t.prompt })] }, ...base[i].steps.slice(2)] });
      } else turns.push(base[i]);
      continue;
    }
    const runs = RUNS[d % RUNS.length];
    const said = d % 2 === 0;
    const withTester = d % 4 === 3;
    d++;
    const picked = [];
    const calls = [];
    for (let r = 0; r < runs; r++) {
      if (withTester && r === runs - 1) {
        const m = MODULES[(d * 3) % MODULES.length];
        const t = testerTask(m);
        tasks.push(t);
        picked.push(m.name + " tests");
        calls.push(call("Task", { subagent_type: "general-purpose", description: `test ${m.name}`, prompt: t.prompt }));
        continue;
      }
      const { m, way } = pick();
      const t = exploreTask(m, way);
      tasks.push(t);
      picked.push(m.name);
      calls.push(call("Task", { subagent_type: "explore", description: `look at ${m.name}`, prompt: t.prompt }));
    }
    const list = picked.length === 1 ? picked[0] : `${picked.slice(0, -1).join(", ")} and ${picked.at(-1)}`;
    const prompt = said
      ? `Use ${COUNT[runs]} subagent${runs > 1 ? "s in parallel" : ""} for this (turn ${i + 1}): check ${list}, and tell me where the helpers are and whether they validate their input.`
      : `Delegate this to subagents (turn ${i + 1}): look into ${list}, then summarise what they found about the helpers and their input checks.`;
    turns.push({
      readOnly: true,
      prompt,
      steps: [{ reasoning: `${runs === 1 ? "One independent search" : `${runs} independent searches`}: one subagent each.`, tool_calls: calls }],
      final: { reasoning: "All of them came back.", content: `Summary for ${list}: the helpers live in src/<module>.js, every one validates its input and throws a TypeError naming itself; the tests pass.` },
    });
  }
  const delegate = (ts) => ts.filter((t) => t.steps.some((st) => st.tool_calls?.some((c) => c.name === "Task"))).length;
  return { id: "subagents", label: `coding with subagents, 2 sessions: ${n} + ${later} turns (${delegate(turns.slice(0, n))} + ${delegate(turns.slice(n))} start subagents)`, turns, tasks, newSessionAt: n };
}
