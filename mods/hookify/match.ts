// Which rules apply to an event, and what they decide. As hookify: every condition of a rule
// must match; of the rules that match, `block` wins over `ask`, which wins over `warn`, and the
// messages of the winning kind are combined, each under its rule's name (one alone as it is).

import type { Broken, Loaded, Rule, RuleAction, RuleEvent } from "./rules.js";

/** Tools a `file` rule sees (hookify's Edit, Write, MultiEdit, and notebooks). */
export const FILE_TOOLS: ReadonlySet<string> = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);

export type Subject =
  | { kind: "tool"; tool: string; input: Readonly<Record<string, unknown>> }
  | { kind: "prompt"; text: string }
  | { kind: "stop"; transcript: () => string; reason: string };

export interface Verdict {
  action: RuleAction;
  rules: Rule[];
  message: string;
}

/** The event a subject is, for rule selection (`null`: a tool call that is neither bash nor file). */
function eventOf(s: Subject): RuleEvent | null {
  if (s.kind === "prompt") return "prompt";
  if (s.kind === "stop") return "stop";
  if (s.tool === "Bash") return "bash";
  return FILE_TOOLS.has(s.tool) ? "file" : null;
}

function applies(r: { event: RuleEvent | null; tools?: ReadonlySet<string> | "*" }, s: Subject): boolean {
  if (r.tools !== undefined && s.kind === "tool") return r.tools === "*" || r.tools.has(s.tool);
  const ev = eventOf(s);
  return r.event === null || r.event === "all" || r.event === ev;
}

function field(name: string, s: Subject): string | undefined {
  if (s.kind === "prompt") return name === "user_prompt" || name === "prompt" || name === "*" ? s.text : undefined;
  if (s.kind === "stop") return name === "transcript" || name === "*" ? s.transcript() : name === "reason" ? s.reason : undefined;
  const i = s.input;
  const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : typeof v === "string" ? v : JSON.stringify(v));
  switch (name) {
    case "*":
      return str(i.command ?? i.new_string ?? i.content ?? (Array.isArray(i.edits) ? editsText(i.edits) : undefined));
    case "new_text":
    case "new_string":
      return str(i.new_string ?? i.content ?? (Array.isArray(i.edits) ? editsText(i.edits) : undefined));
    case "old_text":
    case "old_string":
      return str(i.old_string);
    case "content":
      return str(i.content ?? i.new_string);
    case "file_path":
      return str(i.file_path ?? i.notebook_path);
    default:
      return str(i[name]);
  }
}

function editsText(edits: unknown[]): string {
  return edits.map((e) => (typeof e === "object" && e !== null ? String((e as { new_string?: unknown }).new_string ?? "") : "")).join(" ");
}

/** What a condition reads of a field (a prompt, a command, a file's content): its first
 *  256 KiB, so that no pattern works on an unbounded text. A stop rule's transcript is bounded
 *  where it is read (its last 256 KiB, index.ts). */
export const MATCH_CHARS = 256 * 1024;

function matches(r: Rule, s: Subject): boolean {
  return r.conditions.every((c) => {
    const v = field(c.field, s);
    return v !== undefined && c.test(v.length > MATCH_CHARS ? v.slice(0, MATCH_CHARS) : v);
  });
}

export function evaluate(rules: readonly Loaded[], s: Subject): Verdict | null {
  const hit = rules.filter((r): r is Rule => r.kind === "rule" && r.enabled && applies(r, s) && matches(r, s));
  for (const action of ["block", "ask", "warn"] as const) {
    const of = hit.filter((r) => r.action === action);
    const text = (r: Rule): string => r.message || `(the rule ${r.name} matched)`;
    if (of.length === 1) return { action, rules: of, message: text(of[0]) };
    if (of.length) return { action, rules: of, message: of.map((r) => `**[${r.name}]**\n${text(r)}`).join("\n\n") };
  }
  return null;
}

/** Broken rules that may have meant to stop this tool call: its calls ask until they are fixed. */
export function brokenGuards(rules: readonly Loaded[], s: Subject): Broken[] {
  return rules.filter((r): r is Broken => r.kind === "broken" && r.enabled && r.action !== "warn" && applies(r, s));
}
