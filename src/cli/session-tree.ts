// Subagents' sessions under the session that spawned them, for `deepcode sessions` and
// `/sessions`: one indented line each (agent type, task, cost, id), nested as they were spawned.
import type { SessionStore, SessionSummary } from "../core/session/store.js";

const MAX_LINES = 50;

export function agentLines(store: SessionStore, main: SessionSummary): string[] {
  if (main.agents.length === 0) return [];
  const folder = store.agents(main.id);
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = (links: SessionSummary["agents"], depth: number): void => {
    for (const l of links) {
      if (out.length >= MAX_LINES) return;
      if (seen.has(l.id)) continue; // a link to itself would loop
      seen.add(l.id);
      let s: SessionSummary | undefined;
      try {
        s = folder.summary(l.id);
      } catch {
        s = undefined; // its file is gone (deleted by hand): the link is still shown
      }
      const cost = s ? `$${s.costUsd.toFixed(4)}` : "(file missing)";
      out.push(`${"  ".repeat(depth)}└ ${l.name}: ${oneLine(l.task, 50)}  ${cost}  ${l.id}`);
      if (s) walk(s.agents, depth + 1);
    }
  };
  walk(main.agents, 1);
  const total = countLinks(folder, main.agents);
  if (total > out.length) out.push(`  … ${total - out.length} more subagent session(s) in ${folder.dir}`);
  return out;
}

function countLinks(folder: SessionStore, links: SessionSummary["agents"], seen = new Set<string>()): number {
  let n = 0;
  for (const l of links) {
    if (seen.has(l.id)) continue;
    seen.add(l.id);
    n++;
    try {
      n += countLinks(folder, folder.summary(l.id).agents, seen);
    } catch {
      // a missing file has no links of its own
    }
  }
  return n;
}

function oneLine(s: string, n: number): string {
  const l = s.replace(/\s+/g, " ").trim();
  return l.length > n ? `${l.slice(0, n - 1)}…` : l;
}
