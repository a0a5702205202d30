// What a hook's run means, per event — Claude Code's protocol, read strictly:
//
// - exit 0: go on. stdout may be a JSON object: `continue` (false stops), `stopReason`,
//   `systemMessage` (shown to the person), `decision` ("block" + `reason`; PreToolUse's legacy
//   "approve"), and `hookSpecificOutput` with `permissionDecision` allow/deny/ask +
//   `permissionDecisionReason`, `updatedInput`, `additionalContext`. stdout that is not JSON is
//   plain text (context for UserPromptSubmit and SessionStart, ignored elsewhere).
// - exit 2: block; stderr is the message (to the model for PreToolUse, PostToolUse and Stop).
// - anything else (another status, a crash, a timeout): reported, not blocking — except on
//   PreToolUse, where deepcode's gate fails closed: the call is denied.
// - PreToolUse reads stdout strictly, since a policy hook's answer must not be lost: after exit 0,
//   empty stdout is no opinion (as in Claude Code) and one JSON object is the answer; anything
//   else — plain text, a log line before the JSON, a JSON array, two objects — is an answer
//   deepcode cannot read, so the call is denied, the reason naming the hook and (bounded) what
//   it printed. So is a `permissionDecision` or a `decision` deepcode does not know.
//
// These functions are pure: they turn the runs of one event into one answer.

import { failureOf, short, type HookRun } from "./run.js";

export interface Outcome {
  command: string;
  run: HookRun;
  timeoutMs: number;
}

type Obj = Record<string, unknown>;

interface Read {
  /** exit 0 with a JSON object on stdout. */
  json: Obj | null;
  /** exit 0 with plain text on stdout. */
  text: string;
  /** exit 2: stderr. */
  blocked: string | null;
  /** Another status, a crash, a timeout or broken JSON: one line saying so. */
  failure: string | null;
}

/** How much of unreadable stdout a reason quotes. */
const QUOTE_MAX = 160;

function read(o: Outcome, strict = false): Read {
  const f = failureOf(o.command, o.run, o.timeoutMs);
  if (f) return { json: null, text: "", blocked: null, failure: f };
  if (o.run.exitCode === 2) return { json: null, text: "", blocked: o.run.stderr.trim() || `blocked by \`${short(o.command)}\``, failure: null };
  const out = o.run.stdout.trim();
  if (strict && out !== "") {
    const v = parseObject(out);
    if (v) return { json: v, text: "", blocked: null, failure: null };
    const quoted = JSON.stringify(out.length > QUOTE_MAX ? `${out.slice(0, QUOTE_MAX)}…` : out);
    return { json: null, text: "", blocked: null, failure: `\`${short(o.command)}\` printed ${quoted}, which is not one JSON object (the only answer deepcode reads; print nothing for no opinion)` };
  }
  if (!out.startsWith("{")) return { json: null, text: out, blocked: null, failure: null };
  try {
    const v: unknown = JSON.parse(out);
    if (typeof v === "object" && v !== null && !Array.isArray(v)) return { json: v as Obj, text: "", blocked: null, failure: null };
  } catch {
    // not JSON after all: reported below
  }
  return { json: null, text: "", blocked: null, failure: `\`${short(o.command)}\` printed output that starts like JSON but is not a JSON object` };
}

function parseObject(text: string): Obj | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : null;
  } catch {
    return null; // not JSON: the caller reports it
  }
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : undefined);
const specific = (j: Obj | null): Obj => (j && typeof j.hookSpecificOutput === "object" && j.hookSpecificOutput !== null ? (j.hookSpecificOutput as Obj) : {});

/** What every event shares: messages for the person, failures to report. */
export interface Common {
  /** `systemMessage`s: shown to the person. */
  messages: string[];
  /** Failures of hooks that do not block (reported loudly, the turn goes on). */
  warnings: string[];
  /** `continue: false` with its `stopReason`. */
  stop: string | null;
}

function common(reads: Array<{ o: Outcome; r: Read }>, event: string, failuresWarn = true): Common {
  const c: Common = { messages: [], warnings: [], stop: null };
  for (const { o, r } of reads) {
    const m = str(r.json?.systemMessage);
    if (m) c.messages.push(m);
    if (r.failure && failuresWarn) c.warnings.push(`${event} hook ${r.failure}`);
    if (r.json?.continue === false) c.stop = str(r.json.stopReason) ?? `stopped by the ${event} hook \`${short(o.command)}\``;
  }
  return c;
}

export interface PreToolAnswer extends Common {
  decision: "allow" | "ask" | "deny" | null;
  reason: string;
  context: string[];
  /** Hooks that returned an updatedInput deepcode did not apply. */
  ignoredUpdates: string[];
}

const RANK = { allow: 1, ask: 2, deny: 3 } as const;

/** PreToolUse: the strictest answer of every hook (deny > ask > allow > no opinion). */
export function preToolAnswer(outcomes: Outcome[], toolInput: unknown): PreToolAnswer {
  const reads = outcomes.map((o) => ({ o, r: read(o, true) }));
  const c = common(reads, "PreToolUse");
  const votes: Array<{ d: "allow" | "ask" | "deny"; reason: string }> = [];
  const context: string[] = [];
  const ignoredUpdates: string[] = [];
  for (const { o, r } of reads) {
    const name = `\`${short(o.command)}\``;
    if (r.failure) votes.push({ d: "deny", reason: `the PreToolUse hook ${r.failure} (a failing hook denies: deepcode's gate fails closed)` });
    else if (r.blocked !== null) votes.push({ d: "deny", reason: r.blocked });
    if (!r.json) continue;
    const s = specific(r.json);
    const ctx = str(s.additionalContext);
    if (ctx) context.push(ctx);
    const pd = s.permissionDecision;
    const why = str(s.permissionDecisionReason) ?? str(r.json.reason);
    let vote: "allow" | "ask" | "deny" | null = null;
    if (pd === "allow" || pd === "deny" || pd === "ask") vote = pd;
    else if (pd !== undefined && pd !== "defer") {
      votes.push({ d: "deny", reason: `the PreToolUse hook ${name} answered permissionDecision ${JSON.stringify(pd)}, which deepcode does not know (denied)` });
      continue;
    } else if (r.json.decision === "approve") vote = "allow";
    else if (r.json.decision === "block") vote = "deny";
    else if (r.json.decision !== undefined) {
      votes.push({ d: "deny", reason: `the PreToolUse hook ${name} answered decision ${JSON.stringify(r.json.decision)}, which deepcode does not know (denied)` });
      continue;
    }
    if (s.updatedInput !== undefined && JSON.stringify(s.updatedInput) !== JSON.stringify(toolInput) && vote !== "deny") {
      // The gate cannot change what the tool runs with; running the original input on an
      // approval that was given for another input would be wrong, so a person decides.
      ignoredUpdates.push(o.command);
      votes.push({ d: "ask", reason: `the PreToolUse hook ${name} wanted to change this call's input, which deepcode does not support; the call would run unchanged` });
      continue;
    }
    if (vote) votes.push({ d: vote, reason: why ?? (vote === "deny" ? `denied by the PreToolUse hook ${name}` : `${vote === "allow" ? "allowed" : "asked"} by the PreToolUse hook ${name}`) });
  }
  if (c.stop !== null) votes.push({ d: "deny", reason: c.stop });
  let decision: PreToolAnswer["decision"] = null;
  for (const v of votes) if (decision === null || RANK[v.d] > RANK[decision]) decision = v.d;
  const reason = votes.filter((v) => v.d === decision).map((v) => v.reason).join("; ");
  return { ...c, decision, reason, context, ignoredUpdates };
}

export interface PostToolAnswer extends Common {
  /** What the model reads after the tool's output. */
  notes: string[];
}

/** PostToolUse: the tool already ran; hooks can only tell the model something. */
export function postToolAnswer(outcomes: Outcome[]): PostToolAnswer {
  const reads = outcomes.map((o) => ({ o, r: read(o) }));
  const c = common(reads, "PostToolUse");
  const notes: string[] = [];
  for (const { r } of reads) {
    if (r.blocked !== null) notes.push(r.blocked);
    if (!r.json) continue;
    if (r.json.decision === "block") notes.push(str(r.json.reason) ?? "a PostToolUse hook flagged this result");
    const ctx = str(specific(r.json).additionalContext);
    if (ctx) notes.push(ctx);
  }
  if (c.stop !== null) notes.push(`Stop working on this: ${c.stop}`);
  return { ...c, notes };
}

export interface PromptAnswer extends Common {
  blocked: string | null;
  context: string[];
}

/** UserPromptSubmit (and SessionStart, which only adds context): block, or add context. */
export function promptAnswer(outcomes: Outcome[], event: "UserPromptSubmit" | "SessionStart"): PromptAnswer {
  const reads = outcomes.map((o) => ({ o, r: read(o) }));
  const c = common(reads, event);
  const blocks: string[] = [];
  const context: string[] = [];
  for (const { r } of reads) {
    if (r.blocked !== null && event === "UserPromptSubmit") blocks.push(r.blocked);
    else if (r.blocked !== null) c.warnings.push(`${event} hook: ${r.blocked}`);
    if (r.text) context.push(r.text);
    if (!r.json) continue;
    if (r.json.decision === "block" && event === "UserPromptSubmit") blocks.push(str(r.json.reason) ?? "blocked by a UserPromptSubmit hook");
    const ctx = str(specific(r.json).additionalContext);
    if (ctx) context.push(ctx);
  }
  if (c.stop !== null && event === "UserPromptSubmit") blocks.push(c.stop);
  return { ...c, blocked: blocks.length ? blocks.join("; ") : null, context };
}

/** Stop: `decision: "block"` (or exit 2) asks the model to go on, with the reason; `continue:
 *  false` wins over that (Claude Code's precedence). */
export function stopAnswer(outcomes: Outcome[]): Common & { continueWith: string | null } {
  const reads = outcomes.map((o) => ({ o, r: read(o) }));
  const c = common(reads, "Stop");
  const reasons: string[] = [];
  for (const { r } of reads) {
    if (r.blocked !== null) reasons.push(r.blocked);
    if (r.json?.decision === "block") reasons.push(str(r.json.reason) ?? "a Stop hook asks you to go on");
  }
  return { ...c, continueWith: c.stop === null && reasons.length ? reasons.join("\n") : null };
}

/** PreCompact: exit 2 or `decision: "block"` keeps the log uncompacted. */
export function compactAnswer(outcomes: Outcome[]): Common & { blocked: string | null } {
  const reads = outcomes.map((o) => ({ o, r: read(o) }));
  const c = common(reads, "PreCompact");
  const reasons: string[] = [];
  for (const { r } of reads) {
    if (r.blocked !== null) reasons.push(r.blocked);
    if (r.json?.decision === "block") reasons.push(str(r.json.reason) ?? "a PreCompact hook blocked it");
  }
  if (c.stop !== null) reasons.push(c.stop);
  return { ...c, blocked: reasons.length ? reasons.join("; ") : null };
}

/** Events whose hooks only observe (SessionEnd, Notification): report what failed. */
export function observeAnswer(outcomes: Outcome[], event: string): Common {
  const reads = outcomes.map((o) => ({ o, r: read(o) }));
  const c = common(reads, event);
  for (const { r } of reads) if (r.blocked !== null) c.warnings.push(`${event} hook: ${r.blocked}`);
  return c;
}

/** What a background command's run (`async` / `asyncRewake`) means, when it ends. As Claude
 *  Code documents it: its decisions are not applied (the event went on without it);
 *  `systemMessage` and `additionalContext` reach the model with the next turn (and the
 *  message is shown to the person); for `asyncRewake`, exit 2 wakes the model with stderr (or
 *  stdout when stderr is empty). Another failure is reported to the person. */
export interface BackgroundAnswer extends Common {
  /** For the model, with the next prompt. */
  context: string[];
  /** asyncRewake's exit 2: what the model must hear now. */
  wake: string | null;
}

export function backgroundAnswer(o: Outcome, event: string, rewake: boolean): BackgroundAnswer {
  const r = read(o);
  const c = common([{ o, r }], `${event} (background)`);
  c.stop = null; // `continue: false` cannot stop what already went on
  const context: string[] = [];
  let wake: string | null = null;
  if (r.blocked !== null) {
    const said = o.run.stderr.trim() || o.run.stdout.trim() || `\`${short(o.command)}\` exited with status 2`;
    if (rewake) wake = said;
    else c.warnings.push(`${event} hook (background) \`${short(o.command)}\`: ${said}`);
  }
  if (r.text && (event === "SessionStart" || event === "UserPromptSubmit")) context.push(r.text);
  const ctx = str(specific(r.json).additionalContext);
  if (ctx) context.push(ctx);
  const msg = str(r.json?.systemMessage);
  if (msg) context.push(msg);
  return { ...c, context, wake };
}
