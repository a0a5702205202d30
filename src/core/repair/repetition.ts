// Degenerate repetition: a reply that ends in one unit repeated over and over — a word or a
// sentence until the output limit (DeepSeek-V3#1630, sglang#5224), or a markup token such as
// `<｜tool▁calls▁begin｜>` ×31 (Reasonix#8085). Such text is no answer, and kept in the log it
// is re-sent on every later request (and after `-c`), where it invites more of the same. The
// loop keeps it out of the log and the answer, asks once more, and then stops with
// `degenerate_output`.
//
// The test: the text's tail is periodic — every character equals the one `p` characters
// before it — over at least MIN_SPAN characters and MIN_REPEATS periods, for some period
// p ≤ MAX_PERIOD. Prose, code and tables are not periodic over that length; a ruler of `=`
// is, but not for 300 characters.

import type { ModelResponse } from "../../contract/index.js";

const MAX_PERIOD = 400;
const MIN_REPEATS = 10;
const MIN_SPAN = 300;
/** Only the tail is examined: a repetition runs to the end of what was generated. */
const WINDOW = 20_000;

export interface Repetition {
  /** One period of the repeated text. */
  unit: string;
  /** How many times it repeats. */
  times: number;
}

/** The repetition the text ends in, or null. The shortest period that qualifies is reported. */
export function trailingRepetition(text: string): Repetition | null {
  const t = text.length > WINDOW ? text.slice(-WINDOW) : text;
  const n = t.length;
  if (n < MIN_SPAN) return null;
  for (let p = 1; p <= MAX_PERIOD && p * MIN_REPEATS <= n; p++) {
    let i = n - 1;
    while (i - p >= 0 && t[i] === t[i - p]) i--;
    const span = n - 1 - i + p; // the periodic tail, its first period included
    const times = Math.floor(span / p);
    if (span >= MIN_SPAN && times >= MIN_REPEATS) {
      const start = n - span;
      return { unit: t.slice(start, start + p), times };
    }
  }
  return null;
}

/** A short, safe description of the repeated unit for a notice. */
export function describeRepetition(r: Repetition, where: string): string {
  const unit = r.unit.trim() || r.unit;
  const shown = unit.length > 60 ? `${unit.slice(0, 57)}…` : unit;
  return `the model's ${where} repeated ${JSON.stringify(shown)} ${r.times} times`;
}

/** What degenerated in the reply (its answer or its reasoning), in words, or undefined. Plain
 *  text counts only when it ran into the output limit (or the stream broke off): a person may
 *  ask for a line repeated fifty times, and that reply stops by itself. A repeated special
 *  token (`<｜tool▁calls▁begin｜>` ×31) is never an answer, however the reply ended. */
export function degenerateReply(r: ModelResponse): string | undefined {
  const m = r.message;
  const ranOn = r.finishReason === "length" || r.incomplete !== undefined;
  const counts = (x: Repetition | null): x is Repetition => x !== null && (ranOn || SPECIAL_TOKEN.test(x.unit));
  const inContent = trailingRepetition(m.content ?? "");
  if (counts(inContent)) return describeRepetition(inContent, "answer");
  // Reasoning that loops ends the reply with nothing usable only when no call came out of it.
  const inReasoning = m.tool_calls?.length ? null : trailingRepetition(m.reasoning_content ?? "");
  return counts(inReasoning) ? describeRepetition(inReasoning, "reasoning") : undefined;
}

/** A model's special token: `<｜…｜>` (full-width bars) or `<|…|>`. */
const SPECIAL_TOKEN = /<[｜|][^<>]*[｜|]>/;
