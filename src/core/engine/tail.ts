// Volatile-tail facts, computed at the start of each turn. They enter the log as a note at the
// tail; the prefix never changes for them.

import { statSync } from "node:fs";
import { relative } from "node:path";
import type { ChatMessage, ReadRecord, RegisteredTool, SystemSection, TailNote, ToolDefinition } from "../../contract/index.js";
import type { CacheFirstContext } from "../context/context.js";
import { reminderContent } from "./system-prompt.js";
import { canonicalize } from "../context/canonical.js";
import { PROXY_TOOL } from "./tools.js";
import { indexedNames, indexLine } from "../../lib/tool-index.js";

/** A section of the system prompt that changed since the prefix was built (AGENTS.md edited
 *  mid-session, say) takes effect as a note with its new text; the prefix stays. */
export function sectionChanges(before: readonly SystemSection[], now: readonly SystemSection[]): TailNote[] {
  const notes: TailNote[] = [];
  const old = new Map(before.map((s) => [s.id, s.text]));
  for (const s of now) {
    const was = old.get(s.id);
    if (was === undefined) notes.push({ id: `section:${s.id}`, text: `New instructions ("${s.id}") apply from now on:\n\n${s.text}` });
    else if (was !== s.text && s.text.startsWith(was) && (was.endsWith("\n") || s.text[was.length] === "\n") && s.text.length - was.length < s.text.length / 2) {
      // Lines added at the end (a memory, `# use tabs`): only they are new, and only they are
      // sent. Whole lines only: "Run npm test" made "Run npm test -- --run" is a changed line.
      notes.push({ id: `section:${s.id}`, text: `The instructions "${s.id}" gained these lines since this session began (everything before them still holds):\n\n${s.text.slice(was.length).replace(/^\n+/, "")}` });
    } else if (was !== s.text) notes.push({ id: `section:${s.id}`, text: `The instructions "${s.id}" changed since this session began. They now read (this replaces the earlier version):\n\n${s.text}` });
  }
  for (const s of before) {
    if (!now.some((n) => n.id === s.id)) notes.push({ id: `section:${s.id}`, text: `The instructions "${s.id}" were removed; disregard them from now on.` });
  }
  return notes;
}

/** Tools registered after the prefix was built are announced once, reachable through the proxy.
 *  An on-demand tool (ToolSpec.onDemand) is never announced. A tool
 *  the prefix's on-demand index names is not late. Where the prefix has an index, a late
 *  deferrable tool is announced as an index line (its definition on demand), not in full. */
export function lateTools(registered: readonly RegisteredTool[], inPrefix: readonly ToolDefinition[], announced: ReadonlySet<string>): { note?: TailNote; names: string[] } {
  const prefixNames = new Set(inPrefix.map((t) => t.function.name));
  const indexed = indexedNames(inPrefix);
  // An on-demand tool is never announced: its one line is in the prefix, or its owner tells the model.
  const fresh = registered.filter((t) => t.spec.onDemand === undefined && !prefixNames.has(t.spec.name) && !indexed.has(t.spec.name) && !announced.has(t.spec.name));
  if (fresh.length === 0) return { names: [] };
  const brief = (t: RegisteredTool): boolean => indexed.size > 0 && t.spec.deferrable === true;
  const lines = fresh.map((t) =>
    brief(t) ? `${indexLine({ name: t.spec.name, description: t.spec.description })} (from ${t.source}; call ${PROXY_TOOL} with {"name": "${t.spec.name}"} alone for its parameters)` : `- ${t.spec.name} (from ${t.source}): ${t.spec.description}\n  parameters: ${JSON.stringify(canonicalize(t.spec.inputSchema))}`,
  );
  return {
    names: fresh.map((t) => t.spec.name),
    note: { id: "late-tools", text: `New tools are available. Call them through ${PROXY_TOOL} with {"name": "<tool>", "input": {…}}:\n${lines.join("\n")}` },
  };
}

/** Files the model read that changed on disk since (edited outside deepcode), once per change. */
export function changedFiles(reads: ReadonlyMap<string, ReadRecord>, notified: Map<string, number>, root: string): TailNote | undefined {
  const changed: string[] = [];
  for (const [path, rec] of reads) {
    let mtimeMs: number;
    let size: number;
    try {
      ({ mtimeMs, size } = statSync(path));
    } catch {
      mtimeMs = -1; // deleted since it was read
      size = -1;
    }
    if ((mtimeMs !== rec.mtimeMs || size !== rec.size) && notified.get(path) !== mtimeMs) {
      notified.set(path, mtimeMs);
      const shown = relative(root, path).startsWith("..") ? path : relative(root, path);
      changed.push(mtimeMs < 0 ? `${shown} (deleted)` : shown);
    }
  }
  if (changed.length === 0) return undefined;
  return { id: "changed-files", text: `Files you read earlier changed on disk since (read them again before editing): ${changed.join(", ")}` };
}

/** The start of a turn in the log: DeepSeek's `latest_reminder` when the date changed (or, for
 *  a model without that role, the date among the notes), deepcode's notes, then the prompt. */
export function appendTurnStart(context: CacheFirstContext, now: Date, language: string | undefined, text: string, notes: TailNote[]): void {
  const today = now.toISOString().slice(0, 10);
  if (context.model.reminderRole && lastReminderDate(context.messages) !== today) {
    context.append({ role: "latest_reminder", content: reminderContent(now, language) });
  } else if (!context.model.reminderRole && lastNoteDate(context.messages) !== today) {
    notes = [{ id: "date", text: `Today is ${reminderContent(now).split(",").slice(0, 2).join(", ")}.` }, ...notes];
  }
  if (notes.length) context.append({ role: "user", content: `[deepcode] Context for this turn (not written by the user):\n\n${notes.map((n) => n.text).join("\n\n")}` });
  context.append({ role: "user", content: text });
}

function lastReminderDate(log: readonly ChatMessage[]): string | undefined {
  for (let i = log.length - 1; i >= 0; i--) {
    const m = log[i];
    if (m.role === "latest_reminder") return m.content.slice(0, 10);
  }
  return undefined;
}

function lastNoteDate(log: readonly ChatMessage[]): string | undefined {
  for (let i = log.length - 1; i >= 0; i--) {
    const m = log[i];
    const match = m.role === "user" && /^\[deepcode\] Context[\s\S]*?Today is (\d{4}-\d{2}-\d{2})/.exec(m.content);
    if (match) return match[1];
  }
  return undefined;
}
