// Where a memory goes: the instructions files the instructions mod reads (mods/instructions).
// The project file is AGENTS.md, or CLAUDE.md where only that stands (writing AGENTS.md then
// would hide CLAUDE.md from the next session); the private one AGENTS.local.md, or
// CLAUDE.local.md where only that stands; the person's own is <deepcode home>/AGENTS.md.

import { appendFileSync, existsSync, lstatSync, readFileSync } from "node:fs";
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

/** Adds the private instructions file (`AGENTS.local.md`, `CLAUDE.local.md`) to the project's
 *  .gitignore when the project is a git repository and the file is not listed yet, so "yours
 *  only" stays out of commits. Returns what it did, in words, or undefined when nothing was
 *  needed. A .gitignore that is not a plain file (a symlink) is left alone. */
export function ignoreLocalFile(root: string, file: string): string | undefined {
  const name = file.slice(file.lastIndexOf("/") + 1);
  if (!/\.local\.md$/.test(name) || !existsSync(join(root, ".git"))) return undefined;
  const ignore = join(root, ".gitignore");
  let text = "";
  try {
    if (lstatSync(ignore).isSymbolicLink()) return `${name} is not in .gitignore (.gitignore is a symlink; add it yourself)`;
    text = readFileSync(ignore, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") return `${name} is not in .gitignore (${(err as Error).message})`;
  }
  const listed = text.split(/\r?\n/).some((l) => [name, `/${name}`, "*.local.md", "/*.local.md"].includes(l.trim()));
  if (listed) return undefined;
  appendFileSync(ignore, `${text === "" || text.endsWith("\n") ? "" : "\n"}${name}\n`);
  return `added ${name} to .gitignore`;
}
