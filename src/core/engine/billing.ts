// A session's billing: each request's usage priced through model.usage (the cost engine, the
// ledger) and booked in the session file as a usage line, so a resumed session's totals (the
// status line, /status, `deepcode sessions`) hold what the ledger holds. What a turn cost is
// the turn's own (turn.ts); this is what outlives it.

import type { AgentIdentity, TurnProfile, Usage } from "../../contract/index.js";
import type { Chain } from "../chain.js";
import type { SessionRecord } from "../session/store.js";

export class SessionBilling {
  /** Own requests being priced (model.usage events this session dispatched itself). */
  private pricing = 0;

  constructor(
    private readonly s: { chain: Chain; sessionId: string; who: { agent?: AgentIdentity }; record(r: SessionRecord): void; now(): Date },
  ) {}

  /** This session is pricing one of its own requests (the model.usage core tells them apart). */
  get pricingOwn(): boolean {
    return this.pricing > 0;
  }

  /** Price a request's usage (model.usage) and record it; resolves to its cost in USD. */
  async price(turn: number, step: number, usage: Usage, profile: TurnProfile, estimated = false): Promise<number> {
    const at = this.s.now().toISOString();
    this.pricing++;
    let priced;
    try {
      priced = await this.s.chain.dispatch({ type: "model.usage", sessionId: this.s.sessionId, turn, step, model: profile.model, tier: profile.tier, usage, at, ...(estimated ? { estimated } : {}), ...this.s.who });
    } finally {
      this.pricing--;
    }
    this.s.record({ t: "usage", turn, step, model: profile.model, usage, costUsd: priced.costUsd, at, ...(estimated ? { estimated } : {}) });
    return priced.costUsd;
  }

  /** Book a request made for the session outside its own rounds (a subagent's run, an MCP
   *  server's sampling), already priced by whoever made it. */
  book(turn: number, via: "agent" | "sampling", model: string, usage: Usage, costUsd: number): void {
    this.s.record({ t: "usage", turn, step: 0, model, usage, costUsd, at: this.s.now().toISOString(), via });
  }
}
