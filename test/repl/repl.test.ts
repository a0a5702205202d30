import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Script } from "../sim/server.mjs";
import { chatBodies } from "../helpers/extension.js";
import { useRepl } from "./helpers.js";

const repl = useRepl();

/** The REPL on a simulator. The tier chooser only shows its line here (`estimate: show`), so
 *  keys go where each test means them; the chooser has its own tests below. */
const open = (script: Script, files: Record<string, string> = {}, args = "", settings: object = { estimate: "show" }, width?: number) => repl.open(script, files, { args, settings, width });

const edit = (old_string: string, new_string: string) => ({ tool_calls: [{ name: "Edit", arguments: { file_path: "a.txt", old_string, new_string } }] });
const read = { tool_calls: [{ name: "Read", arguments: { file_path: "a.txt" } }] };

describe("the REPL in a real terminal", () => {
  it("starts to a prompt with a one-screen banner: version, project, model, session", async () => {
    const t = await open({ default: { content: "hi" } });
    const s = t.screen();
    expect(s).toMatch(new RegExp(`^deepcode \\d+\\.\\d+\\.\\d+ · ${repl.env.root}$`, "m"));
    expect(s).toMatch(/^deepseek-flash · session \d{8}-\d{6}-[0-9a-f]{6} · prefix ≈[\d.]+k? tokens/m);
  });

  it("takes a prompt typed before everything has loaded", async () => {
    const term = await repl.open({ default: { content: "got it early" } }, {}, { loaded: false });
    term.type("early question");
    term.press("Enter");
    await term.waitFor("got it early");
    expect(chatBodies(repl.sim.requests).pop()!.messages.at(-1)).toEqual({ role: "user", content: "early question" });
  });

  it("runs a turn whose edit is confirmed with y, and the file changes on disk", async () => {
    const t = await open({ replies: [read, edit("one", "uno"), { content: "changed it" }] }, { "a.txt": "one\ntwo\n" });
    t.type("change one to uno");
    t.press("Enter");
    await t.waitFor("[a] always this session: Edit");
    expect(t.screen()).toContain("+uno");
    t.type("y");
    await t.waitFor("changed it");
    expect(readFileSync(join(repl.env.root, "a.txt"), "utf8")).toBe("uno\ntwo\n");
    expect(t.screen()).toMatch(/● Edit a\.txt \+1 −1/);
  });

  it("allows a second edit without asking after `a`, and says what it remembered", async () => {
    const t = await open({ replies: [read, edit("one", "uno"), edit("two", "dos"), { content: "both done" }] }, { "a.txt": "one\ntwo\n" });
    t.type("translate");
    t.press("Enter");
    await t.waitFor("[a] always this session: Edit");
    t.type("a");
    await t.waitFor("both done");
    expect(t.screen()).toContain("remembered for this session: Edit");
    expect(t.screen().match(/\[a\] always this session/g)).toHaveLength(1);
    expect(readFileSync(join(repl.env.root, "a.txt"), "utf8")).toBe("uno\ndos\n");
  });

  it("denies a command the person refuses, and the model is told", async () => {
    const t = await open({ replies: [{ tool_calls: [{ name: "Bash", arguments: { command: "touch made-by-bash" } }] }, { content: "ok, I will not" }] });
    t.type("make a file");
    t.press("Enter");
    await t.waitFor("[a] always this session: Bash(touch:*)");
    t.type("n");
    await t.waitFor("ok, I will not");
    expect(t.screen()).toMatch(/✗ Bash touch made-by-bash: denied/); // the refused command, not only the tool
    const last = chatBodies(repl.sim.requests).pop()!;
    expect(last.messages.at(-1)).toMatchObject({ role: "tool", content: expect.stringMatching(/^Permission denied for Bash: the user said no/) });
  });

  it("interrupts a streaming turn with Ctrl-C, keeps the transcript, and -c shows it again", async () => {
    // The stream stops mid-reply with the connection open: the turn is still streaming when
    // Ctrl-C arrives, however slow the machine (a timed stream could end first).
    const slow = { reasoning: "ok", content: "counting slowly: one two three four five six seven eight nine ten ".repeat(4), chunkSize: 4, fault: { stallAfterChunks: 12 } };
    const t = await open({ replies: [slow, { content: "resumed fine" }] });
    t.type("count");
    t.press("Enter");
    await t.waitFor("counting slowly: one two");
    t.press("C-c");
    await t.waitFor("■ interrupted");
    t.press("C-d");
    await t.waitFor(/Resume with: deepcode -r (\S+)/);
    const id = /Resume with: deepcode -r (\S+)/.exec(t.screen())![1];
    const s = await (await repl.start("-c", { loaded: false })).waitFor(/^›\s*$/m);
    expect(s).toContain("── earlier in this session ──");
    expect(s).toContain("› count");
    expect(s).toMatch(/counting slowly: one two/);
    expect(s).toContain(id);
  });

  it("exits on a second Ctrl-C at an empty prompt, keeping no empty session", async () => {
    const t = await open({ default: { content: "hi" } });
    t.press("C-c");
    await t.waitFor("press Ctrl-C again to exit");
    t.press("C-c");
    const s = await t.waitFor("[exit 0]");
    expect(s).toContain("No turns, nothing saved.");
    expect(readdirSync(join(repl.env.home, "sessions"), { recursive: true }).filter((f) => String(f).endsWith(".jsonl"))).toEqual([]);
  });

  it("runs a custom command with its arguments expanded", async () => {
    const t = await open({ default: { content: "reviewed" } }, { ".deepcode/commands/review.md": "---\ndescription: Review a file\nargument-hint: <file> <focus>\n---\nReview $1 with a focus on $2. All arguments: $ARGUMENTS\n" });
    t.type('/review src/a.ts "error handling"');
    t.press("Enter");
    await t.waitFor("reviewed");
    const last = chatBodies(repl.sim.requests).pop()!;
    expect(last.messages.at(-1)).toEqual({ role: "user", content: 'Review src/a.ts with a focus on error handling. All arguments: src/a.ts "error handling"' });
  });

  it("completes a slash command with Tab", async () => {
    const t = await open({ default: { content: "hi" } });
    t.type("/perm");
    t.press("Tab");
    await t.waitFor(/› \/permissions/);
    t.type("forget"); // the completed word got a space: the argument follows at once
    await t.waitFor(/› \/permissions forget/);
  });

  it("shows the estimate after Enter and runs the tier picked with a number key", async () => {
    const t = await open({ default: { content: "answered" } }, {}, "", { estimate: "ask" }, 240);
    t.type("what does this project do?");
    t.press("Enter");
    await t.waitFor(/≈ question → \S+ \$[\d.]+[\s\S]*1 chat-fast [\s\S]*2 chat-full [\s\S]*3 reasoner-budget [\s\S]*4 reasoner [\s\S]*Enter accepts, 1–4 picks/);
    t.press("4");
    await t.waitFor("answered");
    const req = repl.sim.requests.filter((r) => r.status === 200).map((r) => JSON.parse(r.body) as Record<string, unknown>).pop()!;
    expect(req).toMatchObject({ model: "deepseek-v4-pro", reasoning_effort: "max" });
  });

  it("by default shows the estimate and runs the turn at once: no chooser, nobody waits", async () => {
    const t = await open({ default: { content: "answered" } }, {}, "", {});
    t.type("hi");
    t.press("Enter");
    const s = await t.waitFor("answered");
    expect(s).toMatch(/≈ .*\$[\d.]+.* · \/tier changes the tier/);
    expect(s).not.toMatch(/Enter accepts|Enter\/1–4/);
  });

  it("with estimate: ask, the chooser waits for its answer instead of accepting by itself", async () => {
    const t = await open({ default: { content: "answered" } }, {}, "", { estimate: "ask" });
    t.type("hi");
    t.press("Enter");
    await t.waitFor(/Enter( accepts|\/1–4)/);
    await new Promise((r) => setTimeout(r, 4000)); // longer than the old 3 s auto-accept
    expect(chatBodies(repl.sim.requests)).toHaveLength(0);
    t.press("Enter");
    const s = await t.waitFor("answered");
    expect(s).toMatch(/Enter( accepts|\/1–4).* ✓/);
  });

  it("asks before a custom command's !`cmd` line that changes something runs, and goes on with its output after y", async () => {
    // (A line that only looks, like `ls -1` alone, runs without asking: test/claude-setup/command-bang.test.ts.)
    const t = await open({ default: { content: "status noted" } }, { ".deepcode/commands/st.md": "---\ndescription: status\n---\nFiles: !`touch seen.txt && ls -1`\n", "marker.txt": "x" });
    t.type("/st");
    t.press("Enter");
    await t.waitFor("[a] always this session: Bash(touch seen.txt && ls -1)");
    t.type("y");
    await t.waitFor("status noted");
    expect(chatBodies(repl.sim.requests).pop()!.messages.at(-1)?.content).toMatch(/^Files: [\s\S]*marker\.txt/);
  });

  it("runs a custom command's !`cmd` lines without asking when its allowed-tools cover them", async () => {
    const t = await open({ default: { content: "listed" } }, { ".deepcode/commands/ls.md": "---\nallowed-tools: Bash(ls:*)\n---\nFiles: !`ls -1`\n", "marker.txt": "x" });
    t.type("/ls");
    t.press("Enter");
    await t.waitFor("listed");
    expect(t.screen()).not.toContain("[a] always this session");
  });

  it("shows with /diff what this session changed, also when started in a subfolder of the repository", async () => {
    const env = await repl.project({ replies: [{ tool_calls: [{ name: "Read", arguments: { file_path: "a.txt" } }] }, { tool_calls: [{ name: "Edit", arguments: { file_path: "a.txt", old_string: "one", new_string: "uno" } }] }, { content: "edited" }] }, { "pkg/a.txt": "one\n", "pkg/.deepcode/settings.json": JSON.stringify({ estimate: "show" }) });
    const { spawnSync } = await import("node:child_process");
    for (const args of [["init", "-q"], ["add", "."], ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init"]]) spawnSync("git", args, { cwd: env.root });
    const term = await repl.start("", { cwd: join(env.root, "pkg") });
    term.type("edit it");
    term.press("Enter");
    await term.waitFor("[a] always this session: Edit");
    term.type("y");
    await term.waitFor("edited");
    term.type("/diff");
    term.press("Enter");
    const s = await term.waitFor("+uno");
    expect(s).toContain("-one");
  });
});
