// What plan mode says to the model. None of it is in the prefix: the planning instruction is a
// note at the turn's tail (it rides only on planning turns), the deny reason is a tool result,
// and go / edit are prompts of their own turns — so entering and leaving plan mode never
// changes a byte the server has cached.

/** The tail note of a planning turn. */
export const PLANNING_NOTE = [
  "You are in plan mode: look, do not touch. Investigate with read-only tools only (Read, Grep, Glob, and shell commands that only read, such as ls, cat, git log or git diff); every change — Write, Edit, a command that writes a file or runs a program — is denied while you plan.",
  "When you know enough, reply with the plan and stop. Use these three headings:",
  "## Steps — what you will do, in order.",
  "## Files — each file you will change or create, and what changes in it.",
  "## Verification — the commands or tests that will show it works.",
  "Do not make the changes yet: the person reviews the plan first (go, edit or drop).",
].join("\n");

/** Why a call was refused while planning (the model reads it as the call's result). */
export function deniedWhilePlanning(tool: string): string {
  return `plan mode: you are planning, so ${tool} does not run now — only read-only tools do. Put this step in your plan instead; the person approves the plan before anything changes.`;
}

/** The prompt of the turn that carries out an approved plan. */
export const GO_PROMPT = "The plan above is approved. Carry it out now: make the changes step by step, then verify them as the plan says.";

/** The prompt of a planning turn that revises the plan with the person's notes. */
export function revisePrompt(notes: string): string {
  return `My notes on your plan:\n\n${notes}\n\nRevise the plan accordingly (you are still planning: change nothing yet).`;
}

/** The tail note after the person dropped a plan. */
export const DROPPED_NOTE = "The person dropped the plan you proposed: do not carry it out unless they ask for it again.";

export const USAGE = [
  "/plan TASK          plan TASK with the planner: read-only tools, then a plan to review",
  "/plan -- TASK       the same, for a task that starts with go, edit, drop or off",
  "/plan go            carry out the plan waiting for an answer (on the session's tier)",
  "/plan edit NOTES    send notes to the planner; it revises the plan",
  "/plan drop          drop the plan",
  "/plan off           leave plan mode",
].join("\n");
