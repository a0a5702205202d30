// Reading Claude Code's `hooks` settings into what the hooks mod runs.
//
// The mod gets, through `api.config` (assembly passes it; see index.ts):
//   { scope: "managed" | "settings", layers: [{ name, file, hooks, allowManagedHooksOnly, disableAllHooks, env? }], sessionsDir }
// An enabled plugin's hooks come as a layer of their own (named "plugin", or "managed" when the
// managed policy enables the plugin), with `env` for its commands (CLAUDE_PLUGIN_ROOT …).
// or, for a plain configuration (tests, embedding), `{ hooks: { … } }`. The "managed" instance
// takes the managed policy's hooks; the "settings" instance every other layer's — none when a
// managed layer sets `allowManagedHooksOnly`. Hooks accumulate across layers, in layer order.
//
// Shape per event, as Claude Code writes it:
//   "PreToolUse": [{ "matcher": "Edit|Write", "hooks": [{ "type": "command", "command": "…", "timeout": 60 }] }]
// A command may also carry `async: true` / `asyncRewake: true` (runs in the background; see
// background.ts) and `if: "Bash(git commit *)"` (runs only for tool calls the rule matches; see if.ts).
// Matchers (Claude Code's rules): absent, "" or "*" match everything; a string of letters,
// digits, `_` and `|` is a list of exact names; anything else is a JavaScript regular
// expression, tested unanchored. Fail closed on the gate: a PreToolUse entry deepcode cannot
// read (a bad matcher, a hook type it does not run, no command) denies the calls it would have
// seen — a policy hook that silently stopped running would loosen the policy.

import type { JsonValue } from "../../src/contract/index.js";
import { isObject } from "../../src/lib/json.js";
import { ifMatches, parseIf, understood, type IfRule } from "./if.js";

export const HOOK_EVENTS = ["PreToolUse", "PostToolUse", "PermissionDenied", "UserPromptSubmit", "Stop", "SubagentStop", "SessionStart", "SessionEnd", "PreCompact", "Notification"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];
/** The events about one tool call: the only ones where a command's `if` is tested. */
const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set(["PreToolUse", "PostToolUse", "PermissionDenied"]);

/** Claude Code's default command timeout, in seconds. */
export const DEFAULT_TIMEOUT_S = 60;

export interface HookCommand {
  command: string;
  timeoutMs: number;
  /** Variables its layer adds to the command's environment (a plugin's CLAUDE_PLUGIN_ROOT). */
  env?: Record<string, string>;
  /** `async: true` ("async") or `asyncRewake: true` ("rewake"): runs in the background. */
  background?: "async" | "rewake";
  /** `if`: the permission rule a tool call must match for the command to run. */
  condition?: IfRule;
  /** `"sandbox": false` in the person's user settings or the managed policy: started without
   *  the sandbox (a project's files cannot ask for it; said at start). */
  unsandboxed?: boolean;
}

/** A tool call, for testing commands' `if` rules. */
export interface CallFacts {
  names: readonly string[];
  input: Readonly<Record<string, JsonValue>>;
  root: string;
}

export interface HookGroup {
  /** Tests the event's matched value (a tool name, a session source, a compaction trigger…). */
  matches: (value: string) => boolean;
  commands: HookCommand[];
  /** Set when the entry cannot be run as written: for PreToolUse, the calls it matches are denied. */
  problem?: string;
}

export interface HookSet {
  events: Map<HookEvent, HookGroup[]>;
  /** Said once at start (through api.log.warn). */
  warnings: string[];
  /** Where session transcripts live (`<home>/sessions/<project>`), for `transcript_path`. */
  sessionsDir?: string;
  /** "managed" for the managed policy's hooks (their messages say so). */
  scope: "managed" | "settings";
}

type Obj = { [key: string]: JsonValue };

/** The hooks objects this instance runs, each with the file it came from. */
type Source = { file: string; hooks: Obj; env?: Record<string, string>; own?: boolean };

/** Layers that are the person's or the administrator's own, not a project's: only they may run a
 *  hook outside the sandbox. */
const OWN_LAYERS: ReadonlySet<JsonValue | undefined> = new Set(["user", "managed"]);

function selectSources(config: Readonly<Obj>, warnings: string[]): Source[] {
  if (isObject(config.hooks)) return [{ file: "settings", hooks: config.hooks, own: true }];
  const layers = Array.isArray(config.layers) ? config.layers.filter((l): l is Obj => isObject(l)) : [];
  const managedScope = config.scope === "managed";
  const managedOnly = layers.some((l) => l.name === "managed" && l.allowManagedHooksOnly === true);
  // disableAllHooks: the managed policy's stops every hook, its own too; a person's or a
  // project's stops every hook but the managed policy's (it cannot switch off the audit).
  const off = layers.find((l) => l.disableAllHooks === true);
  if (layers.some((l) => l.name === "managed" && l.disableAllHooks === true)) return [];
  const out: Source[] = [];
  for (const l of layers) {
    if (!isObject(l.hooks) || Object.keys(l.hooks).length === 0) continue;
    const file = typeof l.file === "string" ? l.file : String(l.name);
    if ((l.name === "managed") !== managedScope) continue;
    if (!managedScope && off) {
      warnings.push(`${file}: hooks ignored — ${typeof off.file === "string" ? off.file : String(off.name)} sets disableAllHooks`);
      continue;
    }
    if (!managedScope && managedOnly) {
      warnings.push(`${file}: hooks ignored — the managed policy allows only its own hooks (allowManagedHooksOnly)`);
      continue;
    }
    const env = isObject(l.env) ? Object.fromEntries(Object.entries(l.env).filter((e): e is [string, string] => typeof e[1] === "string")) : undefined;
    out.push({ file, hooks: l.hooks, ...(env ? { env } : {}), ...(OWN_LAYERS.has(l.name) ? { own: true } : {}) });
  }
  return out;
}

export function readHookSet(config: Readonly<Obj>): HookSet {
  const warnings: string[] = [];
  const events = new Map<HookEvent, HookGroup[]>();
  for (const { file, hooks, env, own } of selectSources(config, warnings)) {
    for (const [event, list] of Object.entries(hooks)) {
      if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
        warnings.push(`${file}: '${event}' hooks are not run by deepcode (it runs ${HOOK_EVENTS.join(", ")}); ignored`);
        continue;
      }
      if (!Array.isArray(list)) {
        warnings.push(`${file}: hooks.${event} must be an array; ignored`);
        continue;
      }
      list.forEach((entry, i) => {
        const group = readGroup(entry, `${file}: hooks.${event}[${i}]`, event as HookEvent, warnings, env, own === true);
        if (group) (events.get(event as HookEvent) ?? events.set(event as HookEvent, []).get(event as HookEvent)!).push(group);
      });
    }
  }
  return {
    events,
    warnings,
    sessionsDir: typeof config.sessionsDir === "string" ? config.sessionsDir : undefined,
    scope: config.scope === "managed" ? "managed" : "settings",
  };
}

function readGroup(entry: JsonValue, where: string, event: HookEvent, warnings: string[], env?: Record<string, string>, own = false): HookGroup | null {
  const gate = event === "PreToolUse";
  /** An entry that cannot run: on the gate it still matches (everything, when even its matcher
   *  is unreadable), so the calls it would have seen are denied. */
  const fail = (problem: string, matches: (v: string) => boolean = () => true): HookGroup | null => {
    warnings.push(`${where}: ${problem}${gate ? " — the tool calls it matches are denied until it is fixed" : "; ignored"}`);
    return gate ? { matches, commands: [], problem: `${where}: ${problem}` } : null;
  };
  if (!isObject(entry)) return fail("must be an object { matcher, hooks }");
  for (const k of ["if", "async", "asyncRewake"]) {
    if (entry[k] !== undefined) warnings.push(`${where}: '${k}' belongs on each command in 'hooks' (beside "type" and "command"), not on the entry; ignored here`);
  }
  const m = compileMatcher(entry.matcher);
  if (typeof m === "string") return fail(m);
  if (!Array.isArray(entry.hooks)) return fail("'hooks' must be an array of { type: \"command\", command }", m);
  const commands: HookCommand[] = [];
  for (const [j, h] of entry.hooks.entries()) {
    if (!isObject(h)) return fail(`hooks[${j}] must be an object`, m);
    if (h.type !== "command") return fail(`hooks[${j}] has type ${JSON.stringify(h.type ?? null)}: deepcode runs only "command" hooks`, m);
    if (typeof h.command !== "string" || h.command.trim() === "") return fail(`hooks[${j}] has no command`, m);
    let seconds = DEFAULT_TIMEOUT_S;
    if (h.timeout !== undefined) {
      if (typeof h.timeout === "number" && h.timeout > 0 && Number.isFinite(h.timeout)) seconds = h.timeout;
      else warnings.push(`${where}.hooks[${j}]: timeout must be a number of seconds > 0; using ${DEFAULT_TIMEOUT_S}`);
    }
    const background = readBackground(h, `${where}.hooks[${j}]`, event, warnings);
    let condition: IfRule | undefined;
    if (h.if !== undefined) {
      const rule = parseIf(h.if);
      if (typeof rule === "string") return fail(`hooks[${j}]: ${rule}`, m);
      if (!TOOL_EVENTS.has(event)) {
        warnings.push(`${where}.hooks[${j}]: 'if' is tested only on tool events (PreToolUse, PostToolUse, PermissionDenied); this ${event} command never runs (as in Claude Code)`);
        continue;
      }
      if (!understood(rule)) warnings.push(`${where}.hooks[${j}]: deepcode cannot read the pattern of 'if' ${JSON.stringify(rule.text)} for ${rule.tool}; the command runs on every ${rule.tool} call`);
      condition = rule;
    }
    const unsandboxed = h.sandbox === false && own;
    if (h.sandbox === false && !own) warnings.push(`${where}.hooks[${j}]: "sandbox": false is honoured only in your user settings or the managed policy, not in a project's files; it runs in the sandbox`);
    else if (h.sandbox !== undefined && typeof h.sandbox !== "boolean") warnings.push(`${where}.hooks[${j}]: 'sandbox' must be true or false; taken as true`);
    commands.push({ command: h.command, timeoutMs: Math.round(seconds * 1000), ...(env ? { env } : {}), ...(background ? { background } : {}), ...(condition ? { condition } : {}), ...(unsandboxed ? { unsandboxed } : {}) });
  }
  return { matches: m, commands };
}

/** `async` / `asyncRewake` (which implies async). A background PreToolUse command cannot
 *  answer for the call (it already ran on): said at start, as Claude Code documents it. */
function readBackground(h: Obj, where: string, event: HookEvent, warnings: string[]): HookCommand["background"] {
  for (const k of ["async", "asyncRewake"] as const) {
    if (h[k] !== undefined && typeof h[k] !== "boolean") warnings.push(`${where}: '${k}' must be true or false; taken as false`);
  }
  const mode = h.asyncRewake === true ? "rewake" : h.async === true ? "async" : undefined;
  if (mode && event === "PreToolUse") warnings.push(`${where}: runs in the background (${mode === "rewake" ? "asyncRewake" : "async"}), so its decision is not applied to the call — a gate hook must not be async`);
  return mode;
}

/** Claude Code's matcher rules; a string is the reason it cannot be compiled. */
export function compileMatcher(m: JsonValue | undefined): ((value: string) => boolean) | string {
  if (m === undefined || m === null || m === "" || m === "*") return () => true;
  if (typeof m !== "string") return "'matcher' must be a string";
  if (/^[A-Za-z0-9_|]+$/.test(m)) {
    const names = new Set(m.split("|").filter(Boolean));
    return (v) => names.has(v);
  }
  try {
    const re = new RegExp(m);
    return (v) => re.test(v);
  } catch (err) {
    return `matcher ${JSON.stringify(m)} is not a valid regular expression (${err instanceof Error ? err.message : String(err)})`;
  }
}

/** The groups of `event` that match `value` — or any of the values (a tool's names) — (null:
 *  the event has no matcher, every group applies), and their commands without duplicates (Claude Code runs an identical command once
 *  per event even when several entries list it). */
export function matching(set: HookSet, event: HookEvent, value: string | readonly string[] | null, call?: CallFacts): { commands: HookCommand[]; problems: string[] } {
  const seen = new Map<string, HookCommand>();
  const problems: string[] = [];
  const values = value === null ? null : typeof value === "string" ? [value] : value;
  for (const g of set.events.get(event) ?? []) {
    if (values !== null && !values.some((v) => g.matches(v))) continue;
    if (g.problem) problems.push(g.problem);
    for (const c of g.commands) {
      if (c.condition && !(call && ifMatches(c.condition, call.names, call.input, call.root))) continue;
      const key = `${c.background ?? "sync"}\u0000${c.command}`;
      const prev = seen.get(key);
      if (!prev || prev.timeoutMs < c.timeoutMs) seen.set(key, c);
    }
  }
  return { commands: [...seen.values()], problems };
}

/** The longest timeout of an event's commands the chain waits for (background ones it does
 *  not): the chain hook's own limit is derived from it. */
export function longestTimeoutMs(set: HookSet, event: HookEvent): number {
  let max = 0;
  for (const g of set.events.get(event) ?? []) for (const c of g.commands) if (!c.background) max = Math.max(max, c.timeoutMs);
  return max;
}
