// A session's billing: each request the `model.request` core billed (src/core/billed-model.ts:
// it dispatches model.usage, so the cost engine prices it and the ledger books it) is booked in
// the session file as a usage line, so a resumed session's totals (the status line, /status,
// `deepcode sessions`) hold what the ledger holds. What a turn cost is the turn's own
// (turn.ts); this is what outlives it. Nothing here prices: the chain's answer is the price.

import type { BilledResponse, Usage } from "../../contract/index.js";
import type { SessionRecord } from "../session/store.js";

type Billed = NonNullable<BilledResponse["billed"]>;

export class SessionBilling {
  /** The session's own requests under way (its rounds, a compaction's digest): a model.usage
   *  for the session while none is, was asked for by someone else (the model.usage core). */
  private own = 0;

  constructor(private readonly s: { record(r: SessionRecord): void; now(): Date }) {}

  /** Whether one of this session's own requests is under way. */
  get requestingOwn(): boolean {
    return this.own > 0;
  }

  /** Runs one of the session's own requests (its usage line is booked by `record`). */
  async ownRequest<T>(request: () => Promise<T>): Promise<T> {
    this.own++;
    try {
      return await request();
    } finally {
      this.own--;
    }
  }

  /** Book one of the session's own requests, as the model.request core billed it. */
  record(turn: number, step: number, model: string, billed: Billed): void {
    const { usage, costUsd, at, estimated } = billed;
    this.s.record({ t: "usage", turn, step, model, usage, costUsd, at, ...(estimated ? { estimated } : {}) });
  }

  /** Book a request made for the session outside its own rounds (a subagent's run, an MCP
   *  server's sampling, a plugin's call), priced by the chain when it was made. */
  book(turn: number, via: "agent" | "sampling", model: string, usage: Usage, costUsd: number): void {
    this.s.record({ t: "usage", turn, step: 0, model, usage, costUsd, at: this.s.now().toISOString(), via });
  }
}
