// Built-in mod: Claude Code's hookify rules, unchanged, as hooks on the chain (no process per
// call). A rule file (`.claude/hookify.<name>.local.md`, see rules.ts for every place) names an
// event, what to match and an action; its Markdown body is what the model is told:
//
//   bash, file, all   tool.check    block → the call is denied with the message; ask → it asks;
//                                    warn → it runs, and the message follows its result
//   prompt            prompt.submit block → the prompt is not sent; warn → the message rides
//                                    along as context
//   stop              turn.complete block → the turn goes on with the message (once per turn);
//                                    warn → the person is told
//
// Rules only ever tighten (deny, ask, add a note), so a project's own rules apply whether or
// not the project is trusted. `/hookify list` shows every rule and its state; `/hookify <what
// to prevent>` asks the model to write a rule. `api.config` (settings `pluginConfig.hookify`) may
// carry `dirs` (where rule files are looked for); transcripts for `transcript` conditions are
// in the sessions folder (api.host.sessionsDir).

import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative, resolve } from "node:path";
import type { CommandContext, JsonValue, Plugin, PluginApi } from "../../src/contract/index.js";
import { brokenGuards, evaluate } from "./match.js";
import { RuleSet, type Broken, type Loaded } from "./rules.js";

/** Stop reasons where the model did not finish on its own: stop rules do not run. */
const NOT_A_STOP: ReadonlySet<string> = new Set(["interrupted", "error", "budget_exhausted"]);
/** How much of a transcript a `transcript` condition reads (its end: the latest turns). */
const TRANSCRIPT_BYTES = 256 * 1024;

export function ruleDirs(root: string, home: string, userHome = homedir()): string[] {
  return [...new Set([join(root, ".claude"), join(root, ".deepcode"), join(userHome, ".claude"), home])];
}

const plugin: Plugin = {
  id: "hookify",
  description: "Claude Code's hookify rules (.claude/hookify.*.local.md) as chain hooks",
  register(api) {
    const c = api.config as Readonly<Record<string, JsonValue>>;
    const dirs = Array.isArray(c.dirs) ? c.dirs.filter((d): d is string => typeof d === "string") : ruleDirs(api.root, api.home);
    const sessionsDir = api.host.sessionsDir;
    // The project's own folders (a cloned repository writes them): inside the root, and not the
    // person's ~/.claude or deepcode's home (a project at the home folder is the person's).
    const mine = new Set([join(homedir(), ".claude"), api.home].map((d) => resolve(d)));
    const project = new Set(dirs.filter((d) => !mine.has(resolve(d)) && !relative(api.root, resolve(api.root, d)).startsWith("..")));
    const set = new RuleSet(dirs, project);
    const current = (): Loaded[] => {
      const { rules, fresh } = set.current();
      for (const b of fresh) api.log.warn(brokenLine(b, api.root));
      return rules;
    };
    current();
    /** warn messages waiting for their call's result. */
    const pending = new Map<string, string>();
    const continued = new Map<string, number>();

    api.on("tool.check", async (e, next) => {
      const rules = current();
      const subject = { kind: "tool" as const, tool: e.tool, input: e.input };
      const v = evaluate(rules, subject);
      if (v?.action === "block") return { decision: "deny", reason: `hookify rule ${names(v.rules)} blocks this call:\n\n${v.message}`, by: `hookify:${v.rules[0].name}` };
      const guards = brokenGuards(rules, subject);
      if (v?.action === "ask" || guards.length) {
        // Answered here, not after next(): an ask must stand whatever the gate's default answer
        // below this builtin-tier hook would be (the permission gate still combines it with its
        // own decision, so a deny rule stays a deny).
        const why = v?.action === "ask" ? `hookify rule ${names(v.rules)} asks before this call:\n\n${v.message}` : `hookify rule ${guards.map((g) => `${g.name} (${place(g, api.root)})`).join(", ")} cannot be read, so the calls it may have been meant to stop ask until it is fixed`;
        return { decision: "ask", reason: why, by: "hookify" };
      }
      if (v?.action === "warn") {
        pending.set(e.callId, `[hookify ${names(v.rules)}] ${v.message}`);
        api.log.warn(`rule ${names(v.rules)} warns about this ${e.tool} call: ${firstLine(v.rules[0].message)}`);
      }
      return next();
    });

    api.on("tool.result", async (e, next) => {
      const r = await next();
      const note = pending.get(e.callId);
      if (note === undefined) return r;
      pending.delete(e.callId);
      return { ...r, content: `${r.content}\n\n${note}` };
    });

    api.on("prompt.submit", async (e, next) => {
      const v = evaluate(current(), { kind: "prompt", text: e.text });
      if (v?.action === "block") {
        api.log.warn(`rule ${names(v.rules)} blocked this prompt: ${firstLine(v.rules[0].message)}`);
        return { text: e.text, blocked: `hookify rule ${names(v.rules)}: ${v.message}` };
      }
      const r = await next();
      if (!v) return r;
      api.log.warn(`rule ${names(v.rules)} warns about this prompt: ${firstLine(v.rules[0].message)}`);
      return { ...r, context: [...(r.context ?? []), `[hookify ${names(v.rules)}] ${v.message}`] };
    });

    api.on("turn.complete", async (e, next) => {
      const r = await next();
      if (NOT_A_STOP.has(e.stopReason)) return r;
      const transcript = (): string => readTail(join(sessionsDir, `${e.sessionId}.jsonl`));
      const v = evaluate(current(), { kind: "stop", transcript, reason: e.stopReason });
      if (!v) return r;
      if (v.action !== "block" || e.stopReason !== "completed" || r?.continueWith || continued.get(e.sessionId) === e.turn) {
        api.log.warn(`rule ${names(v.rules)}: ${firstLine(v.rules[0].message)}`);
        return r;
      }
      continued.set(e.sessionId, e.turn);
      return { ...(r ?? {}), continueWith: v.message };
    });

    api.command({
      name: "hookify",
      args: "[list | <what to prevent>]",
      description: "hookify rules: list them and their state, or have the model write one",
      complete: (p) => ["list", "help"].filter((x) => x.startsWith(p)),
      run: (ctx) => runCommand(api, ctx, current(), dirs),
    });
  },
};

export default plugin;

async function runCommand(api: PluginApi, ctx: CommandContext, rules: readonly Loaded[], dirs: readonly string[]): Promise<void> {
  const arg = ctx.args.trim();
  if (arg === "" || arg === "list") {
    if (rules.length === 0) return ctx.print(`No hookify rules. Rule files are hookify.<name>.local.md in ${dirs.map((d) => shortPath(d, api.root)).join(", ")}.`);
    const lines = rules.map((r) => {
      const where = place(r, api.root);
      if (r.kind === "broken") return `✗ ${r.name.padEnd(24)} ${String(r.event ?? "?").padEnd(6)} ${String(r.action ?? "?").padEnd(5)} broken: ${r.problem}  (${where})`;
      return `${r.enabled ? "✓" : "·"} ${r.name.padEnd(24)} ${r.event.padEnd(6)} ${r.action.padEnd(5)} ${r.enabled ? "enabled" : "disabled"}  (${where})`;
    });
    const n = rules.filter((r) => r.kind === "rule" && r.enabled).length;
    return ctx.print([...lines, `${rules.length} rule${rules.length === 1 ? "" : "s"}, ${n} in force`].join("\n"));
  }
  if (arg === "help") return ctx.print("/hookify list — every rule, its event, action and state\n/hookify <what to prevent> — the model writes a rule file for it (you approve the write)");
  await ctx.submit(
    [
      `Write a hookify rule for this: ${arg}`,
      "",
      "A hookify rule is a file .claude/hookify.<name>.local.md: a --- header with name (kebab-case), enabled: true, event (bash | file | stop | prompt | all), action (warn | block), and either pattern (a regular expression, matched case-insensitively against the command for bash, the new text for file, the prompt for prompt) or conditions (a list of field / operator / pattern; operators regex_match, contains, equals, not_contains, starts_with, ends_with; file fields file_path, new_text, old_text, content). The Markdown after the header is the message shown when the rule matches. Keep patterns unquoted. Write the file, then say what it does.",
    ].join("\n"),
  );
}

function brokenLine(b: Broken, root: string): string {
  const guard = !b.enabled || b.action === "warn" ? "" : b.event === "prompt" || b.event === "stop" ? "" : ` — until it is fixed, ${b.event === "bash" ? "Bash calls" : b.event === "file" ? "Edit and Write calls" : "tool calls"} ask`;
  return `${place(b, root)}: rule ${b.name} is disabled: ${b.problem}${guard}`;
}

function place(r: Loaded, root: string): string {
  return `${shortPath(r.file, root)}:${r.line}`;
}

function shortPath(p: string, root: string): string {
  const rel = relative(root, p);
  return rel && !rel.startsWith("..") ? rel : p;
}

function names(rules: ReadonlyArray<{ name: string }>): string {
  return rules.map((r) => r.name).join(", ");
}

function firstLine(s: string): string {
  const l = s.split("\n").map((x) => x.replace(/[*_#`]/g, "").trim()).find(Boolean) ?? "";
  return l.length > 120 ? `${l.slice(0, 119)}…` : l;
}

function readTail(file: string): string {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return ""; // no transcript yet (a session that keeps none): nothing to match
  }
  try {
    const size = fstatSync(fd).size;
    const n = Math.min(size, TRANSCRIPT_BYTES);
    const buf = Buffer.alloc(n);
    readSync(fd, buf, 0, n, size - n);
    return buf.toString("utf8");
  } finally {
    closeSync(fd);
  }
}
