// A finished tool call collapses to one line; the person can still read all it returned
// (issue 30): `/output [N]` and Ctrl-O, in a real terminal, with keys sent one at a time and
// batched. What is shown is bounded (a stated limit) and inert (a command's escape sequences are
// shown, never obeyed).
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { enter, useRepl } from "./helpers.js";

const repl = useRepl();

/** 300 numbered lines, then one trying to retitle the window and clear the screen. */
const NOISY = "for i in $(seq 1 300); do echo row-$i; done; printf 'evil \\033]0;owned\\007 \\033[2J end\\n'";

describe("expanding a tool call's output", () => {
  it("collapses a call to its line with a hint, and /output shows the whole output bounded and inert", async () => {
    const t = await repl.open({ replies: [{ tool_calls: [{ name: "Bash", arguments: { command: NOISY } }] }, { content: "listed them" }] }, {}, { args: '--allowedTools "Bash"' });
    enter(t, "list the rows");
    let s = await t.waitFor(/^listed them$/m);
    expect(s).toMatch(/● Bash .* → exit 0 .*· \/output 1/);
    expect(s).not.toContain("row-150"); // collapsed
    await t.waitFor(/^›\s*$/m);
    enter(t, "/output");
    s = await t.waitFor(/── end of #1 ──/);
    expect(s).toMatch(/── #1 Bash .* → exit 0 .*· \d+ lines ──/);
    expect(s).toMatch(/^row-1$/m);
    expect(s).toMatch(/^row-300$/m);
    expect(s).toMatch(/… \d+ lines cut here \(at most 200 are shown: the first 50 and the last 150\) …/);
    expect(s).toContain("evil \\x1b]0;owned\\x07 \\x1b[2J end"); // shown, not obeyed
    expect(s).toContain("list the rows"); // the screen was not cleared
    expect(t.title()).not.toBe("owned");
  });

  it("shows the Nth call with /output N and says when there is no such call", async () => {
    const calls = { tool_calls: [{ name: "Bash", arguments: { command: "echo alpha-out" } }, { name: "Bash", arguments: { command: "echo beta-out" } }] };
    const t = await repl.open({ replies: [calls, { content: "both ran" }] }, {}, { args: '--allowedTools "Bash"' });
    enter(t, "run both");
    await t.waitFor(/^both ran$/m);
    await t.waitFor(/^›\s*$/m);
    t.press("/output 1", "Enter"); // batched: the line and its Enter in one send
    const s = await t.waitFor(/── end of #1 ──/);
    expect(s).toMatch(/── #1 Bash echo alpha-out/);
    expect(s).toMatch(/^alpha-out$/m);
    enter(t, "/output 7");
    await t.waitFor(/There is no call #7: this session's calls are #1–#2\./);
    enter(t, "/output rows");
    await t.waitFor(/\/output takes a call's number/);
  });

  it("Ctrl-O at the prompt shows the last call's output and keeps what was typed (one key, then batched)", async () => {
    const t = await repl.open({ replies: [{ tool_calls: [{ name: "Bash", arguments: { command: "echo gamma-out" } }] }, { content: "done" }] }, {}, { args: '--allowedTools "Bash"' });
    enter(t, "/output");
    await t.waitFor("No tool call has ended since this session was opened here.");
    t.press("C-o");
    await t.waitFor((sc) => sc.split("No tool call has ended since this session was opened here.").length === 3); // Ctrl-O says it too
    enter(t, "go");
    await t.waitFor(/^done$/m);
    await t.waitFor(/^›\s*$/m);
    t.press("C-o"); // one key
    const s = await t.waitFor(/── end of #1 ──/);
    expect(s).toMatch(/^gamma-out$/m);
    t.press("h", "i", "C-o"); // batched with typing: the output goes above, "hi" stays on the line
    await t.waitFor((sc) => sc.split("── end of #1 ──").length === 3 && /^› hi\s*$/m.test(sc));
    enter(t, " there");
    await t.waitFor(/^› hi there$/m); // the typed line was kept and sent whole
  });

  it("Ctrl-O during a running command shows that command's output so far, not the previous call's", async () => {
    const wait = "echo first-line; echo waiting; while [ ! -f go ]; do sleep 0.1; done; echo released";
    const script = { replies: [{ tool_calls: [{ name: "Bash", arguments: { command: "echo delta-out" } }] }, { tool_calls: [{ name: "Bash", arguments: { command: wait } }] }, { content: "all done" }] };
    const t = await repl.open(script, {}, { args: '--allowedTools "Bash"' });
    enter(t, "work");
    await t.waitFor(/⋯ Bash .* · \d+ s · waiting/);
    t.press("C-o");
    const s = await t.waitFor(/── still running \(Ctrl-O again for more\) ──/);
    expect(s).toMatch(/── running: Bash echo first-line.* · \d+ s · 2 lines so far ──\nfirst-line\nwaiting\n/);
    expect(s).not.toMatch(/^delta-out$/m); // not the call before it
    expect(s).not.toContain("── end of #1 ──");
    await t.waitFor(/still running[\s\S]*⋯ Bash .* · \d+ s · waiting/); // the running line is back below it
    writeFileSync(join(repl.env.root, "go"), "");
    await t.waitFor(/^all done$/m);
    expect(t.screen()).toMatch(/● Bash .*go.* · \/output 2/);
  });
});
