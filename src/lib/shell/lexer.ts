// A bash lexer for permission checks: words with their quoting removed the way bash removes it,
// operators, and redirections. It does not run or expand anything; it says what it could not
// read with confidence (`unsure`) so the decision can ask instead of guessing.
//
// Contract: a word's `value` is what bash would pass after quote removal when the word has no
// expansions. Words with expansions keep the expansion's source text in `value` and are marked
// `expanded`: their run-time value is unknown. Command substitutions (`$(…)`, backticks,
// `<(…)`/`>(…)`) are returned as `subs` for the parser to analyse as commands of their own.

import type { Word } from "./types.js";
import { decodeAnsiC, findClose, plainWord, readBacktick, readDollar, scanSubs, unquotedSkeleton } from "./scan.js";

export { findClose, plainWord, scanSubs };

// Sub and Word live in types.ts so scan.ts can use them without importing this file.
export type { Sub, Word } from "./types.js";

export interface HereDoc {
  delim: string;
  quoted: boolean;
  terminated: boolean;
}

export type Token =
  | { t: "word"; w: Word }
  | { t: "op"; op: string }
  | { t: "redir"; op: string; fd: string | null; target: Word | null; heredoc?: HereDoc };

export interface Lexed {
  tokens: Token[];
  unsure: string[];
}

const OPS = [";;&", ";;", ";&", "&&", "||", "|&", "&", "|", ";", "(", ")"];
const REDIRS = ["<<<", "<<-", "&>>", "<<", "<>", "<&", ">>", ">|", ">&", "&>", "<", ">"];
const BREAK = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);

export function lex(src: string): Lexed {
  return new Lexer(src).run();
}

class Lexer {
  private i = 0;
  private readonly tokens: Token[] = [];
  private readonly unsure: string[] = [];
  private pending: Array<{ tok: Extract<Token, { t: "redir" }>; strip: boolean }> = [];

  constructor(private readonly s: string) {}

  run(): Lexed {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === " " || c === "\t") {
        this.i++;
      } else if (c === "\\" && s[this.i + 1] === "\n") {
        this.i += 2;
      } else if (c === "\n") {
        this.i++;
        this.tokens.push({ t: "op", op: "\n" });
        this.readHereDocs();
      } else if (c === "#") {
        while (this.i < s.length && s[this.i] !== "\n") this.i++;
      } else if ((c === "<" || c === ">") && s[this.i + 1] === "(") {
        this.tokens.push({ t: "word", w: this.word() });
      } else if (c === "(" && s[this.i + 1] === "(") {
        // `(( … ))`: an arithmetic command. Arithmetic can run code through array subscripts,
        // so it is never read with confidence; substitutions in it are still analysed.
        const close = findClose(s, this.i);
        const end = close < 0 ? s.length : close + 1;
        const w = plainWord(s.slice(this.i, end));
        w.unsure.push("arithmetic command");
        w.subs.push(...scanSubs(w.value));
        this.tokens.push({ t: "word", w });
        this.i = end;
      } else {
        const redir = REDIRS.find((r) => s.startsWith(r, this.i));
        if (redir) {
          this.i += redir.length;
          this.redirect(redir, null);
          continue;
        }
        const op = OPS.find((o) => s.startsWith(o, this.i));
        if (op) {
          this.i += op.length;
          this.tokens.push({ t: "op", op });
          continue;
        }
        const w = this.word();
        const next = s[this.i];
        // `2>file`, `{fd}>file`: a word of digits (or {name}) glued to a redirection is its fd.
        if ((next === "<" || next === ">") && !w.quoted && /^(?:[0-9]+|\{[A-Za-z_][A-Za-z0-9_]*\})$/.test(w.raw) && s[this.i + 1] !== "(") {
          const r = REDIRS.find((x) => s.startsWith(x, this.i) && !x.startsWith("&"));
          if (r) {
            this.i += r.length;
            this.redirect(r, w.raw);
            continue;
          }
        }
        this.tokens.push({ t: "word", w });
      }
    }
    for (const p of this.pending) {
      p.tok.heredoc = { delim: p.tok.heredoc?.delim ?? "", quoted: false, terminated: false };
      this.unsure.push("a here-document has no body");
    }
    return { tokens: this.tokens, unsure: this.unsure };
  }

  private redirect(op: string, fd: string | null): void {
    while (this.s[this.i] === " " || this.s[this.i] === "\t") this.i++;
    const c = this.s[this.i];
    let target: Word | null = null;
    if (c !== undefined && !BREAK.has(c)) target = this.word();
    else if ((c === "<" || c === ">") && this.s[this.i + 1] === "(") target = this.word();
    if (target === null) this.unsure.push(`redirection '${op}' has no target`);
    const tok: Extract<Token, { t: "redir" }> = { t: "redir", op, fd, target };
    if ((op === "<<" || op === "<<-") && target) {
      tok.heredoc = { delim: target.value, quoted: target.quoted, terminated: false };
      this.pending.push({ tok, strip: op === "<<-" });
    }
    this.tokens.push(tok);
  }

  /** After a newline: the bodies of here-documents opened on the line just ended. */
  private readHereDocs(): void {
    for (const { tok, strip } of this.pending) {
      const doc = tok.heredoc as HereDoc;
      const lines: string[] = [];
      while (this.i < this.s.length) {
        let end = this.s.indexOf("\n", this.i);
        if (end < 0) end = this.s.length;
        const line = this.s.slice(this.i, end);
        this.i = Math.min(end + 1, this.s.length);
        if ((strip ? line.replace(/^\t+/, "") : line) === doc.delim) {
          doc.terminated = true;
          break;
        }
        lines.push(line);
      }
      if (!doc.terminated) this.unsure.push(`here-document '${doc.delim}' is not terminated`);
      const body = lines.join("\n");
      if (!doc.quoted && /\$\(|`|\$\{|\$\[/.test(body) && tok.target) {
        // The body of an unquoted here-document is expanded: substitutions in it run.
        tok.target.unsure.push("a here-document contains substitutions");
        tok.target.subs.push(...scanSubs(body));
      }
    }
    this.pending = [];
  }

  private word(): Word {
    const s = this.s;
    const w: Word = { value: "", raw: "", expanded: false, glob: false, brace: false, tilde: false, quoted: false, subs: [], unsure: [] };
    const start = this.i;
    if ((s[this.i] === "<" || s[this.i] === ">") && s[this.i + 1] === "(") {
      const close = findClose(s, this.i + 1);
      if (close < 0) {
        w.unsure.push("unbalanced process substitution");
        this.i = s.length;
      } else {
        w.subs.push({ source: s.slice(this.i + 2, close), kind: "process" });
        this.i = close + 1;
      }
      w.unsure.push("process substitution");
      w.expanded = true;
    }
    if (s[this.i] === "~") w.tilde = true;
    let bracket = false;
    while (this.i < s.length) {
      const c = s[this.i];
      if (BREAK.has(c)) {
        // `name=(a b)`: an array assignment keeps its parentheses in the word.
        if (c === "(" && /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(s.slice(start, this.i))) {
          const close = findClose(s, this.i);
          const body = close < 0 ? s.slice(this.i) : s.slice(this.i, close + 1);
          if (close < 0) w.unsure.push("unbalanced parenthesis in an array assignment");
          if (/\$\(|`/.test(body)) {
            w.unsure.push("substitution in an array assignment");
            w.subs.push(...scanSubs(body));
          }
          // `a=([i]=1)`: the subscript is arithmetic, which evaluates variables (and their subscripts).
          if (body.includes("[")) w.unsure.push("a subscript in an array assignment is evaluated as arithmetic, which can run commands");
          w.value += body;
          this.i = close < 0 ? s.length : close + 1;
          continue;
        }
        break;
      }
      if (c === "\\") {
        const n = s[this.i + 1];
        if (n === "\n") this.i += 2;
        else if (n === undefined) {
          w.value += "\\";
          this.i++;
        } else {
          w.value += n;
          w.quoted = true;
          this.i += 2;
        }
      } else if (c === "'") {
        const end = s.indexOf("'", this.i + 1);
        w.quoted = true;
        if (end < 0) {
          w.unsure.push("unbalanced single quote");
          w.value += s.slice(this.i + 1);
          this.i = s.length;
        } else {
          w.value += s.slice(this.i + 1, end);
          this.i = end + 1;
        }
      } else if (c === "$" && s[this.i + 1] === "'") {
        this.ansiC(w);
      } else if (c === '"' || (c === "$" && s[this.i + 1] === '"')) {
        this.double(w, c === "$" ? 2 : 1);
      } else if (c === "$") {
        this.dollar(w);
      } else if (c === "`") {
        this.backtick(w);
      } else {
        if (c === "*" || c === "?") w.glob = true;
        else if (c === "[") bracket = true;
        else if (c === "]" && bracket) w.glob = true; // `[` alone (the test command) is no glob
        w.value += c;
        this.i++;
      }
    }
    w.raw = s.slice(start, this.i);
    if (/\{[^{}]*(?:,|\.\.)[^{}]*\}/.test(unquotedSkeleton(w.raw))) w.brace = true;
    return w;
  }

  private double(w: Word, skip: number): void {
    const s = this.s;
    w.quoted = true;
    this.i += skip;
    while (this.i < s.length && s[this.i] !== '"') {
      const c = s[this.i];
      if (c === "\\") {
        const n = s[this.i + 1];
        if (n === "\n") this.i += 2;
        else if (n === "$" || n === "`" || n === '"' || n === "\\") {
          w.value += n;
          this.i += 2;
        } else {
          w.value += "\\";
          this.i++;
        }
      } else if (c === "$") this.dollar(w);
      else if (c === "`") this.backtick(w);
      else {
        w.value += c;
        this.i++;
      }
    }
    if (this.i >= s.length) w.unsure.push("unbalanced double quote");
    else this.i++; // closing quote
  }

  private dollar(w: Word): void {
    this.i = readDollar(this.s, this.i, w);
  }

  private backtick(w: Word): void {
    this.i = readBacktick(this.s, this.i, w);
  }

  private ansiC(w: Word): void {
    w.quoted = true;
    const r = decodeAnsiC(this.s, this.i + 2);
    w.value += r.value;
    if (r.unterminated) w.unsure.push("unbalanced $'…' quote");
    this.i = r.end;
  }

}
