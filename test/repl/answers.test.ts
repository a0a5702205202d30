// Answers that do exactly what they say, in a real terminal (issue 30): one-step forms where the
// answer is the input (keys sent one at a time and batched), `a` remembering exactly the tool
// the screen names, `/reload` taking one key, and `/tier` and `/status` showing the state a
// change just made.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { BIN } from "../helpers/cli-env.js";
import { join } from "node:path";
import { chatBodies } from "../helpers/extension.js";
import { turnScript } from "../checkpoints/helpers.js";
import { enter, useRepl } from "./helpers.js";

const repl = useRepl();

describe("one-step forms", () => {
  it.each([
    ["one at a time", false],
    ["batched", true],
  ])("/rewind takes the turn number typed at once (%s)", async (_how, batched) => {
    const t = await repl.open(turnScript(), { "shared.txt": "line0\n" }, { args: '--allowedTools "Write,Bash"' });
    for (const k of [1, 2]) {
      enter(t, `turn ${k}`);
      await t.waitFor(new RegExp(`done ${k}[\\s\\S]*^›\\s*$`, "m"));
    }
    enter(t, "/rewind");
    await t.waitFor(/turn\* \(integer, 0–2\)/);
    if (batched) t.press("1", "Enter");
    else {
      t.type("1");
      t.press("Enter");
    }
    await t.waitFor("[b] both   [f] files   [c] conversation");
    t.type("c");
    await t.waitFor(/conversation rewound to the end of turn 1/);
    expect(t.screen()).not.toContain("not rewound");
  });

  it("`#` memory: Enter alone takes the stated default file and saves", async () => {
    const t = await repl.open({ default: { content: "fine" } }, { "AGENTS.md": "# Conventions\n" });
    enter(t, "# keep lines short");
    await t.waitFor(/file \(1\) AGENTS\.md[\s\S]*\[1\) AGENTS\.md/);
    t.press("Enter");
    await t.waitFor(/Saved to AGENTS\.md: - keep lines short/);
    expect(readFileSync(join(repl.env.root, "AGENTS.md"), "utf8")).toBe("# Conventions\n- keep lines short\n");
  });

  it("Esc declines a form and nothing is saved", async () => {
    const t = await repl.open({ default: { content: "fine" } }, { "AGENTS.md": "# Conventions\n" });
    enter(t, "# not this one");
    await t.waitFor(/file \(1\) AGENTS\.md[\s\S]*\[1\) AGENTS\.md/);
    t.press("Escape");
    await t.waitFor(/declined[\s\S]*nothing saved/);
    expect(readFileSync(join(repl.env.root, "AGENTS.md"), "utf8")).toBe("# Conventions\n");
  });
});

describe("what `a` remembers", () => {
  it("`a` for Write allows later Writes, and an Edit still asks with its diff", async () => {
    const write = (f: string) => ({ tool_calls: [{ name: "Write", arguments: { file_path: f, content: "new\n" } }] });
    const edit = { tool_calls: [{ name: "Edit", arguments: { file_path: "a.txt", old_string: "one", new_string: "uno" } }] };
    const read = { tool_calls: [{ name: "Read", arguments: { file_path: "a.txt" } }] };
    const t = await repl.open({ replies: [read, write("w1.txt"), write("w2.txt"), edit, { content: "all done" }] }, { "a.txt": "one\n" });
    enter(t, "write and edit");
    await t.waitFor("[a] always this session: Write");
    t.type("a");
    await t.waitFor("[a] always this session: Edit");
    expect(t.screen()).toContain("-one");
    expect(t.screen().match(/\[a\] always this session: Write/g)).toHaveLength(1); // w2 ran without asking
    t.type("n");
    await t.waitFor("all done");
    expect(readFileSync(join(repl.env.root, "a.txt"), "utf8")).toBe("one\n");
  });
});

describe("one-key questions and fresh state", () => {
  it("/reload's question takes one key", async () => {
    const t = await repl.open({ default: { content: "fine" } }, { "AGENTS.md": "# one\n" });
    enter(t, "hello");
    await t.waitFor(/^fine$/m);
    writeFileSync(join(repl.env.root, "AGENTS.md"), "# two: a changed instruction file\n");
    enter(t, "/reload");
    await t.waitFor(/Rebuild the prefix\?.*\[y\] yes/);
    t.type("y"); // no Enter
    await t.waitFor("prefix rebuilt");
  });

  it("/tier and /status show a pinned tier at once", async () => {
    const t = await repl.open({ default: { content: "fine" } });
    enter(t, "/tier reasoner");
    await t.waitFor(/tier: reasoner .*pinned/);
    enter(t, "/tier");
    await t.waitFor(/^tier: reasoner \(pinned\)/m);
    enter(t, "/status");
    await t.waitFor(/^tier {7}reasoner \(pinned\)/m);
    expect(chatBodies(repl.sim.requests)).toHaveLength(0);
  });
});

describe("sessions nothing happened in", () => {
  it("are left out of deepcode sessions (a REPL killed before its first turn)", async () => {
    const t = await repl.open({ default: { content: "fine" } });
    t.kill(); // the terminal goes away: no orderly exit deletes the empty session
    const files = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
    expect(files(join(repl.env.home, "sessions")).length).toBeGreaterThan(0);
    const listed = spawnSync(process.execPath, [BIN, "sessions"], { cwd: repl.env.root, env: repl.env.env, encoding: "utf8" });
    expect(listed.stdout).toBe("No sessions in this project yet.\n");
  });
});
