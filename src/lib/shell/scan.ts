// Scanning helpers for the shell lexer: matching brackets and quotes, substitutions inside text
// bash expands (here-documents, ${…}), and bash's ANSI-C quoting. No state; no side effects.

import type { Sub, Word } from "./types.js";

/** `$'…'` from `start` (just after `$'`): the decoded text, where it ends (after the quote). */
export function decodeAnsiC(s: string, start: number): { value: string; end: number; unterminated: boolean } {
  let value = "";
  let j = start;
  const simple: Record<string, string> = { a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\\": "\\", "'": "'", '"': '"', "?": "?" };
  while (j < s.length && s[j] !== "'") {
    if (s[j] !== "\\") {
      value += s[j++];
      continue;
    }
    const e = s[j + 1];
    let m: RegExpExecArray | null;
    if (e !== undefined && simple[e] !== undefined) {
      value += simple[e];
      j += 2;
    } else if ((m = /^[0-7]{1,3}/.exec(s.slice(j + 1, j + 4)))) {
      value += String.fromCharCode(parseInt(m[0], 8) & 0xff);
      j += 1 + m[0].length;
    } else if (e === "x" && (m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(j + 2, j + 4)))) {
      value += String.fromCharCode(parseInt(m[0], 16));
      j += 2 + m[0].length;
    } else if ((e === "u" || e === "U") && (m = new RegExp(`^[0-9a-fA-F]{1,${e === "u" ? 4 : 8}}`).exec(s.slice(j + 2, j + 10)))) {
      const cp = parseInt(m[0], 16);
      value += cp <= 0x10ffff ? String.fromCodePoint(cp) : "\ufffd";
      j += 2 + m[0].length;
    } else if (e === "c" && s[j + 2] !== undefined) {
      value += String.fromCharCode(s[j + 2].toUpperCase().charCodeAt(0) ^ 0x40);
      j += 3;
    } else {
      value += "\\" + (e ?? "");
      j += 2;
    }
  }
  return { value, end: Math.min(j + 1, s.length), unterminated: j >= s.length };
}

/** A synthetic unquoted word (a default command, or an option's value). */
export function plainWord(value: string): Word {
  return { value, raw: value, expanded: false, glob: false, brace: false, tilde: value.startsWith("~"), quoted: false, subs: [], unsure: [] };
}

/** Index of the `)` matching the `(` at `open`, skipping quotes and escapes; -1 when unbalanced. */
export function findClose(s: string, open: number): number {
  let depth = 0;
  for (let j = open; j < s.length; j++) {
    const c = s[j];
    if (c === "\\") j++;
    else if (c === "'") {
      const e = s.indexOf("'", j + 1);
      if (e < 0) return -1;
      j = e;
    } else if (c === '"' || c === "`") {
      const e = closeQuote(s, j, c);
      if (e < 0) return -1;
      j = e;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return j;
  }
  return -1;
}

export function findBrace(s: string, open: number): number {
  let depth = 0;
  for (let j = open; j < s.length; j++) {
    const c = s[j];
    if (c === "\\") j++;
    else if (c === "'" || c === '"' || c === "`") {
      const e = c === "'" ? s.indexOf("'", j + 1) : closeQuote(s, j, c);
      if (e < 0) return -1;
      j = e;
    } else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return j;
  }
  return -1;
}

function closeQuote(s: string, open: number, q: string): number {
  for (let j = open + 1; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === q) return j;
    else if (q === '"' && s[j] === "$" && s[j + 1] === "(") {
      const e = findClose(s, j + 1);
      if (e < 0) return -1;
      j = e;
    }
  }
  return -1;
}

/** Every `$(…)` and backtick substitution in a text that bash expands (here-documents, ${…}). */
export function scanSubs(text: string): Sub[] {
  const out: Sub[] = [];
  for (let j = 0; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === "$" && text[j + 1] === "(" && text[j + 2] !== "(") {
      const e = findClose(text, j + 1);
      out.push({ source: e < 0 ? text.slice(j + 2) : text.slice(j + 2, e), kind: "command" });
      if (e < 0) break;
      j = e;
    } else if (text[j] === "`") {
      const e = text.indexOf("`", j + 1);
      out.push({ source: e < 0 ? text.slice(j + 1) : text.slice(j + 1, e), kind: "backtick" });
      if (e < 0) break;
      j = e;
    }
  }
  return out;
}

/** The raw word with quoted parts blanked, to look for unquoted syntax such as braces. */
export function unquotedSkeleton(raw: string): string {
  return raw.replace(/\\.|'[^']*'|"(?:\\.|[^"\\])*"/gs, (m) => " ".repeat(m.length));
}

/** A `$…` expansion at `start` in a word: records it on `w`; returns where the word goes on. */
export function readDollar(s: string, start: number, w: Word): number {
  const n = s[start + 1];
  let i: number;
  if (n === "(" && s[start + 2] === "(") {
    const close = findClose(s, start + 1);
    w.unsure.push("arithmetic expansion");
    w.subs.push(...scanSubs(close < 0 ? s.slice(start + 3) : s.slice(start + 3, close - 1)));
    i = close < 0 ? s.length : close + 1;
  } else if (n === "(") {
    const close = findClose(s, start + 1);
    if (close < 0) w.unsure.push("unbalanced $(");
    w.subs.push({ source: close < 0 ? s.slice(start + 2) : s.slice(start + 2, close), kind: "command" });
    i = close < 0 ? s.length : close + 1;
  } else if (n === "{") {
    const close = findBrace(s, start + 1);
    const body = close < 0 ? s.slice(start + 2) : s.slice(start + 2, close);
    if (close < 0) w.unsure.push("unbalanced ${");
    if (/\$\(|`|\$\{|\$\[/.test(body)) {
      w.unsure.push("a substitution inside ${…}");
      w.subs.push(...scanSubs(body));
    }
    const risk = braceRisk(body);
    if (risk) w.unsure.push(risk);
    i = close < 0 ? s.length : close + 1;
  } else if (n === "[") {
    const close = s.indexOf("]", start);
    w.unsure.push("arithmetic expansion");
    w.subs.push(...scanSubs(close < 0 ? s.slice(start + 2) : s.slice(start + 2, close)));
    i = close < 0 ? s.length : close + 1;
  } else if (n !== undefined && /[A-Za-z_]/.test(n)) {
    i = start + 2;
    while (i < s.length && /[A-Za-z0-9_]/.test(s[i])) i++;
  } else if (n !== undefined && /[0-9@*#?$!-]/.test(n)) {
    i = start + 2;
  } else {
    w.value += "$"; // a lone `$` is literal
    return start + 1;
  }
  w.expanded = true;
  w.value += s.slice(start, i);
  return i;
}

/** A backtick substitution at `start`: its body (unescaped as bash does) becomes a sub of `w`. */
export function readBacktick(s: string, start: number, w: Word): number {
  let j = start + 1;
  let body = "";
  while (j < s.length && s[j] !== "`") {
    if (s[j] === "\\" && (s[j + 1] === "`" || s[j + 1] === "\\" || s[j + 1] === "$")) {
      body += s[j + 1];
      j += 2;
    } else body += s[j++];
  }
  w.expanded = true;
  if (j >= s.length) w.unsure.push("unbalanced backtick");
  w.subs.push({ source: body, kind: "backtick" });
  const end = Math.min(j + 1, s.length);
  w.value += s.slice(start, end);
  return end;
}

// Invisible, bidirectional-control and unusual space characters, and the carriage return (a
// terminal shows the text after it over the text before): they make what a person reads differ
// from what bash runs.
const DECEPTIVE_RANGES: Array<[number, number]> = [
  [0x00, 0x08], [0x0b, 0x0d], [0x0e, 0x1f], [0x7f, 0x7f], [0xa0, 0xa0], [0xad, 0xad], [0x1680, 0x1680],
  [0x180e, 0x180e], [0x2000, 0x200f], [0x2028, 0x202f], [0x205f, 0x206f], [0x3000, 0x3000], [0xfe00, 0xfe0f], [0xfeff, 0xfeff],
];

export function deceptive(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f) for (const [lo, hi] of DECEPTIVE_RANGES) if (c >= lo && c <= hi) return true;
  }
  return false;
}

const SUBSCRIPT_SAFE = /^(?:@|\*|-?[0-9]+)$/;
const NUMBER = /^\s*-?\s*[0-9]+\s*$/;

/**
 * What bash evaluates inside a `${…}` beyond plain text: an indirect name (`${!x}`), an array
 * subscript (`${a[i]}`) or a substring offset (`${x:i}`) — both arithmetic, where any variable's
 * value is evaluated in turn and an array subscript there runs its command substitutions —,
 * an assignment (`${x:=v}`), or prompt expansion (`${x@P}`). Null for the forms that provably
 * only read a variable: `${x}`, `${x:-w}`, `${#x}`, `${x#p}`, `${x/p/r}`, `${a[0]}`, `${a[@]}`,
 * `${x:1:2}`, `${!a[@]}`, `${!prefix*}`.
 */
export function braceRisk(body: string): string | null {
  let m = /^!([A-Za-z_][A-Za-z0-9_]*)(\[[@*]\]|[@*])?$/.exec(body);
  if (m) return m[2] ? null : "an indirect expansion ${!…} reads a variable named only at run time (its subscript can run commands)";
  if (body.startsWith("!")) return "an indirect expansion ${!…} reads a variable named only at run time (its subscript can run commands)";
  m = /^#?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(?:\[([^\]]*)\])?(.*)$/s.exec(body);
  if (!m) return null; // not a parameter expansion bash accepts: it fails without running anything
  const [, , sub, rest] = m;
  if (sub !== undefined && !SUBSCRIPT_SAFE.test(sub)) return "an array subscript in ${…} is evaluated as arithmetic, which can run commands";
  if (/^:?=/.test(rest)) return "${…=…} assigns a variable";
  if (/^@P/.test(rest)) return "${…@P} expands the value as a prompt, which runs command substitutions in it";
  if (rest.startsWith(":") && !/^:[-=?+]/.test(rest)) {
    const parts = rest.slice(1).split(":");
    if (parts.length > 2 || !parts.every((x) => NUMBER.test(x))) return "a substring offset in ${…:…} is evaluated as arithmetic, which can run commands";
  }
  return null;
}
