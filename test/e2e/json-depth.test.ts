// JSON from the model nested thousands of levels deep (issue #37: a TodoWrite input 3,000
// levels deep crashed `--output-format stream-json` with "Maximum call stack size exceeded",
// exit 1, no result line). Every walk of model input — parsing and repair, schema validation,
// the stream-json and json writers, the transcript and `-c` — must survive it, and the call
// is answered with a tool error the model can read. Driven through the real CLI and the
// simulator, as families: every tool the model is offered, every place model JSON arrives.
import { afterEach, describe, expect, it } from "vitest";
import { cliRig, type CliRig, type Run } from "./helpers.js";
import type { ChatRequestJson, ScriptEntry } from "../sim/server.mjs";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const LEVELS = 3000;
const deepArray = "[".repeat(LEVELS) + "]".repeat(LEVELS);
const deepObject = '{"a":'.repeat(LEVELS) + "1" + "}".repeat(LEVELS);
/** Tools served by mods that may be offered through UseTool rather than by name. */
const MOD_TOOLS = ["TodoWrite", "NotebookEdit", "WebFetch", "BashOutput", "KillShell", "Task"];
const FILES = { "a.txt": "alpha\n", "n.ipynb": JSON.stringify({ cells: [{ cell_type: "code", id: "c1", source: "x", metadata: {}, outputs: [], execution_count: null }], metadata: {}, nbformat: 4, nbformat_minor: 5 }) };
const ALLOW = ["--allowedTools", "Write,Edit,Bash,NotebookEdit,WebFetch,KillShell,Task"];

type Line = Record<string, unknown>;
const toolResults = (lines: Line[]): Array<{ content: string; is_error: boolean }> =>
  lines.filter((l) => l.type === "user").flatMap((l) => ((l.message as { content: Array<{ type: string; content: string; is_error: boolean }> }).content ?? []).filter((b) => b.type === "tool_result"));

/** Offered tools (by name) and the mods' tools, each called once with deep arguments. */
function deepCallsFor(req: ChatRequestJson): ScriptEntry {
  const offered = ((req.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name);
  const names = [...new Set([...offered, ...MOD_TOOLS])];
  return { tool_calls: names.map((name, i) => ({ name, raw_arguments: i % 2 === 0 ? `{"todos":${deepArray},"x":1}` : `{"metadata":${deepObject}}` })) };
}

function expectReadableRefusals(results: Array<{ content: string; is_error: boolean }>, atLeast: number): void {
  expect(results.length).toBeGreaterThanOrEqual(atLeast);
  for (const r of results) {
    expect(r.is_error, r.content.slice(0, 200)).toBe(true);
    expect(r.content).toMatch(/nest 3\d{3} levels deep; deepcode reads at most 64 levels of nesting\. Call \w+ again with flatter arguments/);
  }
}

const firstStepOnly = (entry: (req: ChatRequestJson) => ScriptEntry) => ({
  respond: (req: ChatRequestJson, index: number): ScriptEntry => (index === 0 ? entry(req) : { content: "done" }),
});

function lastJson(r: Run): Line {
  return JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "{}") as Line;
}

describe("JSON from the model nested 3,000 levels deep", () => {
  it("is refused with a readable tool error for every tool, in every output format, and the session continues", async () => {
    rig = await cliRig(firstStepOnly(deepCallsFor), FILES);
    const stream = await rig.run(["-p", "go", "--output-format", "stream-json", "--verbose", ...ALLOW]);
    expect(stream.code, stream.stderr).toBe(0);
    expect(stream.stderr).not.toMatch(/call stack/i);
    const lines = rig.lines(stream);
    expect(lines.at(-1)).toMatchObject({ type: "result", subtype: "success", result: "done" });
    const uses = lines.filter((l) => l.type === "assistant").flatMap((l) => ((l.message as { content: Array<{ type: string; name?: string }> }).content ?? []).filter((b) => b.type === "tool_use"));
    const results = toolResults(lines);
    expectReadableRefusals(results, MOD_TOOLS.length + 4);
    expect(results).toHaveLength(uses.length);

    // The transcript holds the calls and their refusals: -c sends them back, and the model
    // reads why each call failed.
    rig.sim.setScript({ default: { content: "continued" } });
    const again = await rig.run(["-p", "and now?", "-c", "--output-format", "json", ...ALLOW]);
    expect(again.code, again.stderr).toBe(0);
    expect(lastJson(again)).toMatchObject({ subtype: "success", result: "continued" });
    const sent = rig.sim.requests.at(-1)!.json as { messages: Array<{ role: string; content: string }> };
    const tools = sent.messages.filter((m) => m.role === "tool");
    expect(tools.length).toBe(results.length);
    for (const t of tools) expect(t.content).toMatch(/levels deep; deepcode reads at most 64/);
  });

  it("ends with a result in the json and text formats too", async () => {
    rig = await cliRig(firstStepOnly(deepCallsFor), FILES);
    const json = await rig.run(["-p", "go", "--output-format", "json", ...ALLOW]);
    expect(json.code, json.stderr).toBe(0);
    expect(lastJson(json)).toMatchObject({ type: "result", subtype: "success", result: "done" });
    rig.sim.setScript(firstStepOnly(deepCallsFor));
    const text = await rig.run(["-p", "go", ...ALLOW]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain("done");
  });

  it("is left as text, never run or walked, wherever the repairs read calls out of the reply", async () => {
    // Each form the repairs read calls from, carrying a value nested 3,000 levels deep.
    const forms: Array<[string, ScriptEntry]> = [
      ["a DSML parameter written as JSON", { content: `<｜DSML｜tool_calls><｜DSML｜invoke name="TodoWrite"><｜DSML｜parameter name="todos" string="false">${deepArray}</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>` }],
      ["a JSON call object in the answer", { content: `{"name":"TodoWrite","arguments":{"todos":${deepArray}}}` }],
      ["a JSON call object in the reasoning", { reasoning: `{"name":"TodoWrite","arguments":{"todos":${deepArray}}}`, content: "" }],
      ["a <tool_call> tag with JSON arguments", { content: `<tool_call>TodoWrite\n{"todos":${deepArray}}\n</tool_call>` }],
      ["a <function=…> tag", { content: `<function=TodoWrite>{"todos":${deepArray}}</function>` }],
      ["arguments that need repair", { tool_calls: [{ name: "TodoWrite", raw_arguments: `{todos: ${deepArray},}` }] }],
    ];
    for (const [what, entry] of forms) {
      rig = await cliRig(firstStepOnly(() => entry), FILES);
      const r = await rig.run(["-p", "go", "--output-format", "stream-json", "--verbose", ...ALLOW]);
      expect(r.code === 0 || r.code === 1, `${what}: exit ${r.code}; ${r.stderr.slice(-300)}`).toBe(true);
      expect(r.stderr, what).not.toMatch(/call stack/i);
      const lines = rig.lines(r);
      expect(lines.at(-1)?.type, what).toBe("result");
      for (const t of toolResults(lines)) expect(t.is_error, `${what}: ${t.content.slice(0, 120)}`).toBe(true);
      await rig.close();
      rig = undefined;
    }
  });
});
