import { describe, expect, it } from "vitest";
import { repairJson } from "../../src/core/repair/index.js";
import { harness } from "./helpers.js";

describe("argument JSON that JSON.parse refuses is repaired when its meaning is clear", () => {
  it.each([
    ["cut inside a string", '{"file_path": "src/a.ts", "content": "hello wor', { file_path: "src/a.ts", content: "hello wor" }],
    ["cut inside a nested array", '{"paths": ["a.ts", ["b.ts", "c.ts"', { paths: ["a.ts", ["b.ts", "c.ts"]] }],
    ["cut after a colon", '{"file_path": "a.ts", "limit":', { file_path: "a.ts", limit: null }],
    ["cut after a key", '{"file_path": "a.ts", "limit"', { file_path: "a.ts", limit: null }],
    ["cut after a comma", '{"file_path": "a.ts",', { file_path: "a.ts" }],
    ["cut inside a literal", '{"replace_all": tru', { replace_all: true }],
    ["cut inside a number", '{"limit": 2.', { limit: 2 }],
    ["followed by an extra }", '{"command": "ls"}}', { command: "ls" }],
    ["followed by prose", '{"command": "ls"} Let me run this.', { command: "ls" }],
    ["fenced", '```json\n{"command": "ls"}\n```', { command: "ls" }],
    ["fenced and cut", '```json\n{"command": "ls', { command: "ls" }],
    ["with trailing commas", '{"a": [1, 2,], "b": 3,}', { a: [1, 2], b: 3 }],
    ["with a bracket closed by the wrong one", '{"a": [1, 2}', { a: [1, 2] }],
    ["with a raw newline inside a string", '{"content": "line one\nline two"}', { content: "line one\nline two" }],
    ["with a dangling escape", '{"pattern": "a\\', { pattern: "a" }],
    ["encoded as a JSON string", '"{\\"command\\": \\"ls\\"}"', { command: "ls" }],
    ["empty", "", {}],
  ])("%s", (_case, raw, want) => {
    const r = repairJson(raw);
    expect(r).toMatchObject({ ok: true, value: want });
  });

  it.each([
    ["not JSON at all", "please read the file"],
    ["an array", "[1, 2]"],
    ["an unescaped quote inside a string", '{"command": "echo "hi""}'],
    ["a bare word as a value", '{"command": ls}'],
  ])("refuses %s", (_case, raw) => {
    expect(repairJson(raw).ok).toBe(false);
  });

  it("names every fix it made", () => {
    const r = repairJson('{"a": [1, {"b": "x');
    expect(r.ok && r.fixes).toEqual(["closed an unterminated string", "closed 3 open brackets"]);
  });
});

describe("the tool.input repair, through the chain", () => {
  it("turns truncated arguments into input and announces the repair once", async () => {
    const h = harness();
    const r = await h.input("Bash", '{"command": "npm test", "timeout": 60');
    expect(r).toEqual({ input: { command: "npm test", timeout: 60 } });
    expect(h.repairs).toEqual([{ step: 1, kind: "json-repaired", detail: "Bash: closed 1 open bracket" }]);
  });

  it("announces the step of the model round the call came from", async () => {
    const h = harness();
    await h.input("Bash", '{"command": "ls"}}', { step: 7 });
    expect(h.repairs).toEqual([{ step: 7, kind: "json-repaired", detail: 'Bash: dropped trailing text after the object ("}")' }]);
  });

  it("does not complete arguments cut off by the output limit, and asks for the call again", async () => {
    const h = harness();
    const r = await h.input("Write", '{"file_path": "a.ts", "content": "export const a = 1;\nexport const b', { cutOff: true });
    expect(r).toEqual({ error: expect.stringMatching(/^This Write call was cut off by the output limit \(\d+ characters of arguments arrived\), so it did not run/) });
    expect(h.repairs).toEqual([]);
  });

  it("still repairs trailing garbage in a reply that hit the output limit", async () => {
    const h = harness();
    expect(await h.input("Bash", '{"command": "ls"},', { cutOff: true })).toEqual({ input: { command: "ls" } });
  });

  it("passes valid arguments through untouched and silent", async () => {
    const h = harness();
    expect(await h.input("Read", '{"file_path": "a.ts"}')).toEqual({ input: { file_path: "a.ts" } });
    expect(h.repairs).toEqual([]);
  });

  it("answers arguments it cannot repair with an error that quotes them and asks for a retry", async () => {
    const h = harness();
    const sent = `{"command": "echo "${"x".repeat(300)}`;
    const r = await h.input("Bash", sent);
    expect("error" in r).toBe(true);
    const error = (r as { error: string }).error;
    expect(error).toContain("The arguments of this Bash call are not valid JSON");
    expect(error).toContain(sent.slice(0, 200));
    expect(error).not.toContain(sent.slice(0, 201));
    expect(error).toContain("Retry the Bash call with its complete arguments as one valid JSON object.");
    expect(h.repairs).toEqual([]);
  });

  it("answers JSON that is not an object with an error saying so", async () => {
    const h = harness();
    const r = await h.input("Bash", '["ls"]');
    expect((r as { error: string }).error).toContain("must be a JSON object, not an array");
    expect(h.repairs).toEqual([]);
  });
});
