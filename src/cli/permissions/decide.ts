// The permission decision: pure (apart from looking at the file system to follow symlinks), so
// it can be tested as a table and shown by `/permissions`.
//
// Order is fixed: deny > ask > allow, whatever the layer or position of a rule; an allow can at
// most turn an ask into an allow. Defaults: read-only tools allow; Write, Edit and Bash ask; a
// tool no one registered (readOnly null) is denied. A broken managed policy denies everything.

import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { namingAllow, ruleVerdict, readVerdict, searchVerdict, strongest, writeVerdict, type DecisionKind, type Verdict } from "./checks.js";
import { lifecycleChange } from "./containment/lifecycle.js";
import { decideBash } from "./decide-bash.js";
import { servedUrl } from "./containment/served.js";
import { expandHome, sessionOutput, type PathEnv } from "./paths.js";
import { EDIT_TOOLS, READ_TOOLS, ruleAppliesTo, type Rule } from "./rules.js";

export interface ToolCall {
  tool: string;
  input: Readonly<Record<string, unknown>>;
  /** From the tool's spec; null when no tool of that name is registered. */
  readOnly: boolean | null;
}

export interface DecisionEnv extends PathEnv {
  /** Bash's current folder. */
  cwd: string;
  /** Bash runs in a sandbox that contains it (decide-bash.ts): the auto-allow applies. */
  sandboxed?: boolean;
  /** Whether the repository holding a folder has a secret file in its history (decide-bash.ts). */
  historySecret?: (dir: string) => boolean;
  /** The sandbox reaches `sandbox.network.allowedDomains` through its proxy (decide-bash.ts). */
  sandboxProxied?: boolean;
  /** What a contained command cannot read (sandbox-view.ts, decide-bash.ts). */
  sandboxHides?: (path: string) => boolean;
  /** Ports background jobs' servers are forwarded at (served.ts): WebFetch there is allowed. */
  servedPorts?: readonly number[];
  /** No sandbox is active: what the reader proves read-only runs (read-only.ts, decide-bash.ts). */
  readerAlone?: boolean;
  /** Settings require the sandbox (`sandbox.failIfUnavailable`) and it is not active: why, and
   *  every command is denied. */
  sandboxRequired?: string;
  /** The managed policy is broken (a malformed file, or a deny or ask rule that cannot be
   *  parsed): deny everything, loudly. */
  managedBroken?: boolean;
}

export interface Decision {
  decision: DecisionKind;
  reason: string;
  /** The rule that decided, if one did (with its layer and file). */
  rule?: Rule;
  /** Who decided, for `GateDecision.by`: "<rule> (<layer>)", "path fence", "secrets", "default"… */
  by: string;
}

export function decide(call: ToolCall, rules: readonly Rule[], env: DecisionEnv): Decision {
  if (env.managedBroken) {
    return { decision: "deny", reason: "the managed policy file is malformed (or holds a deny or ask rule deepcode cannot apply), so every tool call is denied until an administrator fixes it", by: "managed policy" };
  }
  if (call.readOnly === null) return { decision: "deny", reason: `'${call.tool}' is not a known tool`, by: "default" };
  const applying = rules.filter((r) => ruleAppliesTo(r, call.tool));
  if (call.tool === "Bash" && env.sandboxRequired) return { decision: "deny", reason: `${env.sandboxRequired}; ask the person to fix it (deepcode doctor says how)`, by: "sandbox required" };
  if (call.tool === "Bash") return decideBash(stringInput(call.input.command), rules, env);
  if (EDIT_TOOLS.has(call.tool)) return decideEdit(call, applying, rules, env);
  if (READ_TOOLS.has(call.tool)) return decideRead(call, applying, rules, env);
  return decideOther(call, applying, env);
}

function bareRule(applying: readonly Rule[], kind: string): Rule | undefined {
  return applying.find((r) => r.kind === kind && r.match.type === "tool");
}

function decideEdit(call: ToolCall, applying: readonly Rule[], rules: readonly Rule[], env: DecisionEnv): Verdict {
  const denied = bareRule(applying, "deny");
  if (denied) return ruleVerdict("deny", denied, `${call.tool} is denied`);
  const path = stringInput(call.input.file_path ?? call.input.notebook_path ?? call.input.path);
  if (path === "") return { decision: "ask", reason: `${call.tool} names no file`, by: "default" };
  const abs = resolve(env.root, expandHome(path, env.home));
  const v = writeVerdict(abs, rules, env);
  if (v?.decision === "deny") return v;
  const asked = bareRule(applying, "ask");
  if (asked) return ruleVerdict("ask", asked, `${call.tool} asks`);
  if (v?.decision === "ask") return v;
  // A package.json change to what npm or a git hook runs unasked is the person's call, whatever
  // broad rule allows editing (lifecycle.ts).
  const lifecycle = lifecycleChange(call.tool, call.input, abs);
  if (lifecycle) {
    const naming = namingAllow(abs, rules, env);
    return naming ? ruleVerdict("allow", naming, `writing ${abs} is allowed`) : { decision: "ask", reason: lifecycle, by: "lifecycle script" };
  }
  if (v) return v;
  const allowed = bareRule(applying, "allow");
  if (allowed) return ruleVerdict("allow", allowed, `${call.tool} is allowed`);
  return { decision: "ask", reason: `${call.tool} changes ${abs}: needs approval`, by: "default" };
}

function decideRead(call: ToolCall, applying: readonly Rule[], rules: readonly Rule[], env: DecisionEnv): Verdict {
  const denied = bareRule(applying, "deny");
  if (denied) return ruleVerdict("deny", denied, `${call.tool} is denied`);
  // A search reads everything below its folder: a rule covering the folder's contents
  // (`Read(private/**)`) applies to a search started there, so a probe child is checked too.
  // So does a Read of a folder (an @-mention of one lists what is inside).
  const probe = readTargets(call, env)
    .filter((p) => call.tool !== "Read" || isDirectory(p))
    .map((p) => join(p, "\u0000"));
  const verdicts = [...readTargets(call, env), ...probe].map((p) => {
    const v = readVerdict(p, rules, env, { sessionOutput: call.tool === "Read" && sessionOutput(p, env) });
    return v && { ...v, reason: v.reason.replace(/\u0000/g, "…") };
  });
  // A search that would reach the home folder's credentials (`~`, `/`) asks (checks.ts).
  if (call.tool !== "Read") verdicts.push(...readTargets(call, env).map((p) => searchVerdict(p, rules, env)));
  const worst = strongest(verdicts.filter((v): v is Verdict => v !== null));
  if (worst?.decision === "deny") return worst;
  const asked = bareRule(applying, "ask");
  if (asked) return ruleVerdict("ask", asked, `${call.tool} asks`);
  if (worst?.decision === "ask") return worst;
  const allowed = bareRule(applying, "allow");
  if (allowed) return ruleVerdict("allow", allowed, `${call.tool} is allowed`);
  if (worst) return worst;
  if (call.readOnly === false) return { decision: "ask", reason: `${call.tool} is not read-only: needs approval`, by: "default" };
  return { decision: "allow", reason: `${call.tool} only reads`, by: "default" };
}

/** The paths a read-family call touches: Read's file, or the folder a search starts from. */
function readTargets(call: ToolCall, env: DecisionEnv): string[] {
  const abs = (p: string): string => resolve(env.root, expandHome(p, env.home));
  if (call.tool === "Read") {
    const p = stringInput(call.input.file_path);
    return p === "" ? [] : [abs(p)];
  }
  const out: string[] = [];
  const dir = stringInput(call.input.path);
  out.push(dir === "" ? resolve(env.root) : abs(dir));
  // Glob's pattern may itself be absolute (`/etc/**`, `~/.ssh/*`): its literal folder is searched.
  const pattern = stringInput(call.input.pattern);
  if (call.tool === "Glob" && (pattern.startsWith("/") || pattern.startsWith("~"))) {
    const literal = pattern.slice(0, pattern.search(/[*?[{]|$/));
    out.push(abs(literal.slice(0, literal.lastIndexOf("/") + 1) || literal));
  }
  return out;
}

function decideOther(call: ToolCall, applying: readonly Rule[], env: DecisionEnv): Verdict {
  const url = stringInput(call.input.url);
  let host: string | null = null;
  try {
    host = url === "" ? null : new URL(url).hostname.toLowerCase();
  } catch {
    host = null; // not a URL: domain rules cannot match it (see below)
  }
  // The Task tool finds its type the same way: trimmed, case aside (Claude's `Explore`).
  const agentType = stringInput(call.input.subagent_type).trim().toLowerCase();
  // The Skill tool's skill, as the skills mod finds it (case aside).
  const skill = stringInput(call.input.skill).trim().toLowerCase();
  const matches = (r: Rule): "yes" | "no" | "maybe" => {
    if (r.match.type === "agent") return r.match.name.toLowerCase() === agentType ? "yes" : "no";
    if (r.match.type === "skill") return (r.match.prefix ? skill.startsWith(`${r.match.name}:`) : skill === r.match.name) ? "yes" : "no";
    if (r.match.type !== "domain") return "yes";
    if (host === null) return "maybe";
    return host === r.match.domain || host.endsWith(`.${r.match.domain}`) ? "yes" : "no";
  };
  for (const kind of ["deny", "ask"] as const) {
    for (const r of applying.filter((x) => x.kind === kind)) {
      const m = matches(r);
      if (m === "yes") return ruleVerdict(kind, r, `${call.tool} ${kind === "deny" ? "is denied" : "asks"}`);
      if (m === "maybe") return ruleVerdict("ask", r, `${call.tool}'s address cannot be read, and a ${kind} rule might match it`);
    }
  }
  const allowed = applying.find((r) => r.kind === "allow" && matches(r) === "yes");
  if (allowed) return ruleVerdict("allow", allowed, `${call.tool} is allowed`);
  // The agent's own server: a background job's port the sandbox forwards (served.ts).
  if (call.tool === "WebFetch" && servedUrl(url, env.servedPorts)) return { decision: "allow", reason: `${call.tool} reaches a server a background job runs in the sandbox (forwarded to this machine's loopback)`, by: "sandbox" };
  if (call.readOnly) return { decision: "allow", reason: `${call.tool} only reads`, by: "default" };
  if (host !== null) return { decision: "ask", reason: `${call.tool} reaches ${host}: needs approval`, by: "default" };
  return { decision: "ask", reason: `${call.tool} may change things: needs approval`, by: "default" };
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false; // missing or unreadable: a file as far as rules go
  }
}

function stringInput(v: unknown): string {
  return typeof v === "string" ? v : "";
}
