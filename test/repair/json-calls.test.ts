import { describe, expect, it } from "vitest";
import { scavengeJsonCalls } from "../../src/core/repair/index.js";
import { callsOf, harness, reply } from "./helpers.js";

const isTool = (n: string): boolean => ["Read", "Glob", "Bash"].includes(n);

describe("tool calls written as JSON in content become real tool calls", () => {
  it.each([
    ["name + arguments", '{"name": "Read", "arguments": {"file_path": "a.ts"}}'],
    ["tool + parameters", '{"tool": "Read", "parameters": {"file_path": "a.ts"}}'],
    ["function with string arguments", '{"type": "function", "function": {"name": "Read", "arguments": "{\\"file_path\\": \\"a.ts\\"}"}}'],
    ["a list of calls", '[{"name": "Read", "arguments": {"file_path": "a.ts"}}]'],
    ["tool_calls", '{"tool_calls": [{"function": {"name": "Read", "arguments": {"file_path": "a.ts"}}}]}'],
  ])("recognises the %s shape", (_shape, json) => {
    expect(scavengeJsonCalls(json, isTool).calls).toEqual([{ name: "Read", input: { file_path: "a.ts" } }]);
  });

  it("leaves a call written inside a code fence as text: the person was shown it, not asked to run it", async () => {
    const h = harness();
    const content = 'Let me check the tests.\n```json\n{"name": "Bash", "arguments": {"command": "npm test"}}\n```\nBack soon.';
    const out = await h.respond(reply(content));
    expect(callsOf(out)).toEqual([]);
    expect(out.message.content).toBe(content);
    expect(h.repairs).toEqual([]);
  });

  it("removes a <tool_call> wrapper together with the call", async () => {
    const h = harness();
    const out = await h.respond(reply('<tool_call>\n{"name": "Glob", "arguments": {"pattern": "*.ts"}}\n</tool_call>'));
    expect(callsOf(out)).toEqual([{ name: "Glob", input: { pattern: "*.ts" } }]);
    expect(out.message.content).toBeNull();
  });

  it("ignores JSON that names no registered tool or carries no arguments object", () => {
    expect(scavengeJsonCalls('{"name": "Alice", "arguments": {"age": 3}}', isTool).calls).toEqual([]);
    expect(scavengeJsonCalls('{"name": "Read"}', isTool).calls).toEqual([]);
    expect(scavengeJsonCalls('{"name": "Read", "arguments": "not json"}', isTool).calls).toEqual([]);
    expect(scavengeJsonCalls('{"config": {"name": "Read", "arguments": {}}}', isTool).calls).toEqual([]);
  });

  it("finds a call after braces that are not JSON", () => {
    const text = 'function f() { return 1; }\n{"name": "Read", "arguments": {"file_path": "f.js"}}';
    const r = scavengeJsonCalls(text, isTool);
    expect(r.calls).toEqual([{ name: "Read", input: { file_path: "f.js" } }]);
    expect(r.rest.trim()).toBe("function f() { return 1; }");
  });
});

describe("tool calls thought in reasoning_content", () => {
  const reasoning = 'The user wants the config. I should read it.\n{"name": "Read", "arguments": {"file_path": "config.json"}}';

  it("are scavenged when the reply has no content, and the reasoning is kept as it was", async () => {
    const h = harness();
    const out = await h.respond(reply("", reasoning));
    expect(callsOf(out)).toEqual([{ name: "Read", input: { file_path: "config.json" } }]);
    expect(out.message.content).toBeNull();
    expect(out.message.reasoning_content).toBe(reasoning);
    expect(h.repairs).toEqual([{ step: 1, kind: "scavenged-json-reasoning", detail: "Read(file_path=config.json)" }]);
  });

  it("are scavenged when the content is only whitespace or null", async () => {
    const h = harness();
    expect(callsOf(await h.respond(reply("\n  \n", reasoning)))).toHaveLength(1);
    expect(callsOf(await h.respond(reply(null, reasoning)))).toHaveLength(1);
  });

  it("are left alone when the reply has content: reasoning often holds examples", async () => {
    const h = harness();
    const r = reply("The config sets the port to 8080.", reasoning);
    expect(await h.respond(r)).toEqual(r);
    expect(h.repairs).toEqual([]);
  });

  it("include DSML written in reasoning when the content is empty", async () => {
    const h = harness();
    const thought = `I need the file.\n<|DSML|function_calls>\n<|DSML|invoke name="Read">\n<|DSML|parameter name="file_path" string="true">x.md</|DSML|parameter>\n</|DSML|invoke>\n</|DSML|function_calls>`;
    const out = await h.respond(reply(null, thought));
    expect(callsOf(out)).toEqual([{ name: "Read", input: { file_path: "x.md" } }]);
    expect(h.repairs).toEqual([{ step: 1, kind: "scavenged-dsml", detail: "Read(file_path=x.md) from reasoning" }]);
  });
});
