// /commit (commit-commands' shape) in the REPL, in a real terminal: its read-only !`cmd` lines
// (`git diff HEAD`, `git branch --show-current`, `git log --oneline -10`) ask nothing, with the
// sandbox's auto-allow off, and their output reaches the model.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { enter, useRepl } from "../repl/helpers.js";
import { chatBodies } from "../helpers/extension.js";

const repl = useRepl();

const COMMIT = "---\nallowed-tools: Bash(git add:*), Bash(git status:*), Bash(git commit:*)\ndescription: Create a git commit\n---\n\n## Context\n\n- Current git status: !`git status`\n- Current git diff (staged and unstaged changes): !`git diff HEAD`\n- Current branch: !`git branch --show-current`\n- Recent commits: !`git log --oneline -10`\n\n## Your task\n\nBased on the above changes, create a single git commit.\n";

describe("/commit's !`cmd` lines in the REPL", () => {
  it("run without a single question and the turn gets their output", async () => {
    const env = await repl.project({ default: { content: "commit planned" } }, { ".claude/commands/commit.md": COMMIT, "app.js": "1\n" });
    for (const a of [["init", "-q"], ["add", "."], ["commit", "-qm", "first commit"]]) spawnSync("git", ["-c", "user.email=d@e.f", "-c", "user.name=D", "-c", "init.defaultBranch=trunk", ...a], { cwd: env.root });
    const t = await repl.start();
    enter(t, "/commit");
    await t.waitFor("commit planned");
    expect(t.screen()).not.toMatch(/\[y\] yes|wants to run|Permission denied/);
    const prompt = String(chatBodies(repl.sim.requests).pop()!.messages.at(-1)?.content);
    expect(prompt).toContain("- Current branch: trunk");
    expect(prompt).toMatch(/- Recent commits: [0-9a-f]{7,} first commit/);
  });
});
