// What deepcode's stream and stored messages become as ACP `session/update`s: message and
// thought chunks, tool calls (kind, title, locations, status) and their updates (the diff of a
// Write or Edit, the result text), and TodoWrite's list as a plan.

import { isAbsolute, resolve } from "node:path";
import type { ChatMessage, JsonValue, StopReason, StreamEvent } from "../../src/contract/index.js";
import { PROXY_TOOL } from "../../src/lib/tool-index.js";

export type Update = Record<string, unknown> & { sessionUpdate: string };

const KINDS: Record<string, string> = {
  Read: "read", NotebookRead: "read", Write: "edit", Edit: "edit", MultiEdit: "edit", NotebookEdit: "edit",
  Bash: "execute", BashOutput: "execute", KillShell: "execute", Grep: "search", Glob: "search", LS: "search",
  WebFetch: "fetch", WebSearch: "fetch", TodoWrite: "think", Task: "think",
};

export function toolKind(tool: string): string {
  return KINDS[tool] ?? "other";
}

function str(input: JsonValue | undefined, key: string): string | undefined {
  const v = typeof input === "object" && input !== null && !Array.isArray(input) ? input[key] : undefined;
  return typeof v === "string" ? v : undefined;
}

/** The file a call touches, absolute (for the editor's follow-along). */
function pathOf(input: JsonValue, root: string): string | undefined {
  const p = str(input, "file_path") ?? str(input, "notebook_path") ?? str(input, "path");
  return p === undefined ? undefined : isAbsolute(p) ? p : resolve(root, p);
}

export function toolTitle(tool: string, input: JsonValue): string {
  const detail = str(input, "command") ?? str(input, "file_path") ?? str(input, "pattern") ?? str(input, "url") ?? str(input, "path") ?? str(input, "description");
  const one = detail?.split("\n")[0];
  return one ? `${tool} ${one.length > 120 ? `${one.slice(0, 117)}...` : one}` : tool;
}

export function toolCall(callId: string, tool: string, input: JsonValue, root: string, status: string): Update {
  const path = pathOf(input, root);
  return { sessionUpdate: "tool_call", toolCallId: callId, title: toolTitle(tool, input), kind: toolKind(tool), status, rawInput: input, ...(path ? { locations: [{ path }] } : {}) };
}

/** The content of a finished call: the diff a Write or Edit made, else the result's text. */
function endContent(tool: string, input: JsonValue, root: string, content: string): unknown[] {
  const path = pathOf(input, root);
  if (path && tool === "Write" && str(input, "content") !== undefined) return [{ type: "diff", path, oldText: null, newText: str(input, "content") }];
  if (path && tool === "Edit" && str(input, "new_string") !== undefined) return [{ type: "diff", path, oldText: str(input, "old_string") ?? null, newText: str(input, "new_string") }];
  return content ? [{ type: "content", content: { type: "text", text: content } }] : [];
}

/** TodoWrite's list as an ACP plan (all entries, each update replaces the whole plan). */
function planOf(input: JsonValue): Update | undefined {
  const todos = typeof input === "object" && input !== null && !Array.isArray(input) ? input.todos : undefined;
  if (!Array.isArray(todos)) return undefined;
  const entries = todos.flatMap((t) => {
    const content = str(t, "content");
    const status = str(t, "status");
    if (!content) return [];
    return [{ content, priority: "medium", status: status === "in_progress" || status === "completed" ? status : "pending" }];
  });
  return { sessionUpdate: "plan", entries };
}

/** One stream event as updates. `inputs` remembers each running call's input (callId → input). */
export function updatesOf(ev: StreamEvent, root: string, inputs: Map<string, { tool: string; input: JsonValue }>): Update[] {
  switch (ev.type) {
    case "model.delta":
      if (ev.delta.kind === "content" && ev.delta.text) return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: ev.delta.text } }];
      if (ev.delta.kind === "reasoning" && ev.delta.text) return [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: ev.delta.text } }];
      return [];
    case "tool.start":
      inputs.set(ev.callId, { tool: ev.tool, input: ev.input });
      return [toolCall(ev.callId, ev.tool, ev.input, root, "pending")];
    case "tool.progress":
      return [{ sessionUpdate: "tool_call_update", toolCallId: ev.callId, status: "in_progress" }];
    case "tool.end": {
      const call = inputs.get(ev.callId);
      inputs.delete(ev.callId);
      const input = call?.input ?? {};
      const out: Update[] = [{ sessionUpdate: "tool_call_update", toolCallId: ev.callId, status: ev.output.isError ? "failed" : "completed", content: endContent(ev.tool, input, root, ev.output.content), rawOutput: { content: ev.output.content, ...(ev.output.summary ? { summary: ev.output.summary } : {}) } }];
      const plan = ev.tool === "TodoWrite" && !ev.output.isError ? planOf(input) : undefined;
      if (plan) out.push(plan);
      return out;
    }
    case "notice":
      return ev.level === "info" ? [] : [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: `[${ev.level}] ${ev.message}\n` } }];
    default:
      return [];
  }
}

/** The stored conversation replayed (session/load): the person's prompts, the answers, the
 *  thoughts, the calls with their results, and each task list TodoWrite wrote as a plan (as the
 *  live stream sends it; a call through UseTool is its inner tool's). System text and
 *  reminders are not the person's. */
export function replay(messages: readonly ChatMessage[], root: string): Update[] {
  const out: Update[] = [];
  const calls = new Map<string, { tool: string; input: JsonValue }>();
  for (const m of messages) {
    if (m.role === "user") out.push({ sessionUpdate: "user_message_chunk", content: { type: "text", text: m.content } });
    else if (m.role === "assistant") {
      if (m.reasoning_content) out.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: m.reasoning_content } });
      if (m.content) out.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: m.content } });
      for (const c of m.tool_calls ?? []) {
        let input: JsonValue = {};
        try {
          input = JSON.parse(c.function.arguments) as JsonValue;
        } catch {
          // Arguments that never parsed (the call was answered as malformed): shown without input.
        }
        const call = innerCall(c.function.name, input);
        calls.set(c.id, call);
        out.push(toolCall(c.id, call.tool, call.input, root, "pending"));
      }
    } else if (m.role === "tool") {
      const call = calls.get(m.tool_call_id);
      out.push({ sessionUpdate: "tool_call_update", toolCallId: m.tool_call_id, status: "completed", content: endContent(call?.tool ?? "", call?.input ?? {}, root, m.content) });
      const plan = call?.tool === "TodoWrite" ? planOf(call.input) : undefined;
      if (plan) out.push(plan);
    }
  }
  return out;
}

/** A stored call as the stream names it: UseTool's `{name, input}` is the inner tool's call (a
 *  call that only asked for a definition, without input, stays UseTool's). */
function innerCall(tool: string, input: JsonValue): { tool: string; input: JsonValue } {
  if (tool !== PROXY_TOOL || typeof input !== "object" || input === null || Array.isArray(input)) return { tool, input };
  const inner = input.input;
  return typeof input.name === "string" && inner !== undefined ? { tool: input.name, input: inner } : { tool, input };
}

/** deepcode's stop reasons in ACP's five; the rest end the turn normally (their reason is in
 *  `_meta`). `error` is not here: it becomes a JSON-RPC error. */
export function acpStopReason(stop: StopReason): string {
  switch (stop) {
    case "interrupted":
      return "cancelled";
    case "output_truncated":
      return "max_tokens";
    case "max_turns":
      return "max_turn_requests";
    case "content_filter":
      return "refusal";
    default:
      return "end_turn";
  }
}
