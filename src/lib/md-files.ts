// Markdown files below a folder, sub-folders included, as Claude Code finds its agent files
// (disler's hooks-mastery keeps `.claude/agents/team/builder.md`; an agent is named by its
// header's `name`, never by its folder) and its rules (`.claude/rules/**/*.md`). Dot-folders and
// dot-files are not looked into. Shared by the agents mod, the marketplace's install screen (so
// what an install lists is what loads) and the instructions mod.

import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** How deep sub-folders are followed (a guard against symlink loops too). */
const MAX_DEPTH = 8;

/** The `*.md` files below `dir`, absolute, in path order; `files` (a plugin.json's list) instead of
 *  the folder's own when given. A folder that cannot be read lists nothing. */
export function mdFilesBelow(dir: string, files?: readonly string[]): string[] {
  if (files) return [...files];
  const out: string[] = [];
  const walk = (d: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch {
      return; // no such folder (the usual case), or one that cannot be read: nothing from here
    }
    for (const n of names) {
      if (n.startsWith(".")) continue;
      const p = join(d, n);
      if (/\.md$/i.test(n)) out.push(p);
      else if (depth < MAX_DEPTH && isFolder(p)) walk(p, depth + 1);
    }
  };
  walk(dir, 0);
  return out;
}

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false; // a dangling link: not a folder
  }
}
