// The core answer of `context.system`: the base prompt and the environment facts, fixed at
// session start. Nothing here may change within a session (no date, no git status): it is
// the cached prefix. Per-turn facts go to the tail (`context.tail`).

import { existsSync } from "node:fs";
import { join } from "node:path";
import { platform } from "node:os";
import type { SystemSection } from "../../contract/index.js";

const BASE = `You are deepcode, a coding agent in the user's terminal, working on their project with your tools.

- Read the code involved before changing it; find files with Grep and Glob, not by guessing paths.
- Make the smallest change that does the job, in the project's style: Edit rather than rewrite.
- Check what you changed with the tests, linter or build, and fix what you broke.
- Paths are absolute or relative to the project root; a cut result says where the rest is.
- A denied call is an answer: do not repeat it; take another way or ask.
- Read-only calls may go several in one reply; they run in parallel.
- Messages starting with [deepcode] come from deepcode, not from the user.
- Answer concisely, result first, little Markdown; after a task, say briefly what you changed and how you checked it.
- Ask before anything risky: deleting data, pushing, changing many files.`;

const SUBAGENT = `You are a subagent of deepcode, a coding agent working in the user's terminal on their project. Another agent gave you one task; do it with the tools you have, on your own: nobody answers questions in between.

- Your final message is all the other agent receives of your work: make it the complete answer, with the facts, file paths and line numbers it needs, and say what you changed, if anything.
- Look before you change anything, keep changes small, and check them.
- Some calls need the user's permission; if a call is denied, do not repeat it: take another approach or report why you could not.
- Messages that start with [deepcode] come from deepcode, not from the user.`;

/** The model is not named here: it can change within a session (/model, tiers). */
export function baseSections(root: string): SystemSection[] {
  return [{ id: "base", text: BASE }, environment(root)];
}

/** A subagent's core sections: what it is, its own prompt (an agent file's body), and the same
 *  environment facts. Nothing that varies per run (no ids, no times): the prefix of an agent
 *  type is the same on every invocation, in every session, so the cache keeps it. */
export function agentSections(root: string, name: string, system: string): SystemSection[] {
  const own = system.trim();
  return [{ id: "subagent", text: SUBAGENT }, ...(own ? [{ id: `agent:${name}`, text: own }] : []), environment(root)];
}

function environment(root: string): SystemSection {
  const git = existsSync(join(root, ".git")) ? "a git repository" : "not a git repository";
  return { id: "environment", text: `Fixed at session start: project root ${root} (${git}); platform ${platform()}; shell bash.` };
}

/** DeepSeek's `latest_reminder` content: `<date>,<weekday>,<location>,<platform>,<language>`. */
export function reminderContent(now: Date, language = "English"): string {
  const date = now.toISOString().slice(0, 10);
  const weekday = new Intl.DateTimeFormat("en-US", { weekday: "long", timeZone: "UTC" }).format(now);
  return `${date},${weekday},,Terminal,${language}`;
}
