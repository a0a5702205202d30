// The `model.request` core: the provider's answer, billed in the one place every request
// passes. Once the reply is in, `model.usage` is dispatched for it — with the session, turn,
// step, tier and agent the request carries — so the cost engine prices it, the usage ledger
// books it (exactly once) and budgets see it, whoever made the request: the engine's rounds,
// a compaction's digest, an MCP server's sampling, a plugin through `api.dispatch`. A reply
// that came without usage (a proxy that drops the usage chunk, a stream cut before its end) is
// billed at deepcode's estimate, flagged `estimated`; so is each earlier attempt cut after it
// started and asked again (`dropped`: the API bills those too); a request that failed before
// any reply arrived is not billed (the API bills nothing for it either).

import type { BilledResponse, EventOf, ModelResponse, Usage } from "../contract/index.js";
import type { Chain } from "./chain.js";
import { estimateUsage, replyArrived } from "./engine/usage-estimate.js";

export type ModelSender = (e: EventOf<"model.request">) => Promise<ModelResponse>;

/** The core answer for `model.request`: `send` makes the request (the provider), then the
 *  reply is billed through `model.usage`. `now`: the clock prices are looked up at when the
 *  request does not say (`at`). */
export function billedModel(chain: Chain, send: ModelSender, now: () => Date = () => new Date()): (e: EventOf<"model.request">) => Promise<BilledResponse> {
  return async (e) => {
    const response = await send(e);
    const at = e.at ?? now().toISOString();
    const book = (usage: Usage, estimated: boolean) =>
      chain.dispatch({
        type: "model.usage",
        sessionId: e.sessionId,
        turn: e.turn,
        step: e.step,
        model: e.request.model,
        ...(e.tier !== undefined ? { tier: e.tier } : {}),
        usage,
        at,
        ...(estimated ? { estimated } : {}),
        ...(e.agent ? { agent: e.agent } : {}),
      });
    // Attempts cut mid-stream and asked again: billed by the API, so booked (at the estimate
    // when they came without usage).
    for (const d of response.dropped ?? []) if (replyArrived(d)) await book(d.usage ?? estimateUsage(e.request, d), d.usage === undefined);
    const estimated = !response.usage && replyArrived(response);
    const usage = response.usage ?? (estimated ? estimateUsage(e.request, response) : undefined);
    if (!usage) return response;
    const priced = await book(usage, estimated);
    return { ...response, billed: { usage, costUsd: priced.costUsd, costCny: priced.costCny, at, ...(estimated ? { estimated } : {}) } };
  };
}
