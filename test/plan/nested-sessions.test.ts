// While a planning turn runs, every session it starts plans with it: a call of another
// session (a subagent's, with a session id of its own) that would change something is denied
// too. The stand-in for a subagent is a read-only tool whose work asks the gate about a Write
// in a session of its own, as a subagent's engine does on the same chain.
import { afterEach, describe, expect, it } from "vitest";
import type { JsonValue, Plugin } from "../../src/contract/index.js";
import plan from "../../mods/plan/index.js";
import { startHarness, type Harness } from "../helpers/harness.js";
import { chatBodies } from "../helpers/extension.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const delegate: Plugin = {
  id: "delegate",
  register(api) {
    api.tool({
      name: "Delegate",
      description: "ask a helper session to write a file",
      inputSchema: { type: "object", properties: {} },
      readOnly: true,
      run: async () => {
        const d = await api.dispatch({ type: "tool.check", sessionId: "helper-session", tool: "Write", input: { file_path: "x", content: "y" }, callId: "c1", readOnly: false, step: 1 });
        return { content: `${d.decision} by ${d.by}: ${d.reason ?? ""}` };
      },
    });
  },
};

/** Read-only calls are allowed (the permission gate's default, without the gate). */
const allowReads: Plugin = {
  id: "allow-reads",
  register(api) {
    api.on("tool.check", (e, next) => (e.readOnly === true ? { decision: "allow", by: "test" } : next(e)));
  },
};

describe("plan mode and the sessions a planning turn starts", () => {
  it("denies another session's change while a planning turn runs, and not after it", async () => {
    const script = { replies: [{ tool_calls: [{ name: "Delegate", arguments: {} }] }, { content: "## Steps\n1. x" }, { tool_calls: [{ name: "Delegate", arguments: {} }] }, { content: "done" }] };
    h = await startHarness({ script, mods: [plan, allowReads, delegate], facts: { flags: { planMode: true, mcpConfig: [], strictMcpConfig: false }, tiers: { "reasoner-budget": { model: "deepseek-v4-pro", thinking: "enabled" } } } });
    await h.turn("plan it");
    const during = chatBodies(h.sim.requests)[1].messages.at(-1)!;
    expect(String(during.content)).toMatch(/^deny by plan mode: plan mode: you are planning, so Write does not run now/);
    await h.commands.get("plan")!.spec.run({ args: "off", sessionId: h.engine.sessionId, signal: new AbortController().signal, interactive: false, print: () => undefined, submit: async () => undefined });
    await h.turn("now do it");
    const after = chatBodies(h.sim.requests)[3].messages.at(-1)!;
    // Outside plan mode the question goes on down the chain (here nothing allows it: the core's deny).
    expect(String(after.content)).toMatch(/^deny by core/);
  });
});

describe("plan mode and a rewind", () => {
  it("forgets the plan that waited once the conversation is rewound past it: go has nothing to approve", async () => {
    const script = { replies: [{ content: "hello" }, { content: "## Steps\n1. x" }] };
    h = await startHarness({ script, mods: [plan], facts: { tiers: { "reasoner-budget": { model: "deepseek-v4-pro", thinking: "enabled" } } } });
    await h.turn("hi");
    const printed: string[] = [];
    const run = (args: string) => h!.commands.get("plan")!.spec.run({ args, sessionId: h!.engine.sessionId, signal: new AbortController().signal, interactive: false, print: (t) => printed.push(t), submit: async (p) => void (await h!.turn(p)) });
    await run("-- add a file");
    expect(printed.at(-1)).toContain("the plan waits");
    const r = await h.chain.dispatch({ type: "context.rewind", sessionId: h.engine.sessionId, turn: 1 });
    expect(r.ok).toBe(true);
    await run("go");
    expect(printed.at(-1)).toContain("no plan is waiting for an answer");
  });
});
