// A small reader and judge for Seatbelt profiles (SBPL), so a profile can be checked here, where
// there is no Mac: `readSbpl` parses the text back the way Scheme's reader does (strings with
// backslash escapes, `;` comments, `#"…"` regex literals), and `decide` answers an operation on a
// path the way Seatbelt does — the last rule whose operation and filters match decides, and
// `(deny default)` answers when none does.

export type Sexp = string | { str: string } | Sexp[];

export function readSbpl(text: string): Sexp[] {
  let i = 0;
  const forms: Sexp[] = [];
  const skip = (): void => {
    while (i < text.length) {
      if (/\s/.test(text[i])) i++;
      else if (text[i] === ";") while (i < text.length && text[i] !== "\n") i++;
      else break;
    }
  };
  const readString = (): { str: string } => {
    i++; // the opening quote
    let s = "";
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") {
        i++;
        const c = text[i];
        s += c === "n" ? "\n" : c === "t" ? "\t" : c === "r" ? "\r" : c;
      } else s += text[i];
      i++;
    }
    if (i >= text.length) throw new Error("an unterminated string");
    i++;
    return { str: s };
  };
  const read = (): Sexp => {
    skip();
    const c = text[i];
    if (c === "(") {
      i++;
      const list: Sexp[] = [];
      for (;;) {
        skip();
        if (i >= text.length) throw new Error("an unclosed list");
        if (text[i] === ")") {
          i++;
          return list;
        }
        list.push(read());
      }
    }
    if (c === ")") throw new Error(`an unexpected ) at ${i}`);
    if (c === '"') return readString();
    if (c === "#" && text[i + 1] === '"') {
      i++;
      return readString();
    }
    let atom = "";
    while (i < text.length && !/[\s()";]/.test(text[i])) atom += text[i++];
    return atom;
  };
  for (skip(); i < text.length; skip()) forms.push(read());
  return forms;
}

export interface Rule {
  action: "allow" | "deny";
  ops: string[];
  filters: Sexp[];
  index: number;
}

/** The profile's rules, in order (`(version 1)` left out). */
export function rulesOf(forms: readonly Sexp[]): Rule[] {
  const out: Rule[] = [];
  forms.forEach((f, index) => {
    if (!Array.isArray(f) || (f[0] !== "allow" && f[0] !== "deny")) return;
    const ops = f.slice(1).filter((x): x is string => typeof x === "string");
    const filters = f.slice(1).filter((x) => typeof x !== "string");
    out.push({ action: f[0], ops, filters, index });
  });
  return out;
}

const strOf = (x: Sexp | undefined): string | null => (x && typeof x === "object" && !Array.isArray(x) ? x.str : null);

function opMatches(ruleOp: string, op: string): boolean {
  return ruleOp === "default" || ruleOp === op || (ruleOp.endsWith("*") && op.startsWith(ruleOp.slice(0, -1)));
}

/** Whether a path filter matches `path`; filters of other kinds never match a path. */
export function pathFilterMatches(f: Sexp, path: string): boolean {
  if (!Array.isArray(f)) return false;
  const arg = strOf(f[1]);
  if (arg === null) return false;
  if (f[0] === "literal") return path === arg;
  if (f[0] === "subpath") return path === arg || path.startsWith(arg.endsWith("/") ? arg : `${arg}/`);
  if (f[0] === "regex") return new RegExp(arg).test(path);
  return false;
}

/** The rule that decides `op` on `path`: the last one that matches (a rule with no filter
 *  matches everything). */
export function decidingRule(rules: readonly Rule[], op: string, path: string): Rule | null {
  let found: Rule | null = null;
  for (const r of rules) {
    if (!r.ops.some((o) => opMatches(o, op))) continue;
    if (r.filters.length === 0 || r.filters.some((f) => pathFilterMatches(f, path))) found = r;
  }
  return found;
}

export function decide(rules: readonly Rule[], op: string, path: string): "allow" | "deny" {
  return decidingRule(rules, op, path)?.action ?? "deny";
}

/** Every string in a form, however deep. */
export function stringsOf(f: Sexp): string[] {
  if (Array.isArray(f)) return f.flatMap(stringsOf);
  return typeof f === "string" ? [] : [f.str];
}
