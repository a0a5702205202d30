// Files by grant (issue #35, items 1–2), the worker's side, through the real CLI: what the
// sandbox hides or withholds never breaks ordinary work. Each command is a Bash call in
// `deepcode -p` with default settings (the sandbox active), so it must run without a prompt (in
// -p an ask is a denial) and succeed:
//   - Go builds, tests, vets and runs, its cache lives in the project's private home under
//     deepcode's home and a later command finds it (`go test` says "(cached)");
//   - Python's tests run, pip answers, and ~/.cache is writable and keeps what a command wrote;
//   - in a repository whose only "secret-named" committed file is a token-free `.npmrc`, git's
//     history reads run, and `git add -A && git commit` works beside an ignored `.env`, with the
//     identity of the person's ~/.gitconfig and the `.npmrc` committed as it is;
//   - tar, cp -r and rsync copy a tree holding hidden secrets (each stands in as a regular file);
//   - `grep -rn TODO .` in a tree holding `.env` runs, and its output never holds the .env's value.
// The home is on disk (grant-helpers.ts says why not under /tmp). Run `npx tsc -p tsconfig.json`
// first: this starts dist/.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Box } from "./helpers.js";
import { FAMILY_TIMEOUT_MS, SANDBOX, WHY_NOT, account, failed, has, hiddenScript, makeDiskBox, runCalls } from "./grant-helpers.js";

let box: Box;
beforeEach(() => {
  box = makeDiskBox();
  // The person's git identity and aliases, and tokens (an insteadOf URL, an extra header) the
  // sandbox must not pass on.
  writeFileSync(
    join(box.home, ".gitconfig"),
    '[user]\n\tname = Dev Person\n\temail = dev@example.com\n[alias]\n\tlast = log -1 --format=%s\n[url "https://x-access-token:CanaryInsteadOf31@github.com/"]\n\tinsteadOf = https://github.com/\n[http "https://github.com/"]\n\textraheader = AUTHORIZATION: bearer CanaryExtraHeader33\n',
  );
});
afterEach(() => box.cleanup());

function files(root: string, tree: Record<string, string>): void {
  for (const [rel, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

/** git in the project as the person runs it (their home, no system config). */
const git = (root: string, home: string, ...args: string[]): string => execFileSync("git", args, { cwd: root, encoding: "utf8", env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: "1" } });

/** Every folder named `name` below `dir` (absent dir: none). */
function findDirs(dir: string, name: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string, depth: number): void => {
    if (depth > 8) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const p = join(d, e.name);
      if (e.name === name) out.push(p);
      else walk(p, depth + 1);
    }
  };
  walk(dir, 0);
  return out;
}

/** The calls ran without a prompt and none failed; the message tells the whole story. */
function allWorked(commands: readonly string[], r: Awaited<ReturnType<typeof runCalls>>): void {
  const story = account(commands, r);
  expect(r.denials.map((d) => d.tool_input?.command), story).toEqual([]);
  expect(commands.filter((_, i) => failed(r.results[i] ?? "")), story).toEqual([]);
}

const GO_PROJECT = {
  "go.mod": "module example.com/greet\n\ngo 1.19\n",
  "main.go": 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println(Greeting("grant")) }\n',
  "greet.go": 'package main\n\n// Greeting says hello to who.\nfunc Greeting(who string) string { return "hello, " + who }\n',
  "greet_test.go": 'package main\n\nimport "testing"\n\nfunc TestGreeting(t *testing.T) {\n\tif Greeting("x") != "hello, x" {\n\t\tt.Fatal(Greeting("x"))\n\t}\n}\n',
};

describe.skipIf(!SANDBOX || !has("go"))(`a Go module project${WHY_NOT || (has("go") ? "" : " (skipped: go is not installed)")}`, () => {
  it("go build, test, vet and run work without a prompt, and the cache lives on in the project's private home", async () => {
    files(box.root, GO_PROJECT);
    git(box.root, box.home, "init", "-q");
    git(box.root, box.home, "add", "-A");
    git(box.root, box.home, "commit", "-qm", "go project");
    const commands = ["go build ./...", "go test ./...", "go vet ./...", "go run .", "go test ./..."];
    const r = await runCalls(box, commands);
    allWorked(commands, r);
    expect(r.results[3]).toContain("hello, grant");
    // The second `go test` found the first one's result: the cache outlived the command.
    expect(r.results[4], account(commands, r)).toContain("(cached)");
    const caches = findDirs(join(box.deepcodeHome, "sandbox", "home"), "go-build");
    expect(caches.length, `no go-build folder under ${join(box.deepcodeHome, "sandbox", "home")}`).toBeGreaterThan(0);
    expect(caches.some((c) => readdirSync(c).length > 0)).toBe(true);
    // The person's real home was not used for it.
    expect(existsSync(join(box.home, ".cache", "go-build"))).toBe(false);
  }, FAMILY_TIMEOUT_MS);
});

const pytest = has("python3") && spawnSync("python3", ["-c", "import pytest"], { stdio: "ignore" }).status === 0;

describe.skipIf(!SANDBOX || !has("python3"))(`a Python project${WHY_NOT || (has("python3") ? "" : " (skipped: python3 is not installed)")}`, () => {
  it(`its tests run (${pytest ? "pytest" : "unittest"}), pip answers, and ~/.cache is writable and keeps what a command wrote`, async () => {
    files(box.root, {
      "calc.py": "def add(a, b):\n    return a + b\n",
      "test_calc.py": "import unittest\n\nfrom calc import add\n\n\nclass AddTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
    });
    const commands = [pytest ? "python3 -m pytest -q" : "python3 -m unittest -v", "pip --version", "mkdir -p ~/.cache && echo kept > ~/.cache/x && cat ~/.cache/x", "cat ~/.cache/x"];
    const r = await runCalls(box, commands);
    allWorked(commands, r);
    expect(r.results[0]).toMatch(pytest ? /1 passed/ : /OK/);
    expect(r.results[1]).toMatch(/^pip \d/m);
    expect(r.results[3]).toContain("kept");
    expect(existsSync(join(box.home, ".cache", "x"))).toBe(false);
  }, FAMILY_TIMEOUT_MS);
});

const NPMRC = "registry=https://registry.npmjs.org/\naudit=false\nfund=false\n";
const ENV_CANARY = "CanaryDotEnv32";

/** A repository whose only secret-named committed file is a token-free `.npmrc`, with two
 *  commits, a change in progress and an ignored `.env` holding a canary on a TODO line. */
function npmrcRepository(): void {
  files(box.root, {
    ".npmrc": NPMRC,
    ".gitignore": ".env\nnode_modules/\n",
    "package.json": '{\n  "name": "npmrc-demo",\n  "version": "1.0.0"\n}\n',
    "src/app.js": "// TODO: split this\nmodule.exports = () => 1;\n",
  });
  git(box.root, box.home, "init", "-q");
  git(box.root, box.home, "add", "-A");
  git(box.root, box.home, "commit", "-qm", "first");
  writeFileSync(join(box.root, "package.json"), '{\n  "name": "npmrc-demo",\n  "version": "1.1.0"\n}\n');
  git(box.root, box.home, "commit", "-qam", "second");
  writeFileSync(join(box.root, "src", "app.js"), "// TODO: split this\nmodule.exports = () => 2;\n");
  writeFileSync(join(box.root, ".env"), `API_KEY=${ENV_CANARY} # TODO rotate\n`);
}

describe.skipIf(!SANDBOX)(`a repository with a committed, token-free .npmrc and an ignored .env${WHY_NOT}`, () => {
  it("git's history reads run without a prompt: diff, show, log -p, blame, grep", async () => {
    npmrcRepository();
    const commands = ["git diff", "git diff HEAD~1", "git show HEAD:package.json", "git log -p -2", "git blame package.json", "git grep -n registry", "cat .npmrc"];
    const r = await runCalls(box, commands);
    allWorked(commands, r);
    expect(r.results[2]).toContain('"version": "1.1.0"');
    expect(r.results[5]).toContain(".npmrc:1:registry=");
    expect(r.results[6]).toContain("audit=false");
    expect(r.sent).not.toContain(ENV_CANARY);
  }, FAMILY_TIMEOUT_MS);

  it("git add -A && git commit works, with the person's identity and aliases, committing the .npmrc as it is and leaving the .env out", async () => {
    npmrcRepository();
    const commands = ["git add -A && git commit -m 'work in progress'", "git config --global user.email", hiddenScript("git last"), "git config --global --list"];
    const r = await runCalls(box, commands);
    allWorked(commands, r);
    expect(r.results[1]).toContain("dev@example.com");
    expect(r.results[2]).toContain("work in progress");
    expect(git(box.root, box.home, "log", "-1", "--format=%s|%an <%ae>").trim()).toBe("work in progress|Dev Person <dev@example.com>");
    expect(git(box.root, box.home, "show", "HEAD:.npmrc")).toBe(NPMRC);
    expect(git(box.root, box.home, "show", "HEAD:src/app.js")).toContain("() => 2");
    expect(git(box.root, box.home, "ls-files")).not.toContain(".env");
    expect(readFileSync(join(box.root, ".env"), "utf8")).toContain(ENV_CANARY);
    expect(r.sent).not.toContain("CanaryInsteadOf31");
    expect(r.sent).not.toContain("CanaryExtraHeader33");
  }, FAMILY_TIMEOUT_MS);

  it("tar, cp -r (and rsync, where installed) copy a tree holding hidden secrets: each stands in as a regular file", async () => {
    npmrcRepository();
    writeFileSync(join(box.root, "secret.key"), `${ENV_CANARY}\n`);
    const commands = [
      "find . -maxdepth 1 -type f -name '.env'",
      "tar cf /tmp/ws.tar . && tar tvf /tmp/ws.tar ./.env ./secret.key",
      "cp -r . /tmp/copy && ls -la /tmp/copy/.env /tmp/copy/secret.key",
      ...(has("rsync") ? ["rsync -a ./ /tmp/mirror/ && ls -la /tmp/mirror/.env"] : []),
    ];
    const r = await runCalls(box, commands);
    allWorked(commands, r);
    expect(r.results[0]).toContain("./.env");
    // A regular file in the archive and in the copy (`-rw…`), not a device (`crw…`).
    expect(r.results[1], account(commands, r)).toMatch(/^-\S+ .*\.\/\.env$/m);
    expect(r.results[2], account(commands, r)).toMatch(/^-\S+ .*\/tmp\/copy\/\.env$/m);
    expect(r.sent).not.toContain(ENV_CANARY);
  }, FAMILY_TIMEOUT_MS);

  it("grep -rn TODO . runs without a prompt and its output never holds the .env's value", async () => {
    npmrcRepository();
    const commands = ["grep -rn TODO .", "grep -rn TODO . --exclude-dir=.git | sort"];
    const r = await runCalls(box, commands);
    allWorked(commands, r);
    expect(r.results[0]).toContain("./src/app.js:1:// TODO: split this");
    expect(r.sent).not.toContain(ENV_CANARY);
    expect(readFileSync(join(box.root, ".env"), "utf8")).toContain(ENV_CANARY);
  }, FAMILY_TIMEOUT_MS);
});
