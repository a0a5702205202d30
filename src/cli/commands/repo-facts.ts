// What a repository shows about itself, for `/init`'s AGENTS.md draft: its manifests (how to
// install, build, test, lint), its languages, its layout, its tests and its CI. Read-only and
// bounded: the walk stops after MAX_FILES entries and skips vendored and generated folders.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { listTree } from "../../lib/mentions.js";
import { isObject } from "../../lib/json.js";

export interface RepoFacts {
  name?: string;
  description?: string;
  readmeHeading?: string;
  /** In order: install, build, test, lint, …; each a label and a shell command. */
  commands: Array<{ label: string; command: string; /** What a package script runs. */ runs?: string }>;
  testFramework?: string;
  /** How to run one test file, when the framework is known. */
  oneTest?: string;
  languages: Array<[string, number]>;
  layout: Array<{ dir: string; files: number; role?: string; language?: string }>;
  topFiles: string[];
  testDirs: string[];
  testPattern?: string;
  ci: string[];
  tooling: string[];
  workspaces?: string[];
  /** False when the walk stopped at its bound. */
  complete: boolean;
}

export const MAX_FILES = 20_000;
const SKIP = new Set(["node_modules", "vendor", "dist", "build", "target", "out", "coverage", ".venv", "venv", "__pycache__", ".next", ".cache", ".tox", ".gradle"]);

const LANGUAGES: Record<string, string> = {
  ts: "TypeScript", tsx: "TypeScript", mts: "TypeScript", cts: "TypeScript", js: "JavaScript", jsx: "JavaScript", mjs: "JavaScript", cjs: "JavaScript",
  py: "Python", go: "Go", rs: "Rust", java: "Java", kt: "Kotlin", kts: "Kotlin", rb: "Ruby", php: "PHP", c: "C", h: "C/C++ headers",
  cc: "C++", cpp: "C++", cxx: "C++", hpp: "C++", cs: "C#", swift: "Swift", m: "Objective-C", scala: "Scala", sh: "Shell", bash: "Shell",
  lua: "Lua", dart: "Dart", ex: "Elixir", exs: "Elixir", hs: "Haskell", zig: "Zig", vue: "Vue", svelte: "Svelte", sql: "SQL",
  css: "CSS", scss: "CSS", html: "HTML", r: "R", jl: "Julia", clj: "Clojure", erl: "Erlang", ml: "OCaml", fs: "F#", nim: "Nim",
};
const ROLES: Record<string, string> = {
  src: "source", lib: "library code", app: "application code", apps: "applications", packages: "workspace packages", cmd: "entry points",
  internal: "internal packages", pkg: "packages", test: "tests", tests: "tests", spec: "tests", __tests__: "tests", e2e: "end-to-end tests",
  docs: "documentation", doc: "documentation", scripts: "scripts", bin: "executables", examples: "examples", bench: "benchmarks",
  benchmarks: "benchmarks", tools: "tooling", config: "configuration", public: "static assets", assets: "assets", fixtures: "test fixtures",
  ".github": "GitHub configuration (CI)", migrations: "database migrations",
};
const TEST_DIR = /^(test|tests|__tests__|spec|specs|e2e|testing)$/;
/** Test file names; the first group is the part shown (as `*<group>` or `<group>*`). */
const TEST_FILE: RegExp[] = [/(\.(?:test|spec)\.[cm]?[jt]sx?)$/, /(_test\.go)$/, /(?:^|\/)(test_)[^/]*\.py$/, /(_test\.py)$/, /(_spec\.rb)$/, /(Test\.java)$/];
const CI_FILES = [".gitlab-ci.yml", ".circleci/config.yml", "azure-pipelines.yml", "Jenkinsfile", ".travis.yml", "bitbucket-pipelines.yml"];
const TOOLING: Array<[RegExp, string]> = [
  [/^(eslint\.config\.[cm]?[jt]s|\.eslintrc(\.\w+)?)$/, "ESLint"], [/^(\.prettierrc(\.\w+)?|prettier\.config\.[cm]?js)$/, "Prettier"],
  [/^biome\.jsonc?$/, "Biome"], [/^(ruff\.toml|\.ruff\.toml)$/, "Ruff"], [/^\.editorconfig$/, "EditorConfig"], [/^\.pre-commit-config\.yaml$/, "pre-commit"],
  [/^rustfmt\.toml$/, "rustfmt"], [/^\.golangci\.ya?ml$/, "golangci-lint"], [/^Dockerfile$/, "Docker"], [/^tsconfig\.json$/, "TypeScript compiler (tsconfig.json)"],
];

export function repoFacts(root: string): RepoFacts {
  const walk = listTree(root, { maxEntries: MAX_FILES, skip: SKIP });
  const files = walk.entries.filter((e) => !e.endsWith("/"));
  const facts: RepoFacts = { commands: [], languages: [], layout: [], topFiles: [], testDirs: [], ci: [], tooling: [], complete: walk.complete };
  const read = (p: string) => readText(join(root, p));

  const pkg = parseJson(read("package.json"));
  if (pkg) nodeFacts(root, pkg, facts);
  if (existsSync(join(root, "Cargo.toml"))) rustFacts(read("Cargo.toml") ?? "", facts);
  if (existsSync(join(root, "go.mod"))) goFacts(read("go.mod") ?? "", facts);
  const py = read("pyproject.toml");
  if (py !== undefined || existsSync(join(root, "requirements.txt")) || existsSync(join(root, "setup.py"))) pythonFacts(root, py ?? "", read("requirements.txt") ?? "", facts);
  if (facts.commands.length === 0) makeFacts(read("Makefile") ?? "", facts);

  const readme = ["README.md", "README", "readme.md", "README.rst", "README.txt"].map(read).find((t) => t !== undefined);
  facts.readmeHeading = readme?.split("\n").map((l) => /^#\s+(.+)/.exec(l)?.[1]?.trim()).find(Boolean);

  const langs = new Map<string, number>();
  const dirs = new Map<string, { files: number; langs: Map<string, number> }>();
  for (const f of files) {
    const lang = LANGUAGES[/\.([^./]+)$/.exec(f)?.[1]?.toLowerCase() ?? ""];
    if (lang) langs.set(lang, (langs.get(lang) ?? 0) + 1);
    const slash = f.indexOf("/");
    if (slash < 0) {
      facts.topFiles.push(f);
      continue;
    }
    const d = dirs.get(f.slice(0, slash)) ?? { files: 0, langs: new Map() };
    d.files++;
    if (lang) d.langs.set(lang, (d.langs.get(lang) ?? 0) + 1);
    dirs.set(f.slice(0, slash), d);
  }
  facts.languages = [...langs].sort((a, b) => b[1] - a[1]);
  facts.layout = [...dirs].map(([dir, d]) => ({ dir, files: d.files, role: ROLES[dir], language: [...d.langs].sort((a, b) => b[1] - a[1])[0]?.[0] }));
  facts.testDirs = [...new Set(walk.entries.filter((e) => e.endsWith("/") && TEST_DIR.test(e.slice(0, -1).split("/").pop() ?? "") && !/(^|\/)(fixtures?)\//.test(e)))].slice(0, 6);
  const named = new Map<string, number>();
  for (const f of files) {
    const m = TEST_FILE.map((re) => re.exec(f)).find(Boolean);
    if (m) {
      const label = m[1] === "test_" ? "test_*.py" : `*${m[1]}`;
      named.set(label, (named.get(label) ?? 0) + 1);
    }
  }
  facts.testPattern = [...named].sort((a, b) => b[1] - a[1])[0]?.[0];
  facts.ci = [...files.filter((f) => /^\.github\/workflows\/[^/]+\.ya?ml$/.test(f)), ...CI_FILES.filter((f) => files.includes(f))];
  facts.tooling = [...new Set(facts.topFiles.flatMap((f) => TOOLING.filter(([re]) => re.test(f)).map(([, t]) => t)))];
  return facts;
}

function nodeFacts(root: string, pkg: Record<string, unknown>, facts: RepoFacts): void {
  if (typeof pkg.name === "string") facts.name = pkg.name;
  if (typeof pkg.description === "string") facts.description = pkg.description;
  const pm = existsSync(join(root, "pnpm-lock.yaml")) ? "pnpm" : existsSync(join(root, "yarn.lock")) ? "yarn" : existsSync(join(root, "bun.lockb")) || existsSync(join(root, "bun.lock")) ? "bun" : "npm";
  const lock = pm !== "npm" || existsSync(join(root, "package-lock.json"));
  facts.commands.push({ label: "Install", command: pm === "npm" ? (lock ? "npm ci" : "npm install") : `${pm} install` });
  const scripts = isObject<unknown>(pkg.scripts) ? pkg.scripts : {};
  const run = (s: string) => (pm === "npm" ? (s === "test" || s === "start" ? `npm ${s}` : `npm run ${s}`) : pm === "bun" ? `bun run ${s}` : `${pm} ${s}`);
  const wanted: Array<[string, string]> = [["build", "Build"], ["test", "Test"], ["lint", "Lint"], ["typecheck", "Typecheck"], ["type-check", "Typecheck"], ["check", "Check"], ["format", "Format"], ["fmt", "Format"], ["dev", "Dev server"], ["start", "Start"]];
  for (const [name, label] of wanted) if (typeof scripts[name] === "string") facts.commands.push({ label, command: run(name), runs: scripts[name] as string });
  const deps = { ...(isObject<unknown>(pkg.dependencies) ? pkg.dependencies : {}), ...(isObject<unknown>(pkg.devDependencies) ? pkg.devDependencies : {}) };
  const testScript = typeof scripts.test === "string" ? scripts.test : "";
  const fw = ["vitest", "jest", "mocha", "ava", "@playwright/test"].find((f) => f in deps) ?? (/\bnode\s+--test\b/.test(testScript) ? "node:test" : undefined);
  if (fw) {
    facts.testFramework = fw;
    facts.oneTest = { vitest: "npx vitest run <file>", jest: "npx jest <file>", mocha: "npx mocha <file>", ava: "npx ava <file>", "@playwright/test": "npx playwright test <file>", "node:test": "node --test <file>" }[fw];
  }
  if (Array.isArray(pkg.workspaces)) facts.workspaces = pkg.workspaces.filter((w): w is string => typeof w === "string");
}

function rustFacts(cargo: string, facts: RepoFacts): void {
  facts.name ??= /^\s*name\s*=\s*"([^"]+)"/m.exec(cargo)?.[1];
  facts.commands.push({ label: "Build", command: "cargo build" }, { label: "Test", command: "cargo test" }, { label: "Lint", command: "cargo clippy --all-targets" }, { label: "Format", command: "cargo fmt" });
  facts.testFramework ??= "cargo test";
  facts.oneTest ??= "cargo test <name>";
}

function goFacts(mod: string, facts: RepoFacts): void {
  facts.name ??= /^module\s+(\S+)/m.exec(mod)?.[1];
  facts.commands.push({ label: "Build", command: "go build ./..." }, { label: "Test", command: "go test ./..." }, { label: "Lint", command: "go vet ./..." });
  facts.testFramework ??= "go test";
  facts.oneTest ??= "go test ./<pkg> -run <TestName>";
}

function pythonFacts(root: string, py: string, reqs: string, facts: RepoFacts): void {
  facts.name ??= /^\s*name\s*=\s*"([^"]+)"/m.exec(py)?.[1];
  const install = existsSync(join(root, "uv.lock")) ? "uv sync" : existsSync(join(root, "poetry.lock")) ? "poetry install" : py ? "pip install -e ." : "pip install -r requirements.txt";
  facts.commands.push({ label: "Install", command: install });
  if (/pytest/.test(py + reqs) || existsSync(join(root, "tests"))) {
    facts.commands.push({ label: "Test", command: "pytest" });
    facts.testFramework ??= "pytest";
    facts.oneTest ??= "pytest <file>::<test>";
  }
  if (/\[tool\.ruff/.test(py) || existsSync(join(root, "ruff.toml"))) facts.commands.push({ label: "Lint", command: "ruff check ." });
  if (/\[tool\.mypy/.test(py)) facts.commands.push({ label: "Typecheck", command: "mypy ." });
}

function makeFacts(makefile: string, facts: RepoFacts): void {
  const targets = new Set([...makefile.matchAll(/^([A-Za-z][\w-]*)\s*:(?!=)/gm)].map((m) => m[1]));
  for (const [t, label] of [["build", "Build"], ["test", "Test"], ["lint", "Lint"], ["check", "Check"], ["fmt", "Format"], ["format", "Format"]]) {
    if (targets.has(t)) facts.commands.push({ label, command: `make ${t}` });
  }
}

function readText(p: string): string | undefined {
  try {
    return readFileSync(p, "utf8");
  } catch {
    return undefined; // absent: the fact is simply unknown
  }
}

function parseJson(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return isObject<unknown>(v) ? v : undefined;
  } catch {
    return undefined; // a malformed package.json tells us nothing reliable
  }
}
