// Calibration of token estimates. What was sent is counted exactly by the API's `usage`; only
// the new delta is estimated (src/core/tokens.ts), and this learns the ratio actually observed,
// so later estimates track the real tokenizer (V4 tokenises slightly differently from V3).
import { estimateTokens } from "../tokens.js";

/** Learns actual/estimated from usage, so later estimates track the real tokenizer. */
export class Calibration {
  private estimated = 0;
  private actual = 0;

  get ratio(): number {
    // Until enough has been observed, trust the rule of thumb.
    if (this.estimated < 200) return 1;
    return Math.min(2, Math.max(0.5, this.actual / this.estimated));
  }

  observe(estimated: number, actual: number): void {
    if (estimated <= 0 || actual <= 0) return;
    this.estimated += estimated;
    this.actual += actual;
  }

  estimate(text: string): number {
    return Math.round(estimateTokens(text) * this.ratio);
  }
}
