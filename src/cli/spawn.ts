// The host's answer to `agent.spawn`: a subagent is an engine session of its own on the same
// chain — so its calls pass the very same hooks (the permission gate, PreToolUse hooks, the
// fence, the sandbox, the budget gate, the usage ledger) — with its own cache-first context.
//
// What the host decides here, for every spawner (the Task tool or any plugin):
// - Depth: one counter, from the calling session's identity; deeper than `subagents.maxDepth`
//   (default and most 3) is refused. A type an agent may not spawn (`Agent(x)` in its file) too.
// - Tools: the names asked for, intersected with what the calling session has now — a view of
//   its registry, so a subagent never holds more than its parent, and nesting never widens.
// - Model: `inherit` (the calling turn's profile), a tier name (its profile from settings
//   `tiers`), or a model id.
// - Parallel: at most `subagents.maxParallel` subagents of one calling session run at once (the
//   rest wait, interruptibly); a subagent's own subagents count against its own slots, so
//   nested runs cannot starve each other.
// - Cost: the subagent's turn cost is billed to the calling session's turn (its requests are in
//   the ledger already, under the main session); transcripts are saved beside the main
//   session's and linked from the caller's.

import { relative } from "node:path";
import { ZERO_USAGE, type ChatMessage, type EventOf, type SpawnResult, type StreamEvent, type TurnProfile } from "../contract/index.js";
import { Engine } from "../core/engine/engine.js";
import { isTierName, TIER_NAMES } from "../core/cost/index.js";
import type { Chain } from "../core/chain.js";
import type { EngineOptions } from "../core/engine/engine.js";
import type { SessionStore } from "../core/session/store.js";
import type { CostControl } from "../core/cost/run/control.js";
import { profileOf } from "../core/cost/run/tier-choice.js";
import { KNOWN_MODELS } from "../providers/index.js";

export const MAX_DEPTH = 3;
export const DEFAULT_PARALLEL = 3;

export interface SpawnLimits {
  maxDepth: number;
  maxParallel: number;
}

/** What spawning reads of the assembled app (assemble.ts's App has it): named here so this file
 *  does not import assemble.ts, which creates the Spawner. */
export interface SpawnHost {
  chain: Chain;
  store: SessionStore;
  /** Read at each use: the current session's engine, once there is one. */
  engine?: Engine;
  /** The engines of sessions plugins drive, by id (several at once: an editor's threads). */
  driven?: ReadonlyMap<string, Engine>;
  cost?: CostControl;
  /** The session's model (what `-m`/settings chose). */
  model: string;
  engineOptions(): EngineOptions;
}

/** The model ids and tier names a subagent may name: the capability table, the session's model
 *  and every tier's (settings `tiers` may name another provider's model). */
export function servedModels(app: Pick<SpawnHost, "model" | "cost">): string[] {
  const tiers = app.cost ? Object.entries(app.cost.tiers) : [];
  return [...new Set([...KNOWN_MODELS, ...TIER_NAMES, app.model, ...tiers.flatMap(([name, t]) => [name, t.model])])];
}

export class Spawner {
  /** Running subagents' engines by session, with the agent types each may spawn (if limited). */
  private readonly children = new Map<string, { engine: Engine; agents?: readonly string[] }>();
  private readonly slots = new Map<string, { used: number; waiting: Array<() => void> }>();

  constructor(private readonly app: SpawnHost, private readonly limits: SpawnLimits) {}

  /** The engine of a session that is running now: the main one, or a subagent's. */
  engineOf(sessionId: string): Engine | undefined {
    if (this.app.engine?.sessionId === sessionId) return this.app.engine;
    return this.app.driven?.get(sessionId) ?? this.children.get(sessionId)?.engine;
  }

  async spawn(e: EventOf<"agent.spawn">): Promise<SpawnResult> {
    const parent = this.engineOf(e.sessionId);
    if (!parent) return refused(`no running session '${e.sessionId}' to start a subagent from`);
    const depth = (parent.identity?.depth ?? 0) + 1;
    if (depth > this.limits.maxDepth) {
      return refused(`subagents nest at most ${this.limits.maxDepth} deep (settings subagents.maxDepth), and this one would be at depth ${depth}; do this task yourself`);
    }
    const may = this.children.get(e.sessionId)?.agents;
    if (may && !may.some((n) => n.toLowerCase() === e.name.toLowerCase())) return refused(`this agent may start only ${may.join(", ")} subagents, not ${e.name}`);
    const tools = toolsFor(e, parent);
    const profile = this.profileFor(e.model, parent.turnProfile);
    if (!(await this.acquire(e.sessionId, e.signal))) return refused("interrupted before it started");
    try {
      return await this.run(e, parent, depth, tools, profile);
    } finally {
      this.release(e.sessionId);
    }
  }

  private async run(e: EventOf<"agent.spawn">, parent: Engine, depth: number, tools: string[], profile: TurnProfile): Promise<SpawnResult> {
    const base = this.app.engineOptions();
    const top = parent.identity;
    const identity = {
      name: e.name,
      task: e.task,
      depth,
      parentSessionId: parent.sessionId,
      rootSessionId: top?.rootSessionId ?? parent.sessionId,
      rootTurn: top?.rootTurn ?? parent.turns,
    };
    const store = this.app.store.agents(identity.rootSessionId);
    const child = await Engine.start({
      ...base,
      registry: parent.tools.restrict(tools),
      store,
      model: profile.model,
      modelChosen: false,
      profile,
      appendSystemPrompt: undefined,
      maxSteps: e.maxTurns ?? base.maxSteps,
      now: parent.clock ?? base.now,
      agent: { identity, system: e.system },
    });
    this.children.set(child.sessionId, { engine: child, agents: e.agents });
    parent.link({ id: child.sessionId, name: e.name, task: e.task, ...(e.callId ? { callId: e.callId } : {}), file: relative(this.app.store.dir, store.fileOf(child.sessionId)) });
    let end: Extract<StreamEvent, { type: "turn.complete" }> | undefined;
    try {
      for await (const ev of child.submit(e.prompt, { signal: e.signal })) {
        if (ev.type === "turn.complete") end = ev;
        // A subagent's warnings (a compaction that failed, a call loop, a price it lacks…)
        // reach the person as the main agent's do, named for the agent; its progress is the
        // spawner's to show (onEvent).
        if (ev.type === "notice" && ev.level === "warn") {
          await this.app.chain.dispatch({ type: "ui.render", item: { kind: "text", text: `subagent ${e.name} (${e.task}): ${ev.message}`, level: "warn" } }).catch(() => undefined); // showing it is best effort: the run goes on
        }
        try {
          e.onEvent?.(ev);
        } catch {
          // a spawner's progress callback that throws only loses its display; the run goes on
        }
      }
    } finally {
      this.children.delete(child.sessionId);
      await child.close("done");
    }
    if (!end) return { ...refused("the subagent's turn ended without an answer (a bug)"), sessionId: child.sessionId };
    parent.book("agent", profile.model, end.usage, end.costUsd);
    return {
      sessionId: child.sessionId,
      stopReason: end.stopReason,
      text: finalMessage(child.messages) || end.text,
      steps: end.steps,
      usage: end.usage,
      costUsd: end.costUsd,
      ...(end.error ? { error: end.error } : {}),
      tools,
      model: profile.model,
    };
  }

  /** `inherit` (or nothing): the calling turn's profile; a tier: its profile; a model id this
   *  host serves (servedModels): that model. Any other name (`fable`, Claude's `sonnet`) is the
   *  calling turn's profile too: it must never reach the API as a model id (a 400 for the
   *  Task). The agents mod says so when the agent loads; a plugin's spawn gets the same rule. */
  private profileFor(model: string | undefined, calling: TurnProfile): TurnProfile {
    const m = model?.trim();
    if (!m || m === "inherit") return { ...calling };
    const tiers = this.app.cost?.tiers;
    if (isTierName(m)) return tiers ? profileOf(m, tiers) : { ...calling }; // a tier name is never a model id
    if (!servedModels(this.app).includes(m)) return { ...calling };
    return { model: m };
  }

  private async acquire(sessionId: string, signal?: AbortSignal): Promise<boolean> {
    const s = this.slots.get(sessionId) ?? { used: 0, waiting: [] };
    this.slots.set(sessionId, s);
    while (s.used >= this.limits.maxParallel) {
      if (signal?.aborted) return false;
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          signal?.removeEventListener("abort", wake);
          const i = s.waiting.indexOf(wake);
          if (i >= 0) s.waiting.splice(i, 1);
          resolve();
        };
        s.waiting.push(wake);
        signal?.addEventListener("abort", wake, { once: true });
      });
    }
    if (signal?.aborted) return false;
    s.used++;
    return true;
  }

  private release(sessionId: string): void {
    const s = this.slots.get(sessionId);
    if (!s) return;
    s.used--;
    s.waiting[0]?.();
  }
}

/** What the subagent gets: of the calling session's tools now, those asked for (all when none
 *  are named), less the disallowed ones, and only the read-only ones when asked. */
function toolsFor(e: EventOf<"agent.spawn">, parent: Engine): string[] {
  const named = (list: readonly string[], tool: string): boolean =>
    list.some((n) => n === tool || (/^mcp__[^_]/.test(n) && (tool.startsWith(`${n.replace(/__\*$/, "")}__`))));
  return parent.tools
    .list()
    .filter((t) => !e.tools || named(e.tools, t.spec.name))
    .filter((t) => !e.disallowedTools || !named(e.disallowedTools, t.spec.name))
    .filter((t) => !e.readOnly || t.spec.readOnly)
    .map((t) => t.spec.name);
}

function refused(why: string): SpawnResult {
  return { refused: why, stopReason: "error", text: "", steps: 0, usage: { ...ZERO_USAGE }, costUsd: 0, error: why, tools: [], model: "" };
}

/** The subagent's last assistant message with text: what it hands back. */
function finalMessage(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === "assistant" && typeof m.content === "string" && m.content.trim()) return m.content;
  }
  return "";
}

/** Settings `subagents`, kept inside its bounds (a warning names what was changed). */
export function spawnLimits(v: unknown, warn: (m: string) => void): SpawnLimits {
  const o = typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  let maxDepth = MAX_DEPTH;
  if (typeof o.maxDepth === "number") {
    maxDepth = Math.max(0, Math.min(MAX_DEPTH, Math.floor(o.maxDepth)));
    if (maxDepth !== o.maxDepth) warn(`subagents.maxDepth ${o.maxDepth} is outside 0–${MAX_DEPTH}; using ${maxDepth}`);
  }
  let maxParallel = DEFAULT_PARALLEL;
  if (typeof o.maxParallel === "number") {
    maxParallel = Math.max(1, Math.min(16, Math.floor(o.maxParallel)));
    if (maxParallel !== o.maxParallel) warn(`subagents.maxParallel ${o.maxParallel} is outside 1–16; using ${maxParallel}`);
  }
  return { maxDepth, maxParallel };
}
