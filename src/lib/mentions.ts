// @-mentions in a prompt: `@path` attaches a file, `@dir/` a listing of a folder.
//
// What the model sees: the prompt text stays as typed (the `@path` stays in the sentence), and
// each attachment follows it, once per path, clearly delimited:
//
//   <file path="src/a.ts" lines="120">
//   …the file's text…
//   </file>
//
//   <directory path="src/" entries="12">
//   a.ts
//   lib/
//   </directory>
//
// Paths are shown relative to the project root. A file over `maxBytes` (64 KiB) is cut at a line
// boundary with a marker saying how much was left out and how to read the rest.
//
// What is a mention: `@` at the start of the text or after whitespace or ( [ " ', then a path up
// to the next whitespace (or `@"a path with spaces"`). Trailing punctuation that is not part of
// an existing path is dropped (`see @a.ts.` mentions a.ts). Emails and `@` inside words are not
// mentions, nor is anything inside `inline code` or a fenced code block.
//
// Left as text, with a note saying why (the notes reach the model as context and the person as
// a line on screen): a path that does not exist (a word with no `/` or `.`, like `@Override`, is
// left silently: it is a handle or a decorator, not a path; so is `@name:…`, a plugin's mention
// such as an MCP resource `@server:uri`), a path outside the project root
// after resolving `..` and symlinks, a path the permission rules do not let the model Read
// without asking (a deny rule, a secret like `.env`: see mentionAllow), a binary file, and
// anything past the total budget.

import { closeSync, lstatSync, readSync, readdirSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { NotRegularFileError, openRegularSync } from "./regular-file.js";
import { gitignoreVerdict, loadGitignore, parentGitignores, type IgnoreFile } from "./gitignore.js";

export const MENTION_MAX_BYTES = 64 * 1024;
export const MENTION_TOTAL_BYTES = 256 * 1024;
export const LISTING_MAX_ENTRIES = 200;

/** Whether a mention may be attached: the permission rules' answer for a Read of it. */
export type MentionAllow = (abs: string) => Promise<{ ok: boolean; reason?: string }>;

export interface MentionOptions {
  root: string;
  /**
   * Asked before a file is attached or a folder listed, with its absolute path; only `ok` attaches.
   * mods/mentions passes the permission gate's answer (its mentionAllow); without it everything
   * inside the root is attached (tests of the expansion itself).
   */
  allow?: MentionAllow;
  /** Per file (default 64 KiB). */
  maxBytes?: number;
  /** All attachments of one prompt together (default 256 KiB). */
  maxTotalBytes?: number;
  /** Entries of one folder listing (default 200). */
  maxEntries?: number;
}

interface Mention {
  token: string;
  path: string;
}

const TRAILING = /[.,;:!?)\]}"'>]+$/;

export async function expandMentions(text: string, o: MentionOptions): Promise<{ text: string; notes: string[] }> {
  const notes: string[] = [];
  const blocks: string[] = [];
  const done = new Set<string>();
  let budget = o.maxTotalBytes ?? MENTION_TOTAL_BYTES;
  let realRoot: string;
  try {
    realRoot = realpathSync(o.root);
  } catch {
    return { text, notes: [`@-mentions not expanded: the project root ${o.root} cannot be read`] };
  }
  for (const m of findMentions(text)) {
    const found = locate(m, o.root);
    if (!found) {
      const shown = m.path.replace(TRAILING, "") || m.path;
      // `@name:…` that is no file is a plugin's mention (an MCP resource, `@server:uri`): the
      // plugin that expands it says what happened to it.
      if (/[/.]/.test(shown) && !/^[A-Za-z0-9_.-]+:/.test(shown)) notes.push(`@${shown}: no such file or folder in the project; left as text`);
      continue;
    }
    let real: string;
    try {
      real = realpathSync(found.abs);
    } catch {
      notes.push(`@${found.path}: cannot be resolved (a broken symlink?); left as text`);
      continue;
    }
    if (real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) {
      notes.push(`@${found.path}: outside the project root (it resolves to ${real}); not attached`);
      continue;
    }
    const rel = relative(realRoot, real) || ".";
    if (done.has(real)) continue;
    done.add(real);
    if (o.allow) {
      const verdict = await o.allow(found.abs);
      if (!verdict.ok) {
        notes.push(`@${found.path}: not attached: ${verdict.reason ?? "the permission rules do not allow reading it"}`);
        continue;
      }
    }
    if (budget <= 0) {
      const limit = o.maxTotalBytes ?? MENTION_TOTAL_BYTES;
      notes.push(`@${found.path}: not attached; this prompt's attachments reached their limit (${limit >= 1024 ? `${Math.round(limit / 1024)} KiB` : `${limit} bytes`})`);
      continue;
    }
    const block = isDirectory(real) ? listingBlock(real, rel, o.maxEntries ?? LISTING_MAX_ENTRIES) : fileBlock(real, rel, Math.min(o.maxBytes ?? MENTION_MAX_BYTES, budget));
    if ("note" in block) {
      notes.push(`@${found.path}: ${block.note}`);
      continue;
    }
    budget -= Buffer.byteLength(block.text);
    blocks.push(block.text);
  }
  return { text: blocks.length ? `${text}\n\n${blocks.join("\n\n")}` : text, notes };
}

/** The mentions of a text, in order, outside code spans and fences. */
export function findMentions(text: string): Mention[] {
  const out: Mention[] = [];
  const re = /(^|[\s(["'])@("([^"\n]+)"|[^\s`]+)/g;
  for (const [lo, hi] of proseRanges(text)) {
    const part = text.slice(lo, hi);
    for (const m of part.matchAll(re)) out.push({ token: m[2], path: m[3] ?? m[2] });
  }
  return out;
}

/** Ranges of `text` outside ``` fences and `inline code`. */
function proseRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const code = /```[\s\S]*?(?:```|$)|`[^`\n]*`/g;
  let last = 0;
  for (const m of text.matchAll(code)) {
    ranges.push([last, m.index]);
    last = m.index + m[0].length;
  }
  ranges.push([last, text.length]);
  return ranges;
}

/** The path a mention names, trying it as written, then without trailing punctuation. */
function locate(m: Mention, root: string): { abs: string; path: string } | undefined {
  const candidates = [m.path];
  const trimmed = m.path.replace(TRAILING, "");
  if (trimmed && trimmed !== m.path) candidates.push(trimmed);
  for (const p of candidates) {
    const abs = isAbsolute(p) ? p : resolve(root, p);
    // lstat, so a dangling symlink is found (and reported as such) rather than "missing".
    if (lexists(abs)) return { abs, path: p };
  }
  return undefined;
}

function isDirectory(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false; // vanished since it was resolved: read as a file, whose read reports the error
  }
}

function lexists(abs: string): boolean {
  try {
    return lstatSync(abs, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // ENOTDIR (a file used as a folder), EACCES: not a path we can attach
  }
}

function fileBlock(abs: string, rel: string, maxBytes: number): { text: string } | { note: string } {
  let buf: Buffer;
  let size: number;
  try {
    // Opened non-blocking and checked on the descriptor: a FIFO would block the main thread.
    const { fd, stat } = openRegularSync(abs);
    try {
      size = stat.size;
      buf = Buffer.alloc(Math.min(size, maxBytes + 1));
      buf = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if (err instanceof NotRegularFileError) return { note: `${err.kind}, not a regular file; not attached` };
    return { note: `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}); left as text` };
  }
  if (buf.subarray(0, 8192).includes(0)) return { note: "a binary file; not attached" };
  if (buf.length <= maxBytes) {
    const body = buf.toString("utf8");
    const lines = body === "" ? 0 : body.split("\n").length - (body.endsWith("\n") ? 1 : 0);
    return { text: `<file path="${rel}" lines="${lines}">\n${body}${body === "" || body.endsWith("\n") ? "" : "\n"}</file>` };
  }
  // Cut at the last whole line that fits (at the byte bound when one line is longer).
  let body = buf.subarray(0, maxBytes).toString("utf8").replace(/\uFFFD$/, "");
  const nl = body.lastIndexOf("\n");
  if (nl > 0) body = body.slice(0, nl + 1);
  else body += "\n";
  const shown = body.split("\n").length - 1;
  const marker = `[… cut by deepcode: showed lines 1–${shown}, ${Buffer.byteLength(body)} of ${size} bytes; read the rest with the Read tool from line ${shown + 1}]`;
  return { text: `<file path="${rel}" lines="1-${shown} (cut)">\n${body}${marker}\n</file>` };
}

function listingBlock(abs: string, rel: string, maxEntries: number): { text: string } {
  const { entries, complete } = listTree(abs, { maxEntries });
  const shown = rel === "." ? "./" : `${rel}/`;
  const more = complete ? "" : `[… listing stopped at ${maxEntries} entries; use Glob for the rest]\n`;
  const body = entries.length ? `${entries.join("\n")}\n` : "(empty)\n";
  return { text: `<directory path="${shown}" entries="${complete ? entries.length : `${entries.length}+`}">\n${body}${more}</directory>` };
}

export interface TreeOptions {
  maxEntries: number;
  /** Folders below `dir` to descend into (default: all). */
  maxDepth?: number;
  /** Folder names never entered (besides .git). */
  skip?: ReadonlySet<string>;
}

/**
 * Paths below `dir`, relative to it, folders with a trailing `/`, depth first in name order;
 * .gitignore rules apply (also those of the folders above), `.git` is skipped, symlinks are not
 * followed. Stops after `maxEntries` (`complete` false then).
 */
export function listTree(dir: string, o: TreeOptions): { entries: string[]; complete: boolean } {
  const entries: string[] = [];
  let complete = true;
  const visit = (abs: string, rel: string, stack: IgnoreFile[], depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(abs).sort();
    } catch {
      return; // unreadable folder: nothing to list
    }
    const own = names.includes(".gitignore") ? loadGitignore(abs) : null;
    const here = own ? [...stack, own] : stack;
    for (const n of names) {
      if (n === ".git" || o.skip?.has(n)) continue;
      const child = join(abs, n);
      // lstat: a symlinked folder is listed but not entered (no loops, no walking out).
      let st;
      try {
        st = lstatSync(child);
      } catch {
        continue; // vanished mid-listing, or unreadable: not listed
      }
      const isDir = st.isDirectory();
      if (gitignoreVerdict(here, child, isDir) === "ignore") continue;
      if (entries.length >= o.maxEntries) {
        complete = false;
        return;
      }
      const r = rel ? `${rel}/${n}` : n;
      entries.push(isDir ? `${r}/` : r);
      if (isDir && (o.maxDepth === undefined || depth < o.maxDepth)) visit(child, r, here, depth + 1);
      if (!complete) return;
    }
  };
  visit(dir, "", parentGitignores(dir), 0);
  return { entries, complete };
}
