// A Jupyter notebook (nbformat 4) as the model reads it: each cell with its index, id and type,
// its source, and its outputs as text — an image or other binary output is named by its type
// and size, never pasted as base64; an error shows its name, value and traceback (colour codes
// removed). Bounded per output and in all.

export interface Cell {
  cell_type: string;
  id?: string;
  source: string | string[];
  outputs?: unknown[];
  execution_count?: number | null;
  metadata?: Record<string, unknown>;
  [k: string]: unknown;
}

export interface Notebook {
  cells: Cell[];
  metadata?: Record<string, unknown>;
  nbformat?: number;
  nbformat_minor?: number;
  [k: string]: unknown;
}

const MAX_OUTPUT_CHARS = 2_000;
const MAX_TOTAL_CHARS = 60_000;

/** The notebook, or why the text is not one. A UTF-8 byte order mark (some Windows editors
 *  write one) is not part of the JSON: it is skipped here and kept on write (edit.ts). */
export function parseNotebook(text: string): Notebook | { problem: string } {
  let v: unknown;
  try {
    v = JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text);
  } catch (err) {
    return { problem: `not valid JSON (${(err as Error).message})` };
  }
  if (typeof v !== "object" || v === null || !Array.isArray((v as Notebook).cells)) return { problem: "no `cells` list: not an nbformat 4 notebook" };
  const bad = (v as Notebook).cells.findIndex((c) => typeof c !== "object" || c === null || typeof (c as Cell).cell_type !== "string");
  if (bad >= 0) return { problem: `cell ${bad} has no cell_type` };
  return v as Notebook;
}

export function joinSource(s: unknown): string {
  return Array.isArray(s) ? s.map(String).join("") : typeof s === "string" ? s : "";
}

export function renderNotebook(nb: Notebook, name: string): string {
  const lang = String((nb.metadata?.kernelspec as { language?: unknown } | undefined)?.language ?? (nb.metadata?.language_info as { name?: unknown } | undefined)?.name ?? "");
  const parts = [`Notebook ${name}${lang ? ` (${lang})` : ""}: ${nb.cells.length} cell${nb.cells.length === 1 ? "" : "s"}`];
  let total = parts[0].length;
  for (const [i, c] of nb.cells.entries()) {
    const exec = typeof c.execution_count === "number" ? ` · run ${c.execution_count}` : "";
    const block = [`\n[cell ${i} · ${c.cell_type}${c.id ? ` · id ${c.id}` : ""}${exec}]`, joinSource(c.source).replace(/\n$/, "")];
    for (const o of Array.isArray(c.outputs) ? c.outputs : []) block.push(renderOutput(o));
    const text = block.join("\n");
    if (total + text.length > MAX_TOTAL_CHARS) {
      parts.push(`\n[… cells ${i}–${nb.cells.length - 1} not shown: the notebook is longer than ${MAX_TOTAL_CHARS} characters as text]`);
      break;
    }
    parts.push(text);
    total += text.length;
  }
  return parts.join("\n");
}

function renderOutput(o: unknown): string {
  if (typeof o !== "object" || o === null) return "[output: unreadable]";
  const out = o as Record<string, unknown>;
  const type = String(out.output_type ?? "");
  if (type === "stream") return labelled(`output (${String(out.name ?? "stdout")})`, joinSource(out.text));
  if (type === "error") {
    const trace = Array.isArray(out.traceback) ? out.traceback.map(String).join("\n") : "";
    return labelled("error", `${String(out.ename ?? "")}: ${String(out.evalue ?? "")}${trace ? `\n${trace}` : ""}`.replace(/\u001b\[[0-9;]*[A-Za-z]/g, ""));
  }
  if (type === "execute_result" || type === "display_data") {
    const data = typeof out.data === "object" && out.data !== null ? (out.data as Record<string, unknown>) : {};
    const shown: string[] = [];
    const named: string[] = [];
    for (const [mime, value] of Object.entries(data)) {
      const text = joinSource(value);
      if (mime === "text/plain" || mime === "text/markdown" || mime === "application/json") shown.push(mime === "application/json" && typeof value === "object" ? JSON.stringify(value) : text);
      else named.push(`${mime}${mime.startsWith("image/") ? `, ${approxBytes(text)}` : ""}`);
    }
    // text/plain and text/markdown often say the same: the first readable one is enough.
    const body = shown.length ? shown[0] : "";
    const note = named.length ? `[${shown.length ? "also " : ""}${named.join("; ")}: not shown]` : "";
    return labelled("output", [body, note].filter(Boolean).join("\n"));
  }
  return `[output: ${type || "of no known type"}]`;
}

function labelled(label: string, text: string): string {
  const t = text.replace(/\n$/, "");
  const cut = t.length > MAX_OUTPUT_CHARS ? `${t.slice(0, MAX_OUTPUT_CHARS)}\n[… ${t.length - MAX_OUTPUT_CHARS} more characters of this output]` : t;
  return `[${label}]\n${cut}`;
}

function approxBytes(base64: string): string {
  const n = Math.floor((base64.replace(/\s/g, "").length * 3) / 4);
  return n >= 1024 ? `${Math.round(n / 1024)} KB` : `${n} bytes`;
}
