// A custom command's !`cmd` lines that only look — commit-commands' /commit shape: `git status`
// covered by allowed-tools, `git diff HEAD`, `git branch --show-current` and `git log --oneline
// -10` not — run in `-p` without being denied and without the sandbox's help (its auto-allow
// is off here), through the same gate as Bash: deny rules, a secret in the history and lines
// that change something still decide as they do for any Bash call.
import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { deepcode } from "../mcp/helpers.js";

let sim: Simulator | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  await sim?.close();
  env?.cleanup();
  sim = undefined;
  env = undefined;
});

/** The shape of commit-commands' commands/commit.md (written for this test). */
const COMMIT = `---
allowed-tools: Bash(git add:*), Bash(git status:*), Bash(git commit:*)
description: Create a git commit
---

## Context

- Current git status: !\`git status\`
- Current git diff (staged and unstaged changes): !\`git diff HEAD\`
- Current branch: !\`git branch --show-current\`
- Recent commits: !\`git log --oneline -10\`

## Your task

Based on the above changes, create a single git commit.
`;

function git(root: string, ...args: string[]): void {
  const r = spawnSync("git", ["-c", "user.email=dev@example.com", "-c", "user.name=Dev", "-c", "init.defaultBranch=trunk", ...args], { cwd: root, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

async function project(files: Record<string, string>, commit: string = COMMIT): Promise<CliEnv> {
  sim = await startSimulator({ script: { replies: [{ content: "committed" }] }, apiKey: "sk-test-cli" });
  env = cliEnv(sim.url, { ".claude/commands/commit.md": commit, "app.js": "console.log(1);\n", ...files });
  git(env.root, "init", "-q");
  git(env.root, "add", ".");
  git(env.root, "commit", "-qm", "first commit");
  writeFileSync(join(env.root, "app.js"), "console.log(2);\n");
  return env;
}

/** The prompt the command became (the last user message the model was sent). */
function sentPrompt(s: Simulator): string {
  const msgs = (s.requests.at(-1)?.json?.messages ?? []) as Array<{ role: string; content: unknown }>;
  return String(msgs.filter((m) => m.role === "user").at(-1)?.content ?? "");
}

describe("/commit's read-only !`cmd` lines in -p", () => {
  it("run without a prompt or a denial, the sandbox's auto-allow off, and their output reaches the model", async () => {
    const e = await project({});
    const r = await deepcode(e, ["-p", "/commit", "--trust-project"]);
    expect(r.code).toBe(0);
    const prompt = sentPrompt(sim!);
    expect(prompt).not.toMatch(/did not succeed|Permission denied/);
    expect(prompt).toContain("- Current branch: trunk");
    expect(prompt).toMatch(/- Recent commits: [0-9a-f]{7,} first commit/);
    expect(prompt).toContain("+console.log(2);");
  });

  it("still obey a deny rule, and a line that changes something still asks (so -p denies it)", async () => {
    const e = await project({
      ".deepcode/settings.local.json": JSON.stringify({ permissions: { deny: ["Bash(git log:*)"] } }),
    }, COMMIT.replace("## Your task", "- Mark: !`touch marked.txt`\n\n## Your task"));
    await deepcode(e, ["-p", "/commit", "--trust-project"]);
    const prompt = sentPrompt(sim!);
    expect(prompt).toContain("- Current branch: trunk");
    expect(prompt).toMatch(/- Recent commits: \[command `git log --oneline -10` did not succeed\]\nPermission denied for Bash[^\n]*Bash\(git log:\*\)/);
    expect(prompt).toMatch(/- Mark: \[command `touch marked\.txt` did not succeed\]/);
  });

  it("leave `git diff HEAD` asking where the history holds a secret file (git would print it)", async () => {
    const e = await project({ ".env": "TOKEN=one\n" });
    writeFileSync(join(e.root, ".env"), "TOKEN=two\n");
    await deepcode(e, ["-p", "/commit", "--trust-project"]);
    const prompt = sentPrompt(sim!);
    expect(prompt).toMatch(/- Current git diff \(staged and unstaged changes\): \[command `git diff HEAD` did not succeed\]/);
    expect(prompt).not.toContain("TOKEN=two");
    expect(prompt).toContain("- Current branch: trunk");
  });
});
