// When automatic compaction runs: at a threshold of the window, with two breakers so it can
// never loop — no second automatic compaction within 3 turns of the last, and none at all after
// one that freed less than 20% (it would not help). A failed attempt arms only the 3-turn
// breaker (tried again later, not on every step); "too few turns yet" arms nothing.

import type { CompactionResult } from "../../contract/index.js";

const MIN_TURNS_APART = 3;
const MIN_FREED = 0.2;

export class CompactionBreakers {
  private last?: { turn: number; freed: number };

  due(turn: number, usedTokens: number, thresholdTokens: number): boolean {
    if (usedTokens < thresholdTokens) return false;
    return !this.last || (turn - this.last.turn >= MIN_TURNS_APART && this.last.freed >= MIN_FREED);
  }

  record(turn: number, r: CompactionResult): void {
    if (r.ok) this.last = { turn, freed: 1 - r.tokensAfter / r.tokensBefore };
    else if (!r.error?.startsWith("nothing to compact")) this.last = { turn, freed: 1 };
  }
}
