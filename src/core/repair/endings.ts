// How a model round without tool calls ends the turn. A reply that says nothing, or stops where
// a tool call should follow, is a known DeepSeek failure (public reports: an empty or
// whitespace-only reply after tool results; reasoning and then `finish_reason: stop` with no
// answer; "Now let me read the file:" and no call). Each gets one reminder; if the next reply
// fails the same way, the turn ends with a stop reason that says what happened — never a
// `completed` with nothing in it. A reply cut by the output limit is continued (at most
// `maxContinuations` times). A round that ran tools in between resets the reminder: the model
// made progress, so a later empty ending is a new one — but only `maxReminders` reminders are
// spent in one turn: a model that alternates tool calls with reasoning-only stops (Reasonix#6617:
// 25 requests) is stopped at the next such ending once they are spent.

import type { AssistantMessage, FinishReason, StopReason } from "../../contract/index.js";

export type Ending =
  | { kind: "complete" }
  | { kind: "stop"; reason: StopReason; error: string }
  /** Ask the model again with `prompt` (a user message), and tell the person `notice`. */
  | { kind: "again"; code: string; notice: string; prompt: string };

/** The last line of a visible answer that promises an action and stops (`…:` or `…`). */
const DANGLING = /(?::|\.\.\.|…)\s*$/;

export class EndingJudge {
  private continuations = 0;
  private reminded = false;
  private reminders = 0;

  constructor(
    private readonly maxContinuations: number,
    private readonly maxReminders = 2,
  ) {}

  /** A reminder is spent now, or none is left (already reminded, or the turn's budget is used). */
  private remind(): boolean {
    if (this.reminded || this.reminders >= this.maxReminders) return false;
    this.reminded = true;
    this.reminders++;
    return true;
  }

  /** Tools ran: a later ending is judged afresh. */
  progressed(): void {
    this.reminded = false;
  }

  judge(finishReason: FinishReason | null, m: AssistantMessage): Ending {
    if (finishReason === "length") {
      if (this.continuations++ >= this.maxContinuations) {
        return { kind: "stop", reason: "output_truncated", error: `the reply hit the output limit ${this.maxContinuations + 1} times` };
      }
      return {
        kind: "again",
        code: "continuation",
        notice: `reply cut by the output limit; continuing (${this.continuations}/${this.maxContinuations})`,
        prompt: "[deepcode] Your reply was cut off by the output limit. Continue exactly where you stopped.",
      };
    }
    const text = (m.content ?? "").trim();
    const thought = (m.reasoning_content ?? "").trim() !== "";
    if (text === "") {
      if (!this.remind()) return { kind: "stop", reason: "empty_reply", error: this.reminded ? "the model sent no answer, again after a reminder" : `the model sent no answer, after ${this.reminders} reminders this turn` };
      return thought
        ? { kind: "again", code: "empty-reply", notice: "the model stopped after thinking, with no answer; asking it to finish", prompt: "[deepcode] Your last reply had reasoning but no answer and no tool call. Make the tool call you planned, or give your final answer." }
        : { kind: "again", code: "empty-reply", notice: "the model sent an empty reply; asking it to continue", prompt: "[deepcode] Your last reply was empty. Continue with the task, or give your final answer." };
    }
    const last = text.split("\n").pop() ?? "";
    if (DANGLING.test(last)) {
      if (!this.remind()) return { kind: "stop", reason: "unfinished_reply", error: `the reply stopped where a tool call should follow ("${clip(last)}"), ${this.reminded ? "again after a reminder" : `after ${this.reminders} reminders this turn`}` };
      return {
        kind: "again",
        code: "unfinished-reply",
        notice: `the reply stopped where a tool call should follow ("${clip(last)}"); asking the model to go on`,
        prompt: "[deepcode] Your reply ended as if a tool call would follow, but no tool call came. Make the call now, or give your final answer.",
      };
    }
    return { kind: "complete" };
  }
}

function clip(s: string): string {
  return s.length > 60 ? `…${s.slice(-59)}` : s;
}
