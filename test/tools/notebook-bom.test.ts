// A notebook saved with a UTF-8 byte order mark (as some Windows editors write it): Read shows
// its cells, NotebookEdit changes it, and the file keeps its mark and its layout.
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";

const NOTEBOOK = {
  cells: [{ cell_type: "code", id: "load", execution_count: 1, metadata: {}, source: ["print('hi')"], outputs: [] }],
  metadata: {},
  nbformat: 4,
  nbformat_minor: 5,
};
const FILE = `\uFEFF${JSON.stringify(NOTEBOOK, null, 1)}\n`;

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("a notebook that starts with a byte order mark", () => {
  it("is shown as cells and can be edited, keeping its mark", async () => {
    const replies = [
      { tool_calls: [{ name: "Read", arguments: { file_path: "bom.ipynb" } }] },
      { tool_calls: [{ name: "UseTool", arguments: { name: "NotebookEdit", input: { notebook_path: "bom.ipynb", cell_id: "load", new_source: "print('bye')" } } }] },
      { content: "done" },
    ];
    rig = await cliRig({ replies }, { "bom.ipynb": FILE });
    writeFileSync(join(rig.env.home, "settings.json"), JSON.stringify({ permissions: { allow: ["Edit(bom.ipynb)"] } }));
    const r = await rig.run(["-p", "edit the notebook"]);
    expect(r.code).toBe(0);
    const results = chatBodies(rig.sim.requests).at(-1)!.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
    expect(results[0]).toContain("[cell 0 · code · id load · run 1]\nprint('hi')");
    expect(results[1]).toBe("Replaced cell 0 of bom.ipynb.");
    const text = readFileSync(join(rig.env.root, "bom.ipynb"), "utf8");
    expect(text.startsWith('\uFEFF{\n "cells": [\n')).toBe(true);
    expect(JSON.parse(text.slice(1)).cells[0].source).toEqual(["print('bye')"]);
  });
});
