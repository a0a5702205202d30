// A turn whose tool output can be large: the prompt asks for a whole log, a verbose run, a dump.
// Such a result can reach the bound on a tool result (settings `toolResultMaxBytes`, 32 KiB by
// default) where a usual one is a few hundred tokens, so the estimate's high case allows for one
// result at the bound and the estimate line says so (issue 39: a large-output turn cost 4× the
// high end shown). Only the prompt decides: words that ask for output in full, in English and
// Chinese. A test run alone does not: most print a screen.

import type { TurnTokens } from "./delegation.js";

const LARGE_EN = new RegExp(
  "\\b(?:verbose|full (?:log|output|trace)|whole (?:log|output|file)|entire (?:log|output|file)|" +
    "all (?:the |of the )?(?:output|logs?)\\b|dump|logs?\\b|stack ?traces?|tail -f)",
  "i",
);
const LARGE_ZH = /(?:日志|日誌|完整输出|完整輸出|详细输出|詳細輸出|全部输出|全部輸出|堆栈|堆疊)/;

/** Whether the prompt asks for output that can be large. */
export function asksForLargeOutput(prompt: string): boolean {
  return LARGE_EN.test(prompt) || LARGE_ZH.test(prompt);
}

/** Tokens of one tool result at the bound of `bytes` (about four bytes a token for logs). */
export function largeResultTokens(bytes: number): number {
  return Math.ceil(bytes / 4);
}

/** The high case with one large result entering after its first round: read once at the miss
 *  price, then re-sent from the cache by every later round. */
export function withLargeResult(t: TurnTokens, tokens: number): TurnTokens {
  if (t.rounds < 2 || tokens <= 0) return t;
  return { ...t, miss: t.miss + tokens, hit: t.hit + tokens * (t.rounds - 2) };
}
