// Write {file_path, content}: create or replace a whole file, atomically (the fs.write core
// writes a temp file and renames it; an existing file keeps its mode). Replacing a file needs a
// Read of it in this session and no change since, so the model never clobbers work it has not
// seen. A new file needs no Read. The new state is recorded, so an Edit can follow at once.

import type { ToolOutput, ToolSpec } from "../contract/index.js";
import { unifiedDiff } from "./line-diff.js";
import { displayPath, errCode, resolvePath } from "../lib/paths.js";
import { canEncode, countLines, decodeText, encodeText, readRecord, staleReason, type Encoding } from "./text.js";

type WriteInput = {
  file_path: string;
  content: string;
};

export const writeTool: ToolSpec<WriteInput> = {
  name: "Write",
  description: "Writes a whole file, creating folders; replacing a file needs a Read of it first.",
  inputSchema: {
    type: "object",
    properties: {
      file_path: { type: "string" },
      content: { type: "string" },
    },
    required: ["file_path", "content"],
    additionalProperties: false,
  },
  readOnly: false,
  /** The permission prompt's view: the diff against the file as it is (all lines new for a new file). */
  async preview(input, ctx): Promise<string> {
    const abs = resolvePath(ctx.root, input.file_path);
    const shown = displayPath(ctx.root, abs);
    let before: string | undefined;
    try {
      const decoded = decodeText((await ctx.fs.read({ path: abs })).data);
      before = "binary" in decoded ? `(binary file: ${decoded.binary})\n` : decoded.text;
    } catch (err) {
      if (errCode(err) !== "ENOENT") throw err;
    }
    return unifiedDiff(before ?? "", input.content, shown, 3, before === undefined).diff;
  },
  /** Replacing a file not read in this session (or changed since) fails: said before asking. */
  async refusal(input, ctx): Promise<string | undefined> {
    const abs = resolvePath(ctx.root, input.file_path);
    let r;
    try {
      r = await ctx.fs.read({ path: abs });
    } catch {
      return undefined; // a new file (or one the run will explain): ask
    }
    return staleReason(ctx.reads.get(abs), r.stat, r.data, displayPath(ctx.root, abs)) ?? undefined;
  },
  async run(input, ctx): Promise<ToolOutput> {
    const abs = resolvePath(ctx.root, input.file_path);
    const shown = displayPath(ctx.root, abs);
    let before: string | null = null;
    let encoding: Encoding = "utf8";
    let bom = false;
    try {
      const r = await ctx.fs.read({ path: abs });
      const stale = staleReason(ctx.reads.get(abs), r.stat, r.data, shown);
      if (stale) return fail(stale);
      const decoded = decodeText(r.data);
      // A text file keeps its encoding and BOM; a binary one is replaced by UTF-8 text.
      if (!("binary" in decoded)) {
        before = decoded.text;
        if (canEncode(input.content, decoded.encoding)) ({ encoding, bom } = decoded);
      }
    } catch (err) {
      const code = errCode(err);
      if (code === "EISDIR") return fail(`${shown} is a directory, not a file.`);
      if (code !== "ENOENT") throw err;
    }
    const data = encodeText(input.content, encoding, bom);
    const w = await ctx.fs.write({ path: abs, data, createDirs: true });
    ctx.reads.set(abs, readRecord(w.stat, data));
    const lines = countLines(input.content);
    const meta: ToolOutput["meta"] = { path: shown, lines, bytes: data.length, created: w.created };
    if (before !== null) {
      const d = unifiedDiff(before, input.content, shown);
      Object.assign(meta, { diff: d.diff, added: d.added, removed: d.removed });
    }
    return {
      content: `${w.created ? "Created" : "Replaced"} ${shown} (${lines} line${lines === 1 ? "" : "s"}, ${data.length} bytes).`,
      summary: `Write ${shown} (${lines} line${lines === 1 ? "" : "s"})`,
      meta,
    };
  },
};

function fail(content: string): ToolOutput {
  return { content, isError: true };
}
