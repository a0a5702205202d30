// Notebooks through the real CLI: Read of a .ipynb shows cells with their outputs as text (an
// image named, never its base64); NotebookEdit (on demand, through UseTool) replaces, inserts
// and deletes cells through fs.write, so Edit rules and the fence govern it and checkpoints
// see it (tool.effects names notebook_path); the edit functions themselves as a table.
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";
import { editNotebook, serialise } from "../../mods/notebook/edit.js";
import { NotebookReads } from "../../mods/notebook/index.js";
import type { Notebook } from "../../mods/notebook/render.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==".repeat(20);

const NOTEBOOK = {
  cells: [
    { cell_type: "markdown", id: "intro", metadata: {}, source: ["# Sales\n", "Monthly figures."] },
    {
      cell_type: "code",
      id: "load",
      execution_count: 1,
      metadata: {},
      source: ["import pandas as pd\n", "df = pd.read_csv('sales.csv')\n", "df.head(2)"],
      outputs: [
        { output_type: "stream", name: "stdout", text: ["loaded 12 rows\n"] },
        { output_type: "execute_result", execution_count: 1, metadata: {}, data: { "text/plain": ["   month  total\n", "0  jan    100"], "text/html": ["<table>…</table>"] } },
      ],
    },
    {
      cell_type: "code",
      id: "plot",
      execution_count: 2,
      metadata: {},
      source: ["df.plot()"],
      outputs: [
        { output_type: "display_data", metadata: {}, data: { "image/png": PNG, "text/plain": ["<Figure size 640x480>"] } },
        { output_type: "error", ename: "KeyError", evalue: "'totl'", traceback: ["\u001b[0;31mKeyError\u001b[0m: 'totl'"] },
      ],
    },
  ],
  metadata: { kernelspec: { name: "python3", language: "python", display_name: "Python 3" } },
  nbformat: 4,
  nbformat_minor: 5,
};
const FILE = `${JSON.stringify(NOTEBOOK, null, 1)}\n`;

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const use = (name: string, input: object) => ({ tool_calls: [{ name: "UseTool", arguments: { name, input } }] });

const readFirst = { tool_calls: [{ name: "Read", arguments: { file_path: "sales.ipynb" } }] };

/** The tool results of one -p run; by default the notebook is read first (as NotebookEdit
 *  requires) and that Read's result is left out. */
async function run(replies: object[], settings: object = {}, o: { read?: boolean } = {}): Promise<string[]> {
  await rig?.close();
  const read = o.read !== false;
  rig = await cliRig({ replies: [...(read ? [readFirst] : []), ...replies, { content: "done" }] }, { "sales.ipynb": FILE });
  writeFileSync(join(rig.env.home, "settings.json"), JSON.stringify(settings));
  const r = await rig.run(["-p", "work on the notebook"]);
  expect(r.code).toBe(0);
  return chatBodies(rig.sim.requests).at(-1)!.messages.filter((m) => m.role === "tool").map((m) => String(m.content)).slice(read ? 1 : 0);
}

describe("Read of a notebook", () => {
  it("shows each cell with its index, id, type, source and outputs as text, an image by its type and size only", async () => {
    const [shown] = await run([{ tool_calls: [{ name: "Read", arguments: { file_path: "sales.ipynb" } }] }]);
    expect(shown).toContain("Notebook sales.ipynb (python): 3 cells");
    expect(shown).toContain("[cell 0 · markdown · id intro]\n# Sales\nMonthly figures.");
    expect(shown).toContain("[cell 1 · code · id load · run 1]\nimport pandas as pd\ndf = pd.read_csv('sales.csv')\ndf.head(2)\n[output (stdout)]\nloaded 12 rows\n[output]\n   month  total\n0  jan    100\n[also text/html: not shown]");
    expect(shown).toMatch(/\[output\]\n<Figure size 640x480>\n\[also image\/png, \d+ KB: not shown\]/);
    expect(shown).toContain("[error]\nKeyError: 'totl'\nKeyError: 'totl'");
    expect(shown).not.toContain("iVBORw0KGgo");
    expect(shown).not.toContain("\u001b");
    expect(shown).toContain('"name": "NotebookEdit"');
  });
});

describe("NotebookEdit", () => {
  it("replaces a cell's source (clearing its stale outputs), inserts after a cell, and deletes one, keeping the file's layout", async () => {
    const results = await run(
      [
        use("NotebookEdit", { notebook_path: "sales.ipynb", cell_id: "plot", new_source: "df.plot(y='total')" }),
        use("NotebookEdit", { notebook_path: "sales.ipynb", cell_id: "intro", new_source: "Figures are in euros.", cell_type: "markdown", edit_mode: "insert" }),
        use("NotebookEdit", { notebook_path: "sales.ipynb", cell_id: "2", edit_mode: "delete" }),
      ],
      { permissions: { allow: ["Edit(sales.ipynb)"] } },
    );
    expect(results).toEqual(["Replaced cell 2 of sales.ipynb.", expect.stringMatching(/^Inserted a markdown cell at 1 \(id [0-9a-f]{8}\) of sales\.ipynb\.$/), "Deleted cell 2 (code, id load) of sales.ipynb."]);
    const text = readFileSync(join(rig!.env.root, "sales.ipynb"), "utf8");
    expect(text.startsWith('{\n "cells": [\n')).toBe(true);
    expect(text.endsWith("}\n")).toBe(true);
    const nb = JSON.parse(text) as Notebook;
    expect(nb.cells.map((c) => c.id)).toEqual(["intro", expect.stringMatching(/^[0-9a-f]{8}$/), "plot"]);
    expect(nb.cells[1]).toMatchObject({ cell_type: "markdown", source: ["Figures are in euros."] });
    expect(nb.cells[2]).toMatchObject({ source: ["df.plot(y='total')"], outputs: [], execution_count: null });
    expect(nb.metadata).toEqual(NOTEBOOK.metadata);
  });

  it("changes only a notebook read in this session, as Edit does", async () => {
    const results = await run([use("NotebookEdit", { notebook_path: "sales.ipynb", cell_id: "intro", new_source: "x" })], { permissions: { allow: ["Edit(sales.ipynb)"] } }, { read: false });
    expect(results[0]).toBe("sales.ipynb has not been read in this session. Read it first, then retry.");
    expect(readFileSync(join(rig!.env.root, "sales.ipynb"), "utf8")).toBe(FILE);
  });

  it("refuses a notebook changed since it was read, and counts its own writes as read", () => {
    const reads = new NotebookReads();
    reads.note("s1", "/p/a.ipynb", FILE);
    expect(reads.stale("s1", "/p/a.ipynb", FILE, "a.ipynb")).toBeNull();
    expect(reads.stale("s1", "/p/a.ipynb", `${FILE} `, "a.ipynb")).toBe("a.ipynb has changed since it was last read. Read it again, then retry.");
    expect(reads.stale("s2", "/p/a.ipynb", FILE, "a.ipynb")).toMatch(/has not been read in this session/); // another session's read is not this one's
    reads.note("s1", "/p/a.ipynb", "written");
    expect(reads.stale("s1", "/p/a.ipynb", "written", "a.ipynb")).toBeNull();
  });

  it("is an edit to the gate: an Edit deny rule refuses it, and with nobody to ask (-p) it is denied", async () => {
    const denied = await run([use("NotebookEdit", { notebook_path: "sales.ipynb", cell_id: "intro", new_source: "x" })], { permissions: { deny: ["Edit(*.ipynb)"] } });
    expect(denied[0]).toMatch(/Permission denied for NotebookEdit/);
    const asked = await run([use("NotebookEdit", { notebook_path: "sales.ipynb", cell_id: "intro", new_source: "x" })]);
    expect(asked[0]).toMatch(/Permission denied for NotebookEdit/);
    expect(readFileSync(join(rig!.env.root, "sales.ipynb"), "utf8")).toBe(FILE);
  });
});

describe("NotebookEdit and checkpoints", () => {
  it("is taken back by deepcode rewind --files, like an Edit", async () => {
    await run([use("NotebookEdit", { notebook_path: "sales.ipynb", cell_id: "intro", new_source: "# Changed" })], { permissions: { allow: ["Edit(sales.ipynb)"] } });
    expect(readFileSync(join(rig!.env.root, "sales.ipynb"), "utf8")).not.toBe(FILE);
    // The session's own file (an id like 20261202-104853-53ada7), not a transcript beside it.
    const session = readdirSync(join(rig!.env.home, "sessions"), { recursive: true }).map(String).find((f) => /(^|\/)\d{8}-\d{6}-[0-9a-f]+\.jsonl$/.test(f) && !f.includes("claude-code"))!;
    const id = /([^/]+)\.jsonl$/.exec(session)![1];
    const r = await rig!.run(["rewind", "--session", id, "--turn", "0", "--files"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/sales\.ipynb\s+restored/);
    expect(readFileSync(join(rig!.env.root, "sales.ipynb"), "utf8")).toBe(FILE);
  });
});

describe("editNotebook", () => {
  const nb = (): Notebook => JSON.parse(FILE) as Notebook;

  it("names cells by id, by index, as cell-N or by cell_number, and says what is wrong otherwise", () => {
    for (const at of [{ cell_id: "load" }, { cell_id: "1" }, { cell_id: "cell-1" }, { cell_number: 1 }]) {
      const r = editNotebook(nb(), { ...at, new_source: "x = 1", edit_mode: "replace" });
      expect("notebook" in r && r.index).toBe(1);
    }
    expect(editNotebook(nb(), { cell_id: "nope", new_source: "", edit_mode: "delete" })).toEqual({ error: expect.stringMatching(/no cell has the id 'nope'\. Ids: intro, load, plot/) });
    expect(editNotebook(nb(), { cell_number: 9, new_source: "", edit_mode: "delete" })).toEqual({ error: expect.stringMatching(/there is no cell 9/) });
    expect(editNotebook(nb(), { new_source: "x", edit_mode: "insert" })).toEqual({ error: expect.stringMatching(/insert needs cell_type/) });
  });

  it("inserts at the start when no cell is named, turns a code cell into markdown without outputs, and appends past the end", () => {
    const start = editNotebook(nb(), { new_source: "a\nb", cell_type: "code", edit_mode: "insert" });
    expect("notebook" in start && start.notebook.cells[0]).toMatchObject({ cell_type: "code", source: ["a\n", "b"], outputs: [], execution_count: null });
    const md = editNotebook(nb(), { cell_id: "load", new_source: "now text", cell_type: "markdown", edit_mode: "replace" });
    expect("notebook" in md && md.notebook.cells[1]).not.toHaveProperty("outputs");
    const end = editNotebook(nb(), { cell_number: 3, new_source: "last", edit_mode: "replace" });
    expect("notebook" in end && end.notebook.cells.length).toBe(4);
    expect(serialise(nb(), "{\n  \"cells\": []\n}")).toMatch(/^\{\n {2}"cells"/);
  });
});

describe("what checkpoints and plan mode learn of these tools (tool.effects)", () => {
  it("names a NotebookEdit's notebook as written, and a WebFetch as writing nothing", async () => {
    const { toolEffects } = await import("../../src/lib/effects/tool-effects.js");
    const env = { root: "/proj", cwd: "/proj", home: "/home/x" };
    expect(toolEffects("NotebookEdit", { notebook_path: "nb/a.ipynb", new_source: "x" }, env)).toEqual({ writes: ["/proj/nb/a.ipynb"], unknown: [], readOnly: false });
    expect(toolEffects("WebFetch", { url: "https://example.com", prompt: "?" }, env)).toEqual({ writes: [], unknown: [], readOnly: true });
  });
});
