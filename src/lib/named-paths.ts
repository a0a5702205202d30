// The files outside the workspace a launched program's configuration names (a hook's command, a
// stdio MCP server's command and arguments), so a sandbox can show them to it read-only (issue
// 35, item 5): the script it runs (`python3 ~/.claude/hooks/notify.py`,
// `"$CLAUDE_PLUGIN_ROOT"/hooks/check.sh`, `node /opt/mcp/server.js`), a plugin's root, the
// transcript a hook's input points to. Only words that name an existing absolute path count
// (after `~`, `$HOME`, `$CLAUDE_PROJECT_DIR` and the configured variables are put in); paths in
// the workspace need no grant. What is found is a list for the sandbox to judge (it shows a
// file's folder, never the home folder or `/` whole, and keeps masking secrets in what it shows).

import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, normalize } from "node:path";

/** Existing absolute paths outside `root` that a shell `command` (and `env`'s values) name — a
 *  file as its folder (a script imports what lies beside it), unless that folder holds the home
 *  folder (`~`, `/home`, `/`) — and the paths in `also` as they are (the transcript: that file only). */
export function namedPaths(command: string, env: Readonly<Record<string, string>>, root: string, home: string, also: readonly string[] = []): string[] {
  const vars: Record<string, string> = { HOME: home, CLAUDE_PROJECT_DIR: root, DEEPCODE_PROJECT_DIR: root, ...env };
  const expanded = command.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, a: string | undefined, b: string | undefined) => vars[(a ?? b) as string] ?? whole);
  const words = expanded
    .split(/[\s;&|()<>`]+/)
    .map((w) => w.replace(/^["'=]+|["']+$/g, "").replace(/^[A-Za-z_][A-Za-z0-9_]*=/, ""));
  const out = namedInArgs([...words, ...Object.values(env)], root, home);
  for (const w of also) add(out, w, root, false);
  return out;
}

/** The same for a program's argv (an MCP server's command and arguments: no shell, but `~/`
 *  and `--flag=/path` are common). */
export function namedInArgs(words: readonly string[], root: string, home: string): string[] {
  const out: string[] = [];
  for (const w of words) {
    const value = w.replace(/^--?[A-Za-z0-9-]+=/, "");
    add(out, value === "~" || value.startsWith("~/") ? join(home, value.slice(1)) : value, root, true, home);
  }
  return out;
}

function add(out: string[], w: string, root: string, folder: boolean, home = ""): void {
  if (!isAbsolute(w) || w.includes("\0")) return;
  let p = normalize(w);
  // A file it will create (`NOTES_FILE=${CLAUDE_PLUGIN_DATA}/notes.txt`): the folder it goes in.
  if (!existsSync(p) && folder && existsSync(dirname(p))) p = dirname(p);
  if (p === root || p.startsWith(`${root}/`) || !existsSync(p)) return;
  // A file as its folder — unless that folder holds the home folder (then the file alone).
  const holdsHome = (d: string): boolean => d === "/" || (home !== "" && (home === d || home.startsWith(`${d}/`)));
  if (folder && !isFolder(p) && !holdsHome(dirname(p))) p = dirname(p);
  if (!out.includes(p)) out.push(p);
}

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false; // gone since: taken as a file
  }
}
