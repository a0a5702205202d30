// Tab completion for the REPL, in readline's completer shape: `[candidates, the text they
// replace]`. readline completes the common prefix of the candidates and lists them when there
// are several. Three kinds, tried in this order on the word under the cursor (the line's end):
//
// - `@partial`: paths relative to the project root; folders end with `/` so the next Tab goes
//   on into them; hidden entries only when the partial's last segment starts with `.`; a name
//   with a space is offered quoted (`@"my file.txt"`), the form mentions.ts reads. Nothing
//   outside the root is offered.
// - `/partial` as the first word: slash command names (built-in and custom).
// - a later word of a slash command line: that command's argument completer, if it has one
//   (e.g. `/model ` → model names).
//
// Completion never throws: an unreadable folder just offers nothing. A single candidate that is
// a complete word (not a folder `…/`, not a server `@name:`) gets a trailing space, so the next
// word can be typed at once, as in a shell.

import { readdirSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import { inert } from "../lib/inert.js";

export interface CompleteOptions {
  /** Slash commands with the leading `/`, built-in and custom. */
  commands: readonly string[];
  root: string;
  /** Keyed by the command with its `/`: candidates for the word being typed. */
  argCompleters?: Record<string, (partial: string, words: string[]) => readonly string[]>;
}

export type Completion = [string[], string];

export function completeLine(line: string, o: CompleteOptions): Completion {
  const [hits, word] = candidates(line, o);
  return [finishWord(hits), word];
}

/** One candidate that is a whole word: with a space after it. */
export function finishWord(hits: readonly string[]): string[] {
  const all = [...new Set(hits.map((h) => h.trimEnd()))];
  return all.length === 1 && !/[/:]$/.test(all[0]) ? [`${all[0]} `] : all;
}

function candidates(line: string, o: CompleteOptions): Completion {
  const word = /(?:^|\s)(@"[^"]*|\S*)$/.exec(line)?.[1] ?? "";
  if (word.startsWith("@")) return [completePath(word, o.root), word];
  const words = line.trimStart().split(/\s+/);
  if (words.length === 1 && line.trimStart().startsWith("/")) {
    const hits = unique(o.commands.filter((c) => c.startsWith(word))).sort();
    return [hits, word];
  }
  if (words[0].startsWith("/") && words.length > 1) {
    const complete = o.argCompleters?.[words[0]];
    if (!complete) return [[], word];
    let offered: readonly string[];
    try {
      offered = complete(word, words.slice(1, -1));
    } catch {
      offered = []; // a completer that fails offers nothing rather than breaking the prompt
    }
    return [unique(offered.filter((c) => c.startsWith(word))).sort(), word];
  }
  return [[], word];
}

function completePath(word: string, root: string): string[] {
  const quoted = word.startsWith('@"');
  const partial = word.slice(quoted ? 2 : 1);
  const cut = partial.lastIndexOf("/");
  const dirPart = partial.slice(0, cut + 1);
  const base = partial.slice(cut + 1);
  const absRoot = resolve(root);
  const dir = resolve(absRoot, dirPart || ".");
  if (dir !== absRoot && !relative(absRoot, dir).split(sep).every((s) => s && s !== "..")) return [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // no such folder (yet) or unreadable
  }
  const out: string[] = [];
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (!e.name.startsWith(base)) continue;
    if (e.name.startsWith(".") && !base.startsWith(".")) continue;
    if (e.name === ".git") continue;
    const isDir = e.isDirectory() || (e.isSymbolicLink() && isDirLink(resolve(dir, e.name)));
    const path = `${dirPart}${e.name}${isDir ? "/" : ""}`;
    out.push(quoted || /\s/.test(path) ? `@"${path}${isDir ? "" : '"'}` : `@${path}`);
  }
  return out; // in name order, whatever the quoting
}

function isDirLink(p: string): boolean {
  try {
    return readdirSync(p) !== undefined;
  } catch {
    return false; // a link to a file, or dangling
  }
}

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}

/** Completions readline prints as they are (it draws the prompt unguarded): one holding a
 *  control character or a bidi override (a file named to retitle the window) is left out —
 *  shown inert it would complete to a name that does not exist. */
export function withoutUnsafe(r: [string[], string]): [string[], string] {
  return [r[0].filter((c) => inert(c) === c), r[1]];
}
