// Issue #36: without a sandbox, the reader lets run what it proves read-only — listing, reading
// and searching non-secret files in the workspace, git inspection where neither the repository's
// configuration nor its history gets in the way — and everything else still asks.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decide, historyHoldsSecret } from "../../src/cli/permissions/index.js";
import { makeWorkspace, rulesOf, type Workspace } from "./helpers.js";

let ws: Workspace;
const saved: Record<string, string | undefined> = {};
const ENV_KEYS = ["GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "DEMO_API_TOKEN", "LESSOPEN", "RIPGREP_CONFIG_PATH", "PATH"];

beforeAll(() => {
  for (const k of ENV_KEYS) saved[k] = process.env[k];
});
afterAll(() => {
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});
beforeEach(() => {
  ws = makeWorkspace();
  // git reads no configuration of this machine's: only the repository's and this empty one.
  writeFileSync(join(ws.base, "gitconfig"), "[user]\n\tname = t\n\temail = t@example.com\n");
  process.env.GIT_CONFIG_GLOBAL = join(ws.base, "gitconfig");
  process.env.GIT_CONFIG_NOSYSTEM = "1";
  for (const k of ["DEMO_API_TOKEN", "LESSOPEN", "RIPGREP_CONFIG_PATH"]) delete process.env[k];
  process.env.PATH = saved.PATH;
  writeFileSync(join(ws.root, "README.md"), "# demo\nTODO: more\n");
  writeFileSync(join(ws.root, "src", "app.js"), "module.exports = 1;\n");
  writeFileSync(join(ws.root, "data.json"), '{"name":"demo"}\n');
});
afterEach(() => ws.cleanup());

function verdict(command: string, rules = rulesOf({})): { decision: string; reason: string } {
  const d = decide({ tool: "Bash", input: { command }, readOnly: false }, rules, { ...ws.env, sandboxed: false, readerAlone: true, historySecret: historyHoldsSecret });
  return { decision: d.decision, reason: d.reason ?? "" };
}
const runs = (command: string): void => expect(verdict(command), command).toMatchObject({ decision: "allow" });
const asks = (command: string, why?: RegExp): void => {
  const v = verdict(command);
  expect(v.decision, `${command}: ${v.reason}`).not.toBe("allow");
  if (why) expect(v.reason, command).toMatch(why);
};
const git = (...args: string[]): void => {
  execFileSync("git", args, { cwd: ws.root, stdio: "ignore", env: process.env });
};
function repo(): void {
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "initial");
}

describe("listing, reading and searching files in the workspace runs without a question", () => {
  it("ls, cat, head, tail, wc, grep, rg, find, sort | uniq, jq, sed -n, awk and echo run", () => {
    for (const c of [
      "ls", "ls -la src", "cat README.md", "head -n 1 README.md", "tail -n 1 README.md", "wc -l src/app.js", "grep -n TODO README.md", "grep -rn exports src",
      "rg TODO", "rg --files", "find . -name '*.js'", "sort README.md | uniq -c | sort -rn", "jq -r .name data.json", "sed -n '1,2p' README.md",
      "awk '{print $1}' README.md", "echo $HOME", "date +%Y", "ls src 2>/dev/null | wc -l", "diff README.md src/app.js || true", "tail -f README.md",
    ]) runs(c);
  });

  it("the output of a command substitution is judged as a command of its own", () => {
    runs("echo $(cat README.md)");
    writeFileSync(join(ws.root, ".env"), "API_KEY=sk-live-0123456789abcdef\n");
    asks("echo $(cat .env)", /secret|\.env/);
  });
});

describe("reads of secrets and reads outside the workspace still ask", () => {
  beforeEach(() => {
    writeFileSync(join(ws.root, ".env"), "API_KEY=sk-live-0123456789abcdef\n");
    mkdirSync(join(ws.home, ".ssh"));
    writeFileSync(join(ws.home, ".ssh", "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----\nx\n");
  });

  it("cat, wc, grep and ls of a secret ask; a search whose tree holds one asks", () => {
    for (const c of ["cat .env", "wc -c .env", "grep KEY .env", "head .env", "sort .env", "grep -r KEY .", "cat ~/.ssh/id_rsa", "ls ~/.ssh", "jq . .env", "awk 1 .env"]) asks(c);
  });

  it("grep -r --include of plain name patterns reads only those names: beside .env, *.js runs and .e*, *env, [^x]env or an --exclude ask", () => {
    runs("grep -rn --include='*.js' KEY .");
    runs("grep -rn --include '*.md' --include='*.js' KEY .");
    for (const c of ["grep -rn --include='.e*' KEY .", "grep -rn --include='*env' KEY .", "grep -rn --include='[^x]env' KEY .", "grep -rn --exclude=x --include='*.js' KEY ."]) asks(c, /secret/);
  });

  it("a file outside the workspace asks, the home folder's and /proc's among them", () => {
    writeFileSync(join(ws.base, "elsewhere.txt"), "x\n");
    for (const c of ["cat ../elsewhere.txt", "cat /proc/self/environ", "find ~ -name id_rsa", "ls /", "cat $(echo .env)"]) asks(c);
  });
});

describe("options that write, run another program or read a list of names ask", () => {
  it("sort -o and its abbreviations, --compress-program, uniq's output operand, find's actions and rg --pre ask", () => {
    for (const c of [
      "sort -o out.txt README.md", "sort --out=out.txt README.md", "sort --compress-program=./x README.md", "uniq README.md out.txt",
      "find . -exec cat {} ;", "find . -delete", "find . -fprint out.txt", "rg --pre ./x TODO", "rg --pr=./x TODO", "tree -o out.txt",
      "sed -n 'w out.txt' README.md", "sed -i s/a/b/ README.md", "awk 'BEGIN{system(\"id\")}'", "date -s 2020-01-01", "cat README.md > copy.md",
      "xargs cat < README.md", "diff -l README.md src/app.js", "file -C -m x", "less +!id README.md", "node -e 1", "npm test",
    ]) asks(c);
  });

  it("a FIFO in the workspace is not read", () => {
    execFileSync("mkfifo", [join(ws.root, "pipe")]);
    asks("grep x pipe", /FIFO/);
  });
});

describe("the environment is judged, not trusted", () => {
  it("a variable from the environment that may hold a credential is not printed, nor read by jq or awk", () => {
    process.env.DEMO_API_TOKEN = "tok-0123456789";
    for (const c of ["echo $DEMO_API_TOKEN", "echo \"${DEMO_API_TOKEN}\"", "jq -n env", "jq -n '$ENV.DEMO_API_TOKEN'", "awk 'BEGIN{print ENVIRON[\"DEMO_API_TOKEN\"]}'", "echo ${!DEMO*}"]) asks(c);
    runs("for f in src/*.js; do echo $f; done");
  });

  it("an assignment before the command, LESSOPEN for less and RIPGREP_CONFIG_PATH for rg make it ask", () => {
    asks("PAGER=./x cat README.md");
    runs("less -F README.md");
    process.env.LESSOPEN = "|./x %s";
    asks("less -F README.md", /LESSOPEN/);
    process.env.RIPGREP_CONFIG_PATH = join(ws.root, "rg.conf");
    asks("rg TODO", /RIPGREP_CONFIG_PATH/);
    runs("rg --no-config TODO");
  });

  it("a program the workspace holds is not the one the table describes: ./cat and a PATH through the workspace ask", () => {
    mkdirSync(join(ws.root, "bin"));
    writeFileSync(join(ws.root, "bin", "cat"), "#!/bin/sh\ntouch pwned\n");
    chmodSync(join(ws.root, "bin", "cat"), 0o755);
    asks("./bin/cat README.md");
    process.env.PATH = `${join(ws.root, "bin")}:${saved.PATH}`;
    asks("cat README.md", /workspace/);
  });
});

describe("git inspection runs where neither configuration nor history gets in the way", () => {
  it("status, diff, log, show, blame, grep and listings run in a clean repository", () => {
    repo();
    for (const c of [
      "git status", "git status --short", "git diff", "git diff --stat", "git log --oneline -5", "git log -p -1", "git show HEAD", "git blame README.md",
      "git grep -n TODO", "git branch", "git branch -a", "git tag", "git stash list", "git remote -v", "git config --get user.name", "git rev-parse HEAD", "git ls-files",
      "git describe --always", "git cat-file -p HEAD", "git --no-pager log -1", "git --version",
    ]) runs(c);
  });

  it("forms that write, run a program or point git elsewhere ask", () => {
    repo();
    for (const c of [
      "git -c core.pager=./x log", "git -C .. status", "git -p log", "git --git-dir=../x status", "git diff --output=../out.txt", "git diff --ext-diff",
      "git diff --no-index /dev/null README.md", "git log --show-signature", "git grep -O./x TODO", "git branch new", "git branch -D main", "git tag v1",
      "git stash", "git config user.name x", "git config --file ../x --list", "git blame --contents ../x README.md", "git add -A", "git commit -m x", "git help log",
    ]) asks(c);
  });

  it("a repository whose configuration runs a program (core.fsmonitor, a textconv, a pager) asks for status and diff", () => {
    repo();
    git("config", "core.fsmonitor", "./monitor.sh");
    asks("git status", /fsmonitor/);
    git("config", "--unset", "core.fsmonitor");
    runs("git status");
    git("config", "diff.x.textconv", "./conv.sh");
    asks("git diff", /textconv/);
    git("config", "--unset", "diff.x.textconv");
    git("config", "core.pager", "./pager.sh");
    asks("git log -1", /core\.pager/);
  });

  it("where history holds a secret, git commands that print contents ask and metadata runs", () => {
    writeFileSync(join(ws.root, ".env"), "API_KEY=sk-live-0123456789abcdef\n");
    repo();
    asks("git log -p", /history/);
    asks("git show HEAD~0:.env");
    runs("git log --oneline");
    runs("git status");
  });

  it("a remote URL holding a password makes git remote -v and git config --list ask", () => {
    repo();
    git("remote", "add", "origin", "https://dev:hunter2secret@example.invalid/r.git");
    asks("git remote -v", /credential/);
    asks("git config --list", /credential/);
    runs("git log --oneline");
  });
});

describe("rules and the sandbox keep their say", () => {
  it("a deny rule denies a read-only command, and an ask rule asks", () => {
    expect(verdict("cat README.md", rulesOf({ user: { deny: ["Bash(cat:*)"] } })).decision).toBe("deny");
    expect(verdict("ls", rulesOf({ user: { ask: ["Bash(ls:*)"] } })).decision).toBe("ask");
    expect(verdict("cat README.md", rulesOf({ user: { deny: ["Read(README.md)"] } })).decision).toBe("deny");
  });

  it("where a layer turns sandbox.autoAllowBashIfSandboxed off (the gate sets no readerAlone), a read-only command asks as the rules say", () => {
    const d = decide({ tool: "Bash", input: { command: "cat README.md" }, readOnly: false }, rulesOf({}), { ...ws.env, sandboxed: false, readerAlone: false });
    expect(d.decision).toBe("ask");
  });
});
