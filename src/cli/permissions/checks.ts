// Verdicts about one file path, shared by the Write/Edit/Read tools and by Bash's redirections
// and file commands. Each returns a verdict, or null when no rule or fence has an opinion (the
// caller's default applies).

import { lstatSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { canonical, insideFence, isWithin, pathRuleMatches, protectedReason, secretPlaces, secretReason, viewPath, type PathEnv, type PathView } from "./paths.js";
import { describeRule, type Rule, type RuleKind, type RuleMatch } from "./rules.js";

export type DecisionKind = "allow" | "ask" | "deny";

export interface Verdict {
  decision: DecisionKind;
  reason: string;
  rule?: Rule;
  /** Who decided: a rule and its layer, "path fence", "secrets", "default"… */
  by: string;
}

export function ruleVerdict(decision: DecisionKind, rule: Rule, reason: string): Verdict {
  return { decision, reason: `${reason} (${rule.text}, ${rule.layer}${rule.file ? ` ${rule.file}` : ""})`, rule, by: describeRule(rule) };
}

type PathRule = Rule & { match: Extract<RuleMatch, { type: "path" }> };

function pathRules(rules: readonly Rule[], family: "edit" | "read", kind: RuleKind): PathRule[] {
  return rules.filter((r): r is PathRule => r.family === family && r.kind === kind && r.match.type === "path");
}

interface Matcher {
  view: PathView;
  /** Lexical or real path matches (deny and ask rules: either way of naming the file counts). */
  loose(r: PathRule): boolean;
  /** The real path matches (allow rules: only where the write really lands counts). */
  strict(r: PathRule): boolean;
}

function matcher(abs: string, env: PathEnv, followLast = true): Matcher {
  const view = viewPath(abs, followLast);
  const lexical = { root: env.root, home: env.home };
  const real = { root: canonical(env.root) ?? env.root, home: canonical(env.home) ?? env.home };
  const strict = (r: PathRule): boolean => view.real !== null && pathRuleMatches(r.match, view.real, real);
  return { view, strict, loose: (r) => pathRuleMatches(r.match, view.lexical, lexical) || strict(r) };
}

/** The settings' read denies as one question (PluginApi.readDenied): which deny rule, if any,
 *  forbids reading an absolute path — matched as the gate matches a Read, by the path as
 *  written or its real path. */
export function readDenial(rules: readonly Rule[], anchors: { root: string; home: string }): (path: string) => string | null {
  const denies = pathRules(rules, "read", "deny");
  return (path) => {
    if (denies.length === 0) return null;
    const m = matcher(path, anchors);
    const rule = denies.find(m.loose);
    return rule ? `${rule.text} (${rule.layer}${rule.file ? ` ${rule.file}${rule.line ? `:${rule.line}` : ""}` : ""})` : null;
  };
}

/** A write to `path` (absolute): Edit/Write path rules, the fence, protected settings files.
 *  `followLast: false` when the operation acts on the name itself (rm of a symlink). */
export function writeVerdict(path: string, rules: readonly Rule[], env: PathEnv, followLast = true): Verdict | null {
  const m = matcher(path, env, followLast);
  const abs = m.view.lexical;
  const deny = pathRules(rules, "edit", "deny").find(m.loose);
  if (deny) return ruleVerdict("deny", deny, `writing ${abs} is denied`);
  const allows = pathRules(rules, "edit", "allow").filter(m.strict);
  const allow = allows[0];
  if (!insideFence(m.view, env) && !allow) {
    const real = m.view.real === null ? " (a symlink loop)" : m.view.real !== m.view.lexical ? ` (it leads to ${m.view.real})` : "";
    return {
      decision: "deny",
      reason: `${abs} is outside the workspace${real} and no allow rule names it`,
      by: "path fence",
    };
  }
  const ask = pathRules(rules, "edit", "ask").find(m.loose);
  if (ask) return ruleVerdict("ask", ask, `writing ${abs} asks`);
  const prot = protectedReason(m.view, env);
  if (prot) {
    // A rule that allows every file (`Edit(**)`, `Edit(*.json)`, `Edit(src/**)`…) is not a
    // decision about these: only one that names the protected path lifts the ask.
    const naming = allows.find((r) => namesProtected(r.match, prot.entries, env));
    if (naming) return ruleVerdict("allow", naming, `writing ${abs} is allowed`);
    return { decision: "ask", reason: `${prot.why}: a change there always asks (an allow rule naming the path lifts this)`, by: "protected file" };
  }
  if (allow) return ruleVerdict("allow", allow, `writing ${abs} is allowed`);
  return null;
}

/** An Edit/Write allow rule that names `path` itself (or a folder of it) in the sense of
 *  namesProtected: what lifts an ask about a file's content (a lifecycle script). */
export function namingAllow(path: string, rules: readonly Rule[], env: PathEnv): Rule | undefined {
  const m = matcher(path, env);
  return pathRules(rules, "edit", "allow").filter(m.strict).find((r) => namesProtected(r.match, [m.view.real ?? m.view.lexical], env));
}

/**
 * Does an allow rule name a protected entry (absolute paths, as written and with symlinks
 * followed)? The literal part of its pattern — the folders before the first glob character —
 * must reach below the project root and lie inside the entry or contain it: `Edit(.deepcode/**)`,
 * `Edit(.git/hooks/pre-commit)`, `Edit(.claude/**)` name one; `Edit(**)`, `Edit(/**)`,
 * `Edit(src/**)` do not. A name without `/` (any depth) names an entry only when it is fully
 * literal and is the entry's first segment (`Edit(.mcp.json)`, `Edit(.deepcode)`).
 */
function namesProtected(match: Extract<RuleMatch, { type: "path" }>, entries: readonly string[], env: PathEnv): boolean {
  const roots = [env.root, canonical(env.root) ?? env.root];
  if (match.anchor === "anywhere") {
    if (/[*?[\]{}\\]/.test(match.glob)) return false;
    return entries.some((e) => roots.some((r) => isWithin(e, r) && relative(r, e).split(sep)[0] === match.glob));
  }
  const literal: string[] = [];
  for (const seg of match.glob.split("/")) {
    if (/[*?[\]{}\\]/.test(seg)) break;
    literal.push(seg);
  }
  const bases = match.anchor === "abs" ? ["/"] : match.anchor === "home" ? [env.home, canonical(env.home) ?? env.home] : roots;
  return bases.some((b) => {
    const l = resolve(b, ...literal);
    return roots.some((r) => isWithin(l, r) && l !== resolve(r) && entries.some((e) => isWithin(l, e) || isWithin(e, l)));
  });
}

/** A read of `abs`: Read path rules and well-known secrets (no fence: reads are allowed).
 *  `sessionOutput`: the Read tool opening a kept output of this session (paths.ts) — deepcode's
 *  home does not make it ask; rules and the other secret checks still apply. */
export function readVerdict(path: string, rules: readonly Rule[], env: PathEnv, opts: { sessionOutput?: boolean } = {}): Verdict | null {
  const m = matcher(path, env);
  const abs = m.view.lexical;
  const deny = pathRules(rules, "read", "deny").find(m.loose);
  if (deny) return ruleVerdict("deny", deny, `reading ${abs} is denied`);
  const ask = pathRules(rules, "read", "ask").find(m.loose);
  if (ask) return ruleVerdict("ask", ask, `reading ${abs} asks`);
  const allows = pathRules(rules, "read", "allow").filter(m.strict);
  const allow = allows[0];
  const secret = secretReason(m.view, env, opts);
  if (secret) {
    // A rule that allows reading everywhere (`Read(**)`, `Read(~/**)`, `Read(src/**)`) is not
    // a decision about secrets: only one that names the secret lifts the ask (namesSecret).
    const naming = allows.find((r) => namesSecret(r.match, m.view, env));
    if (naming) return ruleVerdict("allow", naming, `reading ${abs} is allowed`);
    return { decision: "ask", reason: `${abs}: ${secret}, so reading it asks (an allow rule naming it lifts this, e.g. Read(${secretExample(abs)}); a broad one such as Read(**) does not)`, by: "secrets" };
  }
  if (allow) return ruleVerdict("allow", allow, `reading ${abs} is allowed`);
  return null;
}

/**
 * Does an allow rule name a secret, rather than allow reading everything around it? What counts:
 * - its last segment has a literal part other than dots: the file's own name or a pattern of
 *   names (`Read(.env)`, `Read(**\/.env.local)`, `Read(*.pem)`, `Read(~/.ssh/id_ed25519)`) —
 *   not `*`, `**`, `.*` or `*.*`;
 * - or its last segment is only wildcards and the folder before it (the literal segments, from
 *   its anchor) is a secret place or inside one (`Read(~/.ssh/**)`, `Read(~/.aws/*)`): the
 *   person named the credentials folder itself.
 * `Read(**)`, `Read(/**)`, `Read(~/**)`, `Read(src/**)` and `Read(**\/*)` never name one.
 */
function namesSecret(match: Extract<RuleMatch, { type: "path" }>, view: PathView, env: PathEnv): boolean {
  const segs = match.glob.split("/").filter((x) => x !== "");
  const last = segs[segs.length - 1] ?? "";
  if (/[^*?.[\]{}\\!]/.test(last.replace(/\[[^\]]*\]|\{[^}]*\}/g, ""))) return true;
  if (match.anchor === "anywhere") return false;
  const literal: string[] = [];
  for (const seg of segs) {
    if (/[*?[\]{}\\]/.test(seg)) break;
    literal.push(seg);
  }
  const bases = match.anchor === "abs" ? ["/"] : match.anchor === "home" ? [env.home, canonical(env.home) ?? env.home] : [env.root, canonical(env.root) ?? env.root];
  const paths = [view.lexical, view.real].filter((p): p is string => p !== null);
  return secretPlaces(env).some((place) => paths.some((p) => isWithin(p, place.path)) && bases.some((b) => isWithin(resolve(b, ...literal), place.path)));
}

/** A rule naming this secret file, for the message: its own name, anywhere. */
function secretExample(abs: string): string {
  const name = abs.slice(abs.lastIndexOf(sep) + 1);
  return /^[A-Za-z0-9._-]+$/.test(name) ? name : "<its path>";
}

/**
 * A search (Grep, Glob, LS) started at folder `dir` reads everything below it: when a home
 * credential folder or deepcode's credentials lie below (searching `~` or `/`), it asks — even
 * though Grep itself skips them, a search that wide is worth a person's look, and Glob lists
 * what is inside them. Only places that exist count. An allow rule naming the folder lifts this.
 */
export function searchVerdict(dir: string, rules: readonly Rule[], env: PathEnv): Verdict | null {
  const m = matcher(dir, env);
  const inside = secretPlaces(env).filter((l) => [m.view.lexical, m.view.real].some((d) => d !== null && isWithin(l.path, d) && l.path !== d) && exists(l.path));
  if (inside.length === 0) return null;
  // The folder or what is inside it (`Read(~/**)` covers the contents of ~, not ~ itself).
  const inner = matcher(join(dir, "\u0000"), env);
  const allow = pathRules(rules, "read", "allow").find((r) => m.strict(r) || inner.strict(r));
  if (allow) return ruleVerdict("allow", allow, `searching ${m.view.lexical} is allowed`);
  const shown = [...new Set(inside.map((l) => l.why))].slice(0, 3).join("; ");
  return { decision: "ask", reason: `a search of ${m.view.lexical} reaches secrets (${shown}), so it asks (an allow rule naming the folder lifts this)`, by: "secrets" };
}

/**
 * A write in place through a file that has more than one name (a hard link) changes every name,
 * and one of them may lie outside the workspace or be protected — finding the others would mean
 * searching every disk. So it asks, with the reason. Bash writes in place (`>`, `>>`, `cp`, `dd`);
 * the Write and Edit tools replace a file by a rename (src/core/effects.ts), which never writes
 * through a link, so only the Bash decision calls this.
 */
export function hardLinkVerdict(path: string): Verdict | null {
  let links: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) return null;
    links = st.nlink;
  } catch {
    return null; // missing (a new file has one name) or unreadable (the write itself will fail)
  }
  if (links < 2) return null;
  return { decision: "ask", reason: `${path} is a hard link (the file has ${links} names); writing it changes the file under every name, and another may lie outside the workspace or be protected`, by: "hard link" };
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false; // ENOENT (or unreadable): nothing there to reach
  }
}

/** Deny beats ask beats allow; the first of the strongest kind is kept (its reason is shown).
 *  Among asks, an explicit one (a rule, a secret, the parser) is kept over the default ask, so a
 *  hook that may lift a default ask cannot lift an explicit one hiding behind it. */
export function strongest(verdicts: readonly Verdict[]): Verdict | null {
  return (
    verdicts.find((v) => v.decision === "deny") ??
    verdicts.find((v) => v.decision === "ask" && v.by !== "default") ??
    verdicts.find((v) => v.decision === "ask") ??
    verdicts[0] ??
    null
  );
}

/** In the sandbox, a secret the sandbox does not have or hides reads as nothing (an empty file, or
 *  no file): asking about it would be friction without protection. A deny rule's verdict stays. */
export function hiddenSecret(v: Verdict | null, path: string, env: { sandboxed?: boolean; sandboxHides?: (path: string) => boolean }): Verdict | null {
  return env.sandboxed === true && v !== null && v.by === "secrets" && v.decision === "ask" && env.sandboxHides?.(path) === true ? null : v;
}
