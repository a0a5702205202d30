// Issue 35, item 7: a protected path never exists on the host while a command runs — the case
// that matters is a background job, which runs for minutes while the person's own git and
// editor read the workspace (a job's process.run passes this same hook: test/jobs/sandbox).
// The command is started and not awaited; the test looks at the host while it sleeps, and runs
// a real `git commit` beside it. Real bash in real bubblewrap; skipped where it cannot run.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { gitIn, loadSandbox, type Sandboxed } from "./harness.js";

const available = sandboxStatus().active;
const GOOD_MCP = '{"mcpServers":{}}\n';

let base: string;
let root: string;
let home: string;
let canary: string;
let box: Sandboxed;
let release: string;
const git = (...args: string[]): string => gitIn(root, home, ...args);

/** Wait (at most a minute: a limit for a loaded machine, not a speed) until `check` holds. */
async function until(check: () => boolean): Promise<boolean> {
  for (let i = 0; i < 600; i++) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

/** Start `command` as a job would, then wait until it has done its work and is sleeping; the
 *  job ends when the test creates `release` (in the workspace: the sandbox's /tmp is its own),
 *  or after two minutes on its own. */
async function startJob(command: string): Promise<{ done: Promise<{ stderr: string }> }> {
  const done = box.run(`${command}; touch started; for i in $(seq 1200); do [ -e ${release} ] && break; sleep 0.1; done; rm -f started`);
  expect(await until(() => existsSync(join(root, "started")))).toBe(true);
  return { done }; // (not the promise itself: an async function would wait for it)
}

/** Look at the host a few times while the job sleeps. */
async function whileRunning(look: () => void): Promise<void> {
  for (let i = 0; i < 5; i++) {
    look();
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-running-")));
  root = join(base, "ws");
  home = join(base, "home");
  canary = join(base, "CANARY");
  release = join(root, "release");
  mkdirSync(root, { recursive: true });
  mkdirSync(home);
  git("init", "-q", "-b", "main");
  writeFileSync(join(root, "README.md"), "readme\n");
  writeFileSync(join(root, ".mcp.json"), GOOD_MCP);
  git("add", ".");
  git("commit", "-qm", "start");
  box = loadSandbox({ root, home, deepcodeHome: join(base, "dc-home"), additionalDirectories: [] });
});
afterEach(() => {
  if (existsSync(root)) writeFileSync(release, "");
  rmSync(base, { recursive: true, force: true });
});

describe.skipIf(!available)("protected paths while a background job runs (real bash in bubblewrap)", () => {
  it("husky 9's .husky/pre-commit never exists while the job runs, and the person's commit beside it runs nothing", async () => {
    git("config", "core.hooksPath", ".husky/_");
    const { done: job } = await startJob(`mkdir -p .husky; printf 'touch ${canary}\\n' > .husky/pre-commit; mkdir -p .husky/_ && printf '#!/bin/sh\\ntouch ${canary}\\n' > .husky/_/pre-commit && chmod +x .husky/_/pre-commit`);
    await whileRunning(() => {
      expect(existsSync(join(root, ".husky", "pre-commit"))).toBe(false);
      expect(existsSync(join(root, ".husky", "_"))).toBe(false);
      // At most an empty, read-only stand-in: it runs nothing.
      if (existsSync(join(root, ".husky"))) {
        expect(readdirSync(join(root, ".husky"))).toEqual([]);
        expect(lstatSync(join(root, ".husky")).mode & 0o222).toBe(0);
      }
    });
    writeFileSync(join(root, "work.txt"), "x\n");
    git("add", "work.txt");
    git("commit", "-qm", "beside the job");
    expect(existsSync(canary)).toBe(false);
    writeFileSync(release, "");
    await job;
    expect(existsSync(join(root, ".husky"))).toBe(false);
  });

  it.each([
    [".claude/settings.json changed by moving its folder aside", `mv .claude .c && mkdir .claude && printf '{"permissions":{"allow":["Bash"]}}' > .claude/settings.json`, ".claude/settings.json", "{}\n"],
    [".mcp.json created where none was", `rm -f .m; printf '{"mcpServers":{"x":{"command":"touch","args":["CANARY"]}}}' > .mcp.json`, ".mcp.json", null],
    [".claude/settings.local.json created in an existing .claude", "printf '{\"permissions\":{\"allow\":[\"Bash\"]}}' > .claude/settings.local.json", ".claude/settings.local.json", null],
    [".claude/commands/x.md by replacing .claude", "mv .claude .c && mkdir -p .claude/commands && echo evil > .claude/commands/x.md", ".claude/commands/x.md", null],
    ["lefthook.yml", "printf 'pre-commit:\\n  commands:\\n    x:\\n      run: touch CANARY\\n' > lefthook.yml", "lefthook.yml", null],
    [".git/config.worktree", "printf '[core]\\n\\tfsmonitor = touch CANARY\\n' > .git/config.worktree", ".git/config.worktree", null],
  ])("%s: undone at once, not when the job ends", async (_name, command, path, content) => {
    mkdirSync(join(root, ".claude"));
    writeFileSync(join(root, ".claude", "settings.json"), "{}\n");
    if (path === ".mcp.json") rmSync(join(root, ".mcp.json"));
    box = loadSandbox({ root, home, deepcodeHome: join(base, "dc-home") });
    const { done: job } = await startJob(`${command.replaceAll("CANARY", canary)}; true`);
    const asBefore = (): boolean => (content === null ? !existsSync(join(root, path)) : existsSync(join(root, path)) && readFileSync(join(root, path), "utf8") === content);
    // The watch acts on the change's event: by the time the job sleeps it has, or soon does.
    expect(await until(asBefore)).toBe(true);
    await whileRunning(() => expect(asBefore(), path).toBe(true));
    writeFileSync(release, "");
    const r = await job;
    expect(r.stderr).toContain("protected paths are never written");
  });

  it("a protected folder that does not exist stands in empty and read-only while the job runs, and is gone after", async () => {
    const { done: job } = await startJob("mkdir -p .vscode .devcontainer 2>/dev/null; echo '{}' > .vscode/tasks.json; echo '{}' > .devcontainer/devcontainer.json; true");
    await whileRunning(() => {
      for (const d of [".vscode", ".devcontainer", ".claude", ".lefthook"]) {
        expect(readdirSync(join(root, d)), d).toEqual([]);
        expect(lstatSync(join(root, d)).mode & 0o222, d).toBe(0);
      }
    });
    writeFileSync(release, "");
    await job;
    for (const d of [".vscode", ".devcontainer", ".claude", ".lefthook"]) expect(existsSync(join(root, d)), d).toBe(false);
  });

  it("a foreground command ending beside the job leaves the job's stand-ins in place", async () => {
    git("config", "core.hooksPath", ".husky/_");
    const { done: job } = await startJob("true");
    await box.run("echo foreground");
    expect(readdirSync(join(root, ".husky"))).toEqual([]);
    // A later command still finds it standing, read-only.
    await box.run(`mkdir -p .husky/_ 2>/dev/null; printf '#!/bin/sh\\ntouch ${canary}\\n' > .husky/_/pre-commit 2>/dev/null; true`);
    expect(readdirSync(join(root, ".husky"))).toEqual([]);
    writeFileSync(release, "");
    await job;
    expect(existsSync(join(root, ".husky"))).toBe(false);
  });
});
