// Which shell parts the reader can prove change nothing (issue #36): where no sandbox contains
// commands, a part that only lists, reads or searches — and whose every file is judged by the
// gate (src/cli/permissions/containment/read-only.ts: in the workspace, not a secret) — runs without a
// question. This file is the pure half: a table of programs and, for each, the options and
// operand counts under which it writes nothing, runs no other program and reads only files its
// words name. Anything not in the table, or an option the table does not know to be harmless
// where it matters (an output file, a program to run, a file of further names), is not proven.
//
// Long options count under any prefix the program would accept (`--out` for `--output`): a
// denied long option matches every abbreviation of it.

import type { Word } from "./lexer.js";
import { operandsOf } from "./operands.js";
import { awkProgramRisk, awkRisk, sedRisk } from "./scripts.js";
import type { ReadOnly, ShellPart } from "./types.js";
import { gitReadOnly } from "./read-only-git.js";

// The proof types live in types.ts so read-only-git.ts needs nothing from this file.
export type { ReadOnly, ReadOnlyProof } from "./types.js";

/** What a program's words may be. */
interface Spec {
  /** Short options that take a value (the value is not an operand). */
  value?: string;
  /** Long options that take the next word as value. */
  longValue?: readonly string[];
  /** Short options that make it write, run a program or read a list of names. */
  deny?: string;
  /** Long options (full names) that do; every prefix of one counts. */
  denyLong?: readonly string[];
  /** What its operands are: files it reads or lists (`paths`), or not files at all (`none`). */
  operands: "paths" | "none";
  /** At most this many operands (`uniq IN OUT` writes OUT; `hostname NAME` sets it). */
  max?: number;
  /** The first operand is not a file (grep's pattern) unless a pattern option is given. */
  pattern?: string;
}

const P = (more: Omit<Spec, "operands"> = {}): Spec => ({ operands: "paths", ...more });
const N = (more: Omit<Spec, "operands"> = {}): Spec => ({ operands: "none", ...more });
const SUMS = P({ deny: "c", denyLong: ["check"] });
const GREP = P({ pattern: "ef", value: "efmABCDd", longValue: ["regexp", "file", "max-count", "after-context", "before-context", "context", "directories", "devices", "include", "exclude", "exclude-dir", "exclude-from", "label", "color", "colour", "binary-files"] });

const SPECS: Record<string, Spec> = {
  ls: P({ value: "ITw", longValue: ["ignore", "hide", "tabsize", "width", "format", "sort", "time", "time-style", "quoting-style", "indicator-style", "block-size", "color"] }),
  stat: P({ value: "c", longValue: ["format", "printf"] }),
  du: P({ value: "dBtX", longValue: ["max-depth", "block-size", "threshold", "exclude", "exclude-from", "time-style", "time"], denyLong: ["files0-from"] }),
  wc: P({ denyLong: ["files0-from"] }),
  cat: P(), tac: P({ value: "s", longValue: ["separator"] }), nl: P({ value: "bdfhilnsvw" }), rev: P(), paste: P({ value: "d", longValue: ["delimiters"] }),
  comm: P({ longValue: ["output-delimiter"] }), join: P({ value: "aejot12" }), column: P({ value: "cstnoNRHWOEJr", longValue: ["separator", "output-separator", "table-columns", "table-name", "table-order", "table-right", "table-hide", "table-wrap", "output-width"] }),
  expand: P({ value: "t", longValue: ["tabs"] }), unexpand: P({ value: "t", longValue: ["tabs"] }), fold: P({ value: "w", longValue: ["width"] }), fmt: P({ value: "wpg", longValue: ["width", "prefix", "goal"] }),
  od: P({ value: "AjNtw", longValue: ["address-radix", "skip-bytes", "read-bytes", "format", "width"] }), hexdump: P({ value: "nsefC" }), strings: P({ value: "nte", longValue: ["bytes", "radix", "encoding"] }),
  base64: P({ value: "w", longValue: ["wrap"] }), base32: P({ value: "w", longValue: ["wrap"] }), cmp: P({ value: "inI", longValue: ["ignore-initial", "bytes"] }),
  md5sum: SUMS, sha1sum: SUMS, sha224sum: SUMS, sha256sum: SUMS, sha384sum: SUMS, sha512sum: SUMS, b2sum: SUMS, cksum: SUMS,
  head: P({ value: "nc", longValue: ["lines", "bytes"] }),
  tail: P({ value: "ncs", longValue: ["lines", "bytes", "sleep-interval", "pid", "max-unchanged-stats"] }),
  cut: P({ value: "bcdf", longValue: ["bytes", "characters", "delimiter", "fields", "output-delimiter"] }),
  // diff -l (--paginate) runs pr.
  diff: P({ value: "xXIFSDCUW", longValue: ["exclude", "exclude-from", "ignore-matching-lines", "label", "from-file", "to-file", "show-function-line", "starting-file", "tabsize", "width", "horizon-lines", "color", "palette"], deny: "l", denyLong: ["paginate"] }),
  sort: P({ value: "koStT", longValue: ["key", "field-separator", "buffer-size", "parallel", "batch-size"], deny: "oT", denyLong: ["output", "temporary-directory", "compress-program", "files0-from", "random-source"] }),
  uniq: P({ value: "fsw", longValue: ["skip-fields", "skip-chars", "check-chars"], max: 1 }),
  grep: GREP, egrep: GREP, fgrep: GREP,
  rg: P({ pattern: "ef", value: "efgtTmABCMjE", longValue: ["regexp", "file", "glob", "iglob", "type", "type-not", "max-count", "max-depth", "threads", "encoding", "type-add", "sort", "sortr", "color", "colors", "context-separator", "field-match-separator", "max-columns", "path-separator"], deny: "z", denyLong: ["pre", "pre-glob", "hostname-bin", "search-zip"] }),
  file: P({ value: "mFP", longValue: ["magic-file", "separator", "parameter", "exclude", "exclude-quiet"], deny: "CzZf", denyLong: ["compile", "uncompress", "uncompress-noreport", "files-from"] }),
  tree: P({ value: "LPIH", longValue: ["filelimit", "timefmt", "sort", "charset"], deny: "oR", denyLong: ["fromfile", "output"] }),
  realpath: P({ longValue: ["relative-to", "relative-base"] }), readlink: P(),
  basename: N({ value: "s", longValue: ["suffix"] }), dirname: N(),
  echo: N(), printf: N({ deny: "v" }), seq: N({ value: "fs", longValue: ["format", "separator"] }), tr: N({ max: 2 }),
  whoami: N({ max: 0 }), id: N(), uname: N({ max: 0 }), nproc: N({ max: 0 }), arch: N({ max: 0 }), which: N(),
  hostname: N({ max: 0, deny: "bF", denyLong: ["boot", "file"] }),
  // bc's operands are programs read from files; with none it reads stdin.
  bc: N({ max: 0, value: "" }),
};

export function readOnlyProof(part: ShellPart): ReadOnly {
  const name = part.name;
  if (part.words.length === 0) return { why: "it is not a command" };
  if (part.escalated) return { why: "it raises privileges" };
  const args = part.words.slice(1);
  if (name === "git") return gitReadOnly(args);
  if (name === "find") return findProof(args, part.argsUnknown);
  const special = SPECIAL[name];
  if (special) return special(args, part);
  const spec = SPECS[name];
  if (!spec) return { why: `deepcode does not know '${name}' to be read-only` };
  const proof = bySpec(name, spec, args, part.argsUnknown);
  // rg reads options from the file RIPGREP_CONFIG_PATH names (a --pre among them) unless told not to.
  if (name === "rg" && "paths" in proof && !args.some((w) => w.value === "--no-config")) return { ...proof, envUnset: ["RIPGREP_CONFIG_PATH"] };
  return proof;
}

function bySpec(name: string, spec: Spec, args: Word[], argsUnknown: boolean): ReadOnly {
  const denied = deniedOption(args, spec);
  if (denied) return { why: `'${name} ${denied}' writes, runs another program or reads a list of further files` };
  const operands = operandsOf(args, spec.value ?? "", spec.longValue ?? []);
  if (spec.max !== undefined && (operands.length > spec.max || argsUnknown)) return { why: `'${name}' with ${operands.length > spec.max ? "these operands" : "operands given at run time"} may change something` };
  if (spec.operands === "none") return { paths: [] };
  if (argsUnknown) return { why: `'${name}' gets files named only at run time` };
  const patternGiven = spec.pattern !== undefined && args.some((w) => new RegExp(`^-[A-Za-z]*[${spec.pattern}]|^--(?:regexp|file)(?:=|$)`).test(w.value));
  return { paths: spec.pattern !== undefined && !patternGiven ? operands.slice(1) : operands };
}

/** The first option of `args` the spec denies (its word), or null. Bundled short options are
 *  read up to the first that takes a value. */
function deniedOption(args: Word[], spec: Pick<Spec, "value" | "longValue" | "deny" | "denyLong">): string | null {
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value;
    if (v === "--") return null;
    if (v.startsWith("--")) {
      const given = v.slice(2).split("=")[0];
      if (given.length > 0 && (spec.denyLong ?? []).some((d) => d.startsWith(given))) return v;
      if (!v.includes("=") && (spec.longValue ?? []).includes(given)) i++;
    } else if (v.startsWith("-") && v.length > 1) {
      for (let j = 1; j < v.length; j++) {
        if ((spec.deny ?? "").includes(v[j])) return v;
        if ((spec.value ?? "").includes(v[j])) {
          if (j + 1 === v.length) i++;
          break;
        }
      }
    }
  }
  return null;
}

/** find without actions that run, delete or write: only tests and printing to stdout. */
const FIND_DENIED = /^-(?:exec|execdir|ok|okdir|delete|fprint0?|fprintf|fls|files0-from)$/;

function findProof(args: Word[], argsUnknown: boolean): ReadOnly {
  if (argsUnknown) return { why: "'find' gets its folders at run time" };
  const bad = args.find((w) => FIND_DENIED.test(w.value));
  if (bad) return { why: `'find ${bad.value}' runs a command, deletes or writes a file` };
  const starts: Word[] = [];
  for (const w of args) {
    if (/^[-(!]/.test(w.value) && !["-H", "-L", "-P"].includes(w.value)) break;
    if (!w.value.startsWith("-")) starts.push(w);
  }
  return { paths: starts };
}

type Special = (args: Word[], part: ShellPart) => ReadOnly;

const VERSION_ONLY = (args: Word[]): boolean => args.length === 1 && ["--version", "-v", "-V", "version"].includes(args[0].value);

const SPECIAL: Record<string, Special> = {
  // `date +FMT` prints; `date MMDDhhmm` and `-s` set the clock; `-f` reads a file of dates.
  date(args) {
    if (deniedOption(args, { deny: "sf", denyLong: ["set", "file"], value: "dr", longValue: ["date", "reference"] })) return { why: "'date' with -s or -f sets the clock or reads a file" };
    const operands = operandsOf(args, "dr", ["date", "reference"]);
    return operands.every((w) => w.value.startsWith("+")) ? { paths: [] } : { why: "'date' with an operand that is not +FORMAT sets the clock" };
  },
  sed(args) {
    if (args.some((w) => /^-[A-Za-z]*i|^--in-place(?:=|$)|^-[A-Za-z]*f|^--file(?:=|$)/.test(w.value) && !w.value.startsWith("--e"))) return { why: "'sed -i' or 'sed -f' edits files or runs a script file" };
    const risk = sedRisk([{ value: "sed" } as Word, ...args]);
    return risk ? { why: `sed: ${risk.why}` } : { paths: [] };
  },
  awk: awkProof, gawk: awkProof, mawk: awkProof,
  jq(args) {
    if (deniedOption(args, { deny: "fL", denyLong: ["from-file", "rawfile", "slurpfile", "args", "jsonargs"], value: "", longValue: ["indent", "tab"] })) return { why: "'jq' with a program file, modules or files read as values" };
    const operands: Word[] = [];
    for (let i = 0; i < args.length; i++) {
      const v = args[i].value;
      if (v === "--arg" || v === "--argjson") i += 2;
      else if (v === "--indent") i++;
      else if (!v.startsWith("-") || v === "-") operands.push(args[i]);
    }
    const program = operands[0];
    if (!program) return { paths: [] };
    if (program.expanded || /\$ENV\b|\benv\b|\binput_filename\b|\bimport\b|\binclude\b|\$__prog/.test(program.value)) return { why: "the jq program reads the environment or loads other files" };
    return { paths: operands.slice(1) };
  },
  // less copies its files to a pipe; LESSOPEN would run a program on each, `+cmd` runs commands.
  less: pagerProof, more: pagerProof,
  node(args) {
    if (VERSION_ONLY(args)) return { paths: [] };
    if (args.length === 2 && (args[0].value === "--check" || args[0].value === "-c")) return { paths: [args[1]] };
    return { why: "'node' runs code (only --version and --check FILE are read-only)" };
  },
  npm(args) {
    if (VERSION_ONLY(args)) return { paths: [] };
    const [sub, ...rest] = args;
    if (sub && ["ls", "list", "ll", "la"].includes(sub.value) && rest.every((w) => !w.value.startsWith("-") || /^(?:-a|--all|--json|--long|-l|--parseable|-p|--prod|--production|--dev|--omit=\w+|--depth=\d+|--link)$/.test(w.value))) return { paths: [] };
    return { why: "only 'npm ls' and 'npm --version' are known to be read-only" };
  },
  go: (args) => (args.length === 1 && args[0].value === "version" ? { paths: [] } : { why: "only 'go version' is known to be read-only" }),
};
for (const p of ["python", "python3", "pip", "pip3", "pnpm", "yarn", "cargo", "rustc", "deno", "bun"]) {
  SPECIAL[p] = (args) => (VERSION_ONLY(args) && args[0].value !== "version" ? { paths: [] } : { why: `only '${p} --version' is known to be read-only` });
}

function awkProof(args: Word[], part: ShellPart): ReadOnly {
  if (deniedOption(args, { deny: "pdDoWf", denyLong: ["profile", "dump-variables", "debug", "pretty-print", "file", "include", "load", "exec", "source"], value: "Fv" })) return { why: `'${part.name}' with an option that writes a file or loads a program file` };
  const risk = awkRisk(part.words);
  if (risk) return { why: risk.why };
  const operands = operandsOf(args, "Fv");
  const program = operands[0];
  if (!program || program.expanded || awkProgramRisk(program.value) !== null || /\bENVIRON\b|\bPROCINFO\b/.test(program.value)) return { why: `the ${part.name} program reads the environment or cannot be read` };
  if (part.argsUnknown) return { why: `'${part.name}' gets files named only at run time` };
  // Operands `name=value` are assignments, not files.
  return { paths: operands.slice(1).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.value)) };
}

function pagerProof(args: Word[], part: ShellPart): ReadOnly {
  const bad = args.find((w) => w.value.startsWith("+") || (w.value.startsWith("-") && w.value !== "--" && !/^-[FRSXNrQi]+$/.test(w.value)));
  if (bad) return { why: `'${part.name} ${bad.value}' runs a command, writes a log or reads a key file` };
  if (part.argsUnknown) return { why: `'${part.name}' gets files named only at run time` };
  return { paths: args.filter((w) => !w.value.startsWith("-")), envUnset: ["LESSOPEN", "LESSCLOSE"] };
}
