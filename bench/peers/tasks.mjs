// The sessions of the peers benchmark: what the user asks, the steps the scripted model takes
// (abstract actions, mapped onto each agent's tools by tools.mjs), its final answers, and how a
// task's success is checked on the repository's end state and on what reached the model.
//
// A task: { id, prompt, steps: [{ think, say?, actions, when?, use? }], final(seen), check(root) →
// null or why it failed, facts? (strings a summary carries on), needs? (strings that must be in
// the result of the task's first call: the information the model needed, as the agent sent it) }.
// Prompts never say "summarise", "compact" or "checkpoint": those words mark compaction requests.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  CI_FAILURES, CI_SCRIPT, DECISIONS, DECISIONS_MARKER, FLAG_DEFINITION, MODULES, MODULE_MARKER, NOTE_COUNT, RETENTION_NEW, RETENTION_OLD, RULES_FILE,
  TESTS_MARKER, helperSource, helperTest, makeLargeRepo, makeLongRepo, makeShortRepo, noteDecision, noteName,
} from "./fixtures.mjs";

const RUN_TESTS = { do: "run", command: "node test/run.js", why: "Run the test suite" };
const read = (path, extra = {}) => ({ do: "read", path, ...extra });
const has = (root, path, text) => existsSync(join(root, path)) && readFileSync(join(root, path), "utf8").includes(text);
const mustHave = (root, path, text) => (has(root, path, text) ? null : `${path} does not contain ${JSON.stringify(text.slice(0, 60))}`);

const mod = (name) => MODULES.find((m) => m.name === name);

function fixMessage(id, name) {
  const m = mod(name);
  const fn = m.fns[1];
  const src = `src/${name}.js`;
  const fixed = fn.guard.replace(/"\);$/, ` (got " + typeof ${fn.param} + ")");`);
  return {
    id,
    prompt: `${fn.name} in ${src} throws a TypeError that doesn't say what it received. Make the message include the type of the bad argument, then run the tests.`,
    steps: [
      { think: `First find where ${fn.name} is defined.`, actions: [{ do: "search", pattern: `function ${fn.name}\\b`, path: "src" }] },
      { think: "Found it; read the module before editing.", actions: [read(src)] },
      { think: `The guard throws without saying what it got; add the type of ${fn.param}.`, say: "I'll update the guard's message.", actions: [{ do: "edit", path: src, old: fn.guard, new: fixed }] },
      { think: "Run the tests to make sure nothing depended on the exact message.", actions: [RUN_TESTS] },
    ],
    final: () => `Updated the guard in \`${fn.name}\` (${src}): the TypeError now ends with "(got <type>)". The tests pass.`,
    check: (root) => mustHave(root, src, fixed),
  };
}

function addHelper(id, name, helper) {
  const src = `src/${name}.js`;
  const test = `test/${name}.test.js`;
  const code = helperSource(helper, mod(name).noun);
  return {
    id,
    prompt: `Add a helper ${helper}(items) to ${src} that drops null and undefined entries from a list, with a test in ${test}.`,
    steps: [
      { think: "Read the module and its tests to follow their style.", say: "Reading the module and its tests first.", actions: [read(src), read(test)] },
      { think: "New helpers go above the end-of-module marker.", actions: [{ do: "edit", path: src, old: MODULE_MARKER, new: `${code}\n\n${MODULE_MARKER}` }] },
      { think: "And a test above the end-of-tests marker.", actions: [{ do: "edit", path: test, old: TESTS_MARKER, new: `${helperTest(helper)}\n${TESTS_MARKER}` }] },
      { think: "Run the tests.", actions: [RUN_TESTS] },
    ],
    final: () => `Added \`${helper}(items)\` to ${src} and a test in ${test}. All tests pass.`,
    check: (root) => mustHave(root, src, `export function ${helper}(items)`) ?? mustHave(root, test, `${helper} drops empty entries`),
  };
}

/** The short session: eight tasks on ledgerlite, the last seven each resumed in a new process. */
function shortSession() {
  const q = mod("customer").fns[3];
  const a = mod("store");
  const b = mod("parse");
  const both = "pruneRecords";
  const changelog = "# Changelog\n\n## 0.3.1\n\n- Guard messages name the type they received.\n- New list helpers drop empty entries.\n";
  const tasks = [
    fixMessage("fix-money", "money"),
    addHelper("helper-dates", "dates", "compactDates"),
    {
      id: "question",
      prompt: `Where is ${q.name} defined, and what does it do with invalid input?`,
      steps: [
        { think: "Search for the definition.", actions: [{ do: "search", pattern: `function ${q.name}\\b`, path: "." }] },
        { think: "Read the function itself.", actions: [read("src/customer.js", { offset: q.line, limit: 12 })] },
      ],
      final: () => `\`${q.name}\` is defined in src/customer.js; given invalid input it throws a TypeError whose message starts with "${q.name}:".`,
      check: () => null,
      needs: [`function ${q.name}(`],
    },
    {
      id: "changelog",
      prompt: "Create CHANGELOG.md for the next patch release (0.3.1) listing the two changes we made: clearer guard messages and the new list helpers.",
      steps: [
        { think: "Check the current version first.", actions: [read("package.json")] },
        { think: "Write the changelog.", actions: [{ do: "write", path: "CHANGELOG.md", content: changelog }] },
      ],
      final: () => "Created CHANGELOG.md with a 0.3.1 entry for the clearer guard messages and the new list helpers.",
      check: (root) => mustHave(root, "CHANGELOG.md", "## 0.3.1"),
    },
    {
      id: "two-modules",
      prompt: `Both ${a.name} and ${b.name} need a ${both} helper like the other list helpers. Add it to both modules, run the tests, and show me the diff stat.`,
      steps: [
        { think: "Which modules already have list helpers taking items?", actions: [{ do: "search", pattern: "^export function \\w+\\(items\\)", path: "src" }] },
        { think: "Read both modules before changing them.", actions: [read(`src/${a.name}.js`), read(`src/${b.name}.js`)] },
        { think: `Add ${both} to src/${a.name}.js.`, actions: [{ do: "edit", path: `src/${a.name}.js`, old: MODULE_MARKER, new: `${helperSource(both, a.noun)}\n\n${MODULE_MARKER}` }] },
        { think: `And to src/${b.name}.js.`, actions: [{ do: "edit", path: `src/${b.name}.js`, old: MODULE_MARKER, new: `${helperSource(both, b.noun)}\n\n${MODULE_MARKER}` }] },
        { think: "Run the tests.", actions: [RUN_TESTS] },
        { think: "The user wants the diff stat.", actions: [{ do: "run", command: "git diff --stat", why: "Show the diff stat" }] },
      ],
      final: () => `Added \`${both}(items)\` to src/${a.name}.js and src/${b.name}.js. The tests pass; \`git diff --stat\` shows the changes.`,
      check: (root) => mustHave(root, `src/${a.name}.js`, `export function ${both}(items)`) ?? mustHave(root, `src/${b.name}.js`, `export function ${both}(items)`),
    },
    {
      id: "overview",
      prompt: "I'm new to this codebase. Give me an overview of the invoice module: what it exports, how it fits with the rest, and how it is tested.",
      steps: [
        { think: "List the source files first.", actions: [{ do: "glob", pattern: "src/**/*.js" }] },
        { think: "Read the README and the module.", actions: [read("README.md"), read("src/invoice.js")] },
      ],
      final: () => `src/invoice.js holds the invoice helpers (${mod("invoice").fns.map((f) => `\`${f.name}\``).join(", ")}); each validates its input and throws a TypeError naming itself. Tests are in test/invoice.test.js, run by node test/run.js.`,
      check: () => null,
    },
    fixMessage("fix-tax", "tax"),
    {
      id: "version",
      prompt: "Bump REPORT_VERSION in src/report.js from 1 to 2 and run the tests.",
      steps: [
        { think: "Read the module.", actions: [read("src/report.js")] },
        { think: "Change the constant.", actions: [{ do: "edit", path: "src/report.js", old: "export const REPORT_VERSION = 1;", new: "export const REPORT_VERSION = 2;" }] },
        { think: "Run the tests.", actions: [RUN_TESTS] },
      ],
      final: () => "REPORT_VERSION is now 2 in src/report.js; the tests pass.",
      check: (root) => mustHave(root, "src/report.js", "export const REPORT_VERSION = 2;"),
    },
  ];
  return { id: "short", label: "8 short tasks, 7 resumed", makeRepo: makeShortRepo, tasks };
}

/** The long session: twelve tasks that read four design notes each (about 4.5k tokens a note). */
function longSession(window) {
  const tasks = [];
  for (let t = 0; t < NOTE_COUNT / 4; t++) {
    const ids = [0, 1, 2, 3].map((k) => t * 4 + k);
    const decisions = ids.map(noteDecision);
    tasks.push({
      id: `notes-${t + 1}`,
      prompt: `Read ${ids.map(noteName).join(", ")} and record the decision each one makes in ${DECISIONS}, above its marker line.`,
      steps: [
        { think: "Open the decisions file and the first two notes.", actions: [read(DECISIONS), read(noteName(ids[0])), read(noteName(ids[1]))] },
        { think: "Now the other two notes.", actions: [read(noteName(ids[2])), read(noteName(ids[3]))] },
        {
          think: "Record the four decisions above the marker.",
          // The four decisions must be in front of the model as it writes them down.
          use: ids.map((id, k) => ({ text: decisions[k], from: read(noteName(id)) })),
          actions: [{ do: "edit", path: DECISIONS, old: DECISIONS_MARKER, new: `${decisions.map((d) => `- ${d}`).join("\n")}\n${DECISIONS_MARKER}` }],
        },
      ],
      final: () => `Recorded the decisions of ${ids.map(noteName).join(", ")} in ${DECISIONS}.`,
      check: (root) => decisions.map((d) => mustHave(root, DECISIONS, d)).find(Boolean) ?? null,
      facts: decisions,
      needs: [decisions[0]],
    });
  }
  return { id: "long", label: `long, compacts (${window / 1000}k window)`, makeRepo: makeLongRepo, tasks, window };
}

/** The large-output session: a long test log, a grep over thousands of files, a 5,000-line file. */
function largeSession() {
  const failNames = CI_FAILURES.map((f) => f.name);
  const bothSeen = (seen) => failNames.every((n) => seen.includes(n));
  const defSeen = (seen) => seen.includes(FLAG_DEFINITION.path) && seen.includes("export function legacyFlag");
  const deprecated = "// Deprecated: use the config flags instead.";
  return {
    id: "large",
    label: "large tool outputs",
    makeRepo: makeLargeRepo,
    tasks: [
      {
        id: "ci-log",
        prompt: `The CI run (node ${CI_SCRIPT}) fails. Run it and tell me which checks fail and why.`,
        steps: [
          { think: "Run the CI script.", actions: [{ do: "run", command: `node ${CI_SCRIPT}`, why: "Run the CI checks" }] },
          { think: "The output I got does not show both failures; list only the failing checks.", when: (seen) => !bothSeen(seen), actions: [{ do: "run", command: `node ${CI_SCRIPT} | grep -A1 "^not ok"`, why: "List the failing checks" }] },
        ],
        final: (seen) => {
          const found = CI_FAILURES.filter((f) => seen.includes(f.name));
          return found.length ? `${found.length} check(s) fail: ${found.map((f) => `"${f.name}" (${f.detail})`).join("; ")}.` : "I could not find the failing checks in the output.";
        },
        check: () => null,
        facts: failNames,
        needs: failNames,
      },
      {
        id: "flag-grep",
        prompt: `legacyFlag is called all over packages/. Find where it is defined and add the line "${deprecated}" above its definition.`,
        steps: [
          { think: "Search for its uses and its definition.", actions: [{ do: "search", pattern: "legacyFlag\\(", path: "packages" }] },
          { think: "The output did not show the definition; search for it directly.", when: (seen) => !defSeen(seen), actions: [{ do: "search", pattern: "export function legacyFlag", path: "packages" }] },
          { think: "Read the file that defines it.", actions: [read(FLAG_DEFINITION.path)] },
          { think: "Add the deprecation line above the definition.", actions: [{ do: "edit", path: FLAG_DEFINITION.path, old: FLAG_DEFINITION.line, new: `${deprecated}\n${FLAG_DEFINITION.line}` }] },
        ],
        final: () => `legacyFlag is defined in ${FLAG_DEFINITION.path}; I added the deprecation line above it.`,
        check: (root) => mustHave(root, FLAG_DEFINITION.path, `${deprecated}\n${FLAG_DEFINITION.line}`),
        facts: [FLAG_DEFINITION.path],
        needs: [FLAG_DEFINITION.path],
      },
      {
        id: "long-file",
        prompt: `Read ${RULES_FILE} and change RETENTION_DAYS from 30 to 90 days.`,
        steps: [
          { think: "Read the rules file.", actions: [read(RULES_FILE)] },
          { think: "Not in the first part of the file; read on.", when: (seen) => !seen.includes(RETENTION_OLD), actions: [read(RULES_FILE, { offset: 2001, limit: 2000 })] },
          { think: "Still not there; read the rest.", when: (seen) => !seen.includes(RETENTION_OLD), actions: [read(RULES_FILE, { offset: 4001, limit: 2000 })] },
          // The model edits the line it has seen (the last page read must have shown it).
          { think: "Change the constant.", use: [{ text: RETENTION_OLD, from: read(RULES_FILE, { offset: 4001, limit: 2000 }) }], actions: [{ do: "edit", path: RULES_FILE, old: RETENTION_OLD, new: RETENTION_NEW }] },
        ],
        final: () => `RETENTION_DAYS is now 90 in ${RULES_FILE}.`,
        check: (root) => mustHave(root, RULES_FILE, RETENTION_NEW),
        facts: [RETENTION_OLD],
        needs: [RETENTION_OLD],
      },
    ],
  };
}

export const LONG_WINDOW = 64_000;

export function sessions() {
  return [shortSession(), longSession(LONG_WINDOW), largeSession()];
}
