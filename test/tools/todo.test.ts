// TodoWrite: Claude Code's shape; in `-p --output-format stream-json` an ordinary tool_use /
// tool_result pair; in the log an ordinary tool result (the prefix never changes for it); in the
// REPL a compact checklist under the call's line, shown again only when the list changed.
import { afterEach, describe, expect, it } from "vitest";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";
import { enter, useRepl } from "../repl/helpers.js";

const todos = (second: "pending" | "in_progress" | "completed") => ({
  todos: [
    { content: "Read the config", status: "completed", activeForm: "Reading the config" },
    { content: "Add the flag", status: second, activeForm: "Adding the flag" },
    { content: "Run the tests", status: "pending", activeForm: "Running the tests" },
  ],
});
const write = (args: object) => ({ tool_calls: [{ name: "TodoWrite", arguments: args }] });

type Line = Record<string, unknown> & { type: string; message?: { content: Array<Record<string, unknown>> } };
const blocks = (lines: Line[], type: string) => lines.filter((l) => l.type === "assistant" || l.type === "user").flatMap((l) => l.message?.content ?? []).filter((b) => b.type === type);

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("TodoWrite in -p", () => {
  it("is a tool_use / tool_result pair in stream-json, and an ordinary tool result in the log with the prefix unchanged", async () => {
    rig = await cliRig({ replies: [write(todos("in_progress")), write(todos("completed")), { content: "done" }] });
    const r = await rig.run(["-p", "plan it", "--output-format", "stream-json"]);
    expect(r.code).toBe(0);
    const lines = rig.lines(r) as Line[];
    expect(lines[0].tools).toContain("TodoWrite");
    const uses = blocks(lines, "tool_use");
    expect(uses.map((u) => u.name)).toEqual(["TodoWrite", "TodoWrite"]);
    expect(uses[0].input).toEqual(todos("in_progress"));
    const results = blocks(lines, "tool_result");
    expect(results.map((b) => b.tool_use_id)).toEqual(uses.map((u) => u.id));
    expect(results[0]).toMatchObject({ is_error: false, content: expect.stringContaining("3 steps, 1 completed, 1 in progress, 1 pending") });
    const bodies = chatBodies(rig.sim.requests);
    expect(bodies.at(-1)!.messages.filter((m) => m.role === "tool").map((m) => String(m.content))[1]).toContain("2 completed, 0 in progress, 1 pending");
    // Same system prompt and tools in every request: the list lives in the log only.
    const prefix = (b: (typeof bodies)[number]) => JSON.stringify([b.messages.filter((m) => m.role === "system"), b.tools]);
    expect(new Set(bodies.map(prefix)).size).toBe(1);
  });

  it("costs a session that never uses it one line of the prefix, and through UseTool is still a TodoWrite tool_use", async () => {
    const viaProxy = { tool_calls: [{ name: "UseTool", arguments: { name: "TodoWrite", input: todos("pending") } }] };
    rig = await cliRig({ replies: [viaProxy, { content: "done" }] });
    const r = await rig.run(["-p", "plan it", "--output-format", "stream-json"]);
    expect(r.code).toBe(0);
    const body = chatBodies(rig.sim.requests)[0]!;
    // Not a tool definition of its own (no schema in every request), one line in the system prompt.
    expect(JSON.stringify(body.tools ?? [])).not.toContain("TodoWrite");
    const system = body.messages.filter((m) => m.role === "system").map((m) => String(m.content)).join("\n");
    expect(system.match(/TodoWrite/g)?.length).toBe(1);
    const uses = blocks(rig.lines(r) as Line[], "tool_use");
    expect(uses.map((u) => u.name)).toEqual(["TodoWrite"]);
    expect(uses[0].input).toEqual(todos("pending"));
  });

  it("refuses a step without text, saying which", async () => {
    rig = await cliRig({ replies: [write({ todos: [{ content: " ", status: "pending", activeForm: "x" }] }), { content: "done" }] });
    await rig.run(["-p", "plan it"]);
    const tool = chatBodies(rig.sim.requests).at(-1)!.messages.find((m) => m.role === "tool");
    expect(String(tool?.content)).toMatch(/todos\[0\]\.content is empty/);
  });
});


describe("TodoWrite in the REPL", () => {
  // The terminal tests' hooks (tmux, skip without it) for this block only.
  const repl = useRepl();

  it("shows the checklist under the call when it changes, one quiet line when it does not, and /todos shows it again", async () => {
    const t = await repl.open({ replies: [write(todos("in_progress")), write(todos("in_progress")), write(todos("completed")), { content: "all done" }] });
    enter(t, "plan it");
    const s = await t.waitFor("all done");
    expect(s).toMatch(/● Todos 1\/3 done · Adding the flag\n\s+✔ Read the config\n\s+▶ Adding the flag\n\s+☐ Run the tests/);
    expect(s).toContain("● Todos unchanged (1/3 done)");
    expect(s).toMatch(/● Todos 2\/3 done\n\s+✔ Read the config\n\s+✔ Add the flag\n\s+☐ Run the tests/);
    // The unchanged list was not printed a second time: two checklists, three calls.
    expect(s.match(/✔ Read the config/g)?.length).toBe(2);
    enter(t, "/todos");
    await t.waitFor((screen) => (screen.match(/✔ Read the config/g)?.length ?? 0) === 3);
  });
});
