// The cost engine on the cache benchmark's scripted sessions (bench/sessions.mjs):
//
// 1. Calibration of the pre-turn estimate. deepcode is put together the way the REPL does it
//    (assemble with interactive: true, which installs the cost engine), against the session's
//    scripted model. Before each turn the bench asks `app.cost.estimate(prompt, engine)` — what
//    the REPL's chooser line shows — and takes the recommended tier's lowUsd–highUsd; the turn
//    then runs (at that tier: the ledger's lines say which) and its actual cost is
//    turn.complete.costUsd. Goal (issue 8): the actual cost falls inside the range on ≥ 80% of
//    turns. A range is inclusive at both ends. Permission prompts are answered "a" (allow and
//    remember), as a person at the REPL would.
//    The resumed session runs its turns in a new app and a resumed engine each time (what a
//    new `deepcode -c` process does), so its estimates know no previous usage, as there.
// 2. Each session's total cost, deepcode against the naive agent, taken as they are from the
//    cache benchmark (bench/cache.mjs `measure`: every billed request priced by the cost
//    engine at today's off-peak rates). The estimate run above is a second deepcode run; what
//    the simulator billed it, the sum of its turns' costUsd and its usage ledger's lines are
//    printed beside: the first should equal cache.mjs's figure, the others should add up to it.
//
// 3. The same calibration on real-shaped sessions with subagents (bench/subagent-sessions.mjs):
//    coding turns and, every third turn, one that starts one to three Task subagents (explore at
//    chat-fast, now and then a general-purpose one at the caller's tier); then a second session
//    in the same project (a new Engine.start in a new app, the ledger kept: what its estimates
//    know of subagents is the first session's runs). A turn's actual cost includes its
//    subagents' requests, as the REPL's "this turn" does. The by-class table adds
//    the turns that started subagents as a class of their own. The cache benchmark's agents have
//    no Task tool, so this session has no totals row.
//
// Everything is priced at today 12:00 UTC (off-peak on every day), the instant cache.mjs uses.
// BENCH_COST_TURNS=file.json writes every turn's range, cost and subagent part, for calibration.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assemble } from "../dist/src/cli/assemble.js";
import { installCost } from "../dist/src/core/cost/run/index.js";
import { Engine } from "../dist/src/core/engine/engine.js";
import { costOf, parseLedger, TASK_CLASSES } from "../dist/src/core/cost/index.js";
import { startSimulator } from "../test/sim/server.mjs";
import { AGENTS_MD_CHANGED, makeProject } from "../test/fixtures/bench/project.mjs";
import { fast, fmt, median, table } from "./lib.mjs";
import { scriptedModel, sessions } from "./sessions.mjs";
import { measure } from "./cache.mjs";
import { subagentSession } from "./subagent-sessions.mjs";
import { mixedSession } from "./mixed-sessions.mjs";

const GOAL = 0.8;
const API_KEY = "sk-bench-cost";

/** Today at 12:00 UTC: off-peak whatever the weekday (peak is 01–04 and 06–10 UTC). */
function offPeakToday() {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 12));
}

/** deepcode as the REPL assembles it, on the session's root and home; a fresh app each call. */
async function openApp({ root, home, url, at, spec, resume, warnings }) {
  const app = await assemble({
    root, home, interactive: true,
    managedPath: join(home, "no-managed-policy.json"), // the machine's own policy stays out
    env: { DEEPSEEK_API_KEY: API_KEY, DEEPSEEK_BASE_URL: url },
    warn: (m) => warnings.push(m),
  });
  const cost = installCost(app, { interactive: true, now: () => at, notify: (n) => warnings.push(n.message) });
  // The person at the REPL: "a" on every permission prompt.
  app.chain.on("builtin", "bench-person", "permission.ask", null, () => ({ decision: "allow", remember: true, by: "bench" }));
  // ...and "go" on a plan that came back (plan mode's review).
  app.chain.on("builtin", "bench-plan-go", "person.ask", null, (e, next) => (e.kind === "plan.review" ? { decision: "allow", choice: "g" } : next(e)));
  const opts = { ...app.engineOptions(), now: () => at, compaction: spec.compaction };
  const engine = resume ? await Engine.resume(opts, resume) : await Engine.start(opts);
  app.engine = engine;
  return { app, cost, engine };
}

/** One session with the estimate taken before each turn; a row per turn. */
export async function estimateRun(spec, at = offPeakToday()) {
  const model = scriptedModel(spec);
  const sim = await startSimulator({ script: { respond: (json) => model.respond(json) }, apiKey: API_KEY });
  const root = makeProject(mkdtempSync(join(tmpdir(), `deepcode-bench-cost-${spec.id}-`)));
  const home = mkdtempSync(join(tmpdir(), "deepcode-bench-cost-home-"));
  try {
    const turns = [];
    const warnings = [];
    let open;
    for (const [i, turn] of spec.turns.entries()) {
      if (spec.agentsChangeAt === i) writeFileSync(join(root, "AGENTS.md"), AGENTS_MD_CHANGED);
      if (spec.newSessionAt === i && open) {
        // a new session in the same project (a later `deepcode` in the same folder)
        await open.engine.close("exit");
        await open.cost.flush();
        open = undefined;
      }
      if (!open) open = await openApp({ root, home, url: sim.url, at, spec, warnings, resume: spec.cli && i > 0 ? turns[0].sessionId : undefined });
      // A turn pinned for itself (the chooser's 1–4); a planned one goes through /plan, the
      // person answering "go": its planning turn is checked against the planner's range the
      // /plan line shows, and its "go" turn against the executor's range shown before it.
      if (turn.tier) open.cost.pick(turn.tier);
      const parts = [];
      const estimateOf = async (prompt, tierOf) => {
        const est = await open.cost.estimate(prompt, open.engine);
        const tier = tierOf(est);
        const range = est.tiers.find((t) => t.tier === tier);
        if (!range || range.error !== undefined) throw new Error(`session ${spec.id}, turn ${i + 1}: no priced range for ${tier}`);
        return { est, range, tier };
      };
      const runOne = async (prompt, shown, kind) => {
        let done;
        for await (const e of open.engine.submit(prompt)) if (e.type === "turn.complete") done = e;
        if (done?.stopReason !== "completed") throw new Error(`session ${spec.id}, turn ${i + 1}: ${done?.stopReason} ${done?.error ?? ""}`);
        parts.push({ shown, done, kind });
      };
      if (turn.planned) {
        const planner = open.app.pluginStatus("plan")?.plannerTier ?? "reasoner-budget";
        const shown = await estimateOf(turn.prompt, () => planner);
        let first = true;
        await open.app.commands.get("plan").spec.run({
          args: turn.prompt, sessionId: open.engine.sessionId, signal: new AbortController().signal, interactive: true, print: () => undefined,
          submit: async (p) => {
            const k = first ? "planner" : "go";
            await runOne(p, first ? shown : await estimateOf(p, (e) => e.recommended), k);
            first = false;
          },
        });
      } else {
        const shown = await estimateOf(turn.prompt, (e) => e.recommended);
        await runOne(turn.prompt, shown, turn.tier ? turn.tier : spec.newSessionAt === i ? "first of a session" : turn.prompt.includes("verbose") ? "large output" : undefined);
      }
      for (const { shown: { est, range, tier }, done, kind } of parts) {
        turns.push({
          prompt: est.prompt, sessionId: open.engine.sessionId, turn: done.turn, taskClass: est.taskClass, tier, kind,
          low: range.lowUsd, high: range.highUsd, actual: done.costUsd,
          // what the range assumed (low and high case) and what the turn did
          rounds: [range.low.rounds, range.high.rounds], perRound: [Math.round(range.low.output / range.low.rounds), Math.round(range.high.output / range.high.rounds)],
          steps: done.steps, usage: done.usage,
        });
      }
      if (spec.cli) {
        // a `deepcode -c` process ends after its turn
        await open.engine.close("exit");
        await open.cost.flush();
        open = undefined;
      }
    }
    if (open) {
      await open.engine.close("exit");
      await open.cost.flush();
    }
    // What the ledger says each turn ran at (every request of a turn carries its tier).
    const ledger = parseLedger(readFileSync(join(home, "usage.jsonl"), "utf8")).records;
    // Subagents' lines carry their own tier (explore runs at chat-fast): the turn's is the main agent's.
    for (const t of turns) {
      const lines = ledger.filter((r) => r.session === t.sessionId && r.turn === t.turn);
      t.ranAt = [...new Set(lines.filter((r) => r.agent === undefined).map((r) => r.tier))].join("+");
      t.runs = new Set(lines.filter((r) => r.agent !== undefined).map((r) => r.agentSession)).size;
      t.runsUsd = lines.filter((r) => r.agent !== undefined).reduce((a, r) => a + r.usd, 0);
    }
    // Every request the simulator billed, in order, with whether it was a compaction digest.
    const billed = sim.requests.filter((r) => r.usage).map((r, k) => ({ usd: costOf(r.usage, "deepseek-flash", at).usd, digest: model.replies[k].digest }));
    const billedUsd = billed.reduce((a, r) => a + r.usd, 0);
    // When each line says it was billed (the run's fixed clock, a subagent's lines included).
    const times = [...new Set(ledger.map((r) => r.time))];
    return { turns, warnings, billed, billedUsd, ledgerUsd: ledger.reduce((a, r) => a + r.usd, 0), ledgerLines: ledger.length, times };
  } finally {
    await sim.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

const where = (t) => (t.actual < t.low ? "below" : t.actual > t.high ? "above" : "inside");

/** The high end is at most 3× the actual cost (issue 30: a range that holds and still guides). */
const tight = (t) => t.high <= 3 * t.actual;

function tally(turns) {
  const n = (w) => turns.filter((t) => where(t) === w).length;
  return { turns: turns.length, inside: n("inside"), below: n("below"), above: n("above"), tight: turns.filter(tight).length, both: turns.filter((t) => where(t) === "inside" && tight(t)).length };
}

const count = (xs) => [...xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map())].map(([k, v]) => `${k} ${v}`).join(", ");

export async function run() {
  const at = offPeakToday();
  const rows = [];
  // The planned session is the cache benchmark's (two models, a rewind): its turns are not the
  // single-model turns the estimate's calibration is about.
  for (const spec of sessions({ fast }).filter((s) => !s.plan)) {
    // Side by side, nothing timed: the cache benchmark's two agents and the estimate run.
    const [totals, est] = await Promise.all([measure(spec, at), estimateRun(spec, at)]);
    rows.push({ spec, totals, est });
  }
  // The session with subagents: the cache benchmark's agents have no Task tool, so no totals.
  const sub = subagentSession({ fast });
  rows.push({ spec: sub, est: await estimateRun(sub, at) });
  // Planner, reasoner, large-output and first-of-a-session turns (bench/mixed-sessions.mjs).
  const mixed = mixedSession({ fast });
  rows.push({ spec: mixed, est: await estimateRun(mixed, at) });

  // BENCH_COST_TURNS=file.json: every turn's range and cost, for calibration work.
  if (process.env.BENCH_COST_TURNS) writeFileSync(process.env.BENCH_COST_TURNS, JSON.stringify(rows.map(({ spec, est }) => ({ session: spec.id, turns: est.turns.map((t, i) => ({ i: i + 1, ...t, prompt: t.prompt.slice(0, 60), where: where(t), tight: tight(t) })) })), null, 1));
  const calib = [["session", "turns", "task classes (classifier)", "recommended tier", "ran at it", "inside", "below", "above", "inside %", "high ≤ 3× actual", "both %", "≥ 80% both"]];
  const all = [];
  for (const { spec, est } of rows) {
    const s = tally(est.turns);
    all.push(...est.turns);
    calib.push([spec.label, s.turns, count(est.turns.map((t) => t.taskClass)), count(est.turns.map((t) => t.tier)), `${est.turns.filter((t) => t.ranAt === t.tier).length}/${s.turns}`, s.inside, s.below, s.above, fmt.pct(s.inside / s.turns), fmt.pct(s.tight / s.turns), fmt.pct(s.both / s.turns), s.both / s.turns >= GOAL ? "met" : "NOT MET"]);
  }
  const o = tally(all);
  calib.push(["overall", o.turns, "", "", `${all.filter((t) => t.ranAt === t.tier).length}/${o.turns}`, o.inside, o.below, o.above, fmt.pct(o.inside / o.turns), fmt.pct(o.tight / o.turns), fmt.pct(o.both / o.turns), o.both / o.turns >= GOAL ? "met" : "NOT MET"]);
  table(`cost: actual turn cost inside the pre-turn estimate's range${fast ? " (fast)" : ""}`, calib);

  // Where the ranges miss, by task class: the figures the estimate's tables (src/core/cost/tiers.ts)
  // predict, next to what the turns did. Output per round includes reasoning.
  const byClass = [["task class", "turns", "inside %", "below", "above", "high ≤ 3×", "both %", "≥ 80% both", "rounds: est.", "actual", "output/round: est.", "actual (median)", "actual ÷ low: median", "min–max", "actual ÷ high: median"]];
  // Each classifier class, then the turns that started subagents (whatever their class) and the rest.
  const groups = [
    ...TASK_CLASSES.filter((x) => all.some((t) => t.taskClass === x)).map((c) => [c, all.filter((t) => t.taskClass === c)]),
    // The hard kinds of bench/mixed-sessions.mjs (issue 39): planner, its "go", pinned reasoner, large output, a session's first.
    ...[...new Set(all.map((t) => t.kind).filter(Boolean))].map((k) => [k, all.filter((t) => t.kind === k)]),
    ["with subagents", all.filter((t) => t.runs > 0)],
    ["without", all.filter((t) => !(t.runs > 0))],
  ].filter(([, ts]) => ts.length > 0);
  for (const [c, ts] of groups) {
    const s = tally(ts);
    const span = (xs) => (Math.min(...xs) === Math.max(...xs) ? String(xs[0]) : `${Math.min(...xs)}–${Math.max(...xs)}`);
    const toLow = ts.map((t) => t.actual / t.low);
    byClass.push([
      c, s.turns, fmt.pct(s.inside / s.turns), s.below, s.above, fmt.pct(s.tight / s.turns), fmt.pct(s.both / s.turns), s.both / s.turns >= GOAL ? "met" : "NOT MET",
      span(ts.map((t) => t.rounds[0])) + "–" + span(ts.map((t) => t.rounds[1])), span(ts.map((t) => t.steps)),
      span(ts.map((t) => t.perRound[0])) + "–" + span(ts.map((t) => t.perRound[1])), String(Math.round(median(ts.map((t) => t.usage.completion_tokens / t.steps)))),
      fmt.ratio(median(toLow)), `${fmt.ratio(Math.min(...toLow))}–${fmt.ratio(Math.max(...toLow))}`, fmt.ratio(median(ts.map((t) => t.actual / t.high))),
    ]);
  }
  table("cost: the estimate by task class and by subagent use, all sessions (what src/core/cost/tiers.ts predicts vs what the turns did; rounds and output are the main agent's)", byClass);

  const money = [["session", "requests", "deepcode $", "naive $", "naive ÷ deepcode", "estimate run: billed $", "Σ turn costs $", "ledger lines"]];
  for (const { spec, totals, est } of rows) {
    if (!totals) continue;
    money.push([
      spec.label, totals.requests === totals.naiveRequests ? String(totals.requests) : `${totals.requests} / ${totals.naiveRequests}`,
      fmt.usd(totals.usd), fmt.usd(totals.naiveUsd), fmt.ratio(totals.naiveUsd / totals.usd),
      fmt.usd(est.billedUsd), fmt.usd(est.turns.reduce((a, t) => a + t.actual, 0)), `${est.ledgerLines} of ${est.billed.length}`,
    ]);
  }
  const sum = (f) => rows.filter((r) => r.totals).reduce((a, r) => a + f(r), 0);
  const d = sum((r) => r.totals.usd);
  const n = sum((r) => r.totals.naiveUsd);
  money.push(["all sessions", "", fmt.usd(d), fmt.usd(n), fmt.ratio(n / d), fmt.usd(sum((r) => r.est.billedUsd)), fmt.usd(sum((r) => r.est.turns.reduce((a, t) => a + t.actual, 0))), ""]);
  table("cost: session totals at today's off-peak prices, deepcode vs the naive agent", money);

  console.log([
    "",
    "Range: the recommended tier's lowUsd–highUsd from app.cost.estimate(prompt, engine) before the turn (the REPL's",
    "  chooser line; default tier mode, so the tier of the configured model, deepseek-flash with thinking = chat-full).",
    "  Actual: turn.complete.costUsd. Inside = low ≤ actual ≤ high. Goal (issues 8, 30): ≥ 80% of turns inside AND",
    "  the high end ≤ 3× the actual (\"both\"). With 3+ earlier turns in the session or project, a tier they ran at is",
    "  priced from their shapes (src/core/estimate/shapes.ts); with 1–2 of the prompt's task class, from those widened",
    "  0.5×–2×; before that, from the class tables (wide). A turn's subagents (src/core/estimate/delegation.ts): as many",
    "  runs as the prompt names, else as earlier delegating turns started; each priced from the project's earlier runs",
    "  (of the agent type the prompt names, if it names one), else from a prior (the caller's prefix, 2–3 rounds).",
    "Rounds: model requests in the turn (est. = the low and high case). Output per round: completion tokens ÷ rounds,",
    "  reasoning included. The scripted model reasons 80–450 tokens a round (bench/sessions.mjs, deterministic filler),",
    "  about what a thinking model does on small tasks; real ledgers (deepcode stats --estimates) are the better check.",
    "Totals: bench/cache.mjs's figures (every billed request priced by src/core/cost at today's off-peak flash rates).",
    "  The estimate run is a second deepcode run (REPL assembly, cost engine installed): what the simulator billed",
    "  it, the sum of its turns' costUsd, and its usage ledger's lines against its billed requests.",
    "Token counts move by a few tokens from run to run (the temp project's path is in the system prompt), so a turn",
    "  within about 1% of an end of its range can change sides.",
  ].join("\n"));
  for (const { spec, est } of rows) for (const w of new Set(est.warnings)) console.log(`  ${spec.id}: deepcode warned: ${w}`);
  for (const { spec, est } of rows) {
    const missing = est.billed.length - est.ledgerLines;
    if (missing > 0) {
      const digests = est.billed.filter((r) => r.digest).length;
      console.log(`  ${spec.id}: ${missing} billed request(s), ${fmt.usd(est.billedUsd - est.ledgerUsd)}, in no ledger line and no turn's cost (${digests} of the billed requests were compaction digests)`);
    }
  }
}
