// When automatic compaction runs: at a threshold of the window, and earlier between turns.
//
// Between turns — before a prompt's first model round — compaction is cheapest: nothing is in
// flight, so the digest can stand for every earlier turn and only the new prompt stays
// verbatim; what the next rounds re-send uncached is the digest and the prompt. Mid-turn the
// turn in progress must stay verbatim (the model is using what it just read), and that is what
// made compaction dear: measured on the peers bench's long session (64k window, each task
// reading ~20k tokens), compacting only at 80% did so in the middle of nearly every task and
// re-sent the task so far (~34k tokens) uncached each time; compacting at 50% between turns
// does it every second task and re-sends ~1k. So: `betweenTurns` (default 0.5 of the window)
// before a turn's first round, `threshold` (default 0.8) before any other.
//
// Breakers, so it can never loop: after a compaction that freed less than 20% there is no
// other automatic one (it would not help); a failed attempt waits 3 turns before trying again;
// "too few turns yet" arms nothing. A compaction that freed enough may be followed by another
// whenever the context passes a mark again (each one leaves it smaller than it found it).

import type { CompactionResult } from "../../contract/index.js";

const RETRY_AFTER_TURNS = 3;
const MIN_FREED = 0.2;
export const DEFAULT_THRESHOLD = 0.8;
export const DEFAULT_BETWEEN_TURNS = 0.5;

export class CompactionBreakers {
  private last?: { turn: number; freed: number; failed: boolean };

  due(turn: number, usedTokens: number, thresholdTokens: number): boolean {
    if (usedTokens < thresholdTokens) return false;
    if (!this.last) return true;
    if (this.last.failed) return turn - this.last.turn >= RETRY_AFTER_TURNS;
    return this.last.freed >= MIN_FREED;
  }

  record(turn: number, r: CompactionResult): void {
    if (r.ok) this.last = { turn, freed: 1 - r.tokensAfter / r.tokensBefore, failed: false };
    else if (!r.error?.startsWith("nothing to compact")) this.last = { turn, freed: 1, failed: true };
  }
}
