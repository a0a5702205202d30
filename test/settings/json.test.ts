import { describe, expect, it } from "vitest";
import { JsonSyntaxError, parseJson } from "../../src/cli/settings/index.js";

function failure(text: string): { message: string; at: string } {
  try {
    parseJson(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) return { message: err.message, at: `${err.line}:${err.column}` };
    throw err;
  }
  throw new Error("parsed without an error");
}

describe("the settings JSON parser says where a syntax error is", () => {
  const cases: Array<[string, string, string, RegExp]> = [
    ["a trailing comma in an object", '{\n  "a": 1,\n}', "3:1", /trailing comma before '}'/],
    ["a trailing comma in an array", '{"a": [1, 2,]}', "1:13", /trailing comma before '\]'/],
    ["a // comment", '{\n  // note\n  "a": 1\n}', "2:3", /comments are not allowed.*JSON with comments is not accepted/],
    ["a /* */ comment", '{ "a": 1 /* x */ }', "1:10", /comments are not allowed/],
    ["single quotes", "{ 'a': 1 }", "1:3", /keys must use double quotes/],
    ["a missing comma", '{\n  "a": 1\n  "b": 2\n}', "3:3", /expected ',' or '}'/],
    ["a missing colon", '{ "a" 1 }', "1:7", /expected ':' after the key/],
    ["an unclosed object", '{ "a": [1, 2]', "1:14", /an object is not closed/],
    ["an unclosed string", '{ "a": "b\n}', "1:10", /line break inside a string/],
    ["a bad escape", '{ "a": "\\q" }', "1:9", /invalid escape '\\q'/],
    ["a leading zero", '{ "a": 01 }', "1:8", /invalid number/],
    ["NaN", '{ "a": NaN }', "1:8", /unexpected character 'N'/],
    ["content after the value", '{ "a": 1 } {', "1:12", /unexpected content after the JSON value/],
    ["an empty value", '{ "a": }', "1:8", /expected a value/],
    ["a bare word", "{ a: 1 }", "1:3", /expected a key in double quotes/],
  ];
  for (const [name, text, at, message] of cases) {
    it(`reports ${name} at ${at}`, () => {
      const f = failure(text);
      expect(f.at).toBe(at);
      expect(f.message).toMatch(message);
    });
  }
});

describe("the settings JSON parser reads valid JSON like JSON.parse", () => {
  it("returns the same value", () => {
    const text = '\ufeff{"a": [1, -2.5e3, true, false, null], "b": {"c": "\\u00e9\\n\\"x\\""}, "": 0}';
    expect(parseJson(text).value).toEqual(JSON.parse(text.slice(1)));
  });

  it("keeps a key named __proto__ as an ordinary key", () => {
    const v = parseJson('{"__proto__": {"polluted": true}}').value as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("records where each key and array item starts", () => {
    const { positions } = parseJson('{\n  "permissions": {\n    "allow": [\n      "Bash(ls:*)",\n      "Read"\n    ]\n  }\n}');
    expect(positions.get("permissions")).toEqual({ line: 2, column: 3 });
    expect(positions.get("permissions.allow")).toEqual({ line: 3, column: 5 });
    expect(positions.get("permissions.allow[1]")).toEqual({ line: 5, column: 7 });
  });

  it("notes a key given twice", () => {
    expect(parseJson('{"a": 1, "a": 2}').duplicates).toEqual(["a"]);
  });
});
