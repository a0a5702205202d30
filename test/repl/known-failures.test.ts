// deepcode does not ask about a call it knows will fail (issue 39): a Write over a file not read
// in this session is answered with the tool's error at once, no question; a notebook the
// session created itself counts as read, so its NotebookEdit is asked about and succeeds.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chatBodies } from "../helpers/extension.js";
import { enter, useRepl } from "./helpers.js";

const repl = useRepl();

/** The tool results the model received, in order. */
const results = (): string[] => chatBodies(repl.sim.requests).flatMap((b) => b.messages).filter((m) => m.role === "tool").map((m) => String(m.content));

const NOTEBOOK = JSON.stringify({ cells: [{ cell_type: "code", id: "c1", metadata: {}, source: ["print(1)\n"], outputs: [], execution_count: null }], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1);

describe("a call that would fail whatever the answer", () => {
  it("is not asked about: a Write over a file not read this session fails at once with the tool's error", async () => {
    const write = { tool_calls: [{ name: "Write", arguments: { file_path: "cart.js", content: "rewritten\n" } }] };
    const t = await repl.open({ replies: [write, { content: "I will read it first" }] }, { "cart.js": "original\n" });
    enter(t, "rewrite the cart");
    const s = await t.waitFor(/^I will read it first$/m);
    expect(s).not.toContain("wants to run");
    expect(s).toMatch(/✗ Write: not run: cart\.js exists but has not been read in this session/);
    expect(results()[0]).toMatch(/^cart\.js exists but has not been read in this session\. Read it first, then retry\.$/);
    expect(readFileSync(join(repl.env.root, "cart.js"), "utf8")).toBe("original\n");
  });

  it("still asks about a Write over a file read this session, and a new file", async () => {
    const calls = [
      { tool_calls: [{ name: "Read", arguments: { file_path: "cart.js" } }] },
      { tool_calls: [{ name: "Write", arguments: { file_path: "cart.js", content: "rewritten\n" } }] },
      { content: "rewrote it" },
    ];
    const t = await repl.open({ replies: calls }, { "cart.js": "original\n" });
    enter(t, "rewrite the cart");
    await t.waitFor("[a] always this session: Write");
    t.press("y");
    await t.waitFor(/^rewrote it$/m);
    expect(readFileSync(join(repl.env.root, "cart.js"), "utf8")).toBe("rewritten\n");
  });

  it("asks about a NotebookEdit of a notebook the session created, and the edit succeeds", async () => {
    const calls = [
      { tool_calls: [{ name: "Write", arguments: { file_path: "nb.ipynb", content: NOTEBOOK } }] },
      { tool_calls: [{ name: "NotebookEdit", arguments: { notebook_path: "nb.ipynb", cell_id: "c1", new_source: "print(2)\n" } }] },
      { content: "edited the cell" },
    ];
    const t = await repl.open({ replies: calls });
    enter(t, "make a notebook and change its cell");
    await t.waitFor(/Write wants to run[\s\S]*\[a\] always this session/);
    t.press("y");
    await t.waitFor(/NotebookEdit wants to run[\s\S]*\[a\] always this session/);
    t.press("y");
    const s = await t.waitFor(/^edited the cell$/m);
    expect(s).not.toContain("has not been read");
    expect(JSON.parse(readFileSync(join(repl.env.root, "nb.ipynb"), "utf8")).cells[0].source.join("")).toBe("print(2)\n");
  });

  it("is not asked about: a NotebookEdit of a notebook never read fails at once", async () => {
    const calls = [{ tool_calls: [{ name: "NotebookEdit", arguments: { notebook_path: "nb.ipynb", cell_id: "c1", new_source: "print(2)\n" } }] }, { content: "will read it" }];
    const t = await repl.open({ replies: calls }, { "nb.ipynb": NOTEBOOK });
    enter(t, "change the cell");
    const s = await t.waitFor(/^will read it$/m);
    expect(s).not.toContain("wants to run");
    expect(s).toMatch(/✗ NotebookEdit: not run: nb\.ipynb has not been read in this session/);
    expect(readFileSync(join(repl.env.root, "nb.ipynb"), "utf8")).toBe(NOTEBOOK);
  });
});
