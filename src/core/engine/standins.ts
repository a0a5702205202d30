// Claude Code's tool names a model calls that deepcode answers with its own tools (the call's
// name and input are mapped before anything sees them, so the gate, hooks and the log see the
// tool that runs): LS lists a folder (Glob `*` in it), NotebookRead reads a notebook (Read shows
// its cells), MultiEdit makes several edits to one file (Edit, once per edit, in order).
// Only a name no registered tool has is mapped: a plugin's own `LS` tool is that tool.

import type { JsonObject, JsonValue } from "../../contract/index.js";
import { TOOL_STANDINS } from "../../contract/index.js";
import { isObject } from "../../lib/json.js";

export type Standin = { tool: string; input: JsonObject } | { edits: JsonObject[]; file: string };

/** What a call of `tool` (which nothing registered answers) stands for; undefined: nothing. */
export function standinCall(tool: string, input: JsonObject): Standin | undefined {
  switch (tool) {
    case "LS": {
      const path = typeof input.path === "string" && input.path ? input.path : undefined;
      return { tool: TOOL_STANDINS.LS, input: { pattern: "*", ...(path ? { path } : {}) } };
    }
    case "NotebookRead": {
      const file = typeof input.notebook_path === "string" ? input.notebook_path : input.file_path;
      return { tool: TOOL_STANDINS.NotebookRead, input: { file_path: file ?? "" } };
    }
    case "MultiEdit": {
      const file = typeof input.file_path === "string" ? input.file_path : "";
      const edits = Array.isArray(input.edits) ? input.edits : [];
      return { file, edits: edits.map((e: JsonValue): JsonObject => ({ ...(isObject(e) ? e : {}), file_path: file })) };
    }
    default:
      return undefined;
  }
}
