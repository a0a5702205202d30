// Tool names a Claude Code-trained model (or a Claude Code agent file) uses that deepcode answers
// with its own tools: a call of LS lists a folder, NotebookRead reads a notebook, MultiEdit makes
// its edits one by one with Edit's checks; and Claude Code's `Skill(name)` rules decide which
// skills load.
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { call, cliRig, type CliRig } from "../e2e/helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- chat requests as sent
const toolResults = (r: CliRig): string[] => (r.sim.requests.filter((q) => q.path.endsWith("/chat/completions")).at(-1)?.json as any).messages.filter((m: any) => m.role === "tool").map((m: any) => String(m.content));

describe("Claude Code's tool names as calls", () => {
  it("answers LS with the folder's entries and NotebookRead with the notebook's cells", async () => {
    const nb = JSON.stringify({ cells: [{ cell_type: "code", source: ["print('NB-CELL')"], outputs: [], metadata: {} }], metadata: {}, nbformat: 4, nbformat_minor: 5 });
    rig = await cliRig({ replies: [call("LS", { path: "src" }), call("NotebookRead", { notebook_path: "nb/a.ipynb" }), { content: "done" }] }, { "src/alpha.ts": "a\n", "src/beta.ts": "b\n", "nb/a.ipynb": nb });
    const r = await rig.run(["-p", "look around"]);
    expect(r.code).toBe(0);
    const [ls, read] = toolResults(rig!);
    expect(ls).toContain("alpha.ts");
    expect(ls).toContain("beta.ts");
    expect(read).toContain("NB-CELL");
  });

  it("makes a MultiEdit's edits in order with Edit, and says which are in the file when one fails", async () => {
    rig = await cliRig(
      {
        replies: [
          call("Read", { file_path: "a.txt" }),
          call("MultiEdit", { file_path: "a.txt", edits: [{ old_string: "one", new_string: "uno" }, { old_string: "two", new_string: "dos" }] }),
          call("MultiEdit", { file_path: "a.txt", edits: [{ old_string: "three", new_string: "tres" }, { old_string: "missing", new_string: "x" }, { old_string: "uno", new_string: "1" }] }),
          { content: "done" },
        ],
      },
      { "a.txt": "one two three\n" },
    );
    const r = await rig.run(["-p", "translate", "--allowedTools", "Edit"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(rig.env.root, "a.txt"), "utf8")).toBe("uno dos tres\n");
    const results = toolResults(rig!);
    expect(results[2]).toMatch(/^edit 1: /);
    expect(results[2]).toContain("edit 2: old_string was not found");
    expect(results[2]).toContain("edits 1–1 are in the file, the rest were not tried");
  });

  it("asks for a MultiEdit as for Edit: without a rule that allows Edit, -p changes nothing", async () => {
    rig = await cliRig({ replies: [call("Read", { file_path: "a.txt" }), call("MultiEdit", { file_path: "a.txt", edits: [{ old_string: "one", new_string: "uno" }] }), { content: "done" }] }, { "a.txt": "one\n" });
    await rig.run(["-p", "translate"]);
    expect(readFileSync(join(rig.env.root, "a.txt"), "utf8")).toBe("one\n");
    expect(toolResults(rig!)[1]).toContain("Permission denied for Edit");
  });
});

describe("Skill(name) rules", () => {
  it("denies the skill a Skill(name) deny rule names, and loads the others", async () => {
    rig = await cliRig({ replies: [call("Skill", { skill: "pdf" }), call("Skill", { skill: "notes" }), { content: "done" }] });
    for (const [name, text] of [["pdf", "PDF-BODY"], ["notes", "NOTES-BODY"]]) {
      mkdirSync(join(rig.env.home, ".claude", "skills", name), { recursive: true });
      writeFileSync(join(rig.env.home, ".claude", "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: The ${name} skill\n---\n${text}\n`);
    }
    const r = await rig.run(["-p", "use skills", "--disallowedTools", "Skill(pdf)"]);
    expect(r.code).toBe(0);
    const [pdf, notes] = toolResults(rig!);
    expect(pdf).toContain("Permission denied for Skill");
    expect(pdf).not.toContain("PDF-BODY");
    expect(notes).toContain("NOTES-BODY");
  });
});
