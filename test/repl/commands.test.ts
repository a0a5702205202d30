import { describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Script } from "../sim/server.mjs";
import { chatBodies } from "../helpers/extension.js";
import { enter, useRepl } from "./helpers.js";

const repl = useRepl();
const open = (script: Script, files: Record<string, string> = {}, o: { width?: number; settings?: object } = {}) => repl.open(script, files, o);

describe("slash commands that refuse what they cannot do", () => {
  it("/model refuses a name the capability table does not know, listing the known ones, unless --force", async () => {
    const t = await open({ default: { content: "hi" } });
    enter(t, "/model deepseek-v9");
    await t.waitFor("unknown model 'deepseek-v9': known are deepseek-flash, deepseek-v4-flash, deepseek-reasoner, deepseek-chat, deepseek-v4-pro.");
    enter(t, "/status");
    await t.waitFor(/^model\s+deepseek-flash/m);
    enter(t, "/model deepseek-v9 --force");
    await t.waitFor("model: deepseek-v9 (the server caches");
  });

  it("/think refuses an argument other than on or off, toggles without one, and /help says so", async () => {
    const t = await open({ default: { content: "hi" } });
    enter(t, "/think maybe");
    await t.waitFor("/think takes on or off (or nothing, to toggle), not 'maybe'");
    enter(t, "/think");
    await t.waitFor("reasoning: shown in full");
    enter(t, "/help");
    await t.waitFor(/\/think \[on\|off\]\s+show the model's reasoning in full \(on\) or folded to one line \(off\); without an argument, toggle/);
  });
});

describe("custom commands", () => {
  it("picks up a command file added mid-session at once, and /reload says what it found", async () => {
    const t = await open({ default: { content: "ran it" } });
    writeFileSync(join(repl.env.root, ".deepcode", "hello.md"), "not a command: outside commands/");
    const dir = join(repl.env.root, ".deepcode", "commands");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "greet.md"), "---\ndescription: say hello\n---\nSay hello to $ARGUMENTS\n");
    enter(t, "/greet the team");
    await t.waitFor("ran it");
    expect(chatBodies(repl.sim.requests).pop()!.messages.at(-1)).toEqual({ role: "user", content: "Say hello to the team" });
    writeFileSync(join(dir, "bye.md"), "Say goodbye\n");
    enter(t, "/reload");
    await t.waitFor(`new command /bye (${join(dir, "bye.md")})`);
    await t.waitFor("The prefix is up to date; nothing to rebuild.");
  });

  it("does not register a command whose header is never closed, and says so with the file", async () => {
    const file = ".deepcode/commands/broken.md";
    const t = await open({ default: { content: "hi" } }, { [file]: "---\ndescription: never closed\nDo the thing\n" });
    const s = t.screen();
    expect(s).toContain(`${join(repl.env.root, file)}:1: the frontmatter opened with --- is never closed, so /broken is not registered`);
    enter(t, "/broken");
    await t.waitFor("unknown command /broken — /help lists them");
    expect(repl.sim.requests).toHaveLength(0);
  });
});

describe("what the REPL says so it is not missed", () => {
  it("/compact that would not shrink the context is not applied, and says so", async () => {
    const long = "A digest that is much longer than the conversation it would replace. ".repeat(60);
    const t = await open({ replies: [{ content: "one" }, { content: "two" }, { content: "three" }, { content: long }] });
    for (const p of ["a", "b", "c"]) {
      enter(t, p);
      await t.waitFor(new RegExp(`^${["one", "two", "three"][["a", "b", "c"].indexOf(p)]}$`, "m"));
    }
    enter(t, "/compact");
    await t.waitFor(/not compacted: the digest would not make the context smaller \(\d+ tokens now, about \d+ after\), so it was not applied/);
  });

  it("names a suppressed repeated call for what it is, not denied", async () => {
    const readA = { tool_calls: [{ name: "Read", arguments: { file_path: "a.txt" } }] };
    const t = await open({ replies: [readA, readA, readA, { content: "stopped" }] }, { "a.txt": "x" });
    enter(t, "read it");
    const s = await t.waitFor("stopped");
    expect(s).toContain("↷ Read: suppressed (the same call again)");
    expect(s).not.toMatch(/✗ Read: denied/);
  });

  it("shows @-mentions that were not attached, and why", async () => {
    const t = await open({ default: { content: "ok" } }, { "real.txt": "x" });
    writeFileSync(join(repl.env.home, "outside.txt"), "not the project's");
    const outside = `../${basename(repl.env.home)}/outside.txt`;
    enter(t, `compare @real.txt with @missing.txt and @${outside}`);
    const s = await t.waitFor(/^ok$/m);
    expect(s).toContain("! @missing.txt: no such file or folder in the project; left as text");
    expect(s).toContain(`! @${outside}: outside the project root (it resolves to ${join(repl.env.home, "outside.txt")}); not attached`);
  });

  it("says at start, and in /context, that a large AGENTS.md is cut, with the limit and how to change it", async () => {
    const t = await open({ default: { content: "hi" } }, { "AGENTS.md": `# Rules\n${"x".repeat(1_000_000)}` });
    const note = "AGENTS.md has 1.0M characters; only the first 40,000 are sent (raise or lower the limit with settings pluginConfig.instructions.maxChars)";
    expect(t.screen()).toContain(`! ${note}`);
    enter(t, "/context");
    await t.waitFor(/tool definitions[\s\S]*! AGENTS\.md has 1\.0M characters/);
  });

  it("renders a code block with a frame and a language label, and keeps paragraph spacing single", async () => {
    const t = await open({ default: { content: "Here:\n\n```ts\nconst x = 1;\n    indented();\n```\n\nDone." } });
    enter(t, "show code");
    const s = await t.waitFor("Done.");
    expect(s).toContain("Here:\n\n┌─ ts\n│ const x = 1;\n│     indented();\n└─\n\nDone.");
  });
});

describe("lines that fit the terminal", () => {
  for (const width of [140, 60]) {
    it(`fits the estimate line and the status line into ${width} columns, never breaking a figure`, async () => {
      const t = await open({ default: { content: "answered" } }, {}, { width, settings: { estimate: "ask" } });
      enter(t, "what does this project do?");
      await t.waitFor(/^≈ /m);
      t.press("Enter"); // accept at once rather than after the chooser's 3 s
      await t.waitFor("answered");
      // The status line comes after the answer: wait for it rather than read the screen at once.
      const s = await t.waitFor(/\$[\d.]+ (this )?turn|\$[\d.]+ · \$/);
      const lines = s.split("\n");
      const estimate = lines.find((l) => l.startsWith("≈ "));
      expect(estimate, s).toBeDefined();
      expect(estimate!.length).toBeLessThan(width);
      expect(lines[lines.indexOf(estimate!) + 1]).toMatch(/^(✻|answered)/); // nothing wrapped onto a second row
      const status = lines.find((l) => /\$[\d.]+ (this )?turn|\$[\d.]+ · \$/.test(l));
      expect(status, s).toBeDefined();
      expect(status!.length).toBeLessThan(width);
    });
  }
});
