// Assembles one reply from its streamed pieces, handing each piece on as it arrives. Both
// protocols feed the same assembler, so the rest of deepcode cannot tell them apart.

import { checkUsage } from "./usage-check.js";
import type { FinishReason, ModelDelta, ModelResponse, ToolCall, Usage } from "../contract/index.js";

interface PartialCall {
  id: string;
  name: string;
  args: string;
}

export class Assembler {
  /** True once a piece of the reply (text, reasoning or a tool call) has been handed on:
   *  from then on the request is never retried and any ending keeps what arrived. */
  started = false;
  /** Pieces handed on so far: the stall timer compares it, so only a piece counts as progress
   *  (a keep-alive, an empty delta or a usage-only chunk does not). */
  pieces = 0;
  private text = "";
  private reasoningText = "";
  private signatureText = "";
  private readonly calls = new Map<number, PartialCall>();
  private finishReason: FinishReason | null = null;
  private usageSeen: Usage | undefined;
  private usageTotal: number | undefined;
  private id: string | undefined;
  private model: string | undefined;

  /** `thinking`: the request ran in thinking mode, so the reply carries reasoning_content
   *  (possibly "") that a later request with tools must send back. */
  constructor(
    private readonly onDelta: ((d: ModelDelta) => void) | undefined,
    private readonly thinking: boolean,
  ) {}

  content(text: string): void {
    if (!text) return;
    this.text += text;
    this.emit({ kind: "content", text });
  }

  reasoning(text: string): void {
    if (!text) return;
    this.reasoningText += text;
    this.emit({ kind: "reasoning", text });
  }

  /** The signature of the reasoning (Anthropic protocol), in pieces: not shown, only kept. */
  signature(text: string): void {
    this.signatureText += text;
  }

  /** A tool call piece: the first for an index carries id and name, later ones argument
   *  fragments. A piece with nothing new is not handed on. */
  toolCall(index: number, piece: { id?: string; name?: string; args?: string }): void {
    let call = this.calls.get(index);
    const fresh = !call;
    if (!call) {
      call = { id: "", name: "", args: "" };
      this.calls.set(index, call);
    }
    const delta: ModelDelta & { kind: "tool_call" } = { kind: "tool_call", index, argumentsDelta: piece.args ?? "" };
    if (piece.id && piece.id !== call.id) {
      call.id = piece.id;
      delta.id = piece.id;
    }
    // A name arrives once; a vendor that repeats it in later chunks must not double it.
    if (piece.name && piece.name !== call.name) {
      call.name = call.name && !fresh && piece.name.startsWith(call.name) ? piece.name : call.name + piece.name;
      delta.name = call.name;
    }
    call.args += piece.args ?? "";
    if (fresh || delta.argumentsDelta || delta.id || delta.name) this.emit(delta);
  }

  finish(reason: FinishReason | null): void {
    if (reason) this.finishReason = reason;
  }

  get finished(): boolean {
    return this.finishReason !== null;
  }

  get hasToolCalls(): boolean {
    return this.calls.size > 0;
  }

  /** Only reasoning arrived so far: nothing a person or the log could keep as an answer. */
  get reasoningOnly(): boolean {
    return this.started && this.text === "" && this.calls.size === 0;
  }

  /** The usage as received; `total`: the wire's total_tokens, when sent. Checked (and
   *  repaired, said in `usageNote`) when the reply is handed on. */
  usage(u: Usage, total?: number): void {
    this.usageSeen = u;
    this.usageTotal = total;
  }

  meta(id: unknown, model: unknown): void {
    if (typeof id === "string" && id && !this.id) this.id = id;
    if (typeof model === "string" && model && !this.model) this.model = model;
  }

  /** The reply as received. With `incomplete`, the stream ended early: finishReason is null. */
  result(incomplete?: string): ModelResponse {
    const message: ModelResponse["message"] = { role: "assistant", content: this.text };
    if (this.thinking || this.reasoningText) message.reasoning_content = this.reasoningText;
    if (this.signatureText) message.reasoning_signature = this.signatureText;
    const calls = [...this.calls.entries()].sort((a, b) => a[0] - b[0]);
    if (calls.length > 0) {
      message.tool_calls = calls.map(
        ([index, c]): ToolCall => ({
          // A vendor that sends no id still needs one for the tool message that answers it.
          id: c.id || `call_${index}`,
          type: "function",
          function: { name: c.name, arguments: c.args },
        }),
      );
    }
    const r: ModelResponse = { message, finishReason: incomplete === undefined ? this.finishReason : null };
    if (this.id) r.id = this.id;
    if (this.model) r.model = this.model;
    if (this.usageSeen) {
      const checked = checkUsage(this.usageSeen, this.usageTotal);
      r.usage = checked.usage;
      if (checked.note) r.usageNote = checked.note;
    }
    if (incomplete !== undefined) r.incomplete = { reason: incomplete };
    return r;
  }

  private emit(d: ModelDelta): void {
    this.started = true;
    this.pieces++;
    try {
      this.onDelta?.(d);
    } catch {
      // A listener that throws must not corrupt the reply being assembled: its failure is its
      // own (the chain reports failing hooks itself).
    }
  }
}
