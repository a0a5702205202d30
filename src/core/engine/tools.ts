// Tools as the engine runs them. Each call goes through the chain in a fixed order:
//   tool.input (raw arguments → input; JSON repair) → schema validation → tool.check (the
//   gate) → permission.ask when the gate says ask → tool.call → tool.result.
// Errors are data: an unknown tool, invalid arguments, a deny or a throwing tool all become
// an error result the model can read; nothing here unwinds the loop.
//
// Scheduling: consecutive concurrent calls (ToolSpec.concurrent, by default the read-only ones)
// run at the same time (bounded); any other call is a barrier. Scheduling never decides
// permission: that is `readOnly`'s, at the gate. Results come back in the order the model
// declared the calls.

import { standinCall } from "./standins.js";
import type { Chain } from "../chain.js";
import type {
  AgentIdentity,
  JsonObject,
  JsonValue,
  ReadRecord,
  ToolCall,
  ToolContext,
  ToolDefinition,
  ToolOutput,
  ToolSpec,
} from "../../contract/index.js";
import type { ToolRegistry } from "./registry.js";
import { createToolContext } from "../tool-context.js";
import { describeErrors, validate } from "../schema.js";
import { canonicalize } from "../context/canonical.js";
import { STORM_BY } from "../repair/call-storm.js";
import { PROXY_TOOL } from "../../lib/tool-index.js";
import { MAX_JSON_DEPTH, textDepth, tooDeepMessage } from "../../lib/json.js";

/** The stable proxy: its definition never changes, so tools that arrive after the session
 *  started (late MCP servers, `/reload`ed plugins) are reachable without touching the prefix. */
export { PROXY_TOOL };
export const PROXY_DEFINITION: ToolDefinition = {
  type: "function",
  function: {
    name: PROXY_TOOL,
    description: "Calls a tool named in the system prompt or a later context note.",
    parameters: {
      type: "object",
      properties: {
        name: { type: "string" },
        input: { type: "object" },
      },
      required: ["name", "input"],
    },
  },
};

/** What the model reads of a tool. A top-level `additionalProperties: false` stays out of it
 *  (about 6 tokens per tool in every request, issue 41): the engine still validates with the
 *  whole schema and answers an unknown parameter with the known ones (src/core/schema.ts).
 *  An MCP server's tool (`mcp__server__tool`) keeps its schema exactly as the server sent it. */
export function definitionOf(spec: ToolSpec): ToolDefinition {
  const { additionalProperties, ...rest } = spec.inputSchema;
  const parameters = additionalProperties === false && !spec.name.startsWith("mcp__") ? rest : spec.inputSchema;
  return { type: "function", function: { name: spec.name, description: spec.description, parameters } };
}

export { ToolRegistry } from "./registry.js";

/** A tool's definition as a result of `UseTool {"name"}`: its description and parameters. */
export function definitionText(spec: ToolSpec): string {
  return `${spec.name}: ${spec.description}\nparameters: ${JSON.stringify(canonicalize(spec.inputSchema))}\nCall it with ${PROXY_TOOL} {"name": "${spec.name}", "input": {…}}.`;
}

export interface CallEnv {
  chain: Chain;
  registry: ToolRegistry;
  sessionId: string;
  root: string;
  signal: AbortSignal;
  reads: Map<string, ReadRecord>;
  shell: { cwd: string };
  /** The model round these calls belong to, and whether its reply hit the output limit. */
  step: number;
  cutOff: boolean;
  /** Serialises permission prompts: a person answers one question at a time. */
  askLock: { tail: Promise<unknown> };
  /** Set for a subagent's calls: its questions say which agent asks. */
  agent?: AgentIdentity;
}

export interface CallOutcome {
  call: ToolCall;
  tool: string;
  input: JsonObject;
  output: ToolOutput;
  durationMs: number;
}

const error = (content: string, summary?: string): ToolOutput => ({ content, isError: true, summary });

/** A call the gate (or the person) refused. `meta.outcome` says which kind of refusal it was —
 *  `suppressed` for the call-storm breaker's repeated call, else `denied` — and `meta.reason`
 *  why, so a renderer, a transcript replay and `-p`'s permission_denials can tell them apart. */
function refused(tool: string, content: string, reason: string, by: string | undefined): ToolOutput {
  const outcome = by?.startsWith(STORM_BY) ? "suppressed" : "denied";
  const meta: Record<string, JsonValue> = { outcome, reason };
  if (by) meta.by = by;
  return { content, isError: true, summary: outcome === "suppressed" ? `${tool}: suppressed (the same call again)` : `${tool}: denied`, meta };
}

/** One call through the whole pipeline. Whatever throws on the way (a hook's DeniedError on
 *  tool.result, a core that fails) becomes the call's error result: every call in the log gets
 *  an answer, or the next request would be refused for an orphaned call. */
export async function runCall(call: ToolCall, env: CallEnv, onStart?: (tool: string, input: JsonObject) => void, parsed?: ParsedInput): Promise<CallOutcome> {
  const started = performance.now();
  try {
    return await pipeline(call, env, started, onStart, parsed);
  } catch (err) {
    const output = error(`${call.function.name} did not complete: ${err instanceof Error ? err.message : String(err)}`, `${call.function.name}: failed`);
    return { call, tool: call.function.name, input: {}, output, durationMs: performance.now() - started };
  }
}

async function pipeline(call: ToolCall, env: CallEnv, started: number, onStart?: (tool: string, input: JsonObject) => void, given?: ParsedInput): Promise<CallOutcome> {
  const base = { sessionId: env.sessionId, callId: call.id };
  let tool = call.function.name;
  let input: JsonObject = {};
  const done = (output: ToolOutput): CallOutcome => ({ call, tool, input, output, durationMs: performance.now() - started });

  const parsed = given ?? (await parseCall(call, env));
  if ("error" in parsed) return done(error(parsed.error, tool ? `${tool}: invalid arguments` : "(no tool name): not run"));
  input = parsed.input as JsonObject;
  let proxied = false;
  if (tool === PROXY_TOOL) {
    const inner = input.input;
    const known = typeof input.name === "string" ? env.registry.get(input.name) : undefined;
    // {"name"} alone: the tool's definition, brought in on demand (the index in the prefix
    // names it; this result enters the log once and the prefix never changes).
    if (known && inner === undefined) return done({ content: definitionText(known.spec), summary: `${known.spec.name}: definition given` });
    if (typeof input.name !== "string" || inner === null || typeof inner !== "object" || Array.isArray(inner)) {
      return done(error(`${PROXY_TOOL} needs {"name": "<announced tool>", "input": {…}}.`));
    }
    tool = input.name;
    input = inner as JsonObject;
    proxied = true;
  }
  const standin = env.registry.get(tool) ? undefined : standinCall(tool, input);
  if (standin && "edits" in standin) return done(await multiEdit(call, standin, env));
  if (standin) [tool, input] = [standin.tool, standin.input];
  const registered = env.registry.get(tool);
  onStart?.(tool, input);
  if (!registered) {
    const known = env.registry.list().map((t) => t.spec.name).join(", ");
    // The gate still sees it: an unknown tool is denied there too (fail-closed).
    await env.chain.dispatch({ type: "tool.check", ...base, tool, input, readOnly: null, step: env.step });
    return done(error(`Unknown tool '${tool}'. Available tools: ${known}.`));
  }
  const spec = registered.spec;
  const checked = validate(spec.inputSchema, input);
  if (!checked.ok) {
    const why = describeErrors(tool, checked.errors, spec.inputSchema);
    return done(error(proxied ? `${why}\n\n${definitionText(spec)}` : why, `${tool}: invalid arguments`));
  }
  input = checked.value as JsonObject;

  const ctx = createToolContext(env.chain, { root: env.root, sessionId: env.sessionId, callId: call.id, signal: env.signal, reads: env.reads, shell: env.shell });
  const gate = await env.chain.dispatch({ type: "tool.check", ...base, tool, input, readOnly: spec.readOnly, step: env.step });
  if (gate.decision === "deny") return done(refused(tool, `Permission denied for ${tool}: ${gate.reason ?? "denied"}`, gate.reason ?? "denied", gate.by));
  if (gate.decision === "ask") {
    // A call the tool knows will fail (ToolSpec.refusal) is answered with its error, unasked.
    const known = await refusalOf(spec, input, ctx);
    if (known !== undefined) return done(error(known, `${tool}: not run`));
    const answer = await serialised(env.askLock, async () => {
      const preview = await previewOf(spec, input, ctx);
      return env.chain.dispatch({
        type: "permission.ask",
        ...base,
        tool,
        input,
        reason: gate.reason ?? "this tool changes things",
        preview,
        remember: gate.remember ?? tool,
        ...(env.agent ? { agent: env.agent } : {}),
        ...(gate.by ? { by: gate.by } : {}),
      });
    });
    if (answer.decision !== "allow") {
      const why = answer.reason ?? "the user said no";
      return done(refused(tool, `Permission denied for ${tool}: ${why}. Do not retry the same call; ask the user or take another approach.`, why, answer.by));
    }
  }
  if (env.signal.aborted) return done(error("Interrupted before it ran.", `${tool}: interrupted`));
  let output: ToolOutput;
  try {
    output = await env.chain.dispatch({ type: "tool.call", ...base, tool, input, signal: env.signal });
  } catch (err) {
    output = error(`${tool} failed: ${err instanceof Error ? err.message : String(err)}`, `${tool}: failed`);
  }
  output = await env.chain.dispatch({ type: "tool.result", ...base, tool, input, output });
  return done(output);
}

/** Claude Code's MultiEdit as Edit calls, one per edit in order, each through the whole
 *  pipeline (gate, hooks, the log's view of Edit); the first that fails stops the rest, and the
 *  answer says which edits are in the file. Not all-or-nothing, as Claude Code's is: said so. */
async function multiEdit(call: ToolCall, m: { edits: JsonObject[]; file: string }, env: CallEnv): Promise<ToolOutput> {
  if (m.edits.length === 0) return error('MultiEdit needs {"file_path", "edits": [{"old_string", "new_string"}, …]}; or call Edit once per change.');
  const lines: string[] = [];
  for (const [i, edit] of m.edits.entries()) {
    const one: ToolCall = { ...call, id: `${call.id}-${i + 1}`, function: { name: "Edit", arguments: JSON.stringify(edit) } };
    const r = await pipeline(one, env, performance.now(), undefined, { input: edit });
    lines.push(`edit ${i + 1}: ${r.output.content}`);
    if (r.output.isError) {
      const kept = i === 0 ? "no edit was made" : `edits 1–${i} are in the file, the rest were not tried`;
      return { ...r.output, content: `${lines.join("\n")}\n(MultiEdit runs as Edit once per edit: ${kept})`, summary: `MultiEdit ${m.file}: ${i} of ${m.edits.length} edits` };
    }
  }
  return { content: lines.join("\n"), summary: `MultiEdit ${m.file}: ${m.edits.length} edits` };
}

export type ParsedInput = { input: JsonObject } | { error: string };

/** A call as the log keeps it, with what its arguments were read as (decided before logging). */
export interface ReadyCall {
  call: ToolCall;
  parsed: ParsedInput;
}

export function parseCall(call: ToolCall, env: CallEnv): Promise<ParsedInput> {
  const e = { type: "tool.input" as const, sessionId: env.sessionId, callId: call.id, tool: call.function.name, arguments: call.function.arguments, step: env.step, cutOff: env.cutOff };
  return env.chain.dispatch(e) as Promise<ParsedInput>;
}

/** The core answer of `tool.input`: the raw arguments as a JSON object, or what is wrong with
 *  them (repair hooks wrap this and fix what they can). */
export function parseArguments(tool: string, raw: string): { input: Record<string, JsonValue> } | { error: string } {
  // Nested too deep for any walk of it (validation, rendering, stream-json): refused before
  // it is parsed, so nothing downstream ever holds it.
  const depth = textDepth(raw);
  if (depth > MAX_JSON_DEPTH) return { error: tooDeepMessage(tool, depth) };
  try {
    const v = JSON.parse(raw.trim() === "" ? "{}" : raw) as JsonValue;
    if (v !== null && typeof v === "object" && !Array.isArray(v)) return { input: v };
    return { error: `The arguments for ${tool} must be a JSON object, got ${JSON.stringify(v).slice(0, 80)}. Call ${tool} again with an object.` };
  } catch (err) {
    return { error: `The arguments for ${tool} are not valid JSON (${(err as Error).message}). You sent: ${raw.slice(0, 200)}. Call ${tool} again with complete JSON.` };
  }
}

/** The core answer of `tool.call`: run the registered tool; a throw is an error result. */
export async function callTool(registry: ToolRegistry, ctxOf: (callId: string, signal?: AbortSignal) => ToolContext, e: { tool: string; input: Record<string, JsonValue>; callId: string; signal?: AbortSignal }): Promise<ToolOutput> {
  const t = registry.get(e.tool);
  if (!t) return error(`Unknown tool '${e.tool}'.`);
  try {
    return await t.spec.run(e.input, ctxOf(e.callId, e.signal));
  } catch (err) {
    return error(`${e.tool} failed: ${err instanceof Error ? err.message : String(err)}`, `${e.tool}: failed`);
  }
}

/** Run a step's calls: concurrent neighbours together, the others alone, in order. */
export async function runCalls(
  ready: readonly ReadyCall[],
  env: CallEnv,
  concurrency: number,
  onStart: (call: ToolCall, tool: string, input: JsonObject) => void,
  onEnd: (o: CallOutcome) => void,
): Promise<CallOutcome[]> {
  const out: CallOutcome[] = [];
  let i = 0;
  while (i < ready.length) {
    let j = i;
    while (j < ready.length && isConcurrent(ready[j].call, env.registry)) j++;
    const batch = j > i ? ready.slice(i, j) : [ready[i]];
    const results = await pool(batch, Math.max(1, Math.min(16, concurrency)), async ({ call: c, parsed }) => {
      const o = env.signal.aborted ? interrupted(c) : await runCall(c, env, (tool, input) => onStart(c, tool, input), parsed);
      onEnd(o);
      return o;
    });
    out.push(...results);
    i += batch.length;
  }
  return out;
}

export function interrupted(call: ToolCall): CallOutcome {
  return { call, tool: call.function.name, input: {}, output: error("Interrupted: this call did not run.", `${call.function.name}: interrupted`), durationMs: 0 };
}

function isConcurrent(call: ToolCall, registry: ToolRegistry): boolean {
  const spec = registry.get(call.function.name)?.spec;
  return (spec?.concurrent ?? spec?.readOnly) === true;
}

async function pool<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const k = next++;
      results[k] = await fn(items[k]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function serialised<T>(lock: { tail: Promise<unknown> }, fn: () => Promise<T>): Promise<T> {
  const run = lock.tail.then(fn, fn);
  lock.tail = run.catch(() => undefined); // a failed prompt must not block the next one
  return run;
}

async function refusalOf(spec: ToolSpec, input: JsonObject, ctx: ToolContext): Promise<string | undefined> {
  try {
    return (await spec.refusal?.(input, ctx)) || undefined;
  } catch {
    return undefined; // cannot tell (a read refused, a file gone): the person is asked as usual
  }
}

async function previewOf(spec: ToolSpec, input: JsonObject, ctx: ToolContext): Promise<string> {
  if (spec.preview) {
    try {
      return await spec.preview(input, ctx);
    } catch (err) {
      return `(no preview: ${err instanceof Error ? err.message : String(err)})\n${JSON.stringify(input, null, 2)}`;
    }
  }
  if (typeof input.command === "string") return input.command;
  return JSON.stringify(input, null, 2);
}
