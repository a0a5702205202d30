// No single stray key answers a question (issue 39): a permission question takes only a
// deliberate y, a, n or Esc — an Enter pressed late for the last prompt denies nothing, and
// `/status` typed while the question is up neither answers it nor is lost; with `"estimate":
// "ask"`, a quick second Enter after Esc does not send the prompt again. In a real terminal.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chatBodies } from "../helpers/extension.js";
import { enter, useRepl } from "./helpers.js";

const repl = useRepl();

const write = { tool_calls: [{ name: "Write", arguments: { file_path: "notes.txt", content: "hello\n" } }] };
const file = (): string | undefined => {
  try {
    return readFileSync(join(repl.env.root, "notes.txt"), "utf8");
  } catch {
    return undefined; // not written
  }
};
const choosers = (screen: string): number => screen.split(/Enter(?: accepts|\/1–4)/).length - 1;
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a permission question", () => {
  it("is not answered by an Enter alone: the call waits for y, and runs", async () => {
    const t = await repl.open({ replies: [write, { content: "wrote it" }] });
    enter(t, "write the notes");
    await t.waitFor("[a] always this session: Write");
    t.press("Enter"); // a second Enter, late, for the prompt just sent
    await settle(600);
    expect(t.screen()).not.toMatch(/› no\b/);
    expect(file()).toBeUndefined();
    t.press("y");
    await t.waitFor(/^wrote it$/m);
    expect(t.screen()).toMatch(/› yes\n/);
    expect(file()).toBe("hello\n");
  });

  it("is not answered by /status typed while it is up; the typing goes to the next prompt", async () => {
    const t = await repl.open({ replies: [write, { content: "left it alone" }] });
    enter(t, "write the notes");
    await t.waitFor("[a] always this session: Write");
    t.type("/status");
    await settle(600);
    expect(t.screen()).not.toMatch(/› (yes|no)\b/); // neither the / nor the a of status answered
    t.press("Enter"); // ends the typed line: it is the next prompt's
    await settle(300);
    expect(t.screen()).not.toMatch(/› (yes|no)\b/);
    t.press("n");
    await t.waitFor(/^left it alone$/m);
    expect(file()).toBeUndefined();
    await t.waitFor(/^cost\s+\$/m); // /status ran at the next prompt, whole
    expect(chatBodies(repl.sim.requests).map((b) => b.messages.filter((m) => m.role === "user").pop()?.content)).not.toContain("status");
  });

  it("is answered no by Esc", async () => {
    const t = await repl.open({ replies: [write, { content: "did not write" }] });
    enter(t, "write the notes");
    await t.waitFor("[a] always this session: Write");
    t.press("Escape");
    await t.waitFor(/^did not write$/m);
    expect(t.screen()).toMatch(/› no\n/);
    expect(file()).toBeUndefined();
  });
});

describe("the tier chooser (estimate: ask)", () => {
  it("does not send the prompt again when a quick second Enter follows Esc", async () => {
    const t = await repl.open({ default: { content: "answered" } }, {}, { settings: { estimate: "ask" } });
    t.type("draft question");
    t.press("Enter");
    await t.waitFor(/Enter( accepts|\/1–4)/);
    t.press("Escape", "Enter"); // Esc, then at once the Enter a person presses twice by habit
    await t.waitFor(/cancelled\n› draft question/);
    await settle(1500);
    expect(chatBodies(repl.sim.requests)).toHaveLength(0);
    expect(choosers(t.screen())).toBe(1); // not asked again: the prompt was not sent again
    expect(t.screen()).toMatch(/^› draft question\s*$/m); // back to be edited, unsent
    t.press("Enter"); // a deliberate Enter later sends it
    await t.waitFor((sc) => choosers(sc) === 2);
  });

  it("does not send the prompt again when the second Enter comes a moment after Esc", async () => {
    const t = await repl.open({ default: { content: "answered" } }, {}, { settings: { estimate: "ask" } });
    t.type("draft question");
    t.press("Enter");
    await t.waitFor(/Enter( accepts|\/1–4)/);
    t.press("Escape");
    await settle(300);
    t.press("Enter");
    await settle(1500);
    expect(chatBodies(repl.sim.requests)).toHaveLength(0);
    expect(choosers(t.screen())).toBe(1);
    expect(t.screen()).toMatch(/^› draft question\s*$/m);
  });
});
