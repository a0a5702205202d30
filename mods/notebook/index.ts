// Built-in mod: notebook — Jupyter notebooks, as Claude Code has them.
//
//   Read of a `.ipynb`  (a builtin-tier hook on `tool.call` for Read) the cells with their
//                       outputs as text (render.ts) instead of the file's JSON; an image output
//                       is named, never pasted. The file is read through `fs.read` with the
//                       Read call's id, so the fence judges it as the Read it is. A file that
//                       is not a notebook after all is left to Read.
//   NotebookEdit        Claude Code's parameters (`notebook_path`, `cell_id` or `cell_number`,
//                       `new_source`, `cell_type`, `edit_mode` replace|insert|delete): the
//                       change is written with `fs.write`, the path Write and Edit take, so the
//                       path fence, the gate's Edit rules and checkpoints (tool.effects names
//                       `notebook_path`) see it. It is on demand (ToolSpec.onDemand): not in the
//                       prefix; the notebook's Read result says how to call it through UseTool.
//                       As Edit does, it changes only a notebook read in this session and not
//                       changed since (by anyone else: its own writes count as read, and so do
//                       the session's Write of it); one it would refuse is not asked about.
//   NotebookRead        Claude Code dropped it for Read; an agent file naming it gets Read
//                       (TOOL_STANDINS in the contract).
// Settings `pluginConfig.notebook.tool: false` leaves NotebookEdit out (Read still shows cells).

import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { isAbsolute, relative, resolve } from "node:path";
import type { JsonObject, Plugin, PluginApi, ReadRecord, ToolContext, ToolOutput } from "../../src/contract/index.js";
import { editNotebook, serialise, type EditInput } from "./edit.js";
import { joinSource, parseNotebook, renderNotebook } from "./render.js";

const MAX_NOTEBOOK_BYTES = 30_000_000;
/** Notebooks read per session (`sessionId NUL path` → the bytes' digest), the oldest dropped first. */
const MAX_READS = 2_000;

export class NotebookReads {
  private readonly seen = new Map<string, string>();
  note(sessionId: string, abs: string, bytes: string): void {
    const key = `${sessionId}\0${abs}`;
    this.seen.delete(key);
    this.seen.set(key, digest(bytes));
    if (this.seen.size > MAX_READS) this.seen.delete(this.seen.keys().next().value as string);
  }
  /** Why the notebook may not be edited now, or null. `recorded`: what the session's own Read
   *  and Write recorded of it (ToolContext.reads) — a notebook the session created with Write
   *  counts as read, as a file it wrote does for Edit. */
  stale(sessionId: string, abs: string, bytes: string, name: string, recorded?: ReadRecord): string | null {
    const known = [this.seen.get(`${sessionId}\0${abs}`), recorded?.hash].filter((x) => x !== undefined);
    if (known.length === 0) return `${name} has not been read in this session. Read it first, then retry.`;
    return known.includes(digest(bytes)) ? null : `${name} has changed since it was last read. Read it again, then retry.`;
  }
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

const EDIT_HINT =
  'To change cells, call UseTool with {"name": "NotebookEdit", "input": {"notebook_path", "cell_id" (an id or index; for insert, the new cell goes after it, at the start without it), "new_source", "cell_type": "code"|"markdown", "edit_mode": "replace"|"insert"|"delete"}}.';

const plugin: Plugin = {
  id: "notebook",
  description: "Jupyter notebooks: Read shows cells with outputs; NotebookEdit changes cells",
  register(api) {
    const editing = api.config.tool !== false;
    const reads = new NotebookReads();
    api.on("tool.call", { tool: "Read" }, async (e, next) => {
      const path = typeof e.input.file_path === "string" ? e.input.file_path : "";
      if (!/\.ipynb$/i.test(path)) return next();
      const abs = absolute(api.root, path);
      let text: string;
      try {
        const r = await api.dispatch({ type: "fs.read", path: abs, maxBytes: MAX_NOTEBOOK_BYTES, callId: e.callId });
        if (r.truncated) return next();
        text = r.data.toString("utf8");
      } catch {
        return next(); // missing, a folder, refused: Read says so in its own words
      }
      const nb = parseNotebook(text);
      if ("problem" in nb) return next();
      const name = shown(api.root, abs);
      reads.note(e.sessionId, abs, text);
      return {
        content: `${renderNotebook(nb, name)}${editing ? `\n\n${EDIT_HINT}` : ""}`,
        summary: `Read ${name} (${nb.cells.length} cells)`,
        meta: { notebook: true, cells: nb.cells.length },
      };
    });
    if (editing) api.tool(notebookEdit(api, reads));
  },
};

export default plugin;

function notebookEdit(api: PluginApi, reads: NotebookReads) {
  return {
    name: "NotebookEdit",
    description: "Replace, insert or delete a cell of a Jupyter notebook (.ipynb).",
    onDemand: "",
    inputSchema: {
      type: "object" as const,
      properties: {
        notebook_path: { type: "string" as const, description: "The notebook's path" },
        cell_id: { type: "string" as const, description: "The cell's id, or its index" },
        cell_number: { type: "integer" as const, description: "The cell's index (instead of cell_id)" },
        new_source: { type: "string" as const, description: "The cell's new source" },
        cell_type: { type: "string" as const, enum: ["code", "markdown"] },
        edit_mode: { type: "string" as const, enum: ["replace", "insert", "delete"] },
      },
      required: ["notebook_path"],
    },
    readOnly: false,
    preview: async (input: JsonObject): Promise<string> => `${shown(api.root, absolute(api.root, String(input.notebook_path ?? "")))}: ${String(input.edit_mode ?? "replace")} cell ${String(input.cell_id ?? input.cell_number ?? "(start)")}\n${String(input.new_source ?? "")}`,
    run: (input: JsonObject, ctx: ToolContext) => edit(api, reads, input, ctx),
    /** A notebook not read in this session (or changed since) is not asked about: the edit would fail. */
    refusal: async (input: JsonObject, ctx: ToolContext): Promise<string | undefined> => {
      const abs = absolute(api.root, String(input.notebook_path ?? ""));
      const r = await ctx.fs.read({ path: abs, maxBytes: MAX_NOTEBOOK_BYTES });
      const text = r.data.toString("utf8");
      if (r.truncated || "problem" in parseNotebook(text)) return undefined; // the run says why
      return reads.stale(ctx.sessionId, abs, text, shown(api.root, abs), ctx.reads.get(abs)) ?? undefined;
    },
  };
}

async function edit(api: PluginApi, reads: NotebookReads, input: JsonObject, ctx: ToolContext): Promise<ToolOutput> {
  const path = String(input.notebook_path ?? "");
  const fail = (content: string): ToolOutput => ({ content, isError: true, summary: "NotebookEdit: not changed" });
  if (!/\.ipynb$/i.test(path)) return fail(`${path || "notebook_path"} is not a .ipynb file: use Edit or Write for other files.`);
  const mode = input.edit_mode === "insert" || input.edit_mode === "delete" ? input.edit_mode : "replace";
  if (mode !== "delete" && typeof input.new_source !== "string") return fail(`${mode} needs new_source (the cell's text).`);
  const abs = absolute(api.root, path);
  let text: string;
  try {
    const r = await ctx.fs.read({ path: abs, maxBytes: MAX_NOTEBOOK_BYTES });
    if (r.truncated) return fail(`${path} is larger than ${MAX_NOTEBOOK_BYTES / 1e6} MB: not edited.`);
    text = r.data.toString("utf8");
  } catch (err) {
    return fail(`Cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const nb = parseNotebook(text);
  if ("problem" in nb) return fail(`${path} is ${nb.problem}.`);
  const stale = reads.stale(ctx.sessionId, abs, text, shown(api.root, abs), ctx.reads.get(abs));
  if (stale) return fail(stale);
  const e: EditInput = {
    edit_mode: mode,
    new_source: typeof input.new_source === "string" ? input.new_source : "",
    ...(typeof input.cell_id === "string" ? { cell_id: input.cell_id } : {}),
    ...(typeof input.cell_number === "number" ? { cell_number: input.cell_number } : {}),
    ...(input.cell_type === "code" || input.cell_type === "markdown" ? { cell_type: input.cell_type } : {}),
  };
  const r = editNotebook(nb, e);
  if ("error" in r) return fail(`NotebookEdit: ${r.error}`);
  const written = serialise(r.notebook, text);
  await ctx.fs.write({ path: abs, data: written });
  reads.note(ctx.sessionId, abs, written);
  const name = shown(api.root, abs);
  const lines = mode === "delete" ? 0 : joinSource(r.notebook.cells[r.index]?.source).split("\n").length;
  return { content: `${r.said} of ${name}.`, summary: `NotebookEdit ${name}: ${r.said.toLowerCase()}${lines ? ` (${lines} line${lines === 1 ? "" : "s"})` : ""}`, meta: { mode, index: r.index, cells: r.notebook.cells.length } };
}

function absolute(root: string, p: string): string {
  if (p === "~" || p.startsWith("~/")) return resolve(homedir(), p.slice(2));
  return isAbsolute(p) ? p : resolve(root, p);
}

function shown(root: string, abs: string): string {
  const rel = relative(root, abs);
  return rel.startsWith("..") || isAbsolute(rel) ? abs : rel;
}
