import { describe, expect, it } from "vitest";
import { flattenSchema, renest } from "../../src/core/repair/index.js";
import type { JsonObject, JsonSchema } from "../../src/contract/index.js";
import { DEEP_SCHEMA, harness } from "./helpers.js";

describe("deep parameter schemas are offered flat, with dot paths", () => {
  it("flattens every nested object property of a four-level schema into a dot path", () => {
    const flat = flattenSchema(DEEP_SCHEMA)!;
    expect(Object.keys(flat.properties!)).toEqual([
      "path",
      "options.format.indent",
      "options.format.style.font",
      "options.format.style.size",
      "options.verbose",
      "options.tags",
      "extra.note",
    ]);
    expect(flat.type).toBe("object");
    expect(flat.description).toBe("Render a document");
    expect(flat.additionalProperties).toBe(false);
  });

  it("requires a path only where it and every ancestor were required", () => {
    expect(flattenSchema(DEEP_SCHEMA)!.required).toEqual(["path", "options.format.indent", "options.format.style.font"]);
  });

  it("keeps descriptions, adding what the nearest described ancestor meant", () => {
    const props = flattenSchema(DEEP_SCHEMA)!.properties!;
    expect(props["path"].description).toBe("The document");
    expect(props["options.format.indent"].description).toBe("Spaces per level (in options: How to render)");
    expect(props["options.format.style.font"].description).toBe("(in options.format.style: Typography)");
  });

  it("leaves an array of objects as one property with its items", () => {
    const tags = flattenSchema(DEEP_SCHEMA)!.properties!["options.tags"];
    expect(tags.type).toBe("array");
    expect(tags.items).toEqual({ type: "object", properties: { name: { type: "string" } } });
  });

  it("leaves schemas no deeper than two levels, and schemas with dotted names, as they are", () => {
    const shallow: JsonSchema = { type: "object", properties: { options: { type: "object", properties: { verbose: { type: "boolean" } } } } };
    expect(flattenSchema(shallow)).toBeNull();
    const dotted: JsonSchema = { type: "object", properties: { "a.b": { type: "object", properties: { c: { type: "object", properties: { d: { type: "string" } } } } } } };
    expect(flattenSchema(dotted)).toBeNull();
  });

  it("builds the same bytes every time", () => {
    const again = JSON.parse(JSON.stringify(DEEP_SCHEMA)) as JsonSchema;
    expect(JSON.stringify(flattenSchema(again))).toBe(JSON.stringify(flattenSchema(DEEP_SCHEMA)));
  });
});

describe("flat inputs are re-nested before the tool sees them", () => {
  const nested: JsonObject = {
    path: "doc.md",
    options: { format: { indent: 2, style: { font: "Inter", size: 11 } }, verbose: true, tags: [{ name: "x" }] },
    extra: { note: "hi" },
  };

  it("re-nests what the flat schema asked for into the original shape (round trip)", () => {
    const flatInput: JsonObject = {};
    for (const key of Object.keys(flattenSchema(DEEP_SCHEMA)!.properties!)) {
      let v: unknown = nested;
      for (const seg of key.split(".")) v = (v as JsonObject)[seg];
      flatInput[key] = v as JsonObject[string];
    }
    expect(flatInput["options.format.style.font"]).toBe("Inter");
    expect(renest(flatInput, DEEP_SCHEMA)).toEqual(nested);
  });

  it("passes an input that is already nested through unchanged", () => {
    expect(renest(nested, DEEP_SCHEMA)).toBe(nested);
  });

  it("merges flat keys into a partly nested input and leaves unknown dotted keys for validation", () => {
    const mixed: JsonObject = { path: "d.md", options: { verbose: false }, "options.format.indent": 4, "no.such": 1 };
    expect(renest(mixed, DEEP_SCHEMA)).toEqual({ path: "d.md", options: { verbose: false, format: { indent: 4 } }, "no.such": 1 });
  });
});

describe("flattening through the chain", () => {
  it("sends the flat schema for the deep tool only, byte-identical across two builds", async () => {
    const h = harness();
    const first = await h.list();
    const second = await h.list();
    expect(JSON.stringify(first)).toBe(JSON.stringify(second));
    const render = first.find((d) => d.function.name === "Render")!;
    expect(Object.keys(render.function)).toEqual(["name", "description", "parameters"]);
    expect(render.function.parameters.properties!["options.format.indent"]).toBeDefined();
    const read = first.find((d) => d.function.name === "Read")!;
    expect(read.function.parameters.properties!["file_path"]).toBeDefined();
    expect(h.repairs).toEqual([]);
  });

  it("re-nests the model's flat arguments in tool.input, without announcing a repair", async () => {
    const h = harness();
    await h.list();
    const r = await h.input("Render", '{"path": "a.md", "options.format.indent": 2, "options.format.style.font": "Mono"}');
    expect(r).toEqual({ input: { path: "a.md", options: { format: { indent: 2, style: { font: "Mono" } } } } });
    expect(h.repairs).toEqual([]);
  });

  it("re-nests flat arguments that also needed a JSON repair, announcing the repair once", async () => {
    const h = harness();
    const r = await h.input("Render", '{"path": "a.md", "options.format.indent": 2');
    expect(r).toEqual({ input: { path: "a.md", options: { format: { indent: 2 } } } });
    expect(h.repairs.map((x) => x.kind)).toEqual(["json-repaired"]);
  });
});
