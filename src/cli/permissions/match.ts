// Matching Bash rules against one simple command.
//
// Two strengths, on purpose. Deny and ask rules match *loosely*: `/bin/rm` and `./rm` count as
// `rm`, and a word only known at run time (`git $X`) or arguments added at run time (xargs)
// "may" match — a maybe on a deny becomes an ask. Allow rules match *strictly*: a path-qualified
// command counts only from a system bin folder (`/usr/bin/ls` is `ls`, `./ls` is not), and a
// run-time word inside the rule's words never matches.

import type { Rule } from "./rules.js";
import { basename } from "../../lib/shell/unwrap.js";

export type Tri = "yes" | "no" | "maybe";

export interface CommandView {
  /** The command name (basename) and its arguments, quotes removed. */
  tokens: string[];
  /** Which tokens are only known at run time (expansions, globs, braces). */
  fuzzy: boolean[];
  /** The command word as written (`/usr/bin/curl`, `./ls`, `rm`). */
  commandWord: string;
  qualified: boolean;
  argsUnknown: boolean;
}

const SYSTEM_BIN = /^\/(?:usr\/)?(?:local\/)?s?bin\/[^/]+$/;

export function matchBash(rule: Rule, view: CommandView, strict: boolean): Tri {
  const m = rule.match;
  switch (m.type) {
    case "tool":
      return "yes";
    case "bash-prefix":
      return matchTokens(m.tokens, view, strict, true);
    case "bash-exact":
      return m.tokens === null ? "no" : matchTokens(m.tokens, view, strict, false);
    case "bash-wildcard": {
      const first = strict && view.qualified && !SYSTEM_BIN.test(view.commandWord) ? view.commandWord : view.tokens[0];
      const text = [first, ...view.tokens.slice(1)].join(" ");
      if (strict) {
        if (view.fuzzy.slice(0, m.literalWords).some(Boolean)) return "no";
        return m.regex.test(view.argsUnknown ? `${text} …` : text) ? "yes" : "no";
      }
      if (m.regex.test(text)) return "yes";
      const possible = m.firstWord === null || nameMatches(m.firstWord, view, false);
      if (possible && (view.fuzzy.some(Boolean) || view.argsUnknown)) return "maybe";
      // `Bash(git push *)` against `git -C . push x`: an option where the rule's literal words go.
      if (!possible || m.firstWord === null) return "no";
      const at = m.words.findIndex((w, k) => k > 0 && view.tokens[k] !== w);
      return at > 0 && at < view.tokens.length && optionBefore(m.words[at], view, at) ? "maybe" : "no";
    }
    default:
      return "no";
  }
}

function matchTokens(rule: string[], view: CommandView, strict: boolean, prefix: boolean): Tri {
  if (!nameMatches(rule[0], view, strict)) return "no";
  let maybe = false;
  for (let i = 1; i < rule.length; i++) {
    if (i >= view.tokens.length) {
      if (!view.argsUnknown || strict) return "no";
      maybe = true;
      break;
    }
    if (view.fuzzy[i]) {
      if (strict) return "no";
      maybe = true;
      continue;
    }
    if (view.tokens[i] !== rule[i]) return !strict && optionBefore(rule[i], view, i) ? "maybe" : "no";
  }
  if (!prefix && strict && (view.tokens.length !== rule.length || view.argsUnknown)) return "no";
  if (!prefix && !strict) {
    if (view.tokens.length > rule.length) {
      // `npm test $X`: $X may be empty, so the command may be exactly `npm test`.
      if (!view.fuzzy.slice(rule.length).some(Boolean)) return "no";
      maybe = true;
    }
    if (view.argsUnknown) maybe = true;
  }
  return maybe ? "maybe" : "yes";
}

/**
 * Deny and ask rules: is `view.tokens[i]` an option that may come before the rule's word `word`
 * (`git -C . push`, `git --no-pager push`, `npm --prefix x run build`)? Programs take global
 * options before their subcommand, and deepcode does not know which options take a value, so
 * the rule *may* match — as long as `word` could still come later: a later word that is it or
 * contains it (`-c alias.p=push`), a word only known at run time, or arguments added at run
 * time. Without any of those (`git -C sub status` against `git push`) it cannot match.
 */
function optionBefore(word: string, view: CommandView, i: number): boolean {
  if (!isOption(view.tokens[i])) return false;
  if (view.argsUnknown) return true;
  for (let j = i + 1; j < view.tokens.length; j++) if (view.fuzzy[j] || view.tokens[j].includes(word)) return true;
  return false;
}

function isOption(token: string): boolean {
  return token.length > 1 && token.startsWith("-");
}

function nameMatches(ruleWord: string, view: CommandView, strict: boolean): boolean {
  if (ruleWord.includes("/")) return strict ? view.commandWord === ruleWord : basename(ruleWord) === view.tokens[0];
  if (strict && view.qualified && !SYSTEM_BIN.test(view.commandWord)) return false;
  return ruleWord === view.tokens[0];
}
