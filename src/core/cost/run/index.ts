// The cost engine in a running deepcode: hooks on the chain (the usage ledger, tiers, budgets,
// the `cost.estimate` core answer) and the control the REPL calls (`/cost`, `/tier`, the
// pre-turn chooser, raising a budget).
//
// Where each hook sits, and why:
//   turn.start   prepend "cost-budget"   The budget gate, outermost (installed before any
//                                        plugin loads): it refuses a turn at 100% before any
//                                        other hook runs, and at 80% it overrides whatever
//                                        profile the inner hooks chose with chat-fast. No user,
//                                        org or policy plugin can lift it; only raiseBudget.
//   turn.start   builtin "cost-tiers"    The tier's profile (pinned, auto or the model's):
//                                        deepcode's own default, so user plugins wrap it and
//                                        may change the profile it returns.
//   model.usage  prepend "cost-ledger"   Outermost, so it sees the usage exactly as the API
//                                        reported it, and the price after every hook; a plugin
//                                        answering without next() cannot hide a request.
//   cost.estimate core                   The estimate itself; plugins observe or rewrite it.
//
// A subagent's turn (turn.start with `agent`) passes the budget gate like any turn (refused at
// 100%, chat-fast at 80%), but keeps the profile its spawner chose (no tier planning) and has
// no estimate of its own: its requests go to the ledger under the main session and turn it
// works for (marked with the agent), so they count in that turn's estimate check and in /cost.
//
// The REPL's turn: estimate(prompt, engine) → show estimateLine(e) → on 1–4 pick(tier) → if
// e.budget.state is "exhausted" and canRaise, confirm and raiseBudget() → engine.submit().
// Notices (a downgrade, a ledger that cannot be written) go to opts.notify; without one, -p
// writes them to stderr and the REPL collects them with takeNotices().

import type { TurnProfile, Usage } from "../../../contract/index.js";
import {
  budgetState, costOf, estimateLineVariants, familyOf, floorToCacheUnit, formatEstimateLine, isPeak, isTierName, ledgerRecord,
  MAX_SHAPES, MIN_SHAPES, pickShapes, runsEvidence, shapesOf, type RunEvidence, type TurnShape,
  TIER_FOR_CLASS, TIER_NAMES, toCostEstimates,
  type BudgetState, type Cost, type Currency, type LedgerEstimate, type PriceTable, type TaskClass, type TierName, type TierProfiles, type TurnEstimate,
} from "../index.js";
import type { Engine } from "../../engine/engine.js";
import type { Chain } from "../../chain.js";
import { Book } from "./book.js";
import type { CostControl, CostNotice, InstallCostOptions, TurnCostEstimate } from "./control.js";
import { Budgets, holdContinuation } from "./budget-gate.js";
import { computeEstimate, foldBack } from "../../estimate/session.js";
import { classFor, noteTurn, recentlyCached, type PlanMemory } from "./memory.js";
import { largeResultTokens } from "../../estimate/large-output.js";
import { DEFAULT_RESULT_MAX_BYTES } from "../../context/bound.js";
import { formatCostReport, formatTiers } from "./repl-text.js";
import { readCostSettings, type CostSettingsSource, type EstimateMode, type TierMode } from "./settings.js";
import { matchTier, planTurn, profileOf, switchNote, thinks, type AutoState, type ModelFacts } from "./tier-choice.js";

export type { CostControl, CostNotice, InstallCostOptions, TurnCostEstimate } from "./control.js";
export type { CostSettingsSource, EstimateMode, TierMode } from "./settings.js";
export type { ModelFacts } from "./tier-choice.js";

interface SessionState {
  /** The last request this process saw in the session, and whether it thought. */
  last?: { usage: Usage; model: string; thinking: boolean };
  /** What each model family's cache holds of this session: its last request and reply, in
   *  whole units (the server caches per model; plan mode's planner and executor keep two). */
  cachedBy: Record<string, number>;
  /** Whether the current turn's profile thinks. */
  thinking?: boolean;
  auto: AutoState;
  /** The estimate the REPL asked for, to bind to the turn with the same prompt. */
  pending?: { prompt: string; e: TurnEstimate };
  /** The estimate recorded on the current turn's ledger lines. */
  turnEstimate?: { turn: number; value: LedgerEstimate };
  /** The class of a plan under way (memory.ts). */
  plan: PlanMemory;
}

/** What the cost engine reads of the assembled app (src/cli/assemble.ts's App has it): named
 *  here so the engine does not know the CLI, which installs it. */
export interface CostHost {
  chain: Chain;
  root: string;
  home: string;
  settings: CostSettingsSource;
  /** The capability table's facts of a model (family, thinking by default). */
  caps: ModelFacts;
  prices: PriceTable;
  /** Read at each use: the current session's engine, once there is one. */
  engine?: Engine;
  /** The engines of sessions plugins drive, by id (several at once: an editor's threads). */
  driven?: ReadonlyMap<string, Engine>;
}

const installed = new WeakMap<CostHost, RunningCost>();

/** One tool result at the default bound, as a large output's allowance (core large-output.ts). */
const LARGE_RESULT = largeResultTokens(DEFAULT_RESULT_MAX_BYTES);

/** The most recent subagent runs of the project a turn's runs are priced from. */
const MAX_RUNS = 24;

/**
 * Installs the cost engine on `app` and returns its control. Once per app: a second call (the
 * REPL taking over an app that assemble set up for -p, a test wanting its own clock) returns
 * the same control with the new options, and its hooks stay where the first call put them.
 */
export function installCost(app: CostHost, opts: InstallCostOptions): CostControl {
  const existing = installed.get(app);
  if (existing) {
    existing.opts = opts;
    return existing;
  }
  const control = new RunningCost(app, opts);
  installed.set(app, control);
  return control;
}

class RunningCost implements CostControl {
  readonly currency: Currency;
  readonly estimateMode: EstimateMode;
  readonly tiers: TierProfiles;
  private mode: TierMode;
  private readonly prices: PriceTable;
  private readonly book: Book;
  private readonly budgets: Budgets;
  private readonly sessions = new Map<string, SessionState>();
  private readonly engines = new Map<string, Engine>();
  private readonly notices: CostNotice[] = [];
  private inflight?: { sessionId: string; prompt: string; e: TurnEstimate };
  private nextPick?: TierName;
  private lastSaid?: string;
  /** The tier the latest turn ran at, whatever its session. */
  private lastRun?: TierName;

  constructor(private readonly app: CostHost, public opts: InstallCostOptions) {
    const s = readCostSettings(app.settings);
    this.currency = s.currency;
    this.estimateMode = s.estimate;
    this.tiers = s.tiers;
    this.mode = s.tierMode;
    this.prices = app.prices;
    this.book = new Book(app.home, (n) => this.say(n));
    this.budgets = new Budgets(s.userBudget, s.managedBudget, s.currency, () => this.opts.interactive);
    this.register();
  }

  private register(): void {
    const c = this.app.chain;
    // Nothing in this hook may throw past it: the chain skips a failing hook on a non-gate
    // event, which here would run the turn without its budget.
    c.on("prepend", "cost-budget", "turn.start", null, async (e, next) => {
      let st: BudgetState;
      try {
        st = this.budget();
      } catch (err) {
        if (!this.budgets.any) return next(e);
        return { refuse: { stopReason: "budget_exhausted", message: `budgets cannot be checked (${(err as Error).message}), so new turns are refused` } };
      }
      if (st.state === "exhausted") return { refuse: { stopReason: "budget_exhausted", message: st.message } };
      const r = await next(e);
      if (r?.refuse) return r;
      let out = r;
      if (st.state === "downgrade") {
        // Said in the turn's own stream (the REPL shows it, stream-json carries it), once per crossing.
        // (In the main agent's stream: a subagent's notices reach no one.)
        const notices = !e.agent && this.budgetNews(st) ? [...(r?.notices ?? []), st.message] : r?.notices;
        out = { ...(r ?? {}), profile: profileOf("chat-fast", this.tiers), ...(notices ? { notices } : {}) };
      }
      try {
        if (!e.agent) await this.commitTurn(e.sessionId, e.turn, e.prompt, out?.profile ?? e.profile);
      } catch (err) {
        this.say({ level: "warn", code: "estimate-failed", message: `the turn's estimate could not be recorded (${(err as Error).message})` });
      }
      return out;
    });
    holdContinuation(c, () => this.budget(), (n) => this.say(n));
    c.on("builtin", "cost-tiers", "turn.start", null, async (e, next) => {
      const r = await next(e);
      if (r?.refuse || e.agent) return r;
      const pick = this.nextPick;
      this.nextPick = undefined;
      const plan = planTurn({
        mode: this.mode, base: r?.profile ?? e.profile, taskClass: classFor(this.session(e.sessionId).plan, e.prompt), state: this.session(e.sessionId).auto,
        firstTurn: e.turn === 1, pick, tiers: this.tiers, caps: this.app.caps, prices: this.prices,
      });
      return { ...(r ?? {}), profile: plan.profile };
    });
    c.on("prepend", "cost-ledger", "model.usage", null, async (e, next) => {
      const r = await next(e);
      const s = this.session(e.sessionId);
      s.last = { usage: e.usage, model: e.model, thinking: s.thinking ?? this.app.caps(e.model).thinkingByDefault };
      s.cachedBy[familyOf(e.model, this.prices) ?? e.model] = floorToCacheUnit(e.usage.prompt_tokens + e.usage.completion_tokens);
      const at = new Date(e.at);
      let cost: Cost;
      try {
        cost = costOf(e.usage, e.model, at, this.prices);
      } catch {
        // an unpriced model: the core answer already said so once; record it at no cost
        cost = { model: e.model, family: familyOf(e.model, this.prices) ?? e.model, peak: false, usd: 0, cny: 0, savingUsd: 0, savingCny: 0 };
      }
      // The chain's answer is the price deepcode reports everywhere; a hook may have changed it.
      if (r && Number.isFinite(r.costUsd) && Number.isFinite(r.costCny)) cost = { ...cost, usd: r.costUsd, cny: r.costCny };
      // A subagent's request is booked to the main session and turn it works for.
      const session = e.agent?.rootSessionId ?? e.sessionId;
      const turn = e.agent?.rootTurn ?? e.turn;
      const root = this.session(session);
      const estimate = root.turnEstimate?.turn === turn ? root.turnEstimate.value : undefined;
      const agent = e.agent ? { name: e.agent.name, session: e.sessionId } : undefined;
      await this.book.append(ledgerRecord({ at, project: this.app.root, session, turn, step: e.step, tier: e.tier, usage: e.usage, cost, estimate, agent, estimated: e.estimated }));
      return r;
    });
    c.setCore("cost.estimate", (e) => {
      const f = this.inflight;
      if (f && f.sessionId === e.sessionId && f.prompt === e.prompt) return toCostEstimates(f.e);
      return toCostEstimates(this.compute(e.sessionId, e.prompt));
    });
  }

  private now(): Date {
    return this.opts.now?.() ?? new Date();
  }

  private session(id: string): SessionState {
    let s = this.sessions.get(id);
    if (!s) this.sessions.set(id, (s = { auto: {}, cachedBy: {}, plan: {} }));
    return s;
  }

  private engineFor(id: string): Engine | undefined {
    return this.app.engine?.sessionId === id ? this.app.engine : (this.app.driven?.get(id) ?? this.engines.get(id));
  }

  private compute(sessionId: string, prompt: string, attachments?: string[]): TurnEstimate {
    const s = this.session(sessionId);
    const engine = this.engineFor(sessionId);
    const taskClass = classFor(s.plan, prompt);
    const warm = !s.last && recentlyCached(this.book.records(this.now()), sessionId, this.now());
    return computeEstimate(
      {
        prompt, attachments, ledger: engine?.ledger(), messages: engine?.messages, last: s.last, cachedBy: s.cachedBy, budget: this.budget().state,
        hasTask: engine?.tools.get("Task") !== undefined, ...this.evidence(sessionId, taskClass), taskClass, warm, largeResultTokens: LARGE_RESULT,
      },
      this.tiers, this.prices, this.now(),
    );
  }

  /** The recent turns a new turn's range is drawn from: this session's, else this project's
   *  (a new session starts from what the project's turns did); the project's latest delegating
   *  turns when the session has none; and the project's latest subagent runs, whatever session
   *  started them (a second session's first delegating turn is priced from the first's runs). */
  private evidence(sessionId: string, taskClass: TaskClass): { shapes: TurnShape[]; runs: RunEvidence[] } {
    const records = this.book.records(this.now());
    const project = shapesOf(records, (r) => r.project === this.app.root);
    let shapes = shapesOf(records, (r) => r.session === sessionId);
    if (shapes.length < MIN_SHAPES) shapes = project;
    const delegates = (s: TurnShape): boolean => (s.runs?.length ?? 0) > 0;
    if (!shapes.some(delegates)) shapes = [...project.filter(delegates).slice(-MAX_SHAPES), ...shapes];
    return { shapes: pickShapes(shapes, taskClass), runs: runsEvidence(project).slice(-MAX_RUNS) };
  }

  /** The estimate through the chain: computed, offered to `cost.estimate` hooks, folded back. */
  private async estimated(sessionId: string, prompt: string, messages: Engine["messages"], attachments?: string[]): Promise<TurnEstimate> {
    const e = this.compute(sessionId, prompt, attachments);
    this.inflight = { sessionId, prompt, e };
    try {
      const result = await this.app.chain.dispatch({ type: "cost.estimate", sessionId, prompt, messages: [...messages] });
      return foldBack(e, result);
    } finally {
      this.inflight = undefined;
    }
  }

  /** Remembers what the turn ran at (auto's state) and the estimate its ledger lines carry. */
  private async commitTurn(sessionId: string, turn: number, prompt: string, profile: TurnProfile): Promise<void> {
    const s = this.session(sessionId);
    const tier = isTierName(profile.tier) ? profile.tier : undefined;
    // A turn run for another purpose (plan mode's planner) leaves auto's memory of the
    // session's tier alone: the executor's turns go on where they were.
    const cls = classFor(s.plan, prompt);
    if (profile.purpose === undefined) {
      s.auto = { current: tier ?? s.auto.current, lastAsked: TIER_FOR_CLASS[cls] };
      this.lastRun = tier;
    }
    s.thinking = thinks(profile, this.app.caps);
    let e = s.pending?.prompt === prompt ? s.pending.e : undefined;
    s.pending = undefined;
    s.turnEstimate = undefined;
    if (tier) e ??= await this.estimated(sessionId, prompt, this.engineFor(sessionId)?.messages ?? []);
    noteTurn(s.plan, prompt, profile.purpose);
    if (!tier || !e) return;
    const t = e.tiers.find((x) => x.tier === tier);
    if (t && t.error === undefined) s.turnEstimate = { turn, value: { tier, lowUsd: t.lowUsd, highUsd: t.highUsd, taskClass: e.taskClass, ...(e.subagents ? { subagents: [e.subagents[0], e.subagents[1]] } : {}) } };
  }

  async estimate(prompt: string, engine: Engine, opts: { attachments?: string[] } = {}): Promise<TurnCostEstimate> {
    this.engines.set(engine.sessionId, engine);
    const budget = this.budget();
    const e = await this.estimated(engine.sessionId, prompt, engine.messages, opts.attachments);
    this.session(engine.sessionId).pending = { prompt, e };
    let { recommended, reason } = e;
    if (budget.state === "ok") {
      const plan = planTurn({
        mode: this.mode, base: engine.profile, taskClass: e.taskClass, state: this.session(engine.sessionId).auto,
        firstTurn: engine.turns === 0, pick: this.nextPick, tiers: this.tiers, caps: this.app.caps, prices: this.prices,
      });
      if (plan.choice) ({ tier: recommended, reason } = plan.choice);
      else reason = `${engine.profile.model} matches no tier`;
    }
    return { ...e, recommended, reason, sessionId: engine.sessionId, prompt, budget };
  }

  estimateLine(e: TurnEstimate, currency: Currency = this.currency, width?: number): string {
    return formatEstimateLine(e, currency, width);
  }

  estimateLines(e: TurnEstimate): string[] {
    return estimateLineVariants(e, this.currency);
  }

  tierMode(): TierMode {
    return this.mode;
  }

  setTier(name: string): { ok: boolean; message: string } {
    const n = name.trim().toLowerCase();
    if (n === "auto") {
      this.mode = { kind: "auto" };
      return { ok: true, message: "tier: auto — each turn's prompt picks its tier: a stronger one at once, a cheaper one at once when it keeps the cache (same model and thinking), else after two turns in a row ask for it" };
    }
    if (n === "default" || n === "model") {
      this.mode = { kind: "model" };
      return { ok: true, message: "tier: follows the configured model" };
    }
    if (!isTierName(n)) return { ok: false, message: `unknown tier "${name}": auto, default, ${TIER_NAMES.join(", ")}` };
    this.mode = { kind: "pinned", tier: n };
    const p = this.tiers[n];
    const held = this.app.engine ? (this.sessions.get(this.app.engine.sessionId)?.cachedBy[familyOf(p.model, this.prices) ?? p.model] ?? 0) : 0;
    const note = this.lastRun ? switchNote(this.lastRun, n, this.tiers, this.app.caps, this.prices, held) : "";
    return { ok: true, message: `tier: ${n} (${p.model}, ${p.thinking ? "thinking" : "no thinking"}) pinned${note}` };
  }

  pick(tier: TierName | number): { ok: boolean; message: string } {
    const t = typeof tier === "number" ? TIER_NAMES[tier - 1] : tier;
    if (!isTierName(t)) return { ok: false, message: `pick 1–${TIER_NAMES.length} or a tier name` };
    this.nextPick = t;
    return { ok: true, message: `this turn runs at ${t}` };
  }

  budget(): BudgetState {
    if (!this.budgets.any) return budgetState({ spentToday: 0, spentMonth: 0 }, {});
    const now = this.now();
    return this.budgets.state(this.spent(now), this.book.readError);
  }

  private spent(now: Date): { spentToday: number; spentMonth: number } {
    const s = this.book.spent(now);
    return this.currency === "USD" ? { spentToday: s.today.usd, spentMonth: s.month.usd } : { spentToday: s.today.cny, spentMonth: s.month.cny };
  }

  raiseBudget(): { ok: boolean; message: string } {
    const r = this.budgets.raise(this.spent(this.now()), this.book.readError);
    if (r.ok) this.lastSaid = undefined; // a new crossing after the raise is said again
    return r;
  }

  costReport(engine: Engine): string {
    const now = this.now();
    const peak = isPeak(now, this.prices) ? "peak hours now: prices are higher" : "off-peak now";
    return formatCostReport({
      rows: this.book.totals(now, engine.sessionId),
      currency: this.currency,
      budgetLines: this.budgets.lines(this.spent(now)),
      tierLine: `${this.tierReport(engine).split("\n")[0]} · ${peak}`,
    });
  }

  tierReport(engine?: Engine): string {
    // Following the model: the tier the model in force now amounts to (after a /model, not the
    // last turn's); auto: the last turn's choice.
    const last = !engine ? undefined : this.mode.kind === "model" ? matchTier(engine.profile, this.tiers, this.app.caps, this.prices) : this.sessions.get(engine.sessionId)?.auto.current;
    return formatTiers(this.mode, this.tiers, last);
  }

  takeNotices(): CostNotice[] {
    return this.notices.splice(0);
  }

  flush(): Promise<void> {
    return this.book.flush();
  }

  /** A downgrade is said when it starts (and again if the deciding cap changes). */
  private budgetNews(st: BudgetState): boolean {
    const key = `${st.state}:${st.which}:${st.limit}`;
    if (key === this.lastSaid) return false;
    this.lastSaid = key;
    return true;
  }

  private say(n: CostNotice): void {
    if (this.opts.notify) this.opts.notify(n);
    else if (this.opts.interactive) this.notices.push(n);
    else process.stderr.write(`deepcode: ${n.message}\n`);
  }
}
