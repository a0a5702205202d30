// Cache hit rate: deepcode against the optimum the API allows and against a naive agent, on
// the same scripted sessions (bench/sessions.mjs), each agent against its own simulator (a
// cold prefix cache). Goal (issue 4): deepcode ≥ 97% of the optimum on every row.
//
// The optimum, per request k of deepcode's run, in the simulator's own units:
//
//   opt(1) = 0                                       (a cold cache)
//   opt(k) = ⌊ min(P(k−1) + R(k−1), P(k)) / 64 ⌋ × 64
//
// where P(j) is request j's prompt tokens as the simulator billed them (its real-tokenizer
// count of the rendered request) and R(j) the tokens of reply j rendered as the next request
// sends it back (with its reasoning) — exactly what the simulator persists after request j.
// That is the hit request k gets if it is a pure extension of request k−1 + reply k−1: the
// cache holds every full 64-token unit of that and nothing beyond it. The counts are the
// simulator's (rendered pieces through its tokenizer), not `completion_tokens`, which leave out
// the chat template's markers around a reply and would understate the optimum.
//
// One exception, where no agent can extend: the request after a compaction's digest request
// sends the same prefix + a digest that did not exist before, so its optimum is the immutable
// prefix alone: opt = ⌊ (system + tools tokens of the request before) / 64 ⌋ × 64. Nothing
// else is an exception — an AGENTS.md changed mid-session can reach the model as a note at the
// tail, and a new process can send what the old one would have sent — so those rows are held
// to pure extension throughout.
//
// A session of several conversations (the main agent's and its subagents'): request k's
// predecessor is the earlier request it extends (`pred`), and the formula above applies to it;
// a request that extends none (a subagent's first) can at best hit the whole leading pieces
// (system prompt, tools, messages) an earlier request started with: opt = ⌊ shared / 64 ⌋ × 64.
// So a subagent type's second run is held to its whole prefix.
//
// Two more things no agent can avoid, in the planned row: the server caches per model, so a
// request's "previous request" is the previous one to the same model (plan mode's planner and
// executor each have theirs; each model's first request is cold), and after a rewind the first
// request of each model extends what that model has of the kept log (see optimumHits).
//
// The optimum's hit rate is Σ opt / Σ P over deepcode's requests; deepcode ÷ optimum is
// Σ hit / Σ opt. Costs are every request's usage priced by the cost engine (src/core/cost)
// at the off-peak rates in force today.
import { costOf } from "../dist/src/core/cost/index.js";
import { fast, fmt, table } from "./lib.mjs";
import { delegatingSession, runDeepcode, runNaive, sessions } from "./sessions.mjs";

const UNIT = 64;
const GOAL = 0.97;
const MODEL = "deepseek-flash";

/** The optimum's hits for each request of a run (see the header). With `rewind` ({after, to}:
 *  0-based session turns), the first request of each model after the rewind extends that
 *  model's last request of turn `to` (the cut log is exactly that turn's), or — for a model
 *  that sent requests in the rewound turns, which began with that log — the whole log as it
 *  was when turn `to` ended (its last request and reply). */
export function optimumHits(requests, rewind) {
  let lastBy = new Map(); // model → its previous request (the server caches per model)
  const atEnd = new Map(); // session turn → { lastBy, last request of any model } when it ended
  const cachedOf = (j) => (requests[j].digest ? requests[j].prefixTokens : requests[j].prompt + requests[j].replyTokens);
  let seed = new Map(); // model → tokens its cache holds beyond lastBy after the rewind
  let rewound = false;
  return requests.map((r, k) => {
    // Several conversations (the delegating row): the request it extends, or the pieces it shares.
    if (r.shared !== undefined) return Math.floor(Math.min(r.shared, r.prompt) / UNIT) * UNIT;
    if (r.pred !== undefined) return Math.floor(Math.min(cachedOf(r.pred), r.prompt) / UNIT) * UNIT;
    const model = r.model ?? MODEL;
    if (rewind && !rewound && r.turn !== undefined && r.turn > rewind.after) {
      const end = atEnd.get(rewind.to);
      const later = new Set(requests.slice(0, k).filter((x) => x.turn > rewind.to).map((x) => x.model ?? MODEL));
      lastBy = new Map(end.lastBy);
      seed = new Map([...later].map((m) => [m, cachedOf(end.last)]));
      rewound = true;
    }
    const j = lastBy.get(model);
    const extra = seed.get(model) ?? 0;
    seed.delete(model);
    lastBy.set(model, k);
    if (r.turn !== undefined) atEnd.set(r.turn, { lastBy: new Map(lastBy), last: k });
    if (j === undefined && extra === 0) return 0;
    const cached = Math.max(j === undefined ? 0 : cachedOf(j), extra);
    return Math.floor(Math.min(cached, r.prompt) / UNIT) * UNIT;
  });
}

function totals(requests, at) {
  const sum = (f) => requests.reduce((a, r) => a + f(r), 0);
  return { requests: requests.length, prompt: sum((r) => r.prompt), hit: sum((r) => r.hit), usd: sum((r) => costOf(r.usage, r.model ?? MODEL, at).usd) };
}

/** Both agents on one session: the figures of its row. */
export async function measure(spec, at = offPeakToday()) {
  // Side by side: each has its own simulator and repository, and nothing here is timed.
  const [dc, naive] = await Promise.all([runDeepcode(spec), runNaive(spec)]);
  const d = totals(dc.requests, at);
  const n = totals(naive.requests, at);
  const optHits = optimumHits(dc.requests, spec.rewind);
  const opt = optHits.reduce((a, b) => a + b, 0);
  const unexpected = dc.notices.filter((x) => x.level === "warn" && (x.code === "cache-divergence" || x.code === "cache-miss"));
  return {
    id: spec.id,
    label: spec.label,
    requests: d.requests,
    naiveRequests: n.requests,
    hitRate: d.hit / d.prompt,
    optimumRate: opt / d.prompt,
    naiveRate: n.hit / n.prompt,
    ofOptimum: opt ? d.hit / opt : 1,
    usd: d.usd,
    naiveUsd: n.usd,
    compactions: dc.notices.filter((x) => x.code === "compacted").length,
    expectedCompactions: spec.compaction ? 1 : 0,
    sawNewInstructions: dc.sawNewInstructions,
    toolErrors: dc.toolErrors,
    naiveToolErrors: naive.toolErrors,
    naiveTruncations: naive.truncations,
    unexpected,
    notices: dc.notices,
    perRequest: dc.requests.map((r, k) => ({ model: r.model, prompt: r.prompt, hit: r.hit, optimum: optHits[k], digest: r.digest })),
  };
}

/** deepcode alone on a session with subagents (a naive agent has none): against the optimum. */
export async function measureDelegating(spec, at = offPeakToday()) {
  const dc = await runDeepcode(spec);
  const d = totals(dc.requests, at);
  const optHits = optimumHits(dc.requests);
  const opt = optHits.reduce((a, b) => a + b, 0);
  const firsts = dc.requests.map((r, k) => ({ r, k })).filter(({ r }) => r.shared !== undefined && r.shared > 0);
  return {
    id: spec.id,
    label: spec.label,
    requests: d.requests,
    subagentRequests: dc.requests.filter((r) => r.subagent).length,
    hitRate: d.hit / d.prompt,
    optimumRate: opt / d.prompt,
    ofOptimum: opt ? d.hit / opt : 1,
    usd: d.usd,
    /** Subagent runs after the first of their type: their first request's hit ÷ its optimum. */
    warmStarts: firsts.map(({ r, k }) => ({ hit: r.hit, optimum: optHits[k] })),
    toolErrors: dc.toolErrors,
    unexpected: dc.notices.filter((x) => x.level === "warn" && (x.code === "cache-divergence" || x.code === "cache-miss")),
    perRequest: dc.requests.map((r, k) => ({ prompt: r.prompt, hit: r.hit, optimum: optHits[k] })),
  };
}

export async function measureAll(opts = { fast }) {
  const rows = [];
  for (const spec of sessions(opts)) rows.push(await measure(spec));
  return rows;
}

/** Today at 12:00 UTC: off-peak on every day (peak is 01–04 and 06–10 UTC on weekdays). */
function offPeakToday() {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 12));
}

export async function run() {
  const rows = await measureAll({ fast });
  const out = [["session", "requests", "deepcode", "optimum", "naive", "deepcode ÷ optimum", "≥ 97%", "deepcode $", "naive $", "naive ÷ deepcode", "unexpected misses"]];
  for (const r of rows) {
    out.push([
      r.label,
      r.requests === r.naiveRequests ? String(r.requests) : `${r.requests} / ${r.naiveRequests}`,
      fmt.pct(r.hitRate),
      fmt.pct(r.optimumRate),
      fmt.pct(r.naiveRate),
      fmt.pct(r.ofOptimum),
      r.ofOptimum >= GOAL ? "met" : "NOT MET",
      fmt.usd(r.usd),
      fmt.usd(r.naiveUsd),
      fmt.ratio(r.naiveUsd / r.usd),
      String(r.unexpected.length),
    ]);
  }
  table(`cache: prompt-cache hit rate, deepcode vs the optimum vs a naive agent${fast ? " (fast)" : ""}`, out);
  console.log([
    "",
    "Hit rate = cache-hit prompt tokens ÷ prompt tokens, as the simulator billed them (real tokenizer, 64-token units).",
    "Optimum: every request a pure extension of the previous request + its reply (full 64-token units of it hit);",
    "  after a compaction the optimum restarts from the unchanged system prompt + tools. The AGENTS.md and resumed",
    "  rows have no exception: the change can ride at the tail, and a new process can resend the same bytes.",
    "Naive agent: time (seconds) in the system prompt, tool schemas re-serialised with shuffled keys each request,",
    "  history cut from the front past ~64K tokens; same scripted model and tools, in this process.",
    "Cost: each request's usage priced at today's off-peak rates of its model. Unexpected misses: deepcode's own",
    "  cache-divergence/cache-miss warnings (a miss it cannot name a reason for).",
    "Requests differ (deepcode / naive) where deepcode asks for a compaction digest, and in the planned row: deepcode",
    "  plans some turns on reasoner-budget (deepseek-v4-pro) and then carries the plan out after a \"go\" (two turns),",
    "  and rewinds the conversation once; the naive agent gets the same prompts and cannot plan or rewind. The optimum",
    "  there: each model extends its own previous request (its first is cold), and a rewind costs only the new tail.",
  ].join("\n"));
  for (const r of rows) for (const n of r.unexpected) console.log(`  ${r.id}: ${n.code}: ${n.message}`);
  const d = await measureDelegating(delegatingSession({ fast }));
  const warm = d.warmStarts.filter((w) => w.hit >= w.optimum).length;
  table(`cache: a session that delegates to subagents, deepcode vs the optimum${fast ? " (fast)" : ""}`, [
    ["session", "requests", "of them subagents'", "deepcode", "optimum", "deepcode ÷ optimum", "≥ 97%", "warm subagent starts", "deepcode $"],
    [d.label, String(d.requests), String(d.subagentRequests), fmt.pct(d.hitRate), fmt.pct(d.optimumRate), fmt.pct(d.ofOptimum), d.ofOptimum >= GOAL ? "met" : "NOT MET", `${warm} of ${d.warmStarts.length}`, fmt.usd(d.usd)],
  ]);
  console.log([
    "",
    "Each turn the main agent starts two explore subagents in one reply (real CLI, one process per turn, -c).",
    "Optimum per conversation: a request extends the earlier request it continues (+ its reply); a subagent's first",
    "  request can at best hit the leading pieces (system prompt, tools, messages) an earlier request began with.",
    "Warm subagent starts: first requests of a subagent run whose prefix an earlier run left in the cache, that hit it whole.",
  ].join("\n"));
  for (const n of d.unexpected) console.log(`  ${d.id}: ${n.code}: ${n.message}`);
  for (const r of rows) {
    if (r.compactions !== r.expectedCompactions) console.log(`  ${r.id}: compacted ${r.compactions} time(s), not ${r.expectedCompactions}: the session no longer has the shape it is meant to measure`);
    if (r.id === "agents" && r.sawNewInstructions === 0) console.log("  agents: no request carried the changed AGENTS.md: the change never reached the model");
  }
}
