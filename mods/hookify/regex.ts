// hookify patterns are Python regular expressions, matched case-insensitively (re.IGNORECASE)
// with `search` (anywhere in the text). JavaScript's syntax is nearly the same; what differs
// in ways a rule author would write is translated, and what cannot be is a compile error the
// loader reports with the rule's file and line:
//   (?P<name>…) → (?<name>…)     (?P=name) → \k<name>     \A → ^     \Z → end of the text
//   a leading (?s) / (?m) / (?i) → the flag; (?x) (verbose) has no equivalent → an error

import { nestedQuantifier } from "../../src/lib/regex.js";

export { nestedQuantifier };

/** Compile a rule's pattern. `untrusted` (a rule from the project, which a cloned repository
 *  chooses): a quantified group that holds a quantifier — `(a+)+`, `(\w*)*`, `(x{2,})+` — is
 *  refused, since such a pattern can backtrack for minutes on a short text (the person's own
 *  rules may use one; what every rule matches against is bounded in match.ts). */
export function compilePattern(pattern: string, o: { untrusted?: boolean } = {}): RegExp | { error: string } {
  let src = pattern;
  let flags = "i";
  const lead = /^\(\?([aiLmsux]+)\)/.exec(src);
  if (lead) {
    for (const f of lead[1]) {
      if (f === "s" || f === "m") flags += flags.includes(f) ? "" : f;
      else if (f === "x") return { error: "the verbose flag (?x) has no JavaScript equivalent; write the pattern on one line without it" };
    }
    src = src.slice(lead[0].length);
  }
  let out = "";
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === "\\" && i + 1 < src.length) {
      const n = src[++i];
      out += n === "A" ? "^" : n === "Z" ? "(?![\\s\\S])" : `\\${n}`;
      continue;
    }
    if (src.startsWith("(?P<", i)) {
      out += "(?<";
      i += 3;
      continue;
    }
    const back = /^\(\?P=([A-Za-z_]\w*)\)/.exec(src.slice(i));
    if (back) {
      out += `\\k<${back[1]}>`;
      i += back[0].length - 1;
      continue;
    }
    out += c;
  }
  if (o.untrusted && nestedQuantifier(out)) {
    return { error: `the pattern ${JSON.stringify(pattern)} repeats a group that itself repeats (like (a+)+), which can take minutes to match a short text; a project's rules cannot use one — write it without the nested repeat (your own rules in ~/.claude or ~/.deepcode may)` };
  }
  try {
    return new RegExp(out, flags);
  } catch (err) {
    return { error: `the pattern ${JSON.stringify(pattern)} is not a valid regular expression (${err instanceof Error ? err.message.replace(/^Invalid regular expression: /, "") : String(err)})` };
  }
}
