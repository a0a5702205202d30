// The estimate's hard turns in one project (issue 39): a first session of ordinary coding turns,
// then a second session (a later `deepcode` in the same folder) whose first turn is a routine
// one, with turns pinned to the reasoner tier, turns planned by plan mode's planner and carried
// out after "go" (each part estimated as the REPL shows it: the planner's range, then the
// executor's), and turns whose command prints a large output (a verbose log near the bound on
// a tool result). bench/cost.mjs runs it through estimateRun like the other sessions.
//
// A turn may carry `tier` (picked for that turn, as 1–4 at the chooser does) and `planned`
// (bench/sessions.mjs plannedTurn: the planner's read-only steps and plan, then the changes).

import { MODULES } from "../test/fixtures/bench/project.mjs";
import { codingTurns, plannedTurn } from "./sessions.mjs";

const call = (name, args) => ({ name, arguments: args });

/** A turn whose test run prints a long verbose log (about 25–30 KB, near the 32 KiB bound on a
 *  tool result): it finds the module, reads it, runs the suite verbosely, then answers. */
function verboseTurn(k, mod) {
  const lines = 230 + 20 * k;
  return {
    prompt: `Run the test suite with verbose logging (run ${k + 1}) and show me the full log output, then tell me whether ${mod.name} is the slowest module.`,
    steps: [
      { reasoning: `Find the ${mod.name} module first.`, tool_calls: [call("Grep", { pattern: "^export function", path: `src/${mod.name}.js`, output_mode: "count" })] },
      { reasoning: "Read it to know what its tests exercise.", tool_calls: [call("Read", { file_path: `src/${mod.name}.js` })] },
      {
        reasoning: "Run the suite with every test's log line printed.",
        tool_calls: [call("Bash", { command: `node -e "for (let i = 0; i < ${lines}; i++) console.log('[verbose] test ' + i + ' of the ledgerlite suite passed in ' + (i % 17) + ' ms, module ' + (i % 10) + ', assertions ok, no warnings, heap stable, gc idle')"`, description: "Run the tests verbosely" })],
      },
    ],
    final: { reasoning: "The log shows the timings.", content: `The full log has ${lines} lines; every test passed. Module 6 is the slowest (16 ms at most), not ${mod.name}.` },
  };
}

export function mixedSession({ fast = false } = {}) {
  const first = fast ? 8 : 12;
  const base = codingTurns(first + 20);
  const turns = base.slice(0, first);
  // The second session: its first turn a routine change, then the hard kinds in turn.
  const kind = (k) => base.filter((t, i) => i >= first && i % 5 === k); // codingTurns' five kinds
  const [fix, add, ask, two] = [kind(1), kind(2), kind(3), kind(4)]; // fix a message (routine), add a helper, a question, two modules
  const second = [
    fix[0], ask[0], { ...fix[1], tier: "reasoner" }, plannedTurn(add[0]), verboseTurn(0, MODULES[1]),
    { ...ask[1], tier: "reasoner" }, plannedTurn(two[0]), verboseTurn(1, MODULES[4]), fix[2], plannedTurn(add[1]),
    { ...add[2], tier: "reasoner" }, verboseTurn(2, MODULES[7]),
  ].slice(0, fast ? 8 : 12);
  turns.push(...second);
  const planned = second.filter((t) => t.planned).length;
  return {
    id: "mixed",
    label: `planner, reasoner, large output, 2 sessions: ${first} + ${second.length} turns (${planned} planned)`,
    turns,
    newSessionAt: first,
  };
}
