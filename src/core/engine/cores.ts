// The engine's own answers — the core tier — for the events it implements, for its own session:
// the chain routes an event carrying this session's id here (Chain.setSessionCores), so several
// engines (a main agent and its subagents) share one chain and its hooks without replacing each
// other's answers. Each is the one place that event is answered for the session; hooks in the
// tiers above can observe, rewrite or pre-empt it. What the answers need of the engine is
// passed in explicitly (EngineAccess), so this file can be read on its own.

import type { AgentIdentity, EventName, RewindResult, StreamEvent, SystemSection, TailNote, ToolContext, TurnProfile, Usage } from "../../contract/index.js";
import type { SessionRecord } from "../session/store.js";
import type { SessionBilling } from "./billing.js";
import type { Chain, SessionCores } from "../chain.js";
import type { CacheFirstContext } from "../context/context.js";
import { compactContext } from "../context/compact.js";
import { canonicalize } from "../context/canonical.js";
import { costOf, type PriceTable } from "../cost/index.js";
import { callTool, definitionOf, parseArguments, PROXY_DEFINITION, type ToolRegistry } from "./tools.js";

export interface EngineAccess {
  context(): CacheFirstContext;
  /** The running turn's profile, or the session's between turns. */
  turnProfile(): TurnProfile;
  running(): boolean;
  turnSignal(): AbortSignal | undefined;
  turn(): number;
  emit(e: StreamEvent): void;
  /** The session's account: books its own requests (a compaction's digest) as the
   *  model.request core billed them, and tells them from requests others make for it. */
  billing: Pick<SessionBilling, "record" | "ownRequest" | "requestingOwn">;
  /** A subagent's identity, carried on its requests. */
  who: { agent?: AgentIdentity };
  /** The session's clock (its requests are priced at it). */
  now(): Date;
  /** Add a request outside the model rounds (a compaction's digest) to the running turn. */
  billToTurn(usage: Usage, costUsd: number): void;
  /** Book a request made for the session by someone else (an MCP server's sampling). */
  book(via: "agent" | "sampling", model: string, usage: Usage, costUsd: number): void;
  record(r: SessionRecord): void;
  /** The core sections of the system prompt (deepcode's base prompt, or a subagent's own). */
  system(root: string): SystemSection[];
  tailNotes(): Promise<{ notes: TailNote[] }>;
  rewind(turn: number): RewindResult;
  toolContext(callId: string, signal?: AbortSignal): ToolContext;
  registry: ToolRegistry;
  prices?: PriceTable;
  keepTurns: number;
}

/** The events an engine answers for its own session (`deepcode --events` names them). */
export const ENGINE_EVENTS: readonly EventName[] = [
  "session.start", "session.end", "prompt.submit", "context.system", "context.tail", "context.build", "context.prefix.changed",
  "context.compact", "context.rewind", "model.stream", "model.response", "model.usage", "model.repair", "tool.list", "tool.input", "tool.call",
  "tool.result", "turn.start", "turn.step", "turn.complete",
];

export function sessionCores(c: Chain, e: EngineAccess): SessionCores {
  const unpriced = new Set<string>();
  return {
    "session.start": () => undefined,
    "session.end": () => undefined,
    "prompt.submit": (ev) => ({ text: ev.text }),
    "context.system": (ev) => ({ sections: e.system(ev.root) }),
    "context.tail": () => e.tailNotes(),
    "context.build": () => {
      const p = e.turnProfile();
      const b = e.context().build({ model: p.model, thinking: p.thinking, effort: p.effort, maxTokens: p.maxTokens });
      return { request: b.request, newMessages: b.newMessages, zones: b.zones, fingerprint: e.context().currentPrefix.fingerprint };
    },
    "context.prefix.changed": (ev) => {
      e.emit({ type: "notice", level: "warn", code: "prefix-changed", message: `the cached prefix changes (${ev.reason}): the next request re-reads about ${ev.tokens} tokens` });
    },
    "context.compact": async (ev) => {
      // During a turn the digest goes to the turn's model (the cache it would hit is that
      // model's), can be interrupted with the turn, and is billed to the turn.
      const profile = e.turnProfile();
      const running = e.running();
      const r = await compactContext({
        context: e.context(),
        params: { model: profile.model, thinking: profile.thinking, effort: profile.effort },
        request: async (request) => {
          const turn = e.turn();
          const response = await e.billing.ownRequest(() =>
            c.dispatch({ type: "model.request", sessionId: ev.sessionId, turn, step: 0, ...(profile.tier !== undefined ? { tier: profile.tier } : {}), ...e.who, at: e.now().toISOString(), request, signal: running ? e.turnSignal() : undefined }),
          );
          const billed = response.billed;
          if (billed) {
            e.billing.record(turn, 0, request.model, billed);
            if (running) e.billToTurn(billed.usage, billed.costUsd);
          }
          return response;
        },
        keepTurns: e.keepTurns,
        instructions: ev.instructions,
      });
      if (r.ok && r.messages) e.record({ t: "epoch", reason: "compaction", messages: r.messages });
      const { messages: _m, ...result } = r;
      return result;
    },
    "context.rewind": (ev) => e.rewind(ev.turn),
    "model.stream": (ev) => e.emit({ type: "model.delta", step: ev.step, delta: ev.delta }),
    "model.response": (ev) => ev.response,
    "model.usage": (ev) => {
      try {
        const cost = costOf(ev.usage, ev.model, new Date(ev.at), e.prices);
        // A request someone else made for this session (an MCP server's sampling): the
        // session's account and its turn have it too, as the ledger does.
        if (!e.billing.requestingOwn) e.book("sampling", ev.model, ev.usage, cost.usd);
        return { costUsd: cost.usd, costCny: cost.cny, savingUsd: cost.savingUsd };
      } catch (err) {
        if (!e.billing.requestingOwn) e.book("sampling", ev.model, ev.usage, 0);
        if (!unpriced.has(ev.model)) {
          unpriced.add(ev.model);
          e.emit({ type: "notice", level: "warn", code: "no-price", message: `${(err as Error).message}; its cost shows as 0` });
        }
        return { costUsd: 0, costCny: 0 };
      }
    },
    "model.repair": (ev) => e.emit({ type: "repair", kind: ev.kind, detail: ev.detail }),
    // On-demand tools (ToolSpec.onDemand) stay out: they are reached through the proxy.
    "tool.list": () => [...e.registry.list().filter((t) => t.spec.onDemand === undefined).map((t) => canonicalize(definitionOf(t.spec))), PROXY_DEFINITION],
    "tool.input": (ev) => parseArguments(ev.tool, ev.arguments),
    "tool.call": (ev) => callTool(e.registry, (id, signal) => e.toolContext(id, signal), ev),
    "tool.result": (ev) => ev.output,
    "turn.start": () => undefined,
    "turn.step": () => undefined,
    "turn.complete": () => undefined,
  };
}
