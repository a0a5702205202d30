// Small tools for engine tests: one read-only, one mutating, one that throws.
import type { ToolSpec } from "../../src/contract/index.js";

export function testTools(notes: string[] = []): ToolSpec[] {
  return [
    {
      name: "Echo",
      description: "Return the text.",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      readOnly: true,
      run: async (input) => ({ content: `echo: ${String(input.text)}`, summary: "Echo" }),
    },
    {
      name: "Note",
      description: "Remember a note.",
      inputSchema: { type: "object", properties: { note: { type: "string" } }, required: ["note"] },
      readOnly: false,
      run: async (input) => {
        notes.push(String(input.note));
        return { content: `noted (${notes.length})` };
      },
    },
    {
      name: "Fail",
      description: "Always fails.",
      inputSchema: { type: "object", properties: {} },
      readOnly: true,
      run: async () => {
        throw new Error("this tool always fails");
      },
    },
  ];
}

export { prng } from "./prng.mjs";
