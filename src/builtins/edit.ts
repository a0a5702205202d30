// Edit {file_path, old_string, new_string, replace_all?}: replace text in a file the model has
// read. Matching (exact, then normalising passes that must find exactly one place) lives in
// edit-match.ts. The file keeps its line endings (new_string's \n become \r\n in a CRLF file),
// its BOM and its encoding; the write is atomic; a file changed since it was read is refused;
// a successful edit refreshes the read record so the next edit works without a new Read.

import type { ToolContext, ToolOutput, ToolSpec } from "../contract/index.js";
import { PASS_LABELS, findMatch, lineOf, type MatchResult } from "./edit-match.js";
import { unifiedDiff } from "./line-diff.js";
import { displayPath, errCode, resolvePath } from "../lib/paths.js";
import { canEncode, decodeText, detectEol, encodeText, numbered, readRecord, splitLines, staleReason } from "./text.js";

type EditInput = {
  file_path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
};

export const editTool: ToolSpec<EditInput> = {
  name: "Edit",
  description: "Replaces old_string with new_string in a file you have Read. old_string must match the file exactly, without Read's line numbers, and be unique: add surrounding lines, or set replace_all.",
  inputSchema: {
    type: "object",
    properties: {
      file_path: { type: "string" },
      old_string: { type: "string" },
      new_string: { type: "string" },
      replace_all: { type: "boolean" },
    },
    required: ["file_path", "old_string", "new_string"],
    additionalProperties: false,
  },
  readOnly: false,
  run: editFile,
  preview: previewEdit,
  /** An edit that would fail (not read, changed since, old_string not found) is not asked about. */
  async refusal(input, ctx): Promise<string | undefined> {
    const p = await plan(input, ctx);
    return p.kind === "fail" ? p.output.content : undefined;
  },
};

/** What an edit would do, computed without writing: shared by `run` and by the permission
 *  prompt's `preview`, so the diff a person approves is the diff that is written. */
type Plan =
  | { kind: "fail"; output: ToolOutput }
  | { kind: "create"; abs: string; shown: string; content: string }
  | { kind: "edit"; abs: string; shown: string; text: string; next: string; data: Buffer; match: Extract<MatchResult, { kind: "found" }>; replacement: string };

async function plan(input: EditInput, ctx: ToolContext): Promise<Plan> {
  const abs = resolvePath(ctx.root, input.file_path);
  const shown = displayPath(ctx.root, abs);
  const { old_string: oldString, new_string: newString } = input;
  const no = (msg: string): Plan => ({ kind: "fail", output: fail(msg) });
  if (oldString === newString) return no(`old_string and new_string are the same; nothing would change in ${shown}.`);

  let r;
  try {
    r = await ctx.fs.read({ path: abs });
  } catch (err) {
    const code = errCode(err);
    if (code === "ENOENT" && oldString === "") return { kind: "create", abs, shown, content: newString };
    if (code === "ENOENT") return no(`File does not exist: ${shown}. To create a file, use Write.`);
    if (code === "EISDIR") return no(`${shown} is a directory, not a file.`);
    throw err;
  }
  const decoded = decodeText(r.data);
  if ("binary" in decoded) return no(`Cannot edit ${shown}: it looks like a binary file (${decoded.binary}).`);
  const stale = staleReason(ctx.reads.get(abs), r.stat, r.data, shown);
  if (stale) return no(stale);

  const text = decoded.text;
  if (oldString === "" && text !== "") {
    return no(`old_string is empty but ${shown} is not. Give the exact text to replace, or use Write to replace the whole file.`);
  }
  const match: MatchResult =
    oldString === ""
      ? { kind: "found", pass: "exact", ranges: [[0, 0]], replacement: newString }
      : findMatch(text, oldString, newString, input.replace_all === true);
  if (match.kind === "ambiguous") return no(ambiguous(shown, text, match.pass, match.lines));
  if (match.kind === "none") return no(notFound(shown, text, oldString));

  const eol = detectEol(text);
  const replacement = eol === "\r\n" ? match.replacement.replace(/\r?\n/g, "\r\n") : match.replacement;
  if (!canEncode(replacement, decoded.encoding)) {
    return no(`${shown} is not UTF-8 (it was read as Latin-1), and new_string has characters Latin-1 cannot hold.`);
  }
  let next = "";
  let last = 0;
  for (const [from, to] of match.ranges) {
    next += text.slice(last, from) + replacement;
    last = to;
  }
  next += text.slice(last);
  return { kind: "edit", abs, shown, text, next, data: encodeText(next, decoded.encoding, decoded.bom), match, replacement };
}

async function editFile(input: EditInput, ctx: ToolContext): Promise<ToolOutput> {
  const p = await plan(input, ctx);
  if (p.kind === "fail") return p.output;
  if (p.kind === "create") return createFile(p.abs, p.shown, p.content, ctx);
  const { abs, shown, text, next, data, match, replacement } = p;
  const w = await ctx.fs.write({ path: abs, data });
  ctx.reads.set(abs, readRecord(w.stat, data));

  const d = unifiedDiff(text, next, shown);
  const count = match.ranges.length;
  const firstLine = lineOf(next, match.ranges[0][0]);
  return {
    content: confirmation(shown, next, match, replacement, d, firstLine),
    summary: `Edit ${shown} +${d.added} −${d.removed}`,
    meta: { path: shown, diff: d.diff, added: d.added, removed: d.removed, replacements: count, match: match.pass },
  };
}

/** The permission prompt's view of an edit: its unified diff (or why it would fail). */
async function previewEdit(input: EditInput, ctx: ToolContext): Promise<string> {
  const p = await plan(input, ctx);
  if (p.kind === "fail") return `(this edit would fail: ${p.output.content.split("\n")[0]})`;
  if (p.kind === "create") return unifiedDiff("", p.content, p.shown, 3, true).diff;
  return unifiedDiff(p.text, p.next, p.shown).diff;
}

async function createFile(abs: string, shown: string, content: string, ctx: ToolContext): Promise<ToolOutput> {
  const data = Buffer.from(content, "utf8");
  const w = await ctx.fs.write({ path: abs, data, createDirs: true });
  ctx.reads.set(abs, readRecord(w.stat, data));
  const d = unifiedDiff("", content, shown, 3, true);
  return {
    content: `Created ${shown} (${d.added} lines).`,
    summary: `Edit ${shown} +${d.added} −0`,
    meta: { path: shown, diff: d.diff, added: d.added, removed: 0, replacements: 1, match: "exact", created: true },
  };
}

/**
 * What the model is told after an edit: one line saying what changed and where. An exact match
 * wrote exactly what the model asked for where it asked, and it has read the lines around it,
 * so showing them again would only repeat its own words (it cost about 500 characters an edit,
 * against 26–144 for the other agents measured in bench/peers). When a normalising pass found
 * the place, the text that was replaced is not what the model wrote, so the region as it now
 * reads follows the line, for the model to check. Either way, Read with the offset the line
 * names shows it again.
 */
function confirmation(shown: string, next: string, match: Extract<MatchResult, { kind: "found" }>, replacement: string, d: { added: number; removed: number }, firstLine: number): string {
  const count = match.ranges.length;
  const span = Math.max(1, replacement.split("\n").length);
  const where =
    count === 1
      ? span === 1 ? `line ${firstLine}` : `lines ${firstLine}–${firstLine + span - 1}`
      : `${count} places (${linesOf(newStarts(match.ranges, replacement.length).map((at) => lineOf(next, at)))})`;
  const line = `Edited ${shown} at ${where} (+${d.added} −${d.removed}).`;
  if (match.pass === "exact") return line;
  return `${line} old_string matched ${PASS_LABELS[match.pass]}; the file around the change now reads:\n${snippet(next, firstLine, replacement)}`;
}

/** `line 3` or `lines 1, 4, 9`, at most eight of them. */
function linesOf(all: number[]): string {
  const lines = [...new Set(all)];
  const shown = lines.slice(0, 8).join(", ") + (lines.length > 8 ? ", …" : "");
  return `${lines.length === 1 ? "line" : "lines"} ${shown}`;
}

/** Where each replaced range starts in the new text (the ranges are offsets in the old one). */
function newStarts(ranges: Array<[number, number]>, replacementLength: number): number[] {
  let shift = 0;
  return ranges.map(([from, to]) => {
    const at = from + shift;
    shift += replacementLength - (to - from);
    return at;
  });
}

/** The edited region with a few lines around it, numbered like Read. */
function snippet(text: string, firstLine: number, replacement: string): string {
  const lines = splitLines(text);
  const span = Math.max(1, replacement.split("\n").length);
  const from = Math.max(1, firstLine - 3);
  const to = Math.min(lines.length, firstLine + span - 1 + 3, from + 30);
  const out: string[] = [];
  for (let n = from; n <= to; n++) out.push(numbered(n, lines[n - 1].slice(0, 500)));
  return out.join("\n");
}

function ambiguous(shown: string, text: string, pass: keyof typeof PASS_LABELS, lines: number[]): string {
  const all = splitLines(text);
  const list = lines.slice(0, 10).map((n) => `  line ${n}: ${(all[n - 1] ?? "").trim().slice(0, 160)}`);
  if (lines.length > 10) list.push(`  … and ${lines.length - 10} more`);
  const head =
    pass === "exact"
      ? `old_string occurs ${lines.length} times in ${shown}, so nothing was changed:`
      : `old_string was not found exactly in ${shown}; ${PASS_LABELS[pass]} it matches ${lines.length} places, so nothing was changed:`;
  const tail =
    pass === "exact"
      ? "Include more surrounding lines to make old_string unique, or set replace_all to change every occurrence."
      : "Copy the exact text of the one you mean (with more surrounding lines) and retry.";
  return [head, ...list, tail].join("\n");
}

function notFound(shown: string, text: string, oldString: string): string {
  const closest = closestLines(text, oldString);
  const head = `old_string was not found in ${shown} — not exactly, and not when ignoring trailing whitespace, indentation, line endings, quote style, literal escapes or whitespace runs. Nothing was changed.`;
  if (closest === "") return `${head}\nRead the file again to see its current text, then retry.`;
  return `${head}\nThe closest lines in the file are:\n${closest}\nCopy the exact text from the file (Read it again if unsure) and retry.`;
}

/** The file lines most like old_string's first non-blank line, with as many lines as old_string has (at most 6). */
export function closestLines(text: string, oldString: string): string {
  const needleLines = oldString.split(/\r?\n/);
  const key = needleLines.find((l) => l.trim() !== "")?.trim();
  if (!key) return "";
  const lines = splitLines(text);
  const keyGrams = bigrams(key);
  const scored: Array<{ i: number; score: number }> = [];
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i].trim();
    if (t === "") continue;
    const score = dice(keyGrams, bigrams(t));
    if (score >= 0.4) scored.push({ i, score });
  }
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  const span = Math.min(6, needleLines.length);
  const blocks: string[] = [];
  for (const { i } of scored.slice(0, 3)) {
    const block: string[] = [];
    for (let n = i; n < Math.min(lines.length, i + span); n++) block.push(numbered(n + 1, lines[n].slice(0, 300)));
    blocks.push(block.join("\n"));
  }
  return blocks.join("\n  …\n");
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

function dice(a: Map<string, number>, b: Map<string, number>): number {
  let total = 0;
  let common = 0;
  for (const n of a.values()) total += n;
  for (const [g, n] of b) {
    total += n;
    const c = a.get(g);
    if (c) common += Math.min(c, n);
  }
  return total === 0 ? 0 : (2 * common) / total;
}

function fail(content: string): ToolOutput {
  return { content, isError: true };
}
