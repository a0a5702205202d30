// From a Bash command line to the list of simple commands it would run ("parts"), each with the
// folder it would run in, its redirections, and what could not be read with confidence.
//
// Splits on `&&`, `||`, `;`, `|`, `|&`, `&` and newlines; looks inside `$(…)`, backticks,
// `<(…)`, `( … )`, `{ …; }`, `if/while/for` bodies, `bash -c '…'`, `eval`, wrappers such as
// `env`/`xargs`/`sudo` (see unwrap.ts), `find -exec`, trap actions and alias values. What bash
// builtins evaluate or set is builtins.ts's. Anything it cannot follow — a command name computed
// at run time, a `case` statement, a function definition, arithmetic, an array subscript, an
// unbalanced quote — is recorded as `unsure`, and the decision treats it as at least an ask.
//
// The working folder is tracked as a set of possible folders: `cd X` adds X (the `cd` may fail
// and the next command still run), subshells and pipeline elements do not leak theirs, and a
// `cd` we cannot resolve makes the folder unknown. Paths are resolved later, at decision time.

import { resolve } from "node:path";
import { lex, plainWord, type Token, type Word } from "./lexer.js";
import { builtinEffects, testOperands } from "./builtins.js";
import { changeDir, cloneCwd } from "./cwd.js";
import { deceptive } from "./scan.js";
import type { CwdSet, ParsedShell, Redirect, ShellContext, ShellPart } from "./types.js";
import { basename, unwrap } from "./unwrap.js";
import { spellOutOptions } from "./long-options.js";
import { commandStrings, optionLikeMatches } from "./command-options.js";

export type { CwdSet, ParsedShell, Redirect, ShellContext, ShellPart };

const MAX_DEPTH = 8;
const RESERVED = new Set(["{", "}", "!", "if", "then", "else", "elif", "fi", "do", "done", "while", "until"]);
const ASSIGN = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[([^\]]*)\])?\+?=/;

export function parseShell(command: string, ctx: ShellContext): ParsedShell {
  const out: ParsedShell = { parts: [], unsure: [] };
  if (deceptive(command)) out.unsure.push("invisible, control or look-alike space characters in the command");
  const state = { cwd: { dirs: [resolve(ctx.cwd)], unknown: false } };
  new Parser(command, out, state, 0, ctx).parseList(false);
  return out;
}

interface State {
  cwd: CwdSet;
}

class Parser {
  private readonly toks: Token[];
  private k = 0;

  constructor(
    source: string,
    private readonly out: ParsedShell,
    private readonly state: State,
    private readonly depth: number,
    private readonly ctx: ShellContext,
  ) {
    const lexed = lex(source);
    this.toks = lexed.tokens;
    out.unsure.push(...lexed.unsure);
  }

  parseList(inParens: boolean): void {
    while (this.k < this.toks.length) {
      const t = this.toks[this.k];
      if (t.t === "op") {
        if (t.op === ")") {
          if (inParens) return;
          this.out.unsure.push("unbalanced ')'");
        } else if (t.op === ";;" || t.op === ";&" || t.op === ";;&") this.out.unsure.push("case statement");
        else if (t.op === "|" || t.op === "|&") this.out.unsure.push(`'${t.op}' with nothing before it`);
        else if (t.op === "(") {
          this.parsePipeline();
          continue;
        }
        this.k++;
        continue;
      }
      this.parsePipeline();
    }
    if (inParens) this.out.unsure.push("unbalanced '('");
  }

  private parsePipeline(): void {
    const before = cloneCwd(this.state.cwd);
    let elements = 0;
    for (;;) {
      this.parseCommand();
      elements++;
      const t = this.toks[this.k];
      if (t?.t === "op" && (t.op === "|" || t.op === "|&")) {
        this.k++;
        this.state.cwd = cloneCwd(before); // each pipeline element runs in its own subshell
        continue;
      }
      break;
    }
    const t = this.toks[this.k];
    if (elements > 1 || (t?.t === "op" && t.op === "&")) this.state.cwd = before;
  }

  private parseCommand(): void {
    const t = this.toks[this.k];
    if (t === undefined) return;
    if (t.t === "op") {
      if (t.op !== "(") return;
      this.k++;
      const before = cloneCwd(this.state.cwd);
      this.parseList(true);
      if (this.toks[this.k]?.t === "op") this.k++; // the closing ')'
      this.state.cwd = before;
      const redirects = this.takeRedirects();
      if (redirects.length > 0) this.analyse([], redirects);
      return;
    }
    if (t.t === "word" && !t.w.quoted) {
      const r = t.w.raw;
      if (RESERVED.has(r)) {
        this.k++;
        return;
      }
      if (r === "for" || r === "select") return this.parseFor(r);
      if (r === "case" || r === "coproc" || r === "function") return this.skipUnsupported(r);
      if (r === "[[") return this.parseTest();
    }
    this.parseSimple();
  }

  private parseSimple(): void {
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    while (this.k < this.toks.length) {
      const t = this.toks[this.k];
      if (t.t === "op") {
        if (t.op === "(" && words.length === 1 && this.toks[this.k + 1]?.t === "op") {
          this.out.unsure.push("function definition");
          this.k += 2;
          return;
        }
        if (t.op === "(") this.out.unsure.push("unexpected '('");
        break;
      }
      this.k++;
      if (t.t === "word") words.push(t.w);
      else redirects.push(toRedirect(t));
    }
    this.analyse(words, redirects);
  }

  private takeRedirects(): Redirect[] {
    const out: Redirect[] = [];
    while (this.toks[this.k]?.t === "redir") out.push(toRedirect(this.toks[this.k++] as Extract<Token, { t: "redir" }>));
    return out;
  }

  /** `for NAME in WORDS; do …`: the list words are not commands, but their substitutions run. */
  private parseFor(keyword: string): void {
    if (keyword === "select") this.out.unsure.push("select statement");
    this.k++;
    const words: Word[] = [];
    while (this.k < this.toks.length) {
      const t = this.toks[this.k];
      if (t.t === "op" || (t.t === "word" && t.w.raw === "do")) break;
      if (t.t === "word") words.push(t.w);
      this.k++;
    }
    for (const w of words) {
      this.subsOf(w);
      if (w.unsure.length > 0) this.out.unsure.push(...w.unsure);
    }
  }

  private skipUnsupported(keyword: string): void {
    this.out.unsure.push(keyword === "function" ? "function definition" : `${keyword} statement`);
    this.k++;
    if (keyword !== "case") return; // a function's body and a coproc's command are parsed as usual
    while (this.k < this.toks.length) {
      const t = this.toks[this.k++];
      if (t.t === "word") {
        if (t.w.raw === "esac") return;
        this.subsOf(t.w);
      }
    }
  }

  /** `[[ … ]]`: a test. `<`, `>`, `&&`, `||` inside compare or combine; they do not redirect. */
  private parseTest(): void {
    const words: Word[] = [plainWord("[[")];
    this.k++;
    let closed = false;
    while (this.k < this.toks.length) {
      const t = this.toks[this.k];
      if (t.t === "word") {
        this.k++;
        if (t.w.raw === "]]") {
          closed = true;
          break;
        }
        words.push(t.w);
      } else if (t.t === "redir") {
        this.k++;
        words.push(plainWord(t.op));
        if (t.target) words.push(t.target);
      } else if (["&&", "||", "(", ")"].includes(t.op)) {
        this.k++;
        words.push(plainWord(t.op));
      } else break;
    }
    const unsure: string[] = [];
    if (!closed) unsure.push("unterminated [[");
    // `[[ x -eq y ]]` evaluates its operands as arithmetic, which can run code.
    if (words.some((w) => /^-(?:eq|ne|lt|le|gt|ge)$/.test(w.value))) unsure.push("arithmetic comparison in [[ ]]");
    testOperands(words, { unsure });
    this.analyse(words, this.takeRedirects(), unsure);
  }

  /** Turn one simple command into parts: its substitutions first, then itself (unwrapped). */
  private analyse(words: Word[], redirects: Redirect[], extraUnsure: string[] = [], argsUnknown = false): void {
    for (const w of words) this.subsOf(w);
    for (const r of redirects) if (r.target) this.subsOf(r.target);

    let i = 0;
    const assigns: string[] = [];
    const unsure = [...extraUnsure];
    for (; i < words.length; i++) {
      const m = ASSIGN.exec(words[i].raw);
      if (!m) break;
      assigns.push(m[1]);
      if (m[2] !== undefined && !/^-?[0-9]+$/.test(m[2])) unsure.push("an array subscript in an assignment is evaluated as arithmetic, which can run commands");
    }
    // `{fd}>file` stores the new descriptor's number in the variable `fd`: that matters for the
    // variables bash and programs read (PATH, IFS…, all upper case), not for a lower-case name.
    for (const r of redirects) if (r.fd?.startsWith("{") && /[A-Z]/.test(r.fd)) assigns.push(r.fd.slice(1, -1));
    const u = unwrap(words.slice(i));
    const head = u.words[0];
    if (head !== undefined && !head.expanded) {
      const spelled = spellOutOptions(basename(head.value), u.words);
      u.words = spelled.words;
      unsure.push(...spelled.unsure);
    }
    const part: ShellPart = {
      words: u.words,
      name: "",
      commandWord: "",
      qualified: false,
      argsUnknown: argsUnknown || u.argsUnknown,
      assigns: [...assigns, ...u.assigns],
      redirects,
      writes: u.writes,
      reads: u.reads,
      cwd: cloneCwd(this.state.cwd),
      unsure: [...unsure, ...words.flatMap((w) => w.unsure), ...redirects.flatMap((r) => r.target?.unsure ?? []), ...u.unsure],
      escalated: u.escalated,
      lookup: u.lookup === true,
      via: u.via,
      text: words.map((w) => w.value).join(" "),
    };
    const cw = u.words[0];
    if (cw !== undefined) {
      if (cw.expanded || cw.glob || cw.brace) part.unsure.push("the command name is computed at run time");
      else if (cw.value === "") part.unsure.push("empty command name");
      else if (/[^\x00-\x7f]/.test(cw.value)) part.unsure.push("non-ASCII character in the command name (a look-alike?)");
      else if (/[^\x21-\x7e]/.test(cw.value) && cw.unsure.length === 0) part.unsure.push("spaces or control characters in the command name");
      part.commandWord = cw.value;
      part.name = basename(cw.value);
      part.qualified = cw.value.includes("/");
      if (part.name === "cd" || part.name === "pushd" || part.name === "popd") changeDir(part, this.state.cwd, this.ctx.home);
    }
    const builtin = cw === undefined || part.qualified ? null : builtinEffects(part.name, u.words.slice(1));
    if (builtin) {
      part.unsure.push(...builtin.unsure);
      part.assigns.push(...builtin.assigns);
    }
    if (cw !== undefined) {
      const dashed = optionLikeMatches(part.words, part.cwd);
      if (dashed.length > 0) part.unsure.push(`a glob matches files named like options (${dashed.slice(0, 3).join(", ")}), which '${part.name}' would read as options`);
    }
    this.out.parts.push(part);
    if (builtin?.script !== undefined) this.nested(builtin.script, true);
    for (const c of cw === undefined ? [] : commandStrings(part.name, part.words)) {
      if (c.expanded) part.unsure.push(`the ${c.how} command is expanded at run time`);
      const from = this.out.parts.length;
      this.nested(c.source, false);
      for (const p of this.out.parts.slice(from)) {
        p.escalated ||= part.escalated;
        p.via = [...part.via, c.how, ...p.via];
      }
    }

    if (u.script) {
      const from = this.out.parts.length;
      this.nested(u.script.source, u.script.sameShell);
      for (const p of this.out.parts.slice(from)) {
        p.escalated ||= u.escalated;
        p.assigns.push(...part.assigns);
        p.via = [...u.via, ...p.via];
      }
    }
    if (part.name === "find") this.findExec(part.words);
  }

  /** `find … -exec CMD … ;` runs CMD once per file (with `{}` replaced): analyse CMD too. */
  private findExec(words: Word[]): void {
    for (let j = 1; j < words.length; j++) {
      if (!/^-(?:exec|execdir|ok|okdir)$/.test(words[j].value)) continue;
      const cmd: Word[] = [];
      for (j++; j < words.length && words[j].value !== ";" && words[j].value !== "+"; j++) cmd.push(words[j]);
      const from = this.out.parts.length;
      if (cmd.length > 0) this.analyse(cmd, [], [], true);
      for (const p of this.out.parts.slice(from)) p.via.unshift("find -exec");
    }
  }

  private subsOf(w: Word): void {
    for (const s of w.subs) this.nested(s.source, false);
  }

  private nested(source: string, sameShell: boolean): void {
    if (this.depth >= MAX_DEPTH) {
      this.out.unsure.push("nested too deeply to follow");
      return;
    }
    const state = sameShell ? this.state : { cwd: cloneCwd(this.state.cwd) };
    new Parser(source, this.out, state, this.depth + 1, this.ctx).parseList(false);
  }
}

function toRedirect(t: Extract<Token, { t: "redir" }>): Redirect {
  const dup = t.target !== null && /^(?:[0-9]+-?|-)$/.test(t.target.value) && !t.target.quoted;
  const op = t.op;
  const write = op === ">" || op === ">>" || op === ">|" || op === "&>" || op === "&>>" || op === "<>" || (op === ">&" && !dup);
  const read = op === "<" || op === "<>" || (op === "<&" && !dup);
  return { op, fd: t.fd, target: t.target, write, read };
}
