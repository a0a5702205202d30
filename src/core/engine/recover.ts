// What the loop does when a turn cannot go on as asked: a request over the context window is
// made to fit (the turn's large messages bounded, else a compaction), and a turn that ends
// without the model's answer is closed so the history stays one the API accepts.

import type { AssistantMessage, StopReason, StreamEvent } from "../../contract/index.js";
import type { Chain } from "../chain.js";
import type { CacheFirstContext } from "../context/context.js";
import { boundTail } from "../context/context-limit.js";
import type { SessionRecord } from "../session/records.js";

/** What recovery needs of a turn: a part of loop.ts's TurnDeps, named here so this file does
 *  not import loop.ts, which calls it. */
export interface RecoverDeps {
  chain: Chain;
  context: CacheFirstContext;
  sessionId: string;
  emit(e: StreamEvent): void;
  record(r: SessionRecord): void;
}

/** After the API refused a request as longer than the context window: bound the turn's large
 *  messages (once), else compact (once). True when the request is worth sending again. */
export async function fitContext(d: RecoverDeps, tried: { bounded: boolean; compacted: boolean }): Promise<boolean> {
  const note = (message: string): void => d.emit({ type: "notice", level: "warn", code: "context-limit", message });
  const bounded = tried.bounded ? null : boundTail(d.context.messages);
  if (bounded) {
    tried.bounded = true;
    const reason = "context limit";
    d.context.startEpoch(bounded.messages, reason);
    d.record({ t: "epoch", reason, messages: bounded.messages });
    note(`the request exceeded the model's context window; dropped ${bounded.dropped} and asking again`);
    return true;
  }
  if (tried.compacted) return false;
  tried.compacted = true;
  const r = await d.chain.dispatch({ type: "context.compact", sessionId: d.sessionId, auto: true });
  note(r.ok ? `the request exceeded the model's context window; compacted (${r.tokensBefore} → ${r.tokensAfter} tokens) and asking again` : `the request exceeded the model's context window, and compacting failed: ${r.error}`);
  return r.ok;
}

/** A turn that ends without the model's answer must not leave the log ending in a user message:
 *  the next prompt (`-c`, the REPL) would follow it as a second user message in a row, which the
 *  reasoner rejects (DeepSeek-R1#21: "does not support successive user or assistant messages").
 *  An assistant message saying what happened closes the turn — after tool results too, so every
 *  turn ends with an assistant message (where compaction finds turn boundaries) and the model
 *  reads next time why there was no answer. The log stays append-only. */
export function closeFailedTurn(d: RecoverDeps, stopReason: StopReason, error: string | undefined): void {
  const last = d.context.messages[d.context.messages.length - 1];
  // Closed already: the model's answer (or an incomplete one that was kept) is last.
  if (last === undefined || (last.role === "assistant" && !last.tool_calls?.length)) return;
  const why = error ?? stopReason;
  const message: AssistantMessage = { role: "assistant", content: `[deepcode] This turn ended without an answer (${stopReason}: ${why.slice(0, 300)}).` };
  if (d.context.keepsReasoning()) message.reasoning_content = "";
  d.context.append(message);
}
