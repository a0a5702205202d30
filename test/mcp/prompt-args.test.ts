import { describe, expect, it } from "vitest";
import { parseArgs, promptText } from "../../mods/mcp/prompts.js";

describe("a prompt command's arguments", () => {
  it("go by position in the order the server lists them, or by name", () => {
    expect(parseArgs("Paris Texas", ["city", "state"])).toEqual({ values: { city: "Paris", state: "Texas" } });
    expect(parseArgs("state=Texas Paris", ["city", "state"])).toEqual({ values: { city: "Paris", state: "Texas" } });
  });

  it("keep quoted spaces, and give the last argument the rest of the line", () => {
    expect(parseArgs('"New York" NY', ["city", "state"])).toEqual({ values: { city: "New York", state: "NY" } });
    expect(parseArgs("review this whole sentence", ["topic"])).toEqual({ values: { topic: "review this whole sentence" } });
  });

  it("refuse words for a prompt that takes none", () => {
    expect(parseArgs("extra", [])).toEqual({ error: "it takes no arguments" });
  });
});

describe("a prompt's messages as one prompt for the model", () => {
  it("keep text and embedded resources, and name what is not text", () => {
    const text = promptText("ev", {
      messages: [
        { role: "user", content: { type: "text", text: "Look at this:" } },
        { role: "user", content: { type: "resource", resource: { uri: "demo://a", text: "A" } } },
        { role: "user", content: { type: "image", mimeType: "image/png", data: "AAAA" } },
      ],
    });
    expect(text).toBe('Look at this:\n\n<resource uri="demo://a">\nA\n</resource>\n\n[deepcode left out what the model cannot read: an image (image/png, 3 bytes)]');
  });
});
