// NotebookEdit's change to a notebook, in memory: replace a cell's source, insert a cell, or
// delete one (Claude Code's parameters). Pure, so it is tested as a table; the mod reads and
// writes the file through the chain.
//
// - A cell is named by `cell_id` (its id, or its index as `3` / `cell-3`) or `cell_number`.
// - insert: after the named cell; at the start when none is named. Needs `cell_type`.
// - replace: a code cell's outputs and run count are cleared (they belonged to the old source);
//   `cell_type` may change the cell's kind. Naming the index just past the last cell appends.
// - New cells get an id when the notebook's format has them (nbformat 4.5 and later).
// - The file keeps its indent and its final newline (Jupyter writes one space and a newline).

import { randomBytes } from "node:crypto";
import type { Cell, Notebook } from "./render.js";

export interface EditInput {
  cell_id?: string;
  cell_number?: number;
  new_source: string;
  cell_type?: "code" | "markdown" | "raw";
  edit_mode: "replace" | "insert" | "delete";
}

export type EditResult = { notebook: Notebook; said: string; index: number } | { error: string };

export function editNotebook(nb: Notebook, e: EditInput): EditResult {
  const cells = [...nb.cells];
  const at = locate(cells, e);
  if (typeof at === "string") return { error: at };
  if (e.edit_mode === "insert") {
    if (!e.cell_type) return { error: "insert needs cell_type (code or markdown)." };
    const index = at === null ? 0 : at + 1;
    if (index > cells.length) return { error: `there is no cell ${at}: the notebook has ${cells.length} (0–${cells.length - 1}).` };
    cells.splice(index, 0, newCell(nb, e.cell_type, e.new_source));
    return { notebook: { ...nb, cells }, said: `Inserted a ${e.cell_type} cell at ${index}${cells[index].id ? ` (id ${cells[index].id})` : ""}`, index };
  }
  if (at === null) return { error: `${e.edit_mode} needs the cell: cell_id (its id or index) or cell_number.` };
  if (e.edit_mode === "delete") {
    if (at >= cells.length) return { error: `there is no cell ${at}: the notebook has ${cells.length}.` };
    const [gone] = cells.splice(at, 1);
    return { notebook: { ...nb, cells }, said: `Deleted cell ${at} (${gone.cell_type}${gone.id ? `, id ${gone.id}` : ""})`, index: at };
  }
  if (at === cells.length) {
    cells.push(newCell(nb, e.cell_type ?? "code", e.new_source));
    return { notebook: { ...nb, cells }, said: `Appended a ${cells[at].cell_type} cell at ${at}`, index: at };
  }
  if (at > cells.length) return { error: `there is no cell ${at}: the notebook has ${cells.length}.` };
  const old = cells[at];
  const type = e.cell_type ?? (old.cell_type as EditInput["cell_type"]) ?? "code";
  const cell: Cell = { ...old, cell_type: type, source: sourceLines(e.new_source) };
  if (type === "code") {
    cell.outputs = [];
    cell.execution_count = null;
  } else {
    delete cell.outputs;
    delete cell.execution_count;
  }
  cells[at] = cell;
  return { notebook: { ...nb, cells }, said: `Replaced cell ${at}${old.cell_type !== type ? ` (now ${type})` : ""}`, index: at };
}

/** The index the input names, null when it names none, or what is wrong. */
function locate(cells: readonly Cell[], e: EditInput): number | null | string {
  if (typeof e.cell_number === "number") return Number.isInteger(e.cell_number) && e.cell_number >= 0 ? e.cell_number : `cell_number must be 0 or more, got ${e.cell_number}.`;
  const id = e.cell_id?.trim();
  if (!id) return null;
  const byId = cells.findIndex((c) => c.id === id);
  if (byId >= 0) return byId;
  const n = /^(?:cell-)?(\d+)$/.exec(id);
  if (n) return Number(n[1]);
  return `no cell has the id '${id}'. Ids: ${cells.map((c, i) => c.id ?? `(cell ${i}: none)`).slice(0, 30).join(", ")}.`;
}

function newCell(nb: Notebook, type: string, source: string): Cell {
  const withIds = (nb.nbformat ?? 4) > 4 || ((nb.nbformat ?? 4) === 4 && (nb.nbformat_minor ?? 0) >= 5) || nb.cells.some((c) => typeof c.id === "string");
  const cell: Cell = { cell_type: type, ...(withIds ? { id: randomBytes(4).toString("hex") } : {}), metadata: {}, source: sourceLines(source) };
  if (type === "code") Object.assign(cell, { execution_count: null, outputs: [] });
  return cell;
}

/** Jupyter keeps a source as its lines, each with its newline. */
function sourceLines(text: string): string[] {
  return text === "" ? [] : text.split(/(?<=\n)/);
}

/** The notebook as text again, in the layout the file had. */
export function serialise(nb: Notebook, original: string): string {
  const bom = original.startsWith("\uFEFF") ? "\uFEFF" : "";
  const indent = /^\{\r?\n( +|\t)"/.exec(original.slice(bom.length))?.[1] ?? " ";
  return bom + JSON.stringify(nb, null, indent) + (original.endsWith("\n") ? "\n" : "");
}
