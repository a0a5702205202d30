// What bash's own builtins do with their words besides running: the variables they set (so an
// allow rule for them cannot vouch for what runs later: `export PATH=.`, `read PATH`), the text
// they evaluate (an array subscript in a variable name is arithmetic, and arithmetic evaluates
// variables' values and the command substitutions in their subscripts: `test -v 'a[$(rm x)]'`,
// `printf -v 'a[$(rm x)]'`, `let`, `declare -i`), and code they keep to run later (a trap's
// action, an alias's value), which the parser analyses as commands of the same shell.
//
// Each finding is a precise `unsure` reason: the line asks (deny rules still deny). What is not
// listed here runs nothing beyond itself (`cd`, `echo`, `shift`, `exit`, `kill`, `ulimit` …;
// checked against real bash: their operands are not evaluated as expressions).

import type { Word } from "./lexer.js";

export interface BuiltinEffects {
  unsure: string[];
  /** Variables it sets in this shell. */
  assigns: string[];
  /** Code it keeps and bash runs later in this shell (trap actions, alias values). */
  script?: string;
}

const SUBSCRIPT = "an array subscript in a variable name is evaluated as arithmetic, which can run commands";
const DECLARE = new Set(["declare", "typeset", "local", "export", "readonly"]);
/** `set` options that only make bash stricter or louder: they change no later word. */
const SAFE_SET_LETTERS = new Set([..."euxvfnCbmhBHtTE"]);
const SAFE_SET_NAMES = new Set([
  "errexit", "nounset", "xtrace", "verbose", "noglob", "noclobber", "pipefail", "noexec", "notify", "monitor", "hashall",
  "errtrace", "functrace", "ignoreeof", "braceexpand", "histexpand", "history", "emacs", "vi", "interactive-comments",
]);

/** Options before the operands: each option word, and the operands after them. `withValue`
 *  are short options that take a value (glued or the next word); their values are returned too. */
function split(args: Word[], withValue: string): { opts: Array<[string, Word | null]>; rest: Word[] } {
  const opts: Array<[string, Word | null]> = [];
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i].value;
    if (v === "--") {
      i++;
      break;
    }
    if (!/^[-+]./.test(v)) break;
    for (let j = 1; j < v.length; j++) {
      if (withValue.includes(v[j])) {
        const glued = v.slice(j + 1);
        opts.push([v[j], glued !== "" ? { ...args[i], value: glued } : (args[++i] ?? null)]);
        break;
      }
      opts.push([v[0] === "+" ? `+${v[j]}` : v[j], null]);
    }
  }
  return { opts, rest: args.slice(i) };
}

/** A variable-name operand (`NAME`, `NAME=value`, `NAME[i]`): records its name, or why it is unsure. */
function nameOperand(w: Word, out: BuiltinEffects, what: string): void {
  const eq = w.value.indexOf("=");
  const name = eq < 0 ? w.value : w.value.slice(0, eq);
  if (w.expanded && /[$`]/.test(name)) out.unsure.push(`${what} sets a variable named only at run time`);
  else if (name.includes("[")) out.unsure.push(`${what}: ${SUBSCRIPT}`);
  else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) out.assigns.push(name);
}

export function builtinEffects(name: string, args: Word[]): BuiltinEffects | null {
  const out: BuiltinEffects = { unsure: [], assigns: [] };
  if (name === "test" || name === "[") {
    testOperands(args, out);
  } else if (DECLARE.has(name)) {
    const { opts, rest } = split(args, "");
    const letters = opts.map(([o]) => o);
    if (name !== "export" && letters.includes("n")) out.unsure.push(`${name} -n makes a name reference, whose target is evaluated when it is used`);
    if (letters.includes("i")) out.unsure.push(`${name} -i evaluates values as arithmetic, which can run commands`);
    for (const w of rest) {
      const eq = w.value.indexOf("=");
      if (eq >= 0 && w.value.slice(eq + 1).startsWith("(") && w.value.includes("[")) out.unsure.push(`${name}: a subscript in an array value is evaluated as arithmetic, which can run commands`);
      if (eq >= 0) nameOperand(w, out, name);
      else if (w.value.includes("[")) out.unsure.push(`${name}: ${SUBSCRIPT}`);
    }
  } else if (name === "read") {
    const { opts, rest } = split(args, "adinNptu");
    for (const [o, v] of opts) if (o === "a" && v) nameOperand(v, out, "read -a");
    for (const w of rest) nameOperand(w, out, "read");
  } else if (name === "mapfile" || name === "readarray") {
    const { opts, rest } = split(args, "dnOsuCc");
    if (opts.some(([o]) => o === "C")) out.unsure.push(`${name} -C runs a callback command`);
    for (const w of rest.slice(0, 1)) nameOperand(w, out, name);
  } else if (name === "printf" || name === "wait") {
    const { opts } = split(args, name === "printf" ? "v" : "p");
    for (const [o, v] of opts) if ((o === "v" || o === "p") && v) nameOperand(v, out, `${name} -${o}`);
  } else if (name === "unset") {
    const { rest } = split(args, "");
    for (const w of rest) nameOperand(w, out, "unset");
  } else if (name === "getopts") {
    if (args[1]) nameOperand(args[1], out, "getopts");
  } else if (name === "let") {
    out.unsure.push("let evaluates arithmetic, which can run commands through array subscripts");
  } else if (name === "trap") {
    const { rest } = split(args, "");
    const action = rest[0];
    if (rest.length >= 2 && action.value !== "-" && action.value !== "") {
      out.unsure.push("trap keeps a command to run later (at exit or on a signal)");
      out.script = action.value;
    }
  } else if (name === "alias") {
    const defs = args.filter((w) => w.value.includes("="));
    if (defs.length > 0) {
      out.unsure.push("alias changes what a later command name runs");
      out.script = defs.map((w) => w.value.slice(w.value.indexOf("=") + 1)).join("\n");
    }
  } else if (name === "set") {
    setOptions(args, out);
  } else if (name === "shopt") {
    if (split(args, "").opts.some(([o]) => o === "s" || o === "u")) out.unsure.push("shopt changes how bash expands or reads later commands");
  } else if (name === "enable") {
    if (args.some((w) => !/^-[pas]+$/.test(w.value))) out.unsure.push("enable turns builtins off (so a program of that name runs instead) or loads new ones from a file");
  } else if (name === "hash") {
    if (split(args, "pd").opts.some(([o]) => o === "p")) out.unsure.push("hash -p makes a command name run another program");
  } else if (name === "complete" || name === "compgen") {
    if (split(args, "AGWXPSCFo").opts.some(([o]) => o === "C" || o === "F")) out.unsure.push(`${name} -C/-F runs a command to generate completions`);
  } else if (name === "fc") {
    if (!split(args, "e").opts.some(([o]) => o === "l")) out.unsure.push("fc runs commands from the history, or an editor");
  } else if (name === "bind") {
    if (split(args, "mqufrx").opts.some(([o]) => o === "x")) out.unsure.push("bind -x binds a command to a key");
  } else if (name === "history") {
    if (split(args, "d").opts.some(([o]) => "awrn".includes(o))) out.unsure.push("history -a/-w/-r/-n reads or writes a history file");
  } else return null;
  return out;
}

/** `test -v NAME` / `[ -v NAME ]` (and `[[ -v NAME ]]`, see parser.ts): the name's subscript is
 *  evaluated; a name known only at run time may hold one. (`-eq` and friends in `test` and `[`
 *  compare integers only — checked against bash — unlike `[[ ]]`.) */
export function testOperands(args: Word[], out: { unsure: string[] }): void {
  for (let i = 0; i + 1 < args.length; i++) {
    if (args[i].value !== "-v" || args[i].quoted) continue;
    const w = args[i + 1];
    if (w.expanded) out.unsure.push("-v tests a variable named only at run time (its subscript can run commands)");
    else if (w.value.includes("[")) out.unsure.push(`-v: ${SUBSCRIPT}`);
  }
}

function setOptions(args: Word[], out: BuiltinEffects): void {
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value;
    if (v === "--" || v === "-" || !/^[-+]./.test(v)) return; // the rest are positional parameters
    for (let j = 1; j < v.length; j++) {
      if (v[j] === "o") {
        const risk = setOptionRisk(args[++i]?.value ?? "");
        if (risk) out.unsure.push(risk);
        break;
      }
      const risk = setLetterRisk(v[0], v[j]);
      if (risk) out.unsure.push(risk);
    }
  }
}

/** Why `set -o NAME` (or `bash -o NAME`) changes how later commands are read or run; null when harmless. */
export function setOptionRisk(name: string): string | null {
  return SAFE_SET_NAMES.has(name) ? null : `set -o ${name} changes how bash reads or runs later commands`;
}

/** Why `set -X` / `set +X` changes how later commands are read or run; null when harmless. */
export function setLetterRisk(sign: string, letter: string): string | null {
  return SAFE_SET_LETTERS.has(letter) ? null : `set ${sign}${letter} changes how bash reads or runs later commands`;
}
