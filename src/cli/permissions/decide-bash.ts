// The decision for a Bash command: every part must be allowed, any denied part denies the whole,
// and a part that cannot be read with confidence makes the whole at least an ask.
//
// Harmless builtins get a pass without a rule (they run nothing else and write nothing):
// `true`, `false`, `:`, `pwd`, `test`, `[`, `[[ … ]]` (without arithmetic), `command -v NAME`,
// and `cd`/`pushd` into a folder inside the workspace. Deny and ask rules still apply to them.
// Everything else, `echo` and `ls` included, needs an allow rule (or a person's yes).

import { readdirSync } from "node:fs";
import { isAbsolute } from "node:path";
import { globToRegExp } from "../../builtins/glob-match.js";
import { ruleVerdict, readVerdict, strongest, writeVerdict, type Verdict } from "./checks.js";
import { isSafeEnv, matchBash, type CommandView } from "./match.js";
import { canonical, fenceDirs, isDeviceSink, isWithin, type PathEnv } from "./paths.js";
import type { Rule } from "./rules.js";
import type { Word } from "./shell/lexer.js";
import { fileEffects } from "./shell/effects.js";
import { parseShell, type CwdSet, type ShellPart } from "./shell/parser.js";

export interface BashEnv extends PathEnv {
  /** The Bash tool's current folder (relative paths and `cd` start here). */
  cwd: string;
}

const PASS = new Set(["true", "false", ":", "pwd", "test", "[", "[["]);

export function decideBash(command: string, rules: readonly Rule[], env: BashEnv): Verdict {
  const bash = rules.filter((r) => r.family === "bash");
  const bare = (kind: string): Rule | undefined => bash.find((r) => r.kind === kind && r.match.type === "tool");
  const bareDeny = bare("deny");
  if (bareDeny) return ruleVerdict("deny", bareDeny, "Bash is denied");
  if (command.trim() === "") return { decision: "ask", reason: "an empty command", by: "default" };

  const parsed = parseShell(command, { cwd: env.cwd, home: env.home });
  const whole = bash.find((r) => r.kind === "allow" && r.match.type === "bash-exact" && r.match.whole === command.trim());
  const ctx: PartContext = { rules, bash, env, allowAll: bare("allow") ?? whole };
  const verdicts: Verdict[] = parsed.parts.flatMap((p) => partVerdicts(p, ctx));
  if (parsed.unsure.length > 0) {
    verdicts.push({ decision: "ask", reason: `deepcode cannot read this command with confidence: ${unique(parsed.unsure).join("; ")}`, by: "shell parser" });
  }
  const bareAsk = bare("ask");
  const worst = strongest(verdicts);
  if (worst?.decision === "deny") return worst;
  if (bareAsk) return ruleVerdict("ask", bareAsk, "every Bash command asks");
  if (worst === null) return { decision: "allow", reason: "the command runs nothing", by: "default" };
  if (worst.decision === "ask") return worst;
  const byRule = verdicts.find((v) => v.rule !== undefined);
  const rulesUsed = unique(verdicts.flatMap((v) => (v.rule ? [v.rule.text] : [])));
  return {
    decision: "allow",
    reason: rulesUsed.length > 0 ? `every part is allowed (${rulesUsed.join(", ")})` : "every part is a harmless builtin",
    rule: byRule?.rule,
    by: byRule?.by ?? "default",
  };
}

interface PartContext {
  /** Every rule (Edit/Write and Read path rules apply to redirections and file commands). */
  rules: readonly Rule[];
  bash: Rule[];
  env: BashEnv;
  /** A bare `Bash` allow, or an exact allow of this whole command line. */
  allowAll: Rule | undefined;
}

function partVerdicts(part: ShellPart, ctx: PartContext): Verdict[] {
  const out: Verdict[] = [];
  const unsafe = part.assigns.filter((a) => !isSafeEnv(a));
  const label = part.text.length > 80 ? `${part.text.slice(0, 77)}...` : part.text;

  if (part.words.length > 0) {
    const view = commandView(part);
    for (const r of ctx.bash) {
      if (r.match.type === "tool" || r.kind === "allow") continue;
      const m = matchBash(r, view, false);
      if (m === "no") continue;
      if (r.kind === "deny" && m === "yes") out.push(ruleVerdict("deny", r, `'${label}' is denied`));
      else if (r.kind === "deny") out.push(ruleVerdict("ask", r, `'${label}' might run a denied command (some of its words are only known at run time, or options stand where the rule's words go)`));
      else out.push(ruleVerdict("ask", r, `'${label}' asks`));
    }
    if (part.unsure.length > 0) {
      out.push({ decision: "ask", reason: `cannot read '${label}' with confidence: ${unique(part.unsure).join("; ")}`, by: "shell parser" });
    } else if (part.escalated) {
      out.push({ decision: "ask", reason: `'${label}' runs with raised privileges (${part.via.join(", ")})`, by: "raised privileges" });
    } else if (isPass(part, ctx.env)) {
      if (unsafe.length > 0) out.push(setsVariables(unsafe, label));
      else out.push({ decision: "allow", reason: `'${part.name}' is a harmless builtin`, by: "default" });
    } else {
      const allow = ctx.bash.find((r) => r.kind === "allow" && r.match.type !== "tool" && matchBash(r, view, true) === "yes") ?? ctx.allowAll;
      if (allow && unsafe.length > 0) out.push(setsVariables(unsafe, label));
      else if (allow) out.push(ruleVerdict("allow", allow, `'${label}' is allowed`));
      else out.push({ decision: "ask", reason: `'${label}' needs approval: no rule allows '${part.name}'`, by: "default" });
    }
  } else {
    if (part.unsure.length > 0) out.push({ decision: "ask", reason: `cannot read '${label}' with confidence: ${unique(part.unsure).join("; ")}`, by: "shell parser" });
    if (unsafe.length > 0) out.push({ decision: "ask", reason: `sets ${unsafe.join(", ")}, which changes how later commands run`, by: "environment" });
  }

  const effects = fileEffects(part);
  for (const w of effects.writes) out.push(...pathVerdicts(w, part.cwd, ctx, "write", !effects.noFollow.has(w)));
  for (const w of effects.reads) out.push(...pathVerdicts(w, part.cwd, ctx, "read", true));
  return out;
}

function setsVariables(names: string[], label: string): Verdict {
  return { decision: "ask", reason: `'${label}' sets ${names.join(", ")}, which can change what runs, so no rule can vouch for it`, by: "environment" };
}

function commandView(part: ShellPart): CommandView {
  const args = part.words.slice(1);
  return {
    tokens: [part.name, ...args.map((w) => w.value)],
    fuzzy: [false, ...args.map((w) => w.expanded || w.glob || w.brace)],
    commandWord: part.commandWord,
    qualified: part.qualified,
    argsUnknown: part.argsUnknown,
  };
}

/** A harmless builtin (see the header): allowed without a rule, deny and ask rules still apply. */
export function isPass(part: ShellPart, env: PathEnv): boolean {
  if (part.qualified) return false;
  if (part.lookup || PASS.has(part.name)) return true;
  if ((part.name === "cd" || part.name === "pushd") && part.cdTargets) {
    const fence = fenceDirs(env);
    return part.cdTargets.every((t) => {
      const real = canonical(t);
      return real !== null && fence.some((d) => isWithin(real, d));
    });
  }
  return false;
}

/**
 * Where a file word may point: one group per possible working folder, each group the path (or,
 * for a glob, the names it matches now); null when unknowable.
 */
export function resolveWord(w: Word, cwd: CwdSet, home: string): string[][] | null {
  if (w.expanded || w.brace || w.value === "") return null;
  let v = w.value;
  if (w.tilde) {
    if (v === "~" || v.startsWith("~/")) v = home + v.slice(1);
    else return null; // ~user
  }
  let bases: string[];
  if (isAbsolute(v)) bases = [v];
  else if (cwd.unknown) return null;
  // Joined without normalising: `link/../x` must be resolved after following `link`.
  else bases = cwd.dirs.map((d) => `${d}/${v}`);
  if (!w.glob) return bases.map((b) => [b]);
  const groups = bases.map(expandGlob);
  return groups.some((g) => g === null) ? null : (groups as string[][]);
}

/**
 * What a glob in its last segment matches now (bash expands it just before running), or the
 * pattern itself when nothing matches (bash then passes it as written). A matched name may be a
 * symlink that leads outside, so each match is checked. Globs in folder segments: unknowable.
 */
function expandGlob(p: string): string[] | null {
  const slash = p.lastIndexOf("/");
  const dir = p.slice(0, slash) || "/";
  const pattern = p.slice(slash + 1);
  if (/[*?[]/.test(dir) || pattern === "" || pattern === "." || pattern === "..") return null;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [p]; // no such folder: nothing matches
  }
  const re = globToRegExp(pattern, { dot: false });
  const matches = names.filter((n) => re.test(n)).map((n) => `${dir}/${n}`);
  if (matches.length > 10_000) return null;
  return matches.length > 0 ? matches : [p];
}

function pathVerdicts(w: Word, cwd: CwdSet, ctx: PartContext, kind: "write" | "read", followLast: boolean): Verdict[] {
  const groups = resolveWord(w, cwd, ctx.env.home);
  const verb = kind === "write" ? "writes to" : "reads";
  if (groups === null) return [{ decision: "ask", reason: `${verb} a file named only at run time (${w.raw})`, by: "shell parser" }];
  const perFolder = groups.map((paths) =>
    paths
      .filter((p) => !isDeviceSink(p))
      .map((p) => (kind === "write" ? writeVerdict(p, ctx.rules, ctx.env, followLast) : readVerdict(p, ctx.rules, ctx.env)))
      .filter((v): v is Verdict => v !== null && v.decision !== "allow"),
  );
  const fenced = perFolder.filter((vs) => vs.some((v) => v.by === "path fence")).length;
  if (fenced > 0 && fenced < perFolder.length) {
    // Outside from one possible folder, inside from another (a `cd` that may fail): not certain.
    const rest = perFolder.flat().filter((v) => v.by !== "path fence");
    return [...rest, { decision: "ask", reason: `${w.value} may be outside the workspace, depending on whether an earlier cd succeeds`, by: "path fence" }];
  }
  return perFolder.flat();
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
