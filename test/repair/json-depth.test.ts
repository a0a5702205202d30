// The depth bound on model JSON, walk by walk: each refuses or cuts what nests deeper than
// MAX_JSON_DEPTH without recursing into it (the end-to-end family is test/e2e/json-depth.test.ts).
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, boundDepth, textDepth, valueDepth } from "../../src/lib/json.js";
import { repairJson } from "../../src/core/repair/json-repair.js";
import { validate } from "../../src/core/schema.js";
import { parseArguments } from "../../src/core/engine/tools.js";
import { StreamJsonWriter } from "../../src/cli/print-stream.js";
import type { JsonValue } from "../../src/contract/index.js";

const LEVELS = 20_000;
const deepText = "[".repeat(LEVELS) + "]".repeat(LEVELS);
function deepValue(levels: number): JsonValue {
  let v: JsonValue = 1;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

describe("the depth bound on JSON from the model", () => {
  it("counts nesting in text without parsing, ignoring brackets inside strings", () => {
    expect(textDepth('{"a":"[[[[{{{{\\"]]]","b":[1,[2]]}')).toBe(3);
    expect(textDepth(deepText)).toBe(LEVELS);
    expect(textDepth(deepText, 10)).toBe(11);
  });

  it("counts nesting in a value without recursion", () => {
    expect(valueDepth({ a: [1, { b: 2 }] })).toBe(3);
    expect(valueDepth(deepValue(LEVELS))).toBe(LEVELS);
  });

  it("answers arguments nested too deep with an error the model can act on", () => {
    const r = parseArguments("TodoWrite", `{"todos":${deepText}}`);
    expect(r).toEqual({ error: expect.stringMatching(/^The arguments for TodoWrite nest 20001 levels deep; deepcode reads at most 64 levels of nesting\. Call TodoWrite again with flatter arguments/) as unknown });
    expect(parseArguments("TodoWrite", `{"todos":${"[".repeat(60)}${"]".repeat(60)}}`)).toHaveProperty("input");
  });

  it("does not try to mend JSON nested too deep", () => {
    expect(repairJson(`{todos: ${deepText},}`)).toEqual({ ok: false, reason: `the JSON nests more than ${MAX_JSON_DEPTH} levels deep` });
  });

  it("refuses a value nested too deep in schema validation instead of recursing", () => {
    const v = validate({ type: "object", properties: { todos: { type: "array", items: { type: "array" } } } }, { todos: deepValue(LEVELS) });
    expect(v.ok).toBe(false);
    expect(v.errors).toEqual([`arguments nest more than ${MAX_JSON_DEPTH} levels deep`]);
  });

  it("cuts what lies deeper than the bound where a writer must still show a value", () => {
    const cut = boundDepth(deepValue(LEVELS));
    expect(valueDepth(cut)).toBe(MAX_JSON_DEPTH);
    expect(JSON.stringify(cut)).toContain("[nested deeper than 64 levels: not shown]");
    const shallow = { a: [1, 2] };
    expect(boundDepth(shallow)).toBe(shallow);
  });

  it("writes a stream-json tool_use line for an input nested too deep, cut at the bound", () => {
    const lines: string[] = [];
    const w = new StreamJsonWriter((l) => lines.push(l), { partial: false, model: () => "deepseek-flash" });
    w.handle({ type: "tool.start", step: 1, callId: "call_1", tool: "TodoWrite", input: { todos: deepValue(LEVELS) } } as never);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("nested deeper than 64 levels");
  });
});
