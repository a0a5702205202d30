// The decision for a Bash command: every part must be allowed, any denied part denies the whole,
// and a part that cannot be read with confidence makes the whole at least an ask.
//
// Harmless builtins get a pass without a rule (they run nothing else and write nothing):
// `true`, `false`, `:`, `pwd`, `test`, `[`, `[[ … ]]` (without arithmetic or `-v NAME[…]`),
// `command -v NAME`, and `cd`/`pushd` into a folder inside the workspace. Deny and ask rules
// still apply to them. Everything else needs an allow rule, a yes, the sandbox, or (without a
// sandbox) the reader's proof that it only reads (below).
//
// What an allow rule for a command does not cover (each asks, saying why):
// - a write it does not name — a redirection, tee's files, `sed -i`, `sort -o` (shell/effects.ts):
//   it needs what a Write or Edit of that path needs;
// - an option through which the program runs other code (shell/programs.ts);
// - assignments that change what runs (`PATH=.`, `export NODE_OPTIONS=…`).
// A bare `Bash` allow, or an allow of the exact line, covers the first two: it names everything.
//
// With the sandbox as the boundary (`env.sandboxed`), a part no rule allows is allowed "by the
// sandbox" unless contained.ts says it escapes (network, publishing, privileges, destroying work
// a checkpoint cannot bring back); writes inside the workspace, and files named only at run
// time, need nothing more, because the sandbox keeps them there and protected paths read-only.
// Deny and ask rules, secret reads, writes outside the workspace or to protected paths, and a
// line the reader cannot read with confidence still decide as above.
//
// Without the sandbox, a part no rule allows runs when the reader proves it read-only
// (read-only.ts: listing, reading and searching non-secret files in the workspace, git
// inspection where neither configuration nor history gets in the way); everything else asks.

import { tmpdir } from "node:os";
import { isAbsolute } from "node:path";
import { copyVerdicts, judgeWord, treeVerdict, writesBelowVerdict, type PathContext } from "./bash-paths.js";
import { resolveWord } from "../../lib/effects/resolve-word.js";
import { hardLinkVerdict, hiddenSecret, ruleVerdict, readVerdict, strongest, writeVerdict, type Verdict } from "./checks.js";
import { matchBash, type CommandView } from "./match.js";
import { isSafeEnv } from "../../lib/effects/safe-env.js";
import { canonical, fenceDirs, isDeviceSink, isWithin, type PathEnv } from "./paths.js";
import type { Rule } from "./rules.js";
import type { Word } from "../../lib/shell/lexer.js";
import { fileEffects, type EditEffect, type FileEffects } from "../../lib/shell/effects.js";
import { parseShell, type ShellPart } from "../../lib/shell/parser.js";
import { programRisks } from "../../lib/shell/programs.js";
import { escapesContainment, gitHistoryRead } from "./containment/contained.js";
import { readOnlyVerdict } from "./containment/read-only.js";

export interface BashEnv extends PathEnv {
  /** The Bash tool's current folder (relative paths and `cd` start here). */
  cwd: string;
  /** Commands run in a sandbox without network and `sandbox.autoAllowBashIfSandboxed` is on:
   *  a part no rule allows runs without a prompt when the sandbox contains all it does
   *  (contained.ts); writes it makes inside the workspace need no rule of their own. */
  sandboxed?: boolean;
  /** With `sandboxed`: whether the repository holding a folder has a secret file in its history
   *  (git-history.ts); git commands that can print it then ask (contained.ts). */
  historySecret?: (dir: string) => boolean;
  /** With `sandboxed`: the sandbox reaches `sandbox.network.allowedDomains` through its proxy, so
   *  commands that only fetch are contained too (fetch-only.ts). */
  sandboxProxied?: boolean;
  /** With `sandboxed`: whether a contained command cannot read the secret at a path
   *  (sandbox-view.ts): a read of it is contained, not asked. */
  sandboxHides?: (path: string) => boolean;
  /** No sandbox is active — it is off, unavailable here, or not built for this platform — and
   *  so the reader is the only line: a part no rule allows runs without a prompt when the reader
   *  proves it read-only (read-only.ts). Not set where a layer turns
   *  `sandbox.autoAllowBashIfSandboxed` off: the person asked to be asked. */
  readerAlone?: boolean;
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
  const effects = parsed.parts.map(fileEffects);
  const linkers = parsed.parts.flatMap((p, k) => (effects[k].links ? [{ part: p, why: effects[k].links as string }] : []));
  const verdicts: Verdict[] = parsed.parts.flatMap((p, k) => partVerdicts(p, effects[k], ctx, linkers.find((l) => l.part !== p)?.why));
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

interface PartContext extends PathContext {
  env: BashEnv;
  bash: Rule[];
  /** A bare `Bash` allow, or an exact allow of this whole command line. */
  allowAll: Rule | undefined;
}

function partVerdicts(part: ShellPart, effects: FileEffects, ctx: PartContext, linker: string | undefined): Verdict[] {
  const out: Verdict[] = [];
  const unsafe = part.assigns.filter((a) => !isSafeEnv(a));
  const label = part.text.length > 80 ? `${part.text.slice(0, 77)}...` : part.text;
  /** The allow rule that let this part through, when a specific rule (not a bare allow) did. */
  let allowedBy: Rule | undefined;

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
      const rule = ctx.bash.find((r) => r.kind === "allow" && r.match.type !== "tool" && matchBash(r, view, true) === "yes");
      const allow = rule ?? ctx.allowAll;
      const escape = !allow && ctx.env.sandboxed ? escapesContainment(part, ctx.env.root, ctx.env.home, ctx.env.historySecret, ctx.env.sandboxProxied === true) : null;
      const history = allow && ctx.env.historySecret ? gitHistoryRead(part, ctx.env.root, ctx.env.historySecret) : null;
      if (allow && unsafe.length > 0) out.push(setsVariables(unsafe, label));
      else if (history) out.push({ decision: "ask", reason: `'${label}' needs approval: ${history.why.replace(" the sandbox hides only in the working tree", "")}`, by: "secrets" });
      else if (allow) out.push(ruleVerdict("allow", allow, `'${label}' is allowed`));
      else if (ctx.env.sandboxed && !escape) out.push({ decision: "allow", reason: `'${label}' runs inside the sandbox, which contains what it does`, by: "sandbox" });
      else if (escape) out.push({ decision: "ask", reason: `'${label}' needs approval: the sandbox does not contain it (${escape.why})`, by: "sandbox" });
      else if (ctx.env.readerAlone && !ctx.env.sandboxed) {
        // No sandbox: what the reader proves read-only runs (read-only.ts), the rest asks.
        const ro = readOnlyVerdict(part, effects, ctx.rules, ctx.env, label);
        if ("decision" in ro) out.push(ro);
        else out.push({ decision: "ask", reason: `'${label}' needs approval: no rule allows '${part.name}', and deepcode cannot prove it read-only (${ro.why})`, by: "default" });
      } else out.push({ decision: "ask", reason: `'${label}' needs approval: no rule allows '${part.name}'`, by: "default" });
      if (allow && allow !== ctx.allowAll) allowedBy = allow;
    }
  } else {
    if (part.unsure.length > 0) out.push({ decision: "ask", reason: `cannot read '${label}' with confidence: ${unique(part.unsure).join("; ")}`, by: "shell parser" });
    if (unsafe.length > 0 && !ctx.env.sandboxed) out.push({ decision: "ask", reason: `sets ${unsafe.join(", ")}, which changes how later commands run`, by: "environment" });
  }
  if (allowedBy) out.push(...riskVerdicts(part, allowedBy, label, ctx));

  const covered = (e: EditEffect): boolean => ctx.allowAll !== undefined || ctx.env.sandboxed === true || (e.option !== undefined && allowedBy !== undefined && e.option < namedWords(allowedBy));
  const writesSomething = [...effects.writes, ...effects.edits.map((e) => e.word)].some((w) => !(isAbsolute(w.value) && isDeviceSink(w.value)));
  if (linker && writesSomething && !ctx.env.sandboxed) {
    out.push({ decision: "ask", reason: `another command on this line may create or move a link first (${linker}), so where '${label}' writes is known only after it runs`, by: "shell parser" });
  }
  if (effects.unknownFiles && !ctx.env.sandboxed) out.push({ decision: "ask", reason: `'${label}' reads or writes files named only at run time (${part.via.join(", ") || part.name} adds them)`, by: "shell parser" });
  for (const w of effects.writes) {
    const follow = !effects.noFollow.has(w);
    out.push(...judgeWord(w, part.cwd, ctx, "writes to", (p) => (isDeviceSink(p) ? null : containedWrite(worse(writeVerdict(p, ctx.rules, ctx.env, follow), follow ? hardLinkVerdict(p) : null), p, ctx.env))));
  }
  for (const e of effects.edits) out.push(...judgeWord(e.word, part.cwd, ctx, `writes (${e.how}) to`, (p) => containedWrite(editVerdict(p, e, covered(e), label, ctx), p, ctx.env)));
  for (const w of effects.reads) out.push(...judgeWord(w, part.cwd, ctx, "reads", (p) => (isDeviceSink(p) ? null : hiddenSecret(readVerdict(p, ctx.rules, ctx.env), p, ctx.env))));
  for (const t of effects.trees) out.push(...judgeWord(t.word, part.cwd, ctx, `reads (${t.how}) below`, (p) => treeVerdict(p, t, ctx)));
  for (const c of effects.copies) out.push(...copyVerdicts(c, part.cwd, ctx, (v, p) => containedWrite(v, p, ctx.env)));
  for (const b of effects.writesBelow) out.push(...judgeWord(b.word, part.cwd, ctx, `writes (${b.how}) below`, (p) => writesBelowVerdict(p, b.how, ctx)));
  return out;
}

/** A write no command rule names: what a Write/Edit of the path needs, unless `covered`. */
function editVerdict(path: string, e: EditEffect, covered: boolean, label: string, ctx: PartContext): Verdict | null {
  if (isDeviceSink(path)) return null;
  const v = worse(writeVerdict(path, ctx.rules, ctx.env), hardLinkVerdict(path));
  if (v !== null || covered) return v;
  return {
    decision: "ask",
    reason: `'${label}' writes ${path} through ${e.how}; that is a write of its own, which the command's allow rule does not cover: it needs what a Write or Edit of ${path} needs (an Edit or Write rule for the path, or a person's yes)`,
    by: "default",
  };
}

/** Options of an allowed program that run code its rule does not name (shell/programs.ts). */
function riskVerdicts(part: ShellPart, rule: Rule, label: string, ctx: PartContext): Verdict[] {
  const named = namedWords(rule);
  return programRisks(part)
    .filter((r) => r.at >= named && !(r.dir && insideWorkspace(r.dir, part, ctx.env)))
    .map((r) => ({ decision: "ask" as const, reason: `'${label}' is allowed by ${rule.text}, but ${r.why}; that rule does not name it, so it asks`, by: "program option" }));
}

/** How many of a command's words an allow rule names literally (`Bash(npm test:*)`: 2). */
function namedWords(rule: Rule): number {
  const m = rule.match;
  if (m.type === "bash-prefix") return m.tokens.length;
  if (m.type === "bash-exact") return m.tokens?.length ?? Infinity;
  if (m.type === "bash-wildcard") return m.literalWords;
  return 0;
}

function insideWorkspace(w: Word, part: ShellPart, env: PathEnv): boolean {
  const groups = resolveWord(w, part.cwd, env.home);
  if (groups === null) return false;
  const fence = fenceDirs(env);
  return groups.flat().every((p) => {
    const real = canonical(p);
    return real !== null && fence.some((d) => isWithin(real, d));
  });
}

/** In the sandbox, /tmp, /var/tmp, $TMPDIR and the home folder are its own private folders
 *  (mods/sandbox/grant.ts: the private home at ~, where caches live; what a grant shows there is
 *  read-only): a write there that only the path fence stops is contained. Elsewhere outside
 *  the workspace the fence's answer stands, so the model hears plainly that it cannot write
 *  there. A deny rule's verdict stays. */
function containedWrite(v: Verdict | null, path: string, env: BashEnv): Verdict | null {
  if (!env.sandboxed || v === null || v.by !== "path fence") return v;
  const privateDirs = [...new Set(["/tmp", "/var/tmp", tmpdir(), env.home])];
  return privateDirs.some((t) => isWithin(path, t)) ? null : v;
}

function worse(a: Verdict | null, b: Verdict | null): Verdict | null {
  return strongest([a, b].filter((v): v is Verdict => v !== null && v.decision !== "allow")) ?? a ?? b;
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

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
