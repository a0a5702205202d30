// `/plan` in the REPL, in a real terminal: a planning turn on the planner that cannot write,
// the person's go / edit / drop, execution on the session's tier — and each model's requests
// extending its own earlier ones, so switching between them costs no cache.
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SimRequest } from "../sim/server.mjs";
import { enter, useRepl } from "../repl/helpers.js";

const repl = useRepl();

const PLAN1 = "## Steps\n1. Write hello.txt\n## Files\n- hello.txt\n## Verification\n- cat hello.txt";
const PLAN2 = "## Steps\n1. Write hello.txt with a test\n## Files\n- hello.txt\n## Verification\n- cat hello.txt";
const write = { tool_calls: [{ name: "Write", arguments: { file_path: "hello.txt", content: "hello\n" } }] };

type Body = { model: string; messages: Array<{ role: string; content: string | null }>; tools: unknown[] };
const billed = (): Array<{ body: Body; r: SimRequest }> => repl.sim.requests.filter((r) => r.usage).map((r) => ({ body: JSON.parse(r.body) as Body, r }));
const prefix = (b: Body) => JSON.stringify([b.messages[0], b.tools]);
/** Request `b` sends request `a`'s messages first, byte for byte, then more. */
const extendsOf = (a: Body, b: Body) => b.messages.length > a.messages.length && JSON.stringify(b.messages.slice(0, a.messages.length)) === JSON.stringify(a.messages);

describe("/plan in the REPL", () => {
  it("plans read-only on the planner, revises with notes, runs the plan on the session's tier, and each model extends its own requests", async () => {
    const replies = [{ content: "hi there" }, write, { content: PLAN1 }, { content: PLAN2 }, write, { content: "hello.txt written" }, { content: "## Steps\n1. nothing more" }];
    const t = await repl.open({ replies }, {}, { args: '--allowedTools "Write"' });
    enter(t, "hello");
    await t.waitFor("hi there");
    enter(t, "/plan add a greeting file");
    await t.waitFor(/≈ \w+ → plan reasoner-budget \$[\d.–]+ \+ run chat-full \$[\d.–]+ = \$[\d.–]+ \(planner \+ executor\)/);
    await t.waitFor(/\? The plan is ready: go, edit or drop\?[\s\S]*\[g\] go/);
    expect(t.screen()).toMatch(/planning with reasoner-budget \(deepseek-v4-pro\)/);
    expect(t.screen()).toMatch(/✗ Write \S*hello\.txt: denied/);
    expect(existsSync(join(repl.env.root, "hello.txt"))).toBe(false);
    t.type("e");
    await t.waitFor("? Your notes for the planner");
    await t.waitFor(/notes\*/); // one step: the field is the question
    t.type("also add a test");
    t.press("Enter");
    await t.waitFor(/with a test[\s\S]*\? The plan is ready: go, edit or drop\?[\s\S]*\[g\] go/);
    t.type("g");
    await t.waitFor("hello.txt written");
    expect(readFileSync(join(repl.env.root, "hello.txt"), "utf8")).toBe("hello\n");
    // Plan again after executing: the planner's line goes on from its own last request.
    await t.waitFor(/^›\s*$/m);
    enter(t, "/plan anything else?");
    await t.waitFor(/nothing more[\s\S]*\? The plan is ready[\s\S]*\[g\] go/);
    t.type("d");
    await t.waitFor("plan dropped");

    const b = billed();
    expect(b.map((x) => x.body.model)).toEqual(["deepseek-flash", "deepseek-v4-pro", "deepseek-v4-pro", "deepseek-v4-pro", "deepseek-flash", "deepseek-flash", "deepseek-v4-pro"]);
    for (const x of b) expect(prefix(x.body)).toBe(prefix(b[0].body));
    const hit = (i: number) => b[i].r.usage!.prompt_cache_hit_tokens;
    const floor = (i: number) => Math.floor(b[i].r.usage!.prompt_tokens / 64) * 64;
    // Each model's request extends that model's previous one and hits at least all of it.
    for (const [prev, next] of [[1, 2], [2, 3], [0, 4], [4, 5], [3, 6]]) {
      expect({ prev, next, extends: extendsOf(b[prev].body, b[next].body) }).toEqual({ prev, next, extends: true });
      expect(hit(next)).toBeGreaterThanOrEqual(floor(prev));
    }
    // The executor's turn carries the approved plan in the log, and the go prompt.
    const exec = b[4].body.messages;
    expect(exec.some((m) => m.role === "assistant" && m.content === PLAN2)).toBe(true);
    expect(exec.at(-1)).toEqual({ role: "user", content: expect.stringMatching(/^The plan above is approved\. Carry it out now/) });
    expect(exec.some((m) => m.role === "user" && String(m.content).startsWith("My notes on your plan:\n\nalso add a test"))).toBe(true);
    expect(t.screen()).not.toMatch(/unexpected cache miss|cache lost/);
  });

  it("answers /plan go, /plan drop and /plan off when typed, and says when no plan waits", async () => {
    const t = await repl.open({ replies: [{ content: PLAN1 }], default: { content: "ok" } });
    enter(t, "/plan go");
    await t.waitFor("no plan is waiting for an answer: /plan TASK plans one");
    enter(t, "/plan");
    await t.waitFor(/plan mode is off \(planner: reasoner-budget \(deepseek-v4-pro\)\)[\s\S]*\/plan edit NOTES/);
    enter(t, "/help");
    await t.waitFor(/\/plan \[TASK \| go \| edit NOTES \| drop \| off\][\s\S]*\/rewind \[N\] \[files\|conversation\|both\][\s\S]*\/undo \[--force\]/);
  });
});

describe("autoPlan", () => {
  it("offers plan mode first for a multi-file task (ask), and a dropped plan is said to the model", async () => {
    const t = await repl.open({ replies: [{ content: "fine" }, { content: PLAN1 }], default: { content: "fine" } }, {}, { settings: { estimate: "show", autoPlan: "ask" } });
    enter(t, "fix the typo in a.txt");
    await t.waitFor("fine");
    expect(t.screen()).not.toContain("Plan it first");
    enter(t, "refactor the error handling across all the modules");
    await t.waitFor("This looks like a multi-file change. Plan it first with reasoner-budget (deepseek-v4-pro)?");
    t.type("y");
    await t.waitFor(/\? The plan is ready: go, edit or drop\?[\s\S]*\[g\] go/);
    t.type("d");
    await t.waitFor("plan dropped");
    enter(t, "ok then");
    await t.waitFor(/fine[\s\S]*fine/);
    const b = billed();
    expect(b.map((x) => x.body.model)).toEqual(["deepseek-flash", "deepseek-v4-pro", "deepseek-flash"]);
    expect(JSON.stringify(b[2].body.messages.slice(-2))).toContain("The person dropped the plan you proposed");
    expect(JSON.stringify(b[2].body.messages.slice(-2))).not.toContain("You are in plan mode");
  });

  it("enters plan mode at once for an architectural task (on), and says so", async () => {
    const t = await repl.open({ replies: [{ content: PLAN1 }], default: { content: "fine" } }, {}, { settings: { estimate: "show", autoPlan: "on" } });
    enter(t, "design a caching layer between the API client and the storage backend");
    await t.waitFor("this looks like an architectural task: planning it first with reasoner-budget (deepseek-v4-pro) (settings autoPlan on)");
    await t.waitFor(/\? The plan is ready: go, edit or drop\?[\s\S]*\[g\] go/);
    expect(billed().map((x) => x.body.model)).toEqual(["deepseek-v4-pro"]);
  });

  it("plans a typed task that starts with a /plan verb (drop, go, off) as the task it is", async () => {
    const t = await repl.open({ replies: [{ content: PLAN1 }], default: { content: "fine" } }, {}, { settings: { estimate: "show", autoPlan: "on" } });
    enter(t, "drop the legacy API across all the modules");
    await t.waitFor(/\? The plan is ready: go, edit or drop\?[\s\S]*\[g\] go/);
    expect(t.screen()).not.toContain("no plan is waiting");
    const [first] = billed();
    expect(first.body.model).toBe("deepseek-v4-pro");
    expect(JSON.stringify(first.body.messages.at(-1))).toContain("drop the legacy API across all the modules");
  });
});
