import { describe, expect, it } from "vitest";
import { contentOf, fieldsOf } from "../../mods/mcp/forms.js";

const schema = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name", default: "Ada" },
    age: { type: "integer", default: 30 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive"], default: "active" },
    level: { type: "string", oneOf: [{ const: "lo", title: "Low" }, { const: "hi", title: "High" }] },
    verified: { type: "boolean", default: true },
    tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, default: ["a"] },
    email: { type: "string", format: "email" },
  },
  required: ["email"],
};

describe("an elicitation form", () => {
  it("becomes fields with their types, choices, defaults and whether they are required", () => {
    const f = fieldsOf(schema);
    expect(f.map((x) => [x.name, x.type, x.default ?? null, x.required])).toEqual([
      ["name", "string", "Ada", false],
      ["age", "integer", 30, false],
      ["score", "number", 95.5, false],
      ["status", "enum", "active", false],
      ["level", "enum", null, false],
      ["verified", "boolean", true, false],
      ["tags", "enum", ["a"], false],
      ["email", "string", null, true],
    ]);
    expect(f.find((x) => x.name === "level")!.optionLabels).toEqual(["Low", "High"]);
  });

  it("answers with the defaults for what the person left empty, typed as the schema says (SEP-1034)", () => {
    const { content, problems } = contentOf(fieldsOf(schema), { email: "a@b.c", age: "41" });
    expect(problems).toEqual([]);
    expect(content).toEqual({ name: "Ada", age: 41, score: 95.5, status: "active", verified: true, tags: ["a"], email: "a@b.c" });
    expect(contentOf(fieldsOf(schema), { email: "x", tags: "b, c" }).content.tags).toEqual(["b", "c"]);
  });

  it("names what is missing or of the wrong type", () => {
    expect(contentOf(fieldsOf(schema), { age: "old", status: "gone" }).problems).toEqual(['age: "old" is not a integer', 'status: "gone" is not one of active, inactive', "email is required"]);
  });
});
