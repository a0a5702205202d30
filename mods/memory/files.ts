// Where a memory goes: the instructions files the instructions mod reads (mods/instructions).
// The project file is AGENTS.md, or CLAUDE.md where only that stands (writing AGENTS.md then
// would hide CLAUDE.md from the next session); the private one AGENTS.local.md, or
// CLAUDE.local.md where only that stands; the person's own is <deepcode home>/AGENTS.md.

import { existsSync } from "node:fs";
import { join } from "node:path";

export const TARGETS = ["project", "local", "user"] as const;
export type Target = (typeof TARGETS)[number];

export function targetFile(target: Target, root: string, home: string): string {
  if (target === "user") return join(home, "AGENTS.md");
  const [mine, claude] = target === "project" ? ["AGENTS.md", "CLAUDE.md"] : ["AGENTS.local.md", "CLAUDE.local.md"];
  return !existsSync(join(root, mine)) && existsSync(join(root, claude)) ? join(root, claude) : join(root, mine);
}

export function targetLabel(target: Target, root: string, home: string): string {
  const file = targetFile(target, root, home);
  const name = file.slice(file.lastIndexOf("/") + 1);
  if (target === "project") return `${name} (this project, shared with the repository)`;
  if (target === "local") return `${name} (this project, yours only; keep it git-ignored)`;
  return `${file} (yours, every project)`;
}

/** The file's text with one memory line added at the end (a `- ` bullet, as Claude Code adds). */
export function withMemory(existing: string, memory: string): string {
  const line = `- ${memory.replace(/\s+/g, " ").trim().replace(/^[-*]\s+/, "")}`;
  if (existing === "") return `${line}\n`;
  return `${existing}${existing.endsWith("\n") ? "" : "\n"}${line}\n`;
}
