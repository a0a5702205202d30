// Read {file_path, offset?, limit?}: a text file as numbered lines (the line number, a tab, the
// text: `numbered` in text.ts). Records what was read in ctx.reads so
// Write and Edit can refuse to clobber a file that changed since.

import type { ToolOutput, ToolSpec } from "../contract/index.js";
import { displayPath, errCode, resolvePath } from "../lib/paths.js";
import { decodeText, numbered, readRecord, splitLines } from "./text.js";

export const READ_DEFAULT_LINES = 2000;
export const READ_MAX_LINE_CHARS = 2000;
/** A Read shows whole lines up to this many characters, and says where to read on: a page of
 *  a long file, never a result the entry bound (32 KiB) cuts in the middle. Measured on the
 *  peers bench's large-output session (a 5,000-line file read in 2,000-line pages until a
 *  constant near its end shows): 32,000 cost 21% more than 24,000 for the same facts seen;
 *  16,000 paged past the constant. What the model loses: a file past ~600 lines of code takes
 *  one more Read per page, each starting where the last one said. */
export const READ_MAX_CHARS = 24_000;
/** Files larger than this are refused: the model should search them (Grep) or slice them (Bash). */
export const READ_MAX_BYTES = 32 * 1024 * 1024;

type ReadInput = {
  file_path: string;
  offset?: number;
  limit?: number;
};

export const readTool: ToolSpec<ReadInput> = {
  name: "Read",
  description: `Reads a text file as numbered lines (number, tab, text): up to ${READ_DEFAULT_LINES} lines from offset (1-based), then says where to read on. Read a file before you Edit or Write it.`,
  inputSchema: {
    type: "object",
    properties: {
      file_path: { type: "string" },
      offset: { type: "integer", minimum: 1 },
      limit: { type: "integer", minimum: 1 },
    },
    required: ["file_path"],
    additionalProperties: false,
  },
  readOnly: true,
  async run(input, ctx): Promise<ToolOutput> {
    const abs = resolvePath(ctx.root, input.file_path);
    const shown = displayPath(ctx.root, abs);
    let r;
    try {
      r = await ctx.fs.read({ path: abs, maxBytes: READ_MAX_BYTES });
    } catch (err) {
      const code = errCode(err);
      if (code === "ENOENT") return fail(`File does not exist: ${shown}`);
      if (code === "ENOTREG") return fail(`${shown} is not a regular file (${(err as { kind?: string }).kind ?? "a special file"}); Read reads regular files only, it would wait forever on a pipe or device.`);
      if (code === "EISDIR") return fail(`${shown} is a directory, not a file. List it with Glob (e.g. pattern "${shown === "." ? "" : `${shown}/`}*").`);
      throw err;
    }
    if (r.truncated) {
      return fail(`${shown} is too large to read (${r.stat.size} bytes). Search it with Grep, or print a slice with Bash (e.g. sed -n '100,200p').`);
    }
    // Recorded even when refused as binary: the model has seen what the file is, and may replace it.
    ctx.reads.set(abs, readRecord(r.stat, r.data));
    const decoded = decodeText(r.data);
    if ("binary" in decoded) return fail(`Cannot read ${shown}: it looks like a binary file (${decoded.binary}). Read shows text files only.`);
    if (decoded.text === "") {
      return { content: `${shown} is empty (0 lines${r.data.length ? `, ${r.data.length} bytes of byte-order mark` : ""}).`, summary: `Read ${shown} (empty)`, meta: { path: shown, lines: 0, totalLines: 0 } };
    }
    const lines = splitLines(decoded.text);
    const start = Math.max(1, Math.floor(input.offset ?? 1)) - 1;
    const limit = Math.max(1, Math.floor(input.limit ?? READ_DEFAULT_LINES));
    if (start >= lines.length) {
      return {
        content: `${shown} has ${lines.length} line${lines.length === 1 ? "" : "s"}; offset ${start + 1} is past its end.`,
        summary: `Read ${shown} (0 lines)`,
        meta: { path: shown, lines: 0, totalLines: lines.length },
      };
    }
    const out: string[] = [];
    let end = start;
    for (let size = 0; end < Math.min(lines.length, start + limit); end++) {
      const line = numbered(end + 1, cutLine(lines[end]));
      if (end > start && size + line.length + 1 > READ_MAX_CHARS) break;
      size += line.length + 1;
      out.push(line);
    }
    if (end < lines.length) {
      out.push(`\n(Showing lines ${start + 1}–${end} of ${lines.length}. Pass offset=${end + 1} to read on.)`);
    }
    const shownLines = end - start;
    return {
      content: out.join("\n"),
      summary: `Read ${shown} (${shownLines} line${shownLines === 1 ? "" : "s"})`,
      meta: { path: shown, lines: shownLines, totalLines: lines.length, startLine: start + 1, encoding: decoded.encoding },
    };
  },
};

function cutLine(line: string): string {
  if (line.length <= READ_MAX_LINE_CHARS) return line;
  return `${line.slice(0, READ_MAX_LINE_CHARS)}… [line cut: ${line.length} characters in all]`;
}

function fail(content: string) {
  return { content, isError: true };
}
