// `/undo` in the REPL, in a real terminal: one turn edits, writes, runs `sed -i` and a `>`
// redirection; `/undo` puts all four back, says what it restored, and the model is told at the
// next turn. A file changed on disk between the turn and the undo is not overwritten silently.
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chatBodies } from "../helpers/extension.js";
import { enter, useRepl } from "../repl/helpers.js";

const repl = useRepl();

const FILES = { "a.txt": "one\ntwo\n", "c.txt": "alpha\nbeta\n", "d.txt": "old d\n" };
const FOUR = {
  tool_calls: [
    { name: "Edit", arguments: { file_path: "a.txt", old_string: "one", new_string: "uno" } },
    { name: "Write", arguments: { file_path: "b.txt", content: "brand new\n" } },
    { name: "Bash", arguments: { command: "sed -i s/alpha/ALPHA/ c.txt" } },
    { name: "Bash", arguments: { command: "echo replaced > d.txt" } },
  ],
};
const ARGS = '--allowedTools "Edit,Write,Bash"';
const READ = { tool_calls: [{ name: "Read", arguments: { file_path: "a.txt" } }] };
const file = (p: string) => readFileSync(join(repl.env.root, p), "utf8");

describe("/undo in the REPL", () => {
  it("puts back an edit, a write, a sed -i and a > redirection of the last turn, and tells the model", async () => {
    const t = await repl.open({ replies: [READ, FOUR, { content: "all four done" }], default: { content: "noted" } }, FILES, { args: ARGS });
    enter(t, "change four files");
    await t.waitFor("all four done");
    expect([file("a.txt"), file("b.txt"), file("c.txt"), file("d.txt")]).toEqual(["uno\ntwo\n", "brand new\n", "ALPHA\nbeta\n", "replaced\n"]);
    enter(t, "/undo");
    const s = await t.waitFor(/undo turn 1 \(change four files\):[\s\S]*d\.txt\s+restored[\s\S]*›\s*$/m);
    expect(s).toMatch(/a\.txt\s+restored \(−1 \+1 lines\)/);
    expect(s).toMatch(/b\.txt\s+removed \(created in turn 1\)/);
    expect(s).toMatch(/c\.txt\s+restored \(−1 \+1 lines\)/);
    expect(s).toMatch(/d\.txt\s+restored \(−1 \+1 lines\)/);
    expect([file("a.txt"), existsSync(join(repl.env.root, "b.txt")), file("c.txt"), file("d.txt")]).toEqual(["one\ntwo\n", false, "alpha\nbeta\n", "old d\n"]);
    enter(t, "what now?");
    await t.waitFor("noted");
    const note = chatBodies(repl.sim.requests).at(-1)!.messages.find((m) => m.role === "user" && String(m.content).startsWith("[deepcode] Context"));
    expect(String(note?.content)).toMatch(/The person undid your file changes of turn 1 \(change four files\): a\.txt \(restored\), c\.txt \(restored\), d\.txt \(restored\), b\.txt \(removed\) are back as before/);
    enter(t, "/undo");
    await t.waitFor("nothing to undo: no turn of this conversation changed a file checkpoints saw");
  });

  it("asks before overwriting a file changed on disk since the turn, and keeps it when told to", async () => {
    const t = await repl.open({ replies: [READ, FOUR, { content: "all four done" }] }, FILES, { args: ARGS });
    enter(t, "change four files");
    // The turn's cost line comes after turn.complete, where checkpoints note each file's state:
    // an edit made before that would count as the turn's own.
    await t.waitFor(/all four done[\s\S]*this turn/);
    writeFileSync(join(repl.env.root, "a.txt"), "the person's own edit\n");
    enter(t, "/undo");
    await t.waitFor("a.txt changed on disk since deepcode's last change to it (by you or another program)");
    await t.waitFor("[o] overwrite   [k] keep it as it is");
    t.type("k");
    const s = await t.waitFor(/a\.txt\s+kept: changed on disk since[\s\S]*^›\s*$/m);
    expect(s).toMatch(/c\.txt\s+restored/);
    expect(file("a.txt")).toBe("the person's own edit\n");
    expect(file("c.txt")).toBe("alpha\nbeta\n");
    // The kept file is offered again by the next /undo; overwriting it now puts it back.
    enter(t, "/undo");
    // The second question's answers (the first one's are still on screen above).
    await t.waitFor((x) => x.split("[o] overwrite   [k] keep it as it is").length === 3);
    t.type("o");
    await t.waitFor(/undo turn 1[\s\S]*undo turn 1[\s\S]*a\.txt\s+restored/);
    expect(file("a.txt")).toBe("one\ntwo\n");
  });

  it("says what checkpoints cannot see when it undoes a turn that ran a program", async () => {
    const run = { tool_calls: [{ name: "Write", arguments: { file_path: "b.txt", content: "x\n" } }, { name: "Bash", arguments: { command: "node -e 1" } }] };
    const t = await repl.open({ replies: [run, { content: "ran it" }] }, FILES, { args: ARGS });
    enter(t, "build it");
    await t.waitFor("ran it");
    enter(t, "/undo");
    const s = await t.waitFor(/not undone — checkpoints cannot see these:[\s\S]*a program's own effects/);
    expect(s).toContain("turn 1: Bash `node -e 1`: node: deepcode cannot see which files it changes");
  });
});
