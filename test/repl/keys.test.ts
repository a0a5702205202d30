import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Script } from "../sim/server.mjs";
import type { CliEnv } from "../helpers/cli-env.js";
import { chatBodies } from "../helpers/extension.js";
import { seedRecord, writeLedger } from "../cost-cli/rig.js";
import { useRepl } from "./helpers.js";

const repl = useRepl();
const open = (script: Script, files: Record<string, string> = {}, settings: object = { estimate: "show" }, before?: (e: CliEnv) => void) => repl.open(script, files, { settings, before });

const edit = (old_string: string, new_string: string) => ({ tool_calls: [{ name: "Edit", arguments: { file_path: "a.txt", old_string, new_string } }] });
const read = { tool_calls: [{ name: "Read", arguments: { file_path: "a.txt" } }] };
const lastUser = (): unknown => chatBodies(repl.sim.requests).pop()!.messages.filter((m) => m.role === "user").pop()?.content;

describe("answers typed fast, in one read (tmux send-keys \"y\" Enter)", () => {
  it("takes y followed by Enter as yes, and the Enter does not leak into the next prompt", async () => {
    const t = await open({ replies: [read, edit("one", "uno"), { content: "changed it" }] }, { "a.txt": "one\ntwo\n" });
    t.type("change one to uno");
    t.press("Enter");
    await t.waitFor("[a] always this session: Edit");
    t.press("y", "Enter");
    await t.waitFor("changed it");
    expect(readFileSync(join(repl.env.root, "a.txt"), "utf8")).toBe("uno\ntwo\n");
    expect(t.screen()).toMatch(/› yes\n/);
    await t.waitFor(/^›\s*$/m);
    expect(repl.sim.requests.filter((r) => r.status === 200)).toHaveLength(3); // no empty prompt was sent
  });

  it("takes a followed by Enter as always, and the second edit runs without asking", async () => {
    const t = await open({ replies: [read, edit("one", "uno"), edit("two", "dos"), { content: "both done" }] }, { "a.txt": "one\ntwo\n" });
    t.type("translate");
    t.press("Enter");
    await t.waitFor("[a] always this session: Edit");
    t.press("a", "Enter");
    await t.waitFor("both done");
    expect(t.screen()).toContain("remembered for this session: Edit");
    expect(t.screen().match(/\[a\] always this session/g)).toHaveLength(1);
    expect(readFileSync(join(repl.env.root, "a.txt"), "utf8")).toBe("uno\ndos\n");
  });

  it("takes y followed by Enter at the budget prompt as yes", async () => {
    const t = await open({ default: { content: "went ahead" } }, {}, { estimate: "show", budget: { daily: 1 } }, (e) => writeLedger(e.home, [seedRecord(0.6), seedRecord(0.5)]));
    t.type("hello");
    t.press("Enter");
    await t.waitFor("Raise it for this session?");
    t.press("y", "Enter");
    await t.waitFor("went ahead");
    expect(t.screen()).toMatch(/Raise it for this session\? .*› yes/);
  });

  it("never takes a paste for an answer: a pasted \"y\" at a permission prompt answers nothing and waits for the prompt", async () => {
    const t = await open({ replies: [read, edit("one", "uno"), { content: "left it" }] }, { "a.txt": "one\ntwo\n" });
    t.type("change it");
    t.press("Enter");
    await t.waitFor("[a] always this session: Edit");
    t.paste("y\n");
    await new Promise((r) => setTimeout(r, 500));
    expect(readFileSync(join(repl.env.root, "a.txt"), "utf8")).toBe("one\ntwo\n");
    expect(t.screen()).not.toMatch(/› (yes|no)/); // still asking
    t.press("n");
    await t.waitFor("left it");
    expect(readFileSync(join(repl.env.root, "a.txt"), "utf8")).toBe("one\ntwo\n");
    await t.waitFor(/^› y\s*$/m); // the paste went to the next prompt, unsent
  });
});

describe("type-ahead", () => {
  it("keeps what is typed while a turn runs and shows it at the next prompt, unsent until Enter", async () => {
    const slow = { reasoning: "ok", content: "a slow answer ".repeat(10), chunkSize: 4, chunkDelayMs: 30 };
    const t = await open({ replies: [slow, { content: "second answer" }] });
    t.type("first");
    t.press("Enter");
    await t.waitFor("a slow answer");
    t.type("typed while it ran");
    const s = await t.waitFor(/^› typed while it ran\s*$/m);
    expect(s).toContain("session");
    expect(chatBodies(repl.sim.requests)).toHaveLength(1);
    t.press("Enter");
    await t.waitFor("second answer");
    expect(lastUser()).toBe("typed while it ran");
  });

  it("does not let typing answer the tier chooser: /status typed during it waits for the next prompt", async () => {
    const t = await open({ default: { content: "answered" } }, {}, { estimate: "ask" });
    t.type("what is this?");
    t.press("Enter");
    await t.waitFor(/Enter( accepts|\/1–4)/);
    t.type("/status");
    t.press("Enter");
    await new Promise((r) => setTimeout(r, 500));
    expect(chatBodies(repl.sim.requests)).toHaveLength(0); // still waiting for its own keys
    t.press("Enter"); // the chooser's answer; the typed /status is the next prompt's
    const s = await t.waitFor(/^cost\s+\$/m);
    expect(s.indexOf("answered")).toBeLessThan(s.indexOf("cost "));
    expect(chatBodies(repl.sim.requests).map((b) => b.messages.filter((m) => m.role === "user").pop()?.content)).toEqual(["what is this?"]);
  });

  it("cancels with Esc at the chooser and puts the prompt back to be edited", async () => {
    const t = await open({ default: { content: "answered" } }, {}, { estimate: "ask" });
    t.type("draft question");
    t.press("Enter");
    await t.waitFor(/Enter( accepts|\/1–4)/);
    t.press("Escape");
    await t.waitFor(/cancelled\n› draft question/);
    expect(chatBodies(repl.sim.requests)).toHaveLength(0);
  });
});

describe("pastes", () => {
  it("waits for Enter after a multi-line paste that ends in a newline, and shows it as one block without markers", async () => {
    const t = await open({ default: { content: "got the paste" } });
    t.paste("line one\nline two\nline three\n");
    const s = await t.waitFor(/› line one\n {2}line two\n {2}line three\n/);
    expect(s).not.toMatch(/… line/);
    await new Promise((r) => setTimeout(r, 300));
    expect(chatBodies(repl.sim.requests)).toHaveLength(0);
    t.press("Enter");
    await t.waitFor("got the paste");
    expect(lastUser()).toBe("line one\nline two\nline three");
  });

  it("lets a paste continue what was typed, and the last pasted line be edited before Enter", async () => {
    const t = await open({ default: { content: "ok" } });
    t.type("fix this: ");
    t.paste("a = 1\nb = 2");
    await t.waitFor(/› fix this: a = 1\n {2}b = 2/);
    t.type(" # edited");
    t.press("Enter");
    await t.waitFor(/^ok$/m);
    expect(lastUser()).toBe("fix this: a = 1\nb = 2 # edited");
  });
});
