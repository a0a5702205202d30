// What one agent's requests of a session add up to: cost, hit rate against the optimum, the
// first cache divergence, and where the prompt tokens (and the missed ones) go.
//
// Optimum, per request k of the agent's main thread (side requests such as titles aside):
//   opt(1) = 0; opt(k) = ⌊ min(P(k−1) + R(k−1), P(k)) / 64 ⌋ × 64
// with P the request's prompt tokens as the stand-in billed them and R the tokens of reply k−1
// rendered as the next request sends it back: what request k hits if it extends the agent's
// previous request + reply (a new process included: it can resend the same bytes). After a
// compaction summary no agent can extend, so there opt = the request's own system prompt + tool
// definitions (⌊/64⌋). A side request's optimum is what it hit. opt is never below the hit.
//
// Token categories, per request, over the stand-in's canonical rendering (test/sim/render.mjs):
// system (leading system messages), tools (the definitions), user (user and latest_reminder
// messages, whatever the agent put in them), assistant (reasoning, text and tool-call arguments
// sent back), and tool results by the kind of the tool that produced them (read, edit, write,
// run, search, glob, other). "miss" counts the tokens past the request's cache hit.
import { costOf } from "../../dist/src/core/cost/index.js";
import { renderRequest, textOf } from "../../test/sim/render.mjs";
import { countTokens } from "../../test/sim/tokens.mjs";
import { kindOf } from "./tools.mjs";

const UNIT = 64;
const MODEL = "deepseek-flash";
export const RESULT_KINDS = ["read", "edit", "write", "run", "search", "glob", "other"];
export const CATEGORIES = ["system", "tools", "user", "assistant", ...RESULT_KINDS.map((k) => `result:${k}`)];

/** Today at 12:00 UTC: off-peak on every day (peak is 01–04 and 06–10 UTC on weekdays). */
export function offPeakToday() {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 12));
}

/** The kind of a tool result: its tool's kind, and a shell grep or find counted as search or glob. */
function resultKind(name, args) {
  const kind = kindOf(name);
  if (kind !== "run") return kind;
  let command;
  try {
    command = String(JSON.parse(args ?? "{}").command ?? "");
  } catch {
    command = ""; // unparsable arguments: a plain run
  }
  return /^\s*(grep|rg)\b/.test(command) ? "search" : /^\s*find\b/.test(command) ? "glob" : "run";
}

/** The request's pieces with their category, in the order renderRequest lays them out. */
export function labelledPieces(chat) {
  const pieces = renderRequest(chat);
  const messages = chat.messages;
  const names = new Map();
  const kinds = new Map();
  for (const m of messages) {
    if (m.role !== "assistant" || !Array.isArray(m.tool_calls)) continue;
    for (const tc of m.tool_calls) {
      names.set(tc.id, tc.function?.name);
      kinds.set(tc.id, resultKind(tc.function?.name, tc.function?.arguments));
    }
  }
  const labels = [];
  let i = 0;
  while (i < messages.length && messages[i].role === "system") {
    labels.push({ category: "system", where: `system message ${i + 1}` });
    i++;
  }
  if (Array.isArray(chat.tools) && chat.tools.length > 0) labels.push({ category: "tools", where: "tool definitions" });
  for (; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === "tool") labels.push({ category: `result:${kinds.get(m.tool_call_id) ?? "other"}`, where: `message ${i + 1} (result of ${names.get(m.tool_call_id) ?? "?"})`, id: m.tool_call_id, result: textOf(m.content) });
    else if (m.role === "assistant") labels.push({ category: "assistant", where: `message ${i + 1} (assistant)` });
    else labels.push({ category: m.role === "system" ? "system" : "user", where: `message ${i + 1} (${m.role})` });
  }
  return pieces.map((text, k) => ({ text, tokens: countTokens(text), ...labels[k] }));
}

/** Where request `cur` stops extending `prev` + its reply: the piece and the text around it. */
function divergence(prev, cur) {
  const before = [...renderRequest(prev.chat), prev.info.rendered ?? ""];
  const after = labelledPieces(cur.chat);
  for (let i = 0; i < after.length; i++) {
    const a = before[i];
    const b = after[i].text;
    if (a === b) continue;
    if (a === undefined) return null; // everything before was resent as it was
    let j = 0;
    while (j < a.length && j < b.length && a[j] === b[j]) j++;
    const cut = (s) => JSON.stringify(s.slice(Math.max(0, j - 30), j + 50));
    return { piece: after[i].where, at: j, was: cut(a), now: cut(b) };
  }
  return null;
}

/** Analyses one agent's billed requests of a session (in the order they were billed). */
export function analyse(billed, at = offPeakToday()) {
  const rows = billed.map((b) => ({ ...b, pieces: labelledPieces(b.chat) }));
  const byCategory = Object.fromEntries(CATEGORIES.map((c) => [c, { tokens: 0, miss: 0 }]));
  const results = Object.fromEntries(RESULT_KINDS.map((k) => [k, { count: 0, chars: 0, max: 0 }]));
  const seenResults = new Set();
  let prevMain = null;
  let k = 0;
  const divergences = [];
  let usd = 0;
  let prompt = 0;
  let hit = 0;
  let opt = 0;
  let side = 0;
  for (const r of rows) {
    const u = r.usage;
    usd += costOf(u, MODEL, at).usd;
    prompt += u.prompt_tokens;
    hit += u.prompt_cache_hit_tokens;
    let o;
    if (r.info.kind === "side") {
      side++;
      o = u.prompt_cache_hit_tokens;
    } else {
      k++;
      if (!prevMain) o = 0;
      else if (prevMain.info.kind === "summary" && r.info.kind !== "summary") {
        o = r.pieces.filter((p) => p.category === "system" || p.category === "tools").reduce((n, p) => n + p.tokens, 0);
      } else o = prevMain.usage.prompt_tokens + (prevMain.info.replyTokens ?? 0);
      o = Math.floor(Math.min(o, u.prompt_tokens) / UNIT) * UNIT;
      if (prevMain && o - u.prompt_cache_hit_tokens >= UNIT && prevMain.info.kind !== "summary") {
        divergences.push({ request: k, lost: o - u.prompt_cache_hit_tokens, kind: r.info.kind, ...(divergence(prevMain, r) ?? { piece: "(no content change: a unit boundary)" }) });
      }
      prevMain = r;
    }
    opt += Math.max(o, u.prompt_cache_hit_tokens);
    let cum = 0;
    for (const p of r.pieces) {
      const c = byCategory[p.category] ?? byCategory["result:other"];
      c.tokens += p.tokens;
      c.miss += Math.max(0, Math.min(p.tokens, cum + p.tokens - u.prompt_cache_hit_tokens));
      cum += p.tokens;
      if (p.id && !seenResults.has(p.id)) {
        seenResults.add(p.id);
        const kind = p.category.slice("result:".length);
        const s = results[kind] ?? results.other;
        s.count++;
        s.chars += p.result.length;
        s.max = Math.max(s.max, p.result.length);
      }
    }
  }
  const firstMain = rows.find((r) => r.info.kind === "task") ?? rows[0];
  const first = firstMain?.pieces ?? [];
  const fixed = (cat) => first.filter((p) => p.category === cat).reduce((n, p) => n + p.tokens, 0);
  return {
    requests: rows.length,
    sideRequests: side,
    summaries: rows.filter((r) => r.info.kind === "summary").length,
    prompt,
    hit,
    optimum: opt,
    completion: rows.reduce((n, r) => n + r.usage.completion_tokens, 0),
    usd,
    hitRate: prompt ? hit / prompt : 0,
    optimumRate: prompt ? opt / prompt : 0,
    ofOptimum: opt ? hit / opt : 1,
    divergences,
    byCategory,
    results,
    firstRequest: { system: fixed("system"), tools: fixed("tools"), toolNames: (firstMain?.chat.tools ?? []).map((t) => t.function?.name) },
    perRequest: rows.map((r) => ({ kind: r.info.kind, task: r.info.task, step: r.info.step, prompt: r.usage.prompt_tokens, hit: r.usage.prompt_cache_hit_tokens })),
  };
}
