// `deepcode -p --output-format stream-json`: one JSON object per line in Claude Code's headless
// shape, translated from the engine's stream:
//
//   {type:"system", subtype:"init", session_id, cwd, model, tools, mcp_servers, permissionMode, apiKeySource, …}
//   {type:"assistant", message:{id, type:"message", role:"assistant", model, content:[block], stop_reason, usage}, …}
//        one line per content block (thinking, text, tool_use), the blocks of one reply sharing message.id
//   {type:"user", message:{role:"user", content:[{type:"tool_result", tool_use_id, content, is_error}]}, …}
//   {type:"stream_event", event:{…Anthropic stream event…}, …}   with --include-partial-messages or --verbose
//   {type:"result", …}                                            last (print-result.ts)
//
// Every line carries session_id, uuid and parent_tool_use_id (null: deepcode runs no subagents
// here yet). deepcode's own facts ride in a field of their own, `deepcode` (a request's cost and
// cache hits, a tool's summary and outcome), and its notices, repairs and retries are system
// lines with subtypes of their own (`notice`, `repair`, `retry`): a reader of Claude Code's
// format skips what it does not know, and nothing it knows has a second shape.

import { randomUUID } from "node:crypto";
import type { FinishReason, JsonValue, KnownStatus, StreamEvent, Usage } from "../contract/index.js";
import { boundDepth } from "../lib/json.js";
import { roundCost } from "../core/cost/index.js";
import { claudeUsage, type ResultObject } from "./print-result.js";

/** The init line's `mcp_servers`: the mcp mod's own report (KnownStatus.mcp), so it says what
 *  the mod knows when the line is written (`pending` while a server still connects). */
export function mcpServerList(app: { pluginStatus(id: "mcp"): KnownStatus["mcp"] | undefined }): Array<{ name: string; status: string }> {
  return (app.pluginStatus("mcp")?.servers ?? []).map((s) => ({ name: s.name, status: s.status }));
}

export interface InitInfo {
  cwd: string;
  model: string;
  tools: string[];
  mcpServers: Array<{ name: string; status: string }>;
  permissionMode: string;
  apiKeySource: string;
  slashCommands: string[];
  version: string;
}

type Block = { type: "thinking"; thinking: string } | { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown };

interface StepState {
  id: string;
  started: boolean;
  /** The open stream_event block: its index and kind (tool calls by their index). */
  open?: { index: number; key: string };
  blocks: number;
  toolBlocks: Map<number, number>;
  thinking: string;
  text: string;
}

const STOP: Record<string, string> = { stop: "end_turn", tool_calls: "tool_use", length: "max_tokens", content_filter: "refusal", insufficient_system_resource: "end_turn" };

export class StreamJsonWriter {
  private sessionId = "";
  private step?: { n: number; s: StepState };
  /** message.id of each step, so its tool_use lines join the reply they came in. */
  private readonly ids = new Map<number, string>();
  private readonly announced = new Set<string>();

  constructor(
    private readonly write: (line: string) => void,
    private readonly o: { partial: boolean; model: () => string },
  ) {}

  init(sessionId: string, info: InitInfo): void {
    this.sessionId = sessionId;
    this.line({
      type: "system",
      subtype: "init",
      cwd: info.cwd,
      model: info.model,
      tools: info.tools,
      mcp_servers: info.mcpServers,
      permissionMode: info.permissionMode,
      apiKeySource: info.apiKeySource,
      slash_commands: info.slashCommands,
      output_style: "default",
      deepcode: { version: info.version },
    });
  }

  result(r: ResultObject): void {
    this.write(JSON.stringify(r));
  }

  handle(ev: StreamEvent): void {
    switch (ev.type) {
      case "model.delta":
        return this.delta(ev.step, ev.delta);
      case "model.response":
        return this.response(ev);
      case "tool.start":
        return this.toolUse(ev.step, ev.callId, ev.tool, ev.input);
      case "tool.end":
        if (!this.announced.has(ev.callId)) this.toolUse(ev.step, ev.callId, ev.tool, {});
        return this.line({
          type: "user",
          message: { role: "user", content: [{ type: "tool_result", tool_use_id: ev.callId, content: ev.output.content, is_error: ev.output.isError === true }] },
          deepcode: { summary: ev.output.summary ?? ev.tool, outcome: outcomeOf(ev.output), duration_ms: Math.round(ev.durationMs), ...(ev.output.meta ? { meta: ev.output.meta } : {}) },
        });
      case "notice":
        return this.line({ type: "system", subtype: "notice", level: ev.level, code: ev.code, message: ev.message });
      case "repair":
        return this.line({ type: "system", subtype: "repair", kind: ev.kind, detail: ev.detail });
      default:
        return;
    }
  }

  private delta(step: number, d: Extract<StreamEvent, { type: "model.delta" }>["delta"]): void {
    if (d.kind === "retry") {
      this.line({ type: "system", subtype: "retry", attempt: d.attempt, delay_ms: d.delayMs, reason: d.reason });
      return;
    }
    const s = this.stepState(step);
    if (d.kind === "reasoning") s.thinking += d.text;
    if (d.kind === "content") s.text += d.text;
    if (!this.o.partial) return;
    if (!s.started) {
      s.started = true;
      this.event({ type: "message_start", message: { id: s.id, type: "message", role: "assistant", model: this.o.model(), content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } } });
    }
    if (d.kind === "tool_call") {
      let index = s.toolBlocks.get(d.index);
      if (index === undefined) {
        index = this.openBlock(s, `tool:${d.index}`, { type: "tool_use", id: d.id ?? "", name: d.name ?? "", input: {} });
        s.toolBlocks.set(d.index, index);
      }
      if (d.argumentsDelta) this.event({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: d.argumentsDelta } });
      return;
    }
    const key = d.kind === "reasoning" ? "thinking" : "text";
    const index = s.open?.key === key ? s.open.index : this.openBlock(s, key, key === "thinking" ? { type: "thinking", thinking: "" } : { type: "text", text: "" });
    this.event({ type: "content_block_delta", index, delta: key === "thinking" ? { type: "thinking_delta", thinking: d.text } : { type: "text_delta", text: d.text } });
  }

  private openBlock(s: StepState, key: string, block: Record<string, unknown>): number {
    if (s.open) this.event({ type: "content_block_stop", index: s.open.index });
    const index = s.blocks++;
    s.open = { index, key };
    this.event({ type: "content_block_start", index, content_block: block });
    return index;
  }

  private response(ev: Extract<StreamEvent, { type: "model.response" }>): void {
    const s = this.stepState(ev.step);
    const stop = ev.finishReason ? STOP[ev.finishReason as FinishReason] ?? "end_turn" : null;
    if (this.o.partial && s.started) {
      if (s.open) this.event({ type: "content_block_stop", index: s.open.index });
      this.event({ type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: ev.usage ? claudeUsage(ev.usage) : { output_tokens: 0 } });
      this.event({ type: "message_stop" });
    }
    const blocks: Block[] = [];
    if (s.thinking) blocks.push({ type: "thinking", thinking: s.thinking });
    // The answer as logged when the engine says it (a repair may have taken text out of what
    // streamed: reasoning before </think>, a degenerate reply).
    const text = ev.text ?? s.text;
    if (text) blocks.push({ type: "text", text });
    const facts = requestFacts(ev.usage, ev.costUsd, ev.step, ev.incomplete);
    for (const b of blocks) this.assistant(s.id, [b], stop, ev.usage, facts);
    this.step = undefined;
  }

  private toolUse(step: number, id: string, name: string, input: unknown): void {
    this.announced.add(id);
    // Model input is bounded upstream (tool.input); bounded again here, where one line too deep
    // to write would end the whole run without its result line.
    this.assistant(this.ids.get(step) ?? this.stepState(step).id, [{ type: "tool_use", id, name, input: boundDepth(input as JsonValue) }], "tool_use", undefined, { step });
  }

  private assistant(id: string, content: Block[], stop: string | null, usage: Usage | undefined, facts: Record<string, unknown>): void {
    this.line({
      type: "assistant",
      message: {
        id,
        type: "message",
        role: "assistant",
        model: this.o.model(),
        content,
        stop_reason: stop,
        stop_sequence: null,
        usage: usage ? claudeUsage(usage) : { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
      },
      deepcode: facts,
    });
  }

  private stepState(step: number): StepState {
    if (this.step?.n !== step) {
      const id = `msg_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
      this.ids.set(step, id);
      this.step = { n: step, s: { id, started: false, blocks: 0, toolBlocks: new Map(), thinking: "", text: "" } };
    }
    return this.step.s;
  }

  private event(event: Record<string, unknown>): void {
    this.line({ type: "stream_event", event });
  }

  private line(obj: Record<string, unknown>): void {
    this.write(JSON.stringify({ ...obj, parent_tool_use_id: null, session_id: this.sessionId, uuid: randomUUID() }));
  }
}

/** What deepcode knows about one request that Claude Code's shape has no field for. */
function requestFacts(usage: Usage | undefined, costUsd: number | undefined, step: number, incomplete: string | undefined): Record<string, unknown> {
  const f: Record<string, unknown> = { step };
  if (usage) {
    f.cache_hit_tokens = usage.prompt_cache_hit_tokens;
    f.cache_miss_tokens = usage.prompt_cache_miss_tokens;
    f.reasoning_tokens = usage.reasoning_tokens;
  }
  if (costUsd !== undefined) f.cost_usd = roundCost(costUsd);
  if (incomplete) f.incomplete = incomplete;
  return f;
}

function outcomeOf(o: { isError?: boolean; meta?: Record<string, unknown> }): string {
  if (typeof o.meta?.outcome === "string") return o.meta.outcome;
  return o.isError ? "failed" : "ok";
}
