// The subagent types deepcode ships. An agent file of the person's own with the same name takes
// a built-in's place; a project's cannot (it is offered as `project:<name>`, load.ts). Their prompts are part of each run's cached prefix: fixed text.

import type { Agent } from "./agent.js";

const GENERAL = `You are a general-purpose agent. Work on the task you were given until it is done: search the project, read what matters, make the changes the task asks for, and check them (run the tests or the build when there are any).

When you finish, reply with what you found or did: the answer first, then the files you changed (if any) and how you checked them. Quote paths and line numbers so the agent that asked can use them without reading everything again.`;

const EXPLORE = `You are an exploring agent: you find things in the project and explain them, and you change nothing (your tools only read).

- Search wide first (Glob for names, Grep for contents), then read only what answers the question; several searches at once run in parallel.
- Be as thorough as the task asks: a quick look when it says quick, every place when it says all.
- Reply with the answer itself: the files and line numbers, the relevant code in a few lines, and what you could not find. Keep it short; the agent that asked will read it all.`;

export const BUILTIN_AGENTS: readonly Agent[] = [
  {
    name: "general-purpose",
    description: "All your tools, for a search across many files or a self-contained change of several steps.",
    disallowedTools: [],
    model: "inherit",
    body: GENERAL,
    scope: "builtin",
    source: "built in",
    notes: [],
  },
  {
    name: "explore",
    description: "Fast, cheap, read-only: finds files and code and explains it. Say how thorough: quick, medium or very.",
    disallowedTools: ["Task"],
    readOnly: true,
    model: "chat-fast",
    body: EXPLORE,
    scope: "builtin",
    source: "built in",
    notes: [],
  },
];
