// What the loop does when a turn cannot go on as asked: a request over the context window is
// made to fit (the turn's large messages bounded, else a compaction), and a turn that ends
// without the model's answer is closed so the history stays one the API accepts.

import type { AssistantMessage, StopReason, StreamEvent } from "../../contract/index.js";
import type { Chain } from "../chain.js";
import type { CacheFirstContext } from "../context/context.js";
import { boundAll, boundTail, boundTurn, type Bounded } from "../context/context-limit.js";
import { turnStarts } from "../context/compact.js";
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

/** What fitContext has tried in this turn: each step once. */
export interface FitTried {
  bounded: boolean;
  turn?: boolean;
  compacted: boolean;
  all?: boolean;
}

/** After the API refused a request as longer than the context window, make it fit, one step
 *  at a time (each once per turn): cut the tail's large messages, then the whole turn's, then
 *  compact, then cut every large message of the log. True when the request is worth sending
 *  again; the notice says exactly what was cut. */
export async function fitContext(d: RecoverDeps, tried: FitTried): Promise<boolean> {
  const note = (message: string): void => d.emit({ type: "notice", level: "warn", code: "context-limit", message });
  let compactFailed = ""; // said with the last resort's cut, or alone when there is none
  const apply = (bounded: Bounded): true => {
    const reason = "context limit";
    d.context.startEpoch(bounded.messages, reason);
    d.record({ t: "epoch", reason, messages: bounded.messages });
    const also = compactFailed ? `compacting could not help (${compactFailed}), so ` : "";
    note(bounded.prompt ? promptNote(bounded) : `the request exceeded the model's context window; ${also}cut ${bounded.cut.join(", ")} (the session keeps the cut version) and asking again`);
    return true;
  };
  if (!tried.bounded) {
    tried.bounded = true;
    const bounded = boundTail(d.context.messages);
    if (bounded) return apply(bounded);
  }
  if (!tried.turn) {
    tried.turn = true;
    const starts = turnStarts(d.context.messages);
    const bounded = boundTurn(d.context.messages, starts.at(-1) ?? 0);
    if (bounded) return apply(bounded);
  }
  if (!tried.compacted) {
    tried.compacted = true;
    const r = await d.chain.dispatch({ type: "context.compact", sessionId: d.sessionId, auto: true });
    if (r.ok) {
      note(`the request exceeded the model's context window; compacted (${r.tokensBefore} → ${r.tokensAfter} tokens) and asking again`);
      return true;
    }
    compactFailed = r.error ?? "it failed";
  }
  if (!tried.all) {
    tried.all = true;
    const bounded = boundAll(d.context.messages, LAST_RESORT_LARGE, LAST_RESORT_KEEP);
    if (bounded) return apply(bounded);
  }
  if (compactFailed) note(`the request exceeded the model's context window, and compacting failed: ${compactFailed}`);
  return false;
}

/** The last resort cuts every message of the log above this size to its first LAST_RESORT_KEEP. */
const LAST_RESORT_LARGE = 1_000;
const LAST_RESORT_KEEP = 300;

/** When the person's own prompt was cut: said first and plainly, since the model saw only
 *  its start; any other cut of the same step follows. */
function promptNote(b: Bounded): string {
  const own = b.cut.find((c) => c.startsWith("your message"));
  const size = own ? /of (\d+) characters to its first (\d+)/.exec(own) : null;
  const what = size ? `your message (${size[1]} characters) does not fit the model's context window: only its first ${size[2]} characters were sent` : "your message does not fit the model's context window: only its start was sent";
  const others = b.cut.filter((c) => c !== own);
  return `${what}, and the session keeps it so; attach less (a smaller file, a line range) or split it${others.length ? `. Also cut: ${others.join(", ")}` : ""}`;
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
