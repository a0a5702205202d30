// The permission question fits one screen (issue #35, "Two doors"): with the sandbox off every
// command asks, and the red team's `touch X; : <9,000 spaces> npm test` scrolled `touch X` and
// the header off a 160×45 screen, leaving `npm test` and the answer line; `y` ran the hidden
// part. Judged on what the terminal shows at once (tmux's visible pane, no scrollback).
import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { TMUX_AVAILABLE } from "../helpers/tmux.js";
import { useRepl } from "./helpers.js";

const repl = useRepl();
const SANDBOX_OFF = { estimate: "show", sandbox: { enabled: false } };
const bash = (command: string) => ({ replies: [{ tool_calls: [{ name: "Bash", arguments: { command } }] }, { content: "fine, not run" }] });

/** Says what the screen showed when an expectation fails (the screen is the evidence). */
function shows(screen: string, text: string | RegExp): void {
  const found = typeof text === "string" ? screen.includes(text) : text.test(screen);
  expect(found, `the screen should show ${String(text)} at once; it showed:\n${screen}`).toBe(true);
}

describe.skipIf(!TMUX_AVAILABLE)("a permission question on one screen (REPL, tmux)", () => {
  it("the red team's `touch X; : <9,000 spaces> npm test` at 160×45 shows the header, touch X, npm test and the answers at once", async () => {
    const t = await repl.open(bash(`touch X; : ${" ".repeat(9000)} npm test`), {}, { settings: SANDBOX_OFF, width: 160, height: 45 });
    t.type("run the tests");
    t.press("Enter");
    await t.waitFor(/\[y\] yes, once/);
    const screen = t.visible();
    shows(screen, "? Bash wants to run");
    shows(screen, "touch X");
    shows(screen, "npm test");
    shows(screen, "[y] yes, once");
    shows(screen, "⟦9,002 spaces⟧"); // the blanks are counted, not printed
    t.type("n");
    await t.waitFor(/^fine, not run$/m);
    expect(existsSync(join(repl.env.root, "X"))).toBe(false);
  });

  it("a command with one giant part among short ones at 80×24 keeps every part's start and end, with the count of what was cut", async () => {
    const giant = `echo ${"a".repeat(20_000)} END-OF-GIANT`;
    const t = await repl.open(bash(`touch X && ${giant} && npm test`), {}, { settings: SANDBOX_OFF, width: 80, height: 24 });
    t.type("run the tests");
    t.press("Enter");
    await t.waitFor(/\[y\] yes, once/);
    const screen = t.visible();
    shows(screen, "? Bash wants to run");
    shows(screen, "touch X && echo aaa");
    shows(screen, "END-OF-GIANT && npm test");
    shows(screen, /⟦… [\d,]+ characters cut …⟧/);
    shows(screen, "[y] yes, once");
    t.type("n");
    await t.waitFor(/^fine, not run$/m);
  });
});
