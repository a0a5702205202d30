// The audit of permission decisions: one `tool.decided` event per decision, once it is final
// (ToolDecision in the contract). The gate calls `checked` with its answer to every tool.check:
// an allow or a deny is final at once — a settings deny included, which no hook downstream of the
// gate ever sees; an ask is final when `permission.ask` is answered (`answered`), by a person or
// by no one (`-p`). Observers (the hooks mod's PermissionDenied, the audit-log plugin, an export)
// hook the event; it is awaited, so an audit line is written before the call runs or is refused.

import type { Chain } from "../../core/chain.js";
import type { AskAnswer, DecidingRule, EventOf, GateDecision, ToolDecision } from "../../contract/index.js";
import type { Rule } from "./rules.js";

/** Asks waiting for their answer, at most (a call whose tool refuses it unasked never gets one). */
const MAX_WAITING = 2000;

type Waiting = Omit<ToolDecision, "decision" | "answer">;

export class DecisionAudit {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly chain: Chain) {
    // Observers only: the core answers nothing.
    chain.setCore("tool.decided", () => undefined);
  }

  /** The gate's answer to a tool.check, and the rule behind it when one rule decided. */
  async checked(e: EventOf<"tool.check">, r: GateDecision, rule: Rule | undefined): Promise<void> {
    const base: Waiting = {
      sessionId: e.sessionId,
      callId: e.callId,
      tool: e.tool,
      input: e.input,
      gate: r.decision,
      ...(r.reason === undefined ? {} : { reason: r.reason }),
      ...(r.by === undefined ? {} : { by: r.by }),
      ...(rule ? { rule: decidingRule(rule) } : {}),
    };
    if (r.decision !== "ask") return this.send({ ...base, decision: r.decision });
    this.waiting.set(e.callId, base);
    if (this.waiting.size > MAX_WAITING) this.waiting.delete(this.waiting.keys().next().value as string);
  }

  /** A question about a call was answered: that call's decision is final. */
  async answered(e: EventOf<"permission.ask">, a: AskAnswer): Promise<void> {
    const base = e.callId === undefined ? undefined : this.waiting.get(e.callId);
    if (!base) return; // a question no gated call made (nothing was decided at the gate)
    this.waiting.delete(base.callId);
    const answer = { decision: a.decision, ...(a.by === undefined ? {} : { by: a.by }), ...(a.reason === undefined ? {} : { reason: a.reason }) };
    return this.send({ ...base, decision: a.decision, answer });
  }

  private async send(d: ToolDecision): Promise<void> {
    try {
      await this.chain.dispatch({ type: "tool.decided", ...d });
    } catch {
      // An observer's deliberate refusal (a DeniedError reaches the caller of a plain event):
      // the decision is made already, and an observer cannot change it.
    }
  }
}

function decidingRule(r: Rule): DecidingRule {
  return { rule: r.text, kind: r.kind, layer: r.layer, ...(r.file ? { file: r.file } : {}), ...(r.line === undefined ? {} : { line: r.line }) };
}
