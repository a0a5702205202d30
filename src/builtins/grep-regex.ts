// ripgrep's regex syntax (Rust's `regex` crate) translated to a JavaScript RegExp for Grep's
// built-in search. What differs and matters is translated; what JavaScript cannot express (or
// rg itself rejects) is refused with a message that says so.
//
// - `.` never matches \n (unless multiline, where rg adds dotall); `$`/`^` are line anchors in
//   multiline mode and never match at \r (JS's would). `\A` `\z` are text anchors — per line
//   when not multiline, as rg searches one line at a time there.
// - A leading `(?flags)` group sets i/s/m/x...; flags anywhere else are refused (Node 20's
//   RegExp has no inline modifiers). `(?P<name>…)` becomes `(?<name>…)`.
// - `\d` and `\w` are Unicode-aware in Rust; they become Unicode property classes outside
//   brackets (inside brackets, and for `\b`, JavaScript's ASCII definitions remain).
// - Escaped punctuation is a literal; `[[:alpha:]]` POSIX classes become ranges; `\x{…}`,
//   `\pL`, `\p{Greek}` are supported. Look-around, back-references, nested classes and class
//   set operations are refused: rg's default engine has none of them.

export class GrepPatternError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GrepPatternError";
  }
}

export interface Translated {
  source: string;
  flags: string;
}

const WORD = "\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}";
const POSIX: Record<string, string> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7F",
  blank: "\\t ",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};
const JS_SYNTAX = new Set("^$\\.*+?()[]{}|/".split(""));

export function translateRegex(pattern: string, opts: { multiline: boolean; ignoreCase: boolean }): Translated {
  let p = pattern;
  let ignoreCase = opts.ignoreCase;
  let dotall = opts.multiline;
  const lead = /^\(\?([a-zA-Z-]+)\)/.exec(p);
  if (lead) {
    let on = true;
    for (const f of lead[1]) {
      if (f === "-") on = false;
      else if (f === "i") ignoreCase = on;
      else if (f === "s") dotall = on;
      else if (f === "m" || f === "u") continue; // m: ^ and $ are line anchors already; u: always Unicode
      else throw new GrepPatternError(`the inline flag (?${f}) is not supported by the built-in search`);
    }
    p = p.slice(lead[0].length);
  }
  const t = new Translator(p, opts.multiline, dotall);
  const source = t.run();
  try {
    new RegExp(source, "u");
  } catch (err) {
    throw new GrepPatternError(`invalid pattern: ${(err as Error).message.replace(/^Invalid regular expression: /, "")}`);
  }
  return { source, flags: `gu${ignoreCase ? "i" : ""}` };
}

class Translator {
  private i = 0;
  private out = "";

  constructor(
    private readonly p: string,
    private readonly multiline: boolean,
    private readonly dotall: boolean,
  ) {}

  run(): string {
    const p = this.p;
    while (this.i < p.length) {
      const c = p[this.i];
      if (c === "\\") this.escape(false);
      else if (c === "[") this.klass();
      else if (c === "(") this.group();
      else if (c === ".") this.emit(this.dotall ? "[\\s\\S]" : "[^\\n]", 1);
      else if (c === "^") this.emit(this.multiline ? "(?<![^\\n])" : "^", 1);
      else if (c === "$") this.emit(this.multiline ? "(?![^\\n])" : "$", 1);
      else if (c === "{") this.brace();
      else if (c === "}" || c === "]") this.emit(`\\${c}`, 1);
      else if (c === "\n" && !this.multiline) throw newlineError();
      else this.emit(c, 1);
    }
    return this.out;
  }

  private emit(s: string, advance: number): void {
    this.out += s;
    this.i += advance;
  }

  private brace(): void {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.p.slice(this.i));
    if (!m) throw new GrepPatternError("a literal '{' must be escaped as '\\{' (ripgrep syntax: '{' starts a repetition like {2,5})");
    this.emit(m[0], m[0].length);
  }

  private group(): void {
    const rest = this.p.slice(this.i);
    if (rest.startsWith("(?:")) return this.emit("(?:", 3);
    const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
    if (named) return this.emit(`(?<${named[1]}>`, named[0].length);
    if (/^\(\?(=|!|<=|<!)/.test(rest)) throw new GrepPatternError("look-around ((?=…), (?!…), (?<=…), (?<!…)) is not supported: ripgrep's regex engine has none");
    if (rest.startsWith("(?")) throw new GrepPatternError("inline flags are supported only at the very start of the pattern, e.g. (?i)foo");
    this.emit("(", 1);
  }

  /** One escape sequence at this.i (a backslash); `inClass` inside [...]. */
  private escape(inClass: boolean): void {
    const p = this.p;
    const c = p[this.i + 1];
    if (c === undefined) throw new GrepPatternError("the pattern ends with a lone backslash");
    const two = (s: string): void => this.emit(s, 2);
    switch (c) {
      case "A":
        if (inClass) break;
        return two(this.multiline ? "(?<![\\s\\S])" : "^");
      case "z":
        if (inClass) break;
        return two(this.multiline ? "(?![\\s\\S])" : "$");
      case "d":
        return two("\\p{Nd}");
      case "w":
        return two(inClass ? WORD : `[${WORD}]`);
      case "D":
        return two(inClass ? "\\D" : "\\P{Nd}");
      case "W":
        return two(inClass ? "\\W" : `[^${WORD}]`);
      case "s":
      case "S":
      case "t":
      case "r":
      case "f":
      case "v":
        return two(`\\${c}`);
      case "b":
      case "B":
        if (inClass) break;
        return two(`\\${c}`);
      case "n":
        if (!this.multiline) throw newlineError();
        return two("\\n");
      case "a":
        return two("\\x07");
      case "x":
      case "u":
      case "U":
        return this.codepoint(c);
      case "p":
      case "P":
        return this.property(c);
      case "<":
        if (inClass) break;
        return two(`\\b(?=[${WORD}])`); // rg 14's start-of-word assertion
      case ">":
        if (inClass) break;
        return two(`\\b(?<=[${WORD}])`); // rg 14's end-of-word assertion
    }
    if (/[0-9]/.test(c)) throw new GrepPatternError("back-references (\\1) are not supported: ripgrep's regex engine has none");
    if (/[A-Za-z]/.test(c)) throw new GrepPatternError(`unrecognized escape sequence \\${c}`);
    // Escaped punctuation (or any other character) is that character, literally.
    const literal = p.codePointAt(this.i + 1)!;
    const ch = String.fromCodePoint(literal);
    this.emit(JS_SYNTAX.has(ch) || (inClass && ch === "-") ? `\\${ch}` : ch, 1 + ch.length);
  }

  private codepoint(kind: "x" | "u" | "U"): void {
    const rest = this.p.slice(this.i);
    const braced = /^\\[xuU]\{([0-9A-Fa-f]{1,8})\}/.exec(rest);
    const width = kind === "x" ? 2 : kind === "u" ? 4 : 8;
    const plain = new RegExp(`^\\\\${kind}([0-9A-Fa-f]{${width}})`).exec(rest);
    const m = braced ?? plain;
    if (!m) throw new GrepPatternError(`invalid escape \\${kind}: expected ${width} hex digits or \\${kind}{…}`);
    const cp = parseInt(m[1], 16);
    if (cp > 0x10ffff) throw new GrepPatternError(`\\${kind}{${m[1]}} is not a Unicode code point`);
    this.emit(`\\u{${cp.toString(16)}}`, m[0].length);
  }

  private property(kind: "p" | "P"): void {
    const rest = this.p.slice(this.i);
    const m = /^\\[pP](?:\{\^?([^}]*)\}|([A-Za-z]))/.exec(rest);
    if (!m) throw new GrepPatternError(`invalid Unicode class \\${kind}: expected \\${kind}L or \\${kind}{Name}`);
    const negated = m[0].includes("{^") ? kind === "p" : kind === "P";
    const name = (m[1] ?? m[2]).replace(/\s+/g, "");
    const k = negated ? "P" : "p";
    for (const candidate of [name, `Script=${name}`]) {
      try {
        new RegExp(`\\${k}{${candidate}}`, "u");
        return this.emit(`\\${k}{${candidate}}`, m[0].length);
      } catch {
        // not a name JavaScript knows in this form; try the next
      }
    }
    throw new GrepPatternError(`unknown Unicode class ${m[0]}`);
  }

  private klass(): void {
    const p = this.p;
    this.out += "[";
    this.i++;
    if (p[this.i] === "^") this.emit("^", 1);
    if (p[this.i] === "]") this.emit("\\]", 1); // a leading ] is a literal
    while (this.i < p.length && p[this.i] !== "]") {
      const c = p[this.i];
      if (c === "[") {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(p.slice(this.i));
        if (!posix || POSIX[posix[2]] === undefined) throw new GrepPatternError("nested character classes are not supported by the built-in search");
        if (posix[1]) throw new GrepPatternError("negated POSIX classes ([[:^alpha:]]) are not supported by the built-in search");
        this.emit(POSIX[posix[2]], posix[0].length);
      } else if (c === "\\") {
        this.escape(true);
      } else if ((c === "&" || c === "~" || c === "-") && p[this.i + 1] === c) {
        throw new GrepPatternError(`class set operations (${c}${c}) are not supported by the built-in search`);
      } else if (c === "\n" && !this.multiline) {
        throw newlineError();
      } else {
        this.emit(c, 1);
      }
    }
    if (this.i >= p.length) throw new GrepPatternError("unclosed character class '['");
    this.emit("]", 1);
  }
}

function newlineError(): GrepPatternError {
  return new GrepPatternError("the pattern can match a line break (\\n); set multiline: true to search across lines");
}
