// Programs whose argument is a small program of its own: sed and awk. Their scripts can run
// shell commands (sed's `e` command and `s///e` flag, awk's `system()` and pipes) and read or
// write files (sed's `r`/`w`, awk's `getline <` and `print >`). A script deepcode cannot read
// all the way, or one given as a file (`-f`), counts as one that may do all of that.

import type { Word } from "./lexer.js";
import type { Risk } from "./types.js";

/** The scripts of a sed or awk command line: `-e X` values (sed), else the first operand. */
function scripts(words: Word[], valueOpts: string, scriptOpts: string, longScript: readonly string[]): { scripts: Array<{ text: string; at: number }>; file: number | null } {
  const out: Array<{ text: string; at: number }> = [];
  let file: number | null = null;
  let first: { text: string; at: number } | null = null;
  for (let i = 1; i < words.length; i++) {
    const v = words[i].value;
    if (v === "--") {
      if (i + 1 < words.length) first ??= { text: words[i + 1].value, at: i + 1 };
      break;
    }
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const name = v.slice(2, eq < 0 ? undefined : eq);
      if (name === "file") file = i;
      if (longScript.includes(name)) out.push({ text: eq < 0 ? (words[++i]?.value ?? "") : v.slice(eq + 1), at: i });
      continue;
    }
    if (!v.startsWith("-") || v === "-") {
      first ??= { text: v, at: i };
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      if (!valueOpts.includes(v[j])) continue;
      const value = j + 1 < v.length ? v.slice(j + 1) : (words[++i]?.value ?? "");
      if (v[j] === "f") file = i;
      else if (scriptOpts.includes(v[j])) out.push({ text: value, at: i });
      break;
    }
  }
  if (out.length === 0 && file === null && first) out.push(first);
  return { scripts: out, file };
}

export function sedRisk(words: Word[]): Risk | null {
  if (words.some((w) => w.value === "--sandbox")) return null; // GNU sed: e, r and w are refused
  const { scripts: list, file } = scripts(words, "efl", "e", ["expression"]);
  if (file !== null) return { at: file, why: "sed -f runs a script file, which can run commands (e) and write files (w)" };
  for (const s of list) {
    const why = sedScriptRisk(s.text);
    if (why) return { at: s.at, why };
  }
  return null;
}

/** Reads a sed script as GNU sed does, far enough to find e, r, R, w, W and the s///e and s///w flags. */
export function sedScriptRisk(s: string): string | null {
  let i = 0;
  const skipTo = (re: RegExp): void => {
    while (i < s.length && !re.test(s[i])) i++;
  };
  /** Past the text delimited by `d` (after the opening one); regular expressions keep `[…]` whole. */
  const delimited = (d: string, regex: boolean): boolean => {
    while (i < s.length && s[i] !== d) {
      if (s[i] === "\\") i += 2;
      else if (regex && s[i] === "[") {
        i++;
        if (s[i] === "^") i++;
        if (s[i] === "]") i++;
        while (i < s.length && s[i] !== "]") {
          // `[[:alpha:]]`, `[[.-.]]`, `[[=e=]]`: a class inside the brackets ends at `:]`, `.]`, `=]`.
          const close = s[i] === "[" && /[:.=]/.test(s[i + 1] ?? "") ? s.indexOf(`${s[i + 1]}]`, i + 2) : -2;
          i = close === -2 ? i + 1 : close < 0 ? s.length : close + 2;
        }
        i++;
      } else i++;
    }
    if (i >= s.length) return false;
    i++;
    return true;
  };
  const address = (): boolean => {
    if (/[0-9]/.test(s[i] ?? "")) {
      while (/[0-9~]/.test(s[i] ?? "")) i++;
    } else if (s[i] === "$") i++;
    else if (s[i] === "/" || s[i] === "\\") {
      const d = s[i] === "\\" ? s[i + 1] : "/";
      i += s[i] === "\\" ? 2 : 1;
      if (d === undefined || !delimited(d, true)) return false;
      while (/[IM]/.test(s[i] ?? "")) i++;
    }
    return true;
  };
  while (i < s.length) {
    while (i < s.length && /[\s;{}!]/.test(s[i])) i++;
    if (i >= s.length) break;
    if (!address()) return "a sed script deepcode cannot read";
    if (s[i] === ",") {
      i++;
      if (/[+~]/.test(s[i] ?? "")) i++;
      if (!address()) return "a sed script deepcode cannot read";
    }
    while (i < s.length && /[\s!]/.test(s[i])) i++;
    const c = s[i++];
    if (c === undefined) break;
    if (c === "e") return "sed's e command runs a shell command";
    if (c === "w" || c === "W") return "sed's w command writes a file";
    if (c === "r" || c === "R") return "sed's r command reads another file";
    if (c === "s" || c === "y") {
      const d = s[i++];
      if (d === undefined || d === "\\" || d === "\n" || !delimited(d, c === "s") || !delimited(d, false)) return "a sed script deepcode cannot read";
      const start = i;
      skipTo(/[\n;}]/);
      const flags = s.slice(start, i);
      if (c === "s" && /e/.test(flags)) return "sed's s///e flag runs the result as a shell command";
      if (c === "s" && /w/.test(flags)) return "sed's s///w flag writes a file";
      if (!/^[gpIiMm0-9\s]*$/.test(flags)) return "a sed script deepcode cannot read";
    } else if ("aic".includes(c)) {
      while (i < s.length && s[i] !== "\n") i += s[i] === "\\" ? 2 : 1;
    } else if (c === "#") skipTo(/\n/);
    else if (":btTv".includes(c)) skipTo(c === ":" ? /[\n;]/ : /[\n;}]/);
    else if ("qQlL".includes(c)) {
      while (/[\s0-9]/.test(s[i] ?? "") && s[i] !== "\n") i++;
    } else if (!"=dDgGhHnNpPxzF{}".includes(c)) return `a sed command deepcode cannot read ('${c}')`;
  }
  return null;
}

export function awkRisk(words: Word[]): Risk | null {
  const name = words[0]?.value ?? "awk";
  for (let i = 1; i < words.length; i++) {
    const v = words[i].value;
    if (v === "--") break;
    if (!v.startsWith("-")) continue;
    if (/^--(?:include|load|exec)(?:=|$)/.test(v)) return { at: i, why: `${name} ${v.split("=")[0]} loads or runs another program file` };
    if (v.startsWith("--")) continue;
    for (const c of v.slice(1)) {
      if ("ilE".includes(c)) return { at: i, why: `${name} -${c} loads or runs another program file` };
      if ("fvFe".includes(c)) break; // the rest of the word is its value
    }
  }
  const { scripts: list, file } = scripts(words, "fvFe", "e", ["source"]);
  if (file !== null) return { at: file, why: `${name} -f runs a program file, which can run commands and write files` };
  for (const p of list) {
    const why = awkProgramRisk(p.text);
    if (why) return { at: p.at, why: `${name}: ${why}` };
  }
  return null;
}

export function awkProgramRisk(program: string): string | null {
  const code = awkCode(program);
  if (code === null) return "a program deepcode cannot read (a string or regular expression does not end)";
  if (/\bsystem\s*\(/.test(code)) return "system() runs a shell command";
  if (/(^|[^|])\|(?!\|)/.test(code)) return "a pipe runs a shell command";
  if (/\bgetline\b/.test(code)) return "getline reads another file or a command's output";
  if (/\bprintf?\b[^;{}\n]*>/.test(code)) return "print > writes a file";
  if (/@(?:load|include|namespace)/.test(code)) return "@load/@include loads other code";
  if (/\bARGV\s*\[[^\]]*\]\s*=(?!=)|\bARGC\s*(?:[-+*/]?=(?!=)|\+\+|--)|\+\+\s*ARGC|--\s*ARGC|\b(?:split|delete|sub|gsub)\s*\([^)]*\bARGV\b|\bdelete\s+ARGV\b|\bARGV\b\s*\)/.test(code)) {
    return "the program changes ARGV, choosing which files it reads";
  }
  return null;
}

/** An awk program with its strings, regular expressions and comments emptied, read left to right
 *  as awk reads it (a `/` starts a regular expression only where an operand may begin), or null
 *  when a string or regular expression does not end. */
export function awkCode(program: string): string | null {
  let out = "";
  let last = ""; // the last significant character of the code so far
  for (let i = 0; i < program.length; i++) {
    const c = program[i];
    if (c === '"') {
      let j = i + 1;
      while (j < program.length && program[j] !== '"' && program[j] !== "\n") j += program[j] === "\\" ? 2 : 1;
      if (program[j] !== '"') return null;
      out += '""';
      last = '"';
      i = j;
    } else if (c === "/" && (last === "" || /[(,~!{};&|?:=\n[]/.test(last) || /\b(?:print|printf|return|in)$/.test(out))) {
      let j = i + 1;
      let bracket = false;
      while (j < program.length && (program[j] !== "/" || bracket) && program[j] !== "\n") {
        if (program[j] === "\\") j++;
        else if (program[j] === "[") bracket = true;
        else if (program[j] === "]") bracket = false;
        j++;
      }
      if (program[j] !== "/") return null;
      out += "//";
      last = "/";
      i = j;
    } else if (c === "#") {
      while (i + 1 < program.length && program[i + 1] !== "\n") i++;
    } else {
      out += c;
      if (!/[ \t]/.test(c)) last = c;
    }
  }
  return out;
}
