// Against real peers (issue 18): the same scripted sessions run by deepcode and by the agents a
// user would pick instead — Reasonix, pi, opencode and Claude Code (on the Anthropic protocol) —
// against one content-based DeepSeek stand-in. Run on demand only: `npm run bench -- peers`
// (never part of the default run, `npm ci` or `npm test`). The peers are pinned in
// bench/peers/package.json + lock and installed by the bench into a cache folder
// (bench/peers/install.mjs). Options: `--agents=deepcode,pi` and `--sessions=short,large` run a
// subset. `--baseline=FILE` (a results JSON of an earlier run) fills in the agents not run this
// time from that run, marked "stored" — the peers are pinned, so a deepcode change can be
// measured with `--agents=deepcode --baseline=…` in a minute instead of the whole run; the
// README's table is always one full run. Results: tables here, and JSON in
// bench/peers/results/ (git-ignored).
//
// Per agent and session: requests, prompt tokens, hit %, optimum % (bench/peers/analyse.mjs),
// cost at today's off-peak deepseek-flash prices (data/pricing.json through the cost engine),
// the ratio to deepcode, whether every task ended correctly (the repository's end state, and the
// model's final answer), whether the information the model needed was in the first result it got,
// and the first cache divergence. Then where the prompt tokens go, and tool results by kind.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { fmt, table } from "./lib.mjs";
import { RESULT_KINDS } from "./peers/analyse.mjs";
import { agents } from "./peers/agents.mjs";
import { ensurePeers, pinnedVersions } from "./peers/install.mjs";
import { runAll } from "./peers/run.mjs";
import { sessions } from "./peers/tasks.mjs";

const RESULTS = fileURLToPath(new URL("./peers/results/", import.meta.url));

function option(name) {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3).split(",").filter(Boolean) : null;
}

const k = (n) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));

function summaryTable(s) {
  const dc = s.agents.find((a) => a.id === "deepcode");
  const rows = [["agent", "version", "requests", "prompt tokens", "hit %", "optimum %", "hit ÷ optimum", "cost", "÷ deepcode", "tasks ok", "info in 1st result", "first divergence"]];
  for (const a of s.agents) {
    const failed = a.tasks.filter((t) => !t.ok).map((t) => t.id);
    const noInfo = a.tasks.filter((t) => !t.infoReached).map((t) => t.id);
    const d = a.divergences[0];
    rows.push([
      a.label,
      a.version.replace(/^reasonix v/, "").replace(/ \(Claude Code\)$/, "") + (a.stored ? " (stored)" : ""),
      a.sideRequests ? `${a.requests} (${a.sideRequests} side)` : String(a.requests),
      k(a.prompt),
      fmt.pct(a.hitRate),
      fmt.pct(a.optimumRate),
      fmt.pct(a.ofOptimum),
      fmt.usd(a.usd),
      dc ? fmt.ratio(a.usd / dc.usd) : "—",
      failed.length ? `no: ${failed.join(", ")}` : `yes (${a.tasks.length})`,
      noInfo.length ? `no: ${noInfo.join(", ")}` : "yes",
      d ? `#${d.request}: ${d.piece}` : "none",
    ]);
  }
  table(`peers: ${s.label}`, rows);
}

function tokensTable(s) {
  const cats = ["system", "tools", "user", "assistant", ...RESULT_KINDS.map((r) => `result:${r}`)];
  const used = cats.filter((c) => s.agents.some((a) => a.byCategory[c].tokens > 0));
  const rows = [["agent (tokens / missed)", ...used.map((c) => c.replace("result:", "result "))]];
  for (const a of s.agents) rows.push([a.label, ...used.map((c) => `${k(a.byCategory[c].tokens)} / ${k(a.byCategory[c].miss)}`)]);
  table(`peers: ${s.label} — where the prompt tokens go, summed over requests`, rows);
}

function resultsTable(s) {
  const used = RESULT_KINDS.filter((r) => s.agents.some((a) => a.results[r].count > 0));
  const rows = [["agent (results × avg chars, max)", "system + tools (1st request)", ...used]];
  for (const a of s.agents) {
    rows.push([
      a.label,
      `${k(a.firstRequest.system)} + ${k(a.firstRequest.tools)} (${a.firstRequest.toolNames.length} tools)`,
      ...used.map((r) => {
        const x = a.results[r];
        return x.count ? `${x.count} × ${Math.round(x.chars / x.count)}, ${x.max}` : "—";
      }),
    ]);
  }
  table(`peers: ${s.label} — tool results as the model got them, by kind (each result once)`, rows);
}

function notes(s) {
  for (const a of s.agents) {
    for (const t of a.tasks.filter((x) => !x.ok)) console.log(`  ${a.label}: task ${t.id} failed: ${t.why.join("; ")}`);
    for (const t of a.tasks.filter((x) => !x.infoReached)) console.log(`  ${a.label}: task ${t.id}: its first result lacked ${t.missing.map((m) => JSON.stringify(m.slice(0, 60))).join(", ")}`);
    const reread = a.tasks.filter((t) => t.reread > 0);
    if (reread.length) console.log(`  ${a.label}: read ${reread.reduce((n, t) => n + t.reread, 0)} file(s) again whose facts it had lost before using them (${reread.map((t) => t.id).join(", ")})`);
    if (a.refused.length) console.log(`  ${a.label}: ${a.refused.length} request(s) refused by the stand-in, first: ${a.refused[0].status} ${a.refused[0].path}`);
    if (a.phoned.length) console.log(`  ${a.label}: tried to reach the outside (refused by the trap): ${[...new Set(a.phoned)].join(", ")} (${a.phoned.length}×)`);
    for (const e of new Set(a.modelErrors)) console.log(`  ${a.label}: scripted model: ${e}`);
    const d = a.divergences[0];
    if (d) console.log(`  ${a.label}: ${a.divergences.length} request(s) below optimum (${k(a.divergences.reduce((n, x) => n + x.lost, 0))} tokens); first #${d.request} at ${d.piece}${d.was ? `, char ${d.at}: was ${d.was}, now ${d.now}` : ""}`);
  }
}

/** Adds the agents a stored run measured and this one did not, marked `stored` (same sessions). */
function fillFrom(result, file) {
  const stored = JSON.parse(readFileSync(file, "utf8"));
  for (const s of result.sessions) {
    const then = stored.sessions.find((x) => x.id === s.id);
    if (!then) throw new Error(`--baseline ${file} has no session ${s.id}`);
    for (const a of then.agents) if (!s.agents.some((x) => x.id === a.id)) s.agents.push({ ...a, stored: file });
  }
  console.log(`\nAgents not run this time come from ${file} (${stored.date}), marked "stored".`);
}

export async function run() {
  const peers = ensurePeers();
  const wantAgents = option("agents");
  const wantSessions = option("sessions");
  const list = agents(peers).filter((a) => !wantAgents || wantAgents.includes(a.id));
  const chosen = sessions().filter((s) => !wantSessions || wantSessions.includes(s.id));
  const started = new Date();
  console.log(`\npeers: ${list.map((a) => a.id).join(", ")} on ${chosen.map((s) => s.id).join(", ")}; pinned ${JSON.stringify(pinnedVersions())}`);
  const result = await runAll(chosen, list, { log: (line) => console.log(line) });
  const baseline = option("baseline");
  if (baseline) fillFrom(result, baseline[0]);
  for (const s of result.sessions) {
    summaryTable(s);
    tokensTable(s);
    resultsTable(s);
    notes(s);
  }
  console.log([
    "",
    "Stand-in: one DeepSeek simulator for the whole run (real DeepSeek V3 token counts, 64-token prefix-cache units keyed",
    "  on the rendered request); agents run one after another, one process per task, later tasks resumed.",
    "Optimum: each request extending the agent's previous request + reply; after a compaction summary, the system",
    "  prompt + tools only. Cost: today's off-peak deepseek-flash prices. Side requests (titles) count in the totals.",
    "Info in 1st result: the strings the model needed (both failures, the definition, the constant…) were in the",
    "  results of the task's first step; when they were not, the scripted model searched or read again.",
  ].join("\n"));
  mkdirSync(RESULTS, { recursive: true });
  const file = `${RESULTS}peers-${started.toISOString().replace(/[:.]/g, "-")}.json`;
  const json = JSON.stringify({ date: started.toISOString(), node: process.version, pinned: pinnedVersions(), ...result }, null, 1);
  writeFileSync(file, json);
  writeFileSync(`${RESULTS}latest.json`, json);
  console.log(`\nResults: ${file}`);
}
