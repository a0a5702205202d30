// Opening a session in the REPL: new, the latest (`-c`), by id (`-r <id>`), or picked from a
// list (`-r` alone, `/resume`). A resumed session shows its earlier turns, compactly, so the
// person sees where they were.

import type { ChatMessage } from "../../contract/index.js";
import { Engine } from "../../core/engine/engine.js";
import { openChosen } from "../session-pick.js";
import type { SessionRecord, SessionSummary } from "../../core/session/store.js";
import type { App } from "../assemble.js";
import { MarkdownStream } from "../render/markdown.js";
import type { Style } from "../render/style.js";
import { money, plural } from "../render/figures.js";
import { inert, inertText } from "../../lib/inert.js";

export interface OpenRequest {
  continue?: boolean;
  /** An id, or "" to pick from a list. */
  resume?: string;
  /** --fork-session: continue a copy. */
  fork?: boolean;
}

/** The sessions worth listing: a session nothing happened in (started, then the process was
 *  killed before a first turn) is left out of `deepcode sessions`, /sessions and the pickers. */
export function listedSessions(list: readonly SessionSummary[]): SessionSummary[] {
  return list.filter((s) => s.turns > 0 || s.messages > 0 || s.costUsd > 0);
}

export type Picker = (sessions: SessionSummary[]) => Promise<string | undefined>;

export async function openSession(app: App, req: OpenRequest, pick: Picker, say: (m: string) => void): Promise<Engine> {
  let id: string | undefined;
  if (req.resume !== undefined && req.resume !== "") id = req.resume;
  else if (req.resume === "") {
    const list = listedSessions(app.store.list());
    if (list.length === 0) say("No earlier sessions in this project; starting a new one.");
    else id = await pick(list);
  }
  const choice = { continue: req.continue && req.resume === undefined, resume: id, fork: req.fork };
  const engine = await openChosen(app.store, choice, say, { resume: (chosen) => Engine.resume(app.engineOptions(), chosen), start: () => Engine.start(app.engineOptions()) });
  for (const note of engine.startNotes) say(note);
  return engine;
}

/** One line per session for a picker or `/sessions`: number, date, turns, cost, first prompt. */
export function sessionLines(list: readonly SessionSummary[], style: Style): string[] {
  return list.map((s, i) => {
    const when = new Date(s.modified).toISOString().slice(0, 16).replace("T", " ");
    const first = s.firstPrompt.replace(/\s+/g, " ").trim();
    return `${style("bold", String(i + 1).padStart(2))}  ${when}  ${plural(s.turns, "turn").padStart(9)}  ${money(s.costUsd).padStart(9)}  ${first.length > 60 ? `${first.slice(0, 59)}…` : first}  ${style("dim", s.id)}`;
  });
}

export type Outcome = Extract<SessionRecord, { t: "outcome" }>;

/** How each call of a stored session ended, by call id (from its outcome records). */
export function outcomesOf(records: readonly SessionRecord[]): Map<string, Outcome> {
  const m = new Map<string, Outcome>();
  for (const r of records) if (r.t === "outcome") m.set(r.callId, r);
  return m;
}

/** The earlier turns of a resumed session, in the order they happened (without tool output):
 *  each reply's text, then its calls with how each ended — ✓ ran, ✗ denied, ✗ failed,
 *  ↷ suppressed (the call-storm breaker), ✗ interrupted. */
export function replayText(messages: readonly ChatMessage[], style: Style, outcomes: ReadonlyMap<string, Outcome> = new Map(), width = Infinity): string {
  const out: string[] = [];
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === "tool") results.set(m.tool_call_id, m.content);
  for (const m of messages) {
    if (m.role === "user" && !m.content.startsWith("[deepcode]")) out.push(`${style("bold", "›")} ${inertText(m.content)}`);
    else if (m.role === "user" && m.content.startsWith("[deepcode] Digest")) out.push(style("dim", "· (earlier turns were compacted into a digest)"));
    else if (m.role === "assistant") {
      if (m.content) {
        const md = new MarkdownStream(style, width); // wrapped as a live reply is
        out.push((md.write(inertText(m.content)) + md.end()).trimEnd()); // the model's text: inert, as in a live turn
      }
      for (const c of m.tool_calls ?? []) out.push(callLine(c.function.name, c.function.arguments, outcomes.get(c.id), results.get(c.id), style));
    }
  }
  return out.join("\n");
}

function callLine(tool: string, args: string, o: Outcome | undefined, result: string | undefined, style: Style): string {
  const outcome = o?.outcome ?? guessOutcome(result);
  const call = inert(`${tool} ${briefArgs(args)}`.trimEnd());
  if (outcome === "ok") return `${style("green", "✓")} ${inert(o?.summary ?? call)}`;
  if (outcome === "suppressed") return style("yellow", `↷ ${call}: suppressed (the same call again)`);
  return style("red", `✗ ${call}: ${outcome}`);
}

/** A session written before outcome records: what its tool results say. */
function guessOutcome(result: string | undefined): Outcome["outcome"] {
  if (result === undefined) return "interrupted";
  if (result.startsWith("Permission denied for ")) return "denied";
  if (result.startsWith("Not run: you have called ")) return "suppressed";
  if (result.startsWith("Interrupted")) return "interrupted";
  return "ok";
}

function briefArgs(raw: string): string {
  try {
    const a = JSON.parse(raw) as Record<string, unknown>;
    const v = a.file_path ?? a.command ?? a.pattern ?? a.path;
    if (typeof v === "string") return v.length > 70 ? `${v.slice(0, 69)}…` : v;
  } catch {
    // arguments that are not JSON are shown raw
  }
  return raw.length > 70 ? `${raw.slice(0, 69)}…` : raw;
}
