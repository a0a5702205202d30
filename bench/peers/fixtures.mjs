// The repositories of the peers benchmark. Every session starts from ledgerlite, the cache
// benchmark's small library (test/fixtures/bench/project.mjs), and adds what its work needs:
//   - long: a design-notes folder (notes/*.md, about 3,000 tokens each) the tasks read, so the
//     conversation grows past 200k tokens;
//   - large: a CI script that prints thousands of lines with two failures in the middle, a
//     tree of 3,000 package files that all call legacyFlag( (one of them defines it), and a
//     5,000-line rules file whose retention constant sits near the end.
// Deterministic, byte for byte: the same files on every run, for every agent.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { makeProject } from "../../test/fixtures/bench/project.mjs";

export { MODULES, MODULE_MARKER, TESTS_MARKER, helperSource, helperTest } from "../../test/fixtures/bench/project.mjs";

const GIT_ENV = { GIT_AUTHOR_NAME: "Bench", GIT_AUTHOR_EMAIL: "bench@example.com", GIT_AUTHOR_DATE: "2026-11-01T00:00:00Z", GIT_COMMITTER_NAME: "Bench", GIT_COMMITTER_EMAIL: "bench@example.com", GIT_COMMITTER_DATE: "2026-11-01T00:00:00Z" };

function writeAll(root, files) {
  for (const [path, text] of Object.entries(files)) {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
  execFileSync("git", ["add", "-A"], { cwd: root, stdio: "ignore" });
  execFileSync("git", ["-c", "commit.gpgsign=false", "commit", "-q", "-m", "bench fixtures"], { cwd: root, env: { ...process.env, ...GIT_ENV }, stdio: "ignore" });
}

/** A deterministic word stream (xorshift), for prose that tokenizes like prose. */
function prose(seed, words) {
  const vocab = (
    "the ledger keeps every entry in order and a report reads them back so totals must match the invoices " +
    "customers are merged by key when an import finds the same email twice and the store compacts old records " +
    "tax lines round half up per line never per invoice which is why the summary can differ by a cent " +
    "dates are business days unless a field says otherwise and weekends roll forward to the next monday"
  ).split(" ");
  let x = seed * 2654435761 >>> 0 || 1;
  const out = [];
  for (let i = 0; i < words; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out.push(vocab[x % vocab.length]);
  }
  return out.join(" ");
}

// ---------------------------------------------------------------------------------------------
// long: design notes

export const NOTE_COUNT = 48;
export const noteName = (i) => `notes/note-${String(i).padStart(2, "0")}.md`;
/** The one line of a note a task must report (its decision). */
export const noteDecision = (i) => `Decision ${i}: keep the ${["ledger", "store", "report", "tax"][i % 4]} format at version ${i + 3}.`;

function note(i) {
  const parts = [`# Design note ${i}`, ""];
  for (let p = 0; p < 30; p++) {
    parts.push(`## Part ${p + 1}`, "", prose(i * 100 + p, 140), "");
    if (p === 21) parts.push(noteDecision(i), "");
  }
  return parts.join("\n");
}

export const DECISIONS = "notes/DECISIONS.md";
export const DECISIONS_MARKER = "<!-- new decisions go above this line -->";

/** The short session's repository: ledgerlite as it is. */
export function makeShortRepo(dir) {
  return makeProject(dir);
}

export function makeLongRepo(dir) {
  makeProject(dir);
  const files = { [DECISIONS]: `# Decisions\n\nOne line per design note, newest last.\n\n${DECISIONS_MARKER}\n` };
  for (let i = 0; i < NOTE_COUNT; i++) files[noteName(i)] = note(i);
  writeAll(dir, files);
  return dir;
}

// ---------------------------------------------------------------------------------------------
// large: a long CI log, a wide tree, a long file

export const CI_SCRIPT = "scripts/ci.js";
export const CI_LINES = 3600;
export const CI_FAILURES = [
  { at: 1370, name: "invoice rounding keeps cents for 3-way splits", detail: "expected 33.34, got 33.33" },
  { at: 2410, name: "tax summary groups exempt items last", detail: "expected [\"food\",\"exempt\"], got [\"exempt\",\"food\"]" },
];

function ciScript() {
  return `// The CI run: every suite, one line per check (no timings, so the output is the same each run).
const failures = new Map(${JSON.stringify(CI_FAILURES.map((f) => [f.at, f]))});
const suites = ["money", "dates", "invoice", "customer", "tax", "report", "store", "validate", "format", "parse"];
let failed = 0;
for (let i = 0; i < ${CI_LINES}; i++) {
  const suite = suites[i % suites.length];
  const f = failures.get(i);
  if (f) {
    failed++;
    console.log(\`not ok \${i + 1} - \${suite}: \${f.name}\`);
    console.log(\`  # \${f.detail}\`);
  } else console.log(\`ok \${i + 1} - \${suite}: case \${Math.floor(i / suites.length) + 1} keeps its invariant\`);
}
console.log(\`# \${${CI_LINES}} checks, \${${CI_LINES} - failed} passed, \${failed} failed\`);
process.exitCode = failed ? 1 : 0; // not process.exit(): a piped stdout would lose its tail
`;
}

export const TREE_FILES = 3000;
export const FLAG_DEFINITION = { path: "packages/pkg-1733/src/flags.js", line: "export function legacyFlag(name, fallback = false) {" };

function packageFile(i) {
  const lines = [`// pkg-${String(i).padStart(4, "0")}: generated adapter.`, 'import { legacyFlag } from "../../pkg-1733/src/flags.js";', ""];
  lines.push(`export const enabled = legacyFlag("pkg${i}.enabled", ${i % 2 === 0});`, "");
  return lines.join("\n");
}

export const RULES_FILE = "src/rules/retention.js";
export const RULES_LINES = 5000;
/** The retention constant sits on the line after this one (line 4631 of 5,001). */
export const RETENTION_LINE = 4630;
export const RETENTION_OLD = "export const RETENTION_DAYS = 30;";
export const RETENTION_NEW = "export const RETENTION_DAYS = 90;";

function rulesFile() {
  const lines = ["// retention.js — the ledger's retention rules: [id, kind, days], one per line (generated).", "export const RULES = ["];
  for (let i = 3; i < RULES_LINES; i++) {
    if (i === RETENTION_LINE) lines.push("];", RETENTION_OLD, "export const MORE_RULES = [");
    else if (i !== RETENTION_LINE + 1 && i !== RETENTION_LINE + 2) lines.push(`  [${i}, "${["keep", "archive", "drop", "merge"][i % 4]}", ${(i * 7) % 365}],`);
  }
  lines.push("];");
  return `${lines.join("\n")}\n`;
}

export function makeLargeRepo(dir) {
  makeProject(dir);
  const files = { [CI_SCRIPT]: ciScript(), [RULES_FILE]: rulesFile() };
  for (let i = 0; i < TREE_FILES; i++) files[`packages/pkg-${String(i).padStart(4, "0")}/index.js`] = packageFile(i);
  files[FLAG_DEFINITION.path] = [
    "// The one place feature flags are read. Callers pass a dotted name and a fallback.",
    "const flags = new Map();",
    "",
    "/** The flag's value, or the fallback when it was never set. */",
    FLAG_DEFINITION.line,
    "  return flags.has(name) ? flags.get(name) : fallback;",
    "}",
    "",
  ].join("\n");
  writeAll(dir, files);
  return dir;
}
