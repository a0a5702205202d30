// A real Chain with the repairs registered on it, core answers standing in for the engine's
// (the reply passes through, arguments are JSON.parse'd, the tool list is the tools'
// definitions), and every `model.repair` collected.

import { Chain } from "../../src/core/chain.js";
import { registerRepairs, type RepairTool } from "../../src/core/repair/index.js";
import type { GateDecision, JsonObject, JsonSchema, ModelResponse, ToolDefinition } from "../../src/contract/index.js";

export const READ: RepairTool = {
  name: "Read",
  readOnly: true,
  inputSchema: {
    type: "object",
    properties: {
      file_path: { type: "string", description: "The file to read" },
      offset: { type: "integer" },
      limit: { type: "integer" },
    },
    required: ["file_path"],
  },
};

export const GLOB: RepairTool = {
  name: "Glob",
  readOnly: true,
  inputSchema: { type: "object", properties: { pattern: { type: "string" }, path: { type: "string" } }, required: ["pattern"] },
};

export const BASH: RepairTool = {
  name: "Bash",
  readOnly: false,
  inputSchema: { type: "object", properties: { command: { type: "string" }, timeout: { type: "number" } }, required: ["command"] },
};

export const EDIT: RepairTool = {
  name: "Edit",
  readOnly: false,
  inputSchema: {
    type: "object",
    properties: { file_path: { type: "string" }, old_string: { type: "string" }, new_string: { type: "string" } },
    required: ["file_path", "old_string", "new_string"],
  },
};

/** Four levels: the top, `options`, `options.format`, `options.format.style`. */
export const DEEP_SCHEMA: JsonSchema = {
  type: "object",
  description: "Render a document",
  properties: {
    path: { type: "string", description: "The document" },
    options: {
      type: "object",
      description: "How to render",
      properties: {
        format: {
          type: "object",
          properties: {
            indent: { type: "integer", description: "Spaces per level" },
            style: {
              type: "object",
              description: "Typography",
              properties: { font: { type: "string" }, size: { type: "number" } },
              required: ["font"],
            },
          },
          required: ["indent", "style"],
        },
        verbose: { type: "boolean" },
        tags: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
      },
      required: ["format"],
    },
    extra: { type: "object", properties: { note: { type: "string" } } },
  },
  required: ["path", "options"],
  additionalProperties: false,
};

export const RENDER: RepairTool = { name: "Render", readOnly: false, inputSchema: DEEP_SCHEMA };

export const TOOLS: RepairTool[] = [READ, GLOB, BASH, EDIT, RENDER];

export interface Repair {
  step: number;
  kind: string;
  detail: string;
}

export interface Harness {
  chain: Chain;
  repairs: Repair[];
  /** Dispatch a whole reply as the loop does, with the registered tools' names. */
  respond(response: ModelResponse, step?: number): Promise<ModelResponse>;
  /** Turn raw arguments into input as the loop does. */
  input(tool: string, args: string, opts?: { step?: number; cutOff?: boolean }): Promise<{ input: JsonObject } | { error: string }>;
  /** The gate, for a call with this input. */
  check(tool: string, input: JsonObject, sessionId?: string): Promise<GateDecision>;
  turn(sessionId?: string): Promise<void>;
  list(): Promise<ToolDefinition[]>;
}

export function harness(tools: RepairTool[] = TOOLS, maxScavenged?: number): Harness {
  const chain = new Chain();
  const repairs: Repair[] = [];
  chain.setCore("model.repair", (e) => {
    repairs.push({ step: e.step, kind: e.kind, detail: e.detail });
  });
  chain.setCore("model.response", (e) => e.response);
  chain.setCore("tool.input", (e) => {
    try {
      const v: unknown = JSON.parse(e.arguments);
      if (v !== null && typeof v === "object" && !Array.isArray(v)) return { input: v as JsonObject };
      return { error: "arguments must be a JSON object" };
    } catch (err) {
      return { error: (err as Error).message };
    }
  });
  chain.setCore("tool.list", () =>
    tools.map((t): ToolDefinition => ({ type: "function", function: { name: t.name, description: `The ${t.name} tool`, parameters: t.inputSchema } })),
  );
  chain.setCore("turn.start", () => undefined);
  registerRepairs(chain, { tools: () => tools, ...(maxScavenged === undefined ? {} : { maxScavenged }) });
  // The default gate below the repairs: everything is allowed, so a deny comes from the breaker.
  chain.on("builtin", "test-default", "tool.check", null, (): GateDecision => ({ decision: "allow", by: "test" }));

  let callSeq = 0;
  const readOnly = (name: string): boolean | null => tools.find((t) => t.name === name)?.readOnly ?? null;
  return {
    chain,
    repairs,
    respond: (response, step = 1) => chain.dispatch({ type: "model.response", sessionId: "s1", step, response, toolNames: tools.map((t) => t.name) }),
    input: (tool, args, opts = {}) =>
      chain.dispatch({ type: "tool.input", sessionId: "s1", tool, arguments: args, callId: `c${++callSeq}`, step: opts.step ?? 1, cutOff: opts.cutOff ?? false }),
    check: (tool, input, sessionId = "s1") =>
      chain.dispatch({ type: "tool.check", sessionId, tool, input, callId: `c${++callSeq}`, readOnly: readOnly(tool), step: 1 }),
    turn: async (sessionId = "s1") => {
      await chain.dispatch({ type: "turn.start", sessionId, turn: 1, prompt: "go", profile: { model: "deepseek-flash" } });
    },
    list: () => chain.dispatch({ type: "tool.list", sessionId: "s1" }),
  };
}

/** A reply that ended with `stop` and no tool calls, as the provider hands it over. */
export function reply(content: string | null, reasoning?: string, finishReason: ModelResponse["finishReason"] = "stop"): ModelResponse {
  return {
    id: "r1",
    model: "deepseek-flash",
    message: { role: "assistant", content, ...(reasoning === undefined ? {} : { reasoning_content: reasoning }) },
    finishReason,
  };
}

/** The calls of a reply as name + parsed arguments. */
export function callsOf(r: ModelResponse): Array<{ name: string; input: unknown }> {
  return (r.message.tool_calls ?? []).map((c) => ({ name: c.function.name, input: JSON.parse(c.function.arguments) as unknown }));
}
