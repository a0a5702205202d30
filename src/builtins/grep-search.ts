// Grep's built-in search: what `rg` prints for the flags grep-rg.ts passes it, line for line,
// for machines without ripgrep. Same files (walk.ts: hidden included, .git skipped, .gitignore
// applied, --glob overrides before .gitignore, types after), same order (rg --sort path), same
// line format (`path:N:text`, `path-N-text` for context, `--` between groups and files), the
// same secrets left out (grep-secrets.ts: after every other rule, as rg's last `!` globs), same
// binary handling (a file with a NUL byte is skipped; one named explicitly reports
// "binary file matches"), same counting (lines, a multi-line match counting once).

import { isAscii } from "node:buffer";
import { isAbsolute } from "node:path";
import type { FsReadResult, ToolContext } from "../contract/index.js";
import { globMatch } from "../lib/glob-match.js";
import { requiredLiteral } from "./grep-literal.js";
import { translateRegex } from "./grep-regex.js";
import type { SecretFilter } from "./grep-secrets.js";
import { gitignoreVerdict, parseGitignore } from "../lib/gitignore.js";
import { displayPath } from "../lib/paths.js";
import { walkFiles } from "./walk.js";

export type GrepMode = "files_with_matches" | "content" | "count";

export interface GrepQuery {
  pattern: string;
  mode: GrepMode;
  ignoreCase: boolean;
  lineNumbers: boolean;
  before: number;
  after: number;
  multiline: boolean;
  /** rg --glob patterns, in order (`!` excludes). */
  globs: string[];
  /** Globs of the `type` filter (file names), or null for every type. */
  typeGlobs: readonly string[] | null;
  /** The project root: rg's working directory and the base of anchored globs. */
  root: string;
  /** What to search (absolute). */
  target: string;
  targetIsFile: boolean;
  /** Secrets to leave out (grep-secrets.ts); none when absent. */
  secrets?: SecretFilter;
}

const READ_AHEAD = 16;

export class GrepAbortedError extends Error {
  constructor() {
    super("interrupted");
    this.name = "GrepAbortedError";
  }
}
const MAX_FILE_BYTES = 256 * 1024 * 1024;
/** What is read of a file before knowing whether it is binary (see `load`). */
const HEAD_BYTES = 64 * 1024;
/** Bytes of files read whole (longer than their head) held at once (see ByteBudget). */
const WHOLE_BYTES = 64 * 1024 * 1024;

interface Loaded {
  data: Buffer | null;
  /** What it took from the byte budget, given back once the file is searched. */
  bytes: number;
}

/**
 * Room for the files read whole, granted in file order: file j gets its turn after every file
 * before it had theirs, and then waits only while other files hold bytes and it would not fit.
 * The search consumes files in order, so the file it waits for never waits on a later one.
 */
export class ByteBudget {
  private held = 0;
  private turn = 0;
  private readonly waiting: Array<{ j: number; bytes: number; go: () => void }> = [];
  constructor(private readonly max: number) {}

  take(j: number, bytes: number): Promise<void> {
    return new Promise((go) => {
      this.waiting.push({ j, bytes, go });
      this.pump();
    });
  }

  give(bytes: number): void {
    this.held -= bytes;
    this.pump();
  }

  private pump(): void {
    for (;;) {
      const k = this.waiting.findIndex((w) => w.j === this.turn);
      if (k < 0) return;
      const w = this.waiting[k];
      if (w.bytes > 0 && this.held > 0 && this.held + w.bytes > this.max) return;
      this.waiting.splice(k, 1);
      this.held += w.bytes;
      this.turn++;
      w.go();
    }
  }
}

/** The output lines rg would print (files and count modes unsorted is fine: the caller sorts
 *  both). The files left out as secrets, never read, go to `skipped` (absolute paths). */
export async function searchBuiltin(q: GrepQuery, ctx: ToolContext, skipped: string[] = []): Promise<string[]> {
  const t = translateRegex(q.pattern, { multiline: q.multiline, ignoreCase: q.ignoreCase });
  const lineRe = new RegExp(t.source, t.flags);
  // Per line, a whole-text scan with ^/$ as line anchors finds a superset of the matching lines.
  const scanRe = new RegExp(t.source, `${t.flags}m`);
  const literal = q.ignoreCase ? null : requiredLiteral(q.pattern);
  const needle = literal === null ? null : Buffer.from(literal, "utf8");
  const files = q.targetIsFile ? [q.target] : walkFiles(q.target, walkRules(q), skipped);
  const out: string[] = [];
  // A window of READ_AHEAD reads in flight; each slot is let go once its file is searched, so
  // memory holds at most READ_AHEAD files, never the whole tree's (a resolved promise kept in
  // an array keeps its Buffer: 833 MB over 100k files before this was a window). Files longer
  // than their head are read whole only within a byte budget (WHOLE_BYTES in flight, one larger
  // file alone): 16 minified bundles of 20 MB must not be held at once.
  const pending: Array<Promise<Loaded> | undefined> = [];
  const budget = new ByteBudget(WHOLE_BYTES);
  // The head first: a walked file with a NUL byte in it is skipped (as rg skips binaries), so a
  // 100 MB binary costs HEAD_BYTES, not its size; only a text file longer than that is read whole.
  const load = async (j: number): Promise<Loaded> => {
    const p = files[j];
    let head: FsReadResult | null = null;
    try {
      head = await ctx.fs.read({ path: p, maxBytes: HEAD_BYTES });
    } catch {
      // unreadable (EACCES, vanished since the walk, a FIFO): rg reports it on stderr and goes on
    }
    const whole = head !== null && head.truncated && (q.targetIsFile || isUtf16(head.data) || head.data.indexOf(0) < 0);
    const bytes = whole ? Math.max(head!.stat.size, HEAD_BYTES) : 0;
    await budget.take(j, bytes); // every file takes its turn, in order, needing bytes or not
    if (!whole) return { data: head !== null && !head.truncated ? head.data : null, bytes };
    try {
      return { data: (await ctx.fs.read({ path: p, maxBytes: MAX_FILE_BYTES })).data, bytes };
    } catch {
      return { data: null, bytes }; // vanished or changed since its head was read
    }
  };
  for (let i = 0; i < Math.min(READ_AHEAD, files.length); i++) pending.push(load(i));
  let printedAny = false;
  for (let i = 0; i < files.length; i++) {
    if (ctx.signal.aborted) throw new GrepAbortedError();
    const got = await pending[i]!;
    pending[i] = undefined;
    if (i + READ_AHEAD < files.length) pending.push(load(i + READ_AHEAD));
    try {
      searchOne(files[i], got.data);
    } finally {
      budget.give(got.bytes);
    }
  }
  return out;

  /** Search one file's bytes (null: not read), adding its lines to `out`. */
  function searchOne(file: string, data: Buffer | null): void {
    if (!data) {
      // Unreadable, a binary, or a read the fence refused (a secret under another name: recorded
      // as left out, as below).
      q.secrets?.isSecretFile(file);
      return;
    }
    const shown = shownPath(q, file);
    const utf16 = isUtf16(data);
    if (needle !== null && !utf16 && data.indexOf(needle) < 0) return; // cannot match: skip decoding
    const nul = utf16 ? -1 : data.indexOf(0);
    if (nul >= 0 && !q.targetIsFile) return;
    const text = decode(data);
    // Listing files needs one matching line per file, not all of them.
    const firstOnly = q.mode === "files_with_matches";
    const hits = q.multiline ? multilineHits(text, lineRe) : lineHits(text, lineRe, scanRe, firstOnly);
    if (hits.count === 0) return;
    if (q.secrets?.isSecretFile(file)) return; // a hard link to .env, say: recorded there
    if (q.mode === "files_with_matches") out.push(shown);
    else if (q.mode === "count") out.push(`${shown}:${hits.count}`);
    else if (nul >= 0) out.push(`${shown}: binary file matches (found "\\0" byte around offset ${nul})`);
    else printedAny = contentLines(shown, text, hits.lines, q, printedAny, out);
  }
}

/** A path as rg prints it: rg keeps the form its path argument had, so below a search path given
 *  absolute (outside the root) every path is absolute, even one inside the root. */
export function shownPath(q: GrepQuery, abs: string): string {
  return isAbsolute(displayPath(q.root, q.target)) ? abs : displayPath(q.root, abs);
}

function walkRules(q: GrepQuery) {
  const overrides = q.globs.length ? parseGitignore(q.root, q.globs.join("\n")) : null;
  const whitelists = q.globs.some((g) => !g.startsWith("!"));
  return {
    override: overrides
      ? (abs: string, isDir: boolean): "include" | "exclude" | null => {
          const v = gitignoreVerdict([overrides], abs, isDir);
          if (v === "ignore") return "include"; // a plain glob names what to search
          if (v === "keep") return "exclude"; // a `!glob` names what to skip
          return whitelists && !isDir ? "exclude" : null;
        }
      : undefined,
    accept: q.typeGlobs ? (name: string) => q.typeGlobs!.some((g) => globMatch(g, name)) : undefined,
    secret: q.secrets ? (abs: string) => q.secrets!.reason(abs) !== null : undefined,
  };
}

function isUtf16(b: Buffer): boolean {
  return b.length >= 2 && ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff));
}

const utf8 = new TextDecoder("utf-8");
/** As rg decodes: UTF-16 with a BOM is transcoded, a UTF-8 BOM is dropped, bad bytes become U+FFFD. */
function decode(b: Buffer): string {
  if (b[0] === 0xff && b[1] === 0xfe) return b.subarray(2).toString("utf16le");
  if (b[0] === 0xfe && b[1] === 0xff) return Buffer.from(b.subarray(2)).swap16().toString("utf16le");
  return isAscii(b) ? b.toString("latin1") : utf8.decode(b);
}

interface Hits {
  /** 1-based matching line numbers, ascending. */
  lines: number[];
  /** rg --count: matching lines; in multiline mode, a match spanning lines counts once. */
  count: number;
}

function lineHits(text: string, lineRe: RegExp, scanRe: RegExp, firstOnly: boolean): Hits {
  const lines: number[] = [];
  const end = text.endsWith("\n") ? text.length - 1 : text.length;
  let lineNo = 1;
  let counted = 0;
  scanRe.lastIndex = 0;
  for (let pos = 0; pos <= end; ) {
    scanRe.lastIndex = pos;
    const m = scanRe.exec(text);
    if (!m) break;
    const lineStart = m.index === 0 ? 0 : text.lastIndexOf("\n", m.index - 1) + 1;
    if (lineStart > end || text.length === 0) break;
    let lineEnd = text.indexOf("\n", m.index);
    if (lineEnd < 0) lineEnd = text.length;
    for (let j = text.indexOf("\n", counted); j >= 0 && j < lineStart; j = text.indexOf("\n", counted)) {
      lineNo++;
      counted = j + 1;
    }
    lineRe.lastIndex = 0;
    if (lineRe.test(text.slice(lineStart, lineEnd))) {
      lines.push(lineNo);
      if (firstOnly) break;
    }
    pos = lineEnd + 1;
  }
  return { lines, count: lines.length };
}

function multilineHits(text: string, re: RegExp): Hits {
  const lines: number[] = [];
  let count = 0;
  let lastLine = 0;
  let lineNo = 1;
  let counted = 0;
  const lineAt = (i: number): number => {
    for (let j = text.indexOf("\n", counted); j >= 0 && j < i; j = text.indexOf("\n", counted)) {
      lineNo++;
      counted = j + 1;
    }
    return lineNo;
  };
  const end = text.endsWith("\n") ? text.length - 1 : text.length;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > end || text.length === 0) break;
    const first = lineAt(m.index);
    const stop = m[0].length ? m.index + m[0].length - 1 : m.index;
    if (first > lastLine) count++;
    const last = stop > m.index ? Math.max(first, countTo(text, m.index, stop, first)) : first;
    for (let n = Math.max(first, lastLine + 1); n <= last; n++) lines.push(n);
    lastLine = Math.max(lastLine, last);
    if (m[0].length === 0) re.lastIndex = m.index + (text.codePointAt(m.index)! > 0xffff ? 2 : 1);
  }
  return { lines, count };
}

/** Line of offset `to`, given that offset `from` is on line `line`. */
function countTo(text: string, from: number, to: number, line: number): number {
  for (let j = text.indexOf("\n", from); j >= 0 && j < to; j = text.indexOf("\n", j + 1)) line++;
  return line;
}

/** Append rg's content lines for one file; returns whether anything has been printed so far. */
function contentLines(shown: string, text: string, hits: number[], q: GrepQuery, printedAny: boolean, out: string[]): boolean {
  const lines = lineReader(text);
  const isMatch = new Set(hits);
  const context = q.before > 0 || q.after > 0;
  let lastPrinted = 0;
  let printed = printedAny;
  for (const h of hits) {
    const from = Math.max(1, h - q.before, lastPrinted + 1);
    const to = h + q.after;
    for (let n = from; n <= to; n++) {
      const line = lines.at(n);
      if (line === null) break; // past the last line
      // rg separates context groups, also a file's first group from the file before.
      if (context && printed && (lastPrinted === 0 || n !== lastPrinted + 1)) out.push("--");
      const sep = isMatch.has(n) ? ":" : "-";
      out.push(q.lineNumbers ? `${shown}${sep}${n}${sep}${line}` : `${shown}${sep}${line}`);
      lastPrinted = n;
      printed = true;
    }
  }
  return printed;
}

/** Line `n` (1-based) of `text`, asked for in ascending order: the text is walked once up to the
 *  last line asked for, never split whole (a 5 MB file with one match was split into 100k
 *  strings). null past the last line (a final newline ends the last line, as rg counts). */
function lineReader(text: string): { at(n: number): string | null } {
  let lineNo = 1;
  let start = 0;
  const end = text.endsWith("\n") ? text.length - 1 : text.length;
  return {
    at(n) {
      while (lineNo < n) {
        const nl = text.indexOf("\n", start);
        if (nl < 0 || nl >= end) return null;
        start = nl + 1;
        lineNo++;
      }
      const nl = text.indexOf("\n", start);
      return text.slice(start, nl < 0 || nl > end ? end : nl);
    },
  };
}
