// `# use tabs` at the REPL prompt (Claude Code's convention), in a real terminal: the person
// picks the file (Enter keeps the project's AGENTS.md), the line is added, and the next
// request carries it as a tail note while still extending the previous request.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { enter, useRepl } from "../repl/helpers.js";
import { chatBodies, extensionBreaks } from "../helpers/extension.js";

const repl = useRepl();

describe("memory at the REPL prompt", () => {
  it("adds `# use tabs` to AGENTS.md, and the next request has it as a tail note and extends the previous one", async () => {
    const t = await repl.open({ default: { content: "fine" } }, { "AGENTS.md": "# Conventions\n" });
    enter(t, "first");
    await t.waitFor(/^fine$/m);
    enter(t, "# use tabs");
    await t.waitFor("Save this memory to which instructions file?");
    expect(t.screen()).toContain("- use tabs");
    // One step: the file picker is the question, and Enter takes its stated default.
    await t.waitFor(/file \(1\) AGENTS\.md \(this project, shared with the repository\)[\s\S]*\[1\) AGENTS\.md/);
    t.press("Enter");
    await t.waitFor(/Saved to AGENTS\.md: - use tabs/);
    expect(readFileSync(join(repl.env.root, "AGENTS.md"), "utf8")).toBe("# Conventions\n- use tabs\n");
    enter(t, "second");
    await t.waitFor(/fine[\s\S]*fine/);
    const bodies = chatBodies(repl.sim.requests);
    expect(bodies).toHaveLength(2);
    expect(String(bodies[1].messages.at(-2)?.content)).toContain("gained these lines since this session began (everything before them still holds):\n\n- use tabs");
    expect(extensionBreaks(bodies, [{ content: "fine" }, { content: "fine" }])).toEqual([]);
  });

  it("takes the default file on Enter alone when `#` is the session's first input, and saves nothing on Esc", async () => {
    const t = await repl.open({ default: { content: "fine" } }, { "AGENTS.md": "# Conventions\n" });
    enter(t, "# use tabs");
    // The picker's Enter is the default (as in Claude Code), not a decline: no y/n step first.
    await t.waitFor(/\[1\) AGENTS\.md \(this project, shared with the repository\)\]:\s*$/m);
    expect(t.screen()).not.toMatch(/\[y\]|\[n\]/);
    t.press("Enter");
    await t.waitFor(/Saved to AGENTS\.md: - use tabs/);
    expect(t.screen()).not.toContain("nothing saved");
    expect(readFileSync(join(repl.env.root, "AGENTS.md"), "utf8")).toBe("# Conventions\n- use tabs\n");
    // Another way a person answers: the number of a file, then Enter.
    enter(t, "# run npm test before committing");
    await t.waitFor((s) => (s.match(/\[1\) AGENTS\.md \(this project, shared with the repository\)\]:/g) ?? []).length === 2);
    t.type("2");
    t.press("Enter");
    await t.waitFor(/Saved to AGENTS\.local\.md: - run npm test before committing/);
    // And Esc is the one key that declines.
    enter(t, "# never saved");
    await t.waitFor((s) => (s.match(/\[1\) AGENTS\.md \(this project, shared with the repository\)\]:/g) ?? []).length === 3);
    t.press("Escape");
    await t.waitFor(/declined[\s\S]*nothing saved/);
    expect(readFileSync(join(repl.env.root, "AGENTS.md"), "utf8")).toBe("# Conventions\n- use tabs\n");
  });

  it("opens an instructions file in $EDITOR with /memory", async () => {
    const env = await repl.project({ default: { content: "fine" } });
    // An editor that writes the file it is given, as a person would, then exits.
    env.env.EDITOR = `sh -c 'echo written by the editor > "$1"' editor`;
    const term = await repl.start();
    enter(term, "/memory");
    await term.waitFor("Edit which instructions file?");
    await term.waitFor(/file \(1\)/);
    term.type("2");
    term.press("Enter");
    await term.waitFor(/AGENTS\.local\.md saved/);
    expect(readFileSync(join(repl.env.root, "AGENTS.local.md"), "utf8")).toBe("written by the editor\n");
  });
});
