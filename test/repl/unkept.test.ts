// The REPL streams a reply's text as it arrives; when the whole reply is judged, some of what
// was shown may not be kept (issue #23): degenerate repetition (kept out of the log, asked
// again), or reasoning written into the answer and closed by `</think>` (moved to reasoning).
// The screen must never silently disagree with the session: a calm line says how much of what
// it showed was not kept, and why. In a real terminal (tmux); skipped without tmux.
import { describe, expect, it } from "vitest";
import { enter, useRepl } from "./helpers.js";

const repl = useRepl();

describe("streamed text the session does not keep", () => {
  it("says how many characters of a repeated reply were not kept, then shows the retried answer", async () => {
    const looped = "Let me check. " + "the same words again. ".repeat(60);
    const t = await repl.open({ replies: [{ content: looped, finish_reason: "length", chunkSize: 40 }, { content: "The real answer." }] });
    enter(t, "answer me");
    const s = await t.waitFor(/this turn · /); // the status line: the turn is over
    expect(s).toMatch(/^The real answer\.$/m);
    expect(s).toContain(`↻ ${(looped.length / 1000).toFixed(1)}k characters of repeated text shown above were not kept\n! the model's answer repeated`);
  });

  it("says the text before </think> was reasoning, not the answer", async () => {
    const reasoning = "First I weigh the two options carefully before answering. ";
    const t = await repl.open({ replies: [{ content: `${reasoning}</think>The answer is B.`, chunkSize: 12 }] });
    enter(t, "pick one");
    const s = await t.waitFor(/this turn · /);
    expect(s).toMatch(/^\s?The answer is B\.$/m);
    expect(s).toContain(`↻ ${reasoning.length} characters shown above were not kept: it was reasoning (before </think>), kept as reasoning, not as the answer`);
  });

  it("says a tool call written as JSON text, shown as it streamed, was taken as a call", async () => {
    const json = '{"name": "Read", "arguments": {"file_path": "notes.txt"}}';
    const t = await repl.open({ replies: [{ content: `Reading it now. ${json}`, chunkSize: 10 }, { content: "It says NOTE-42." }] }, { "notes.txt": "NOTE-42\n" });
    enter(t, "what do the notes say");
    const s = await t.waitFor(/this turn · /);
    expect(s).toMatch(/● Read notes\.txt/);
    expect(s).toContain("characters shown above were not kept: it was a tool call written as text, taken as a call");
  });
});
