// What shows while tools work, in a real terminal (issue 30): an approved command has a running
// line with a clock and the last line of its output so far, which goes when it ends (the call's
// one result line stays); a slow reasoning stream shows a clock too, and so does the wait for
// the first token.
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { enter, useRepl } from "./helpers.js";

const repl = useRepl();

describe("while tools work", () => {
  it("shows a running command with its elapsed time and a calm tail of its output, collapsed when done", async () => {
    // The command waits for a file the test creates once it has seen the running line.
    const command = "echo compiling step one; while [ ! -f go ]; do sleep 0.1; done; echo all finished";
    const t = await repl.open({ replies: [{ tool_calls: [{ name: "Bash", arguments: { command } }] }, { content: "ran it" }] }, {}, { args: '--allowedTools "Bash"' });
    enter(t, "run the build");
    await t.waitFor(/⋯ Bash .* · \d+ s · compiling step one/);
    await t.waitFor(/⋯ Bash .* · [1-9]\d* s · compiling step one/); // the clock moves
    writeFileSync(join(repl.env.root, "go"), "");
    const s = await t.waitFor(/ran it/);
    expect(s).toMatch(/● Bash .* → exit 0/);
    expect(s).not.toMatch(/⋯ Bash/); // the running line went
  });

  it("shows a clock from the request's start while the first token is awaited, and it goes when the reply comes", async () => {
    // The simulator holds its answer until the test has seen the clock move.
    let release: (entry: { content: string }) => void = () => undefined;
    const held = new Promise<{ content: string }>((r) => (release = r));
    const t = await repl.open({ replies: [], respond: () => held });
    enter(t, "take your time");
    await t.waitFor(/✻ thinking… \([1-9]\d* s\)/); // before any token, with no characters to count
    await t.waitFor(/✻ thinking… \(([2-9]|\d\d+) s\)/); // the clock moves
    release({ content: "here at last" });
    const s = await t.waitFor(/^here at last$/m);
    expect(s).not.toMatch(/✻ thinking…/); // the line went when the answer began
  });

  it("counts a reasoning stream's clock from the request's start, including the wait for its first token", async () => {
    let release: (entry: object) => void = () => undefined;
    const held = new Promise<object>((r) => (release = r));
    const t = await repl.open({ replies: [], respond: () => held });
    enter(t, "ponder");
    await t.waitFor(/✻ thinking… \(([2-9]|\d\d+) s\)/);
    // The reasoning then streams slowly: its line keeps the request's clock (2 s or more), not 0 s.
    release({ reasoning: "weighing the options ".repeat(4), content: "pondered", chunkSize: 6, chunkDelayMs: 150 });
    await t.waitFor(/✻ thinking… \(\d+ characters · ([2-9]|\d\d+) s\)/);
    await t.waitFor(/^pondered$/m);
  });

  it("shows a clock beside a slow reasoning stream", async () => {
    const slow = { reasoning: "weighing the options ".repeat(12), content: "decided", chunkSize: 6, chunkDelayMs: 150 };
    const t = await repl.open({ replies: [slow] });
    enter(t, "think about it");
    await t.waitFor(/✻ thinking… \(\d+ characters · [1-9]\d* s\)/);
    await t.waitFor(/^decided$/m);
  });
});
