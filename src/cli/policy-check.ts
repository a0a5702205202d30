// `deepcode policy check FILE`: a managed policy checked before it is deployed. Every problem is
// said with file:line:column, not only the first (deepcode at start stops at the first and
// denies every tool call): a syntax error, a key twice, a type, a key deepcode does not know, a
// Claude Code key deepcode cannot apply as written, a hook event nobody knows, a deny or ask rule
// it cannot parse. Keys deepcode accepts and ignores are named with why; so are Claude Code hook
// events it does not run, and a file an administrator should not leave as it is (symlinked,
// writable by others). Exit 1 when the policy would be broken, else 0.

import { lstatSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { JsonValue } from "../contract/index.js";
import { isObject } from "../lib/json.js";
import { JsonSyntaxError, parseJson, type JsonPosition } from "../lib/json-parse.js";
import { readRegularFileSync } from "../lib/regular-file.js";
import { parseRule, type RuleKind } from "./permissions/rules.js";
import { checkSettings } from "./settings/schema.js";
import { MANAGED_IGNORABLE, strictProblem, unknownHookEvent } from "./settings/strict.js";
import { decodeUtf8 } from "./settings/utf8.js";

/** Hook events the hooks mod runs (mods/hooks/config.ts HOOK_EVENTS; a mod's list, read here by
 *  name: src/cli cannot import a mod). */
const RUN_HOOK_EVENTS = new Set([
  "PreToolUse", "PostToolUse", "PermissionDenied", "UserPromptSubmit", "Stop", "SubagentStop", "SessionStart", "SessionEnd", "PreCompact", "Notification",
]);

export interface PolicyLine {
  level: "error" | "ignored" | "warning";
  where: string;
  message: string;
}

/** What is wrong with how a policy file is kept (owner, mode, a symlink), for check and doctor. */
export function policyFileRisks(file: string): string[] {
  const out: string[] = [];
  try {
    const link = "is a symlink: whoever can change the link or its target changes the policy; install the file itself (root-owned, mode 0644)";
    if (lstatSync(file).isSymbolicLink()) out.push(link);
    const st = statSync(file);
    if (st.mode & 0o002) out.push(`is writable by every user (mode ${(st.mode & 0o777).toString(8)}): anyone can rewrite the policy; chmod 0644`);
    // Its owner is not judged: a test's or a packager's file is not root's, and README says why
    // the owner must be root (whoever owns it can change it).
    const dir = statSync(dirname(file));
    if (dir.mode & 0o002 && !(dir.mode & 0o1000)) out.push(`its folder ${dirname(file)} is writable by every user: anyone can replace the file`);
  } catch {
    // Not there or unreadable: the reading itself reports that.
  }
  return out;
}

type Say = (level: PolicyLine["level"], message: string, pos?: JsonPosition) => void;

export function checkPolicy(file: string): PolicyLine[] {
  const lines: PolicyLine[] = [];
  const say: Say = (level, message, pos) => void lines.push({ level, where: pos ? `${file}:${pos.line}:${pos.column}` : file, message });
  for (const r of policyFileRisks(file)) say("warning", r);
  let text: string;
  try {
    text = decodeUtf8(readRegularFileSync(file).data, file);
  } catch (err) {
    say("error", err instanceof Error ? err.message.replace(`${file}: `, "") : String(err));
    return lines;
  }
  if (text.trim() === "" || text.trim() === "\ufeff") {
    say("error", "is empty: a managed policy file must hold a JSON object (write {} for no rules)");
    return lines;
  }
  let parsed;
  try {
    parsed = parseJson(text);
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    say("error", err.message, { line: err.line, column: err.column });
    return lines;
  }
  const at = (path: string): JsonPosition | undefined => parsed.positions.get(path);
  if (!isObject(parsed.value)) {
    say("error", "settings must be a JSON object ({ ... })", { line: 1, column: 1 });
    return lines;
  }
  const settings = parsed.value;
  for (const d of parsed.duplicates) say("error", `'${d}' appears twice: deepcode cannot tell which one the policy means`, at(d));
  for (const issue of checkSettings(settings)) {
    if (issue.kind === "type") say("error", issue.message, at(issue.path));
    else {
      const problem = strictProblem(issue, settings);
      if (problem) say("error", problem, at(issue.path));
      else if (MANAGED_IGNORABLE.has(issue.path)) {
        const why = "deepcode does not apply it, and ignoring it leaves the policy as strict as written or stricter";
        say("ignored", `'${issue.path}' is Claude Code's; ${why}`, at(issue.path));
      }
      else say("ignored", issue.message, at(issue.path));
    }
  }
  const typo = unknownHookEvent(settings);
  if (typo !== null) say("error", `'hooks.${typo}' is not a hook event deepcode or Claude Code knows: the hook would never run`, at(`hooks.${typo}`));
  if (isObject(settings.hooks)) {
    for (const e of Object.keys(settings.hooks)) {
      if (e === typo || RUN_HOOK_EVENTS.has(e)) continue;
      say("ignored", `'hooks.${e}' is a Claude Code hook event deepcode does not run (it runs ${[...RUN_HOOK_EVENTS].join(", ")})`, at(`hooks.${e}`));
    }
  }
  checkRules(settings, say, at);
  return lines;
}

function checkRules(settings: Record<string, JsonValue>, say: Say, at: (p: string) => JsonPosition | undefined): void {
  const perms = settings.permissions;
  if (!isObject(perms)) return;
  for (const kind of ["allow", "ask", "deny"] as RuleKind[]) {
    const list = perms[kind];
    if (!Array.isArray(list)) continue;
    list.forEach((text, i) => {
      if (typeof text !== "string") return;
      const r = parseRule({ kind, text, layer: "managed" });
      if ("rule" in r) return;
      const path = `permissions.${kind}[${i}]`;
      // An allow deepcode cannot read only allows less; a deny or ask it cannot apply breaks the policy.
      say(kind === "allow" ? "ignored" : "error", `${kind} rule ${JSON.stringify(text)}: ${r.problem}${kind === "allow" ? " (ignored)" : ""}`, at(path));
    });
  }
}

/** The subcommand: prints each line, a summary, and exits 1 when any line is an error. */
export function runPolicy(args: string[], out: (t: string) => void = (t) => void process.stdout.write(t)): number {
  if (args[0] !== "check" || args.length !== 2) {
    out("usage: deepcode policy check FILE\n");
    out("  check a managed policy before it is deployed: every problem with file:line, the keys ignored and why; exit 1 on an error\n");
    return args[0] === "--help" || args[0] === "-h" ? 0 : 2;
  }
  const lines = checkPolicy(args[1]!);
  for (const l of lines) out(`${l.where}: ${l.level}: ${l.message}\n`);
  const errors = lines.filter((l) => l.level === "error").length;
  const count = (n: number, w: string): string => `${n} ${w}${n === 1 ? "" : "s"}`;
  const of = (level: PolicyLine["level"]): number => lines.filter((l) => l.level === level).length;
  out(`${errors ? "broken" : "ok"}: ${count(errors, "error")}, ${count(of("ignored"), "ignored key")}, ${count(of("warning"), "warning")}`);
  out(errors ? " — deepcode would deny every tool call under this policy\n" : "\n");
  return errors ? 1 : 0;
}
