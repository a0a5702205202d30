// Long options as the programs themselves read them. GNU getopt_long, argp (tar, man), git's
// parse-options, curl, less, Python's argparse (pytest) and npm's option parser all accept any
// unique prefix of a long option (`sed --in-pl`, `sort --outp=x`, `npm test --node-opt=…`), and
// npm also a single dash (`-node-opt=…`). The reader writes each such word out in full before
// anything else looks at it, from one table per program (long-options-table.ts), so effects.ts,
// effects-programs.ts, programs.ts and scripts.ts — and plan mode, which reads the same parts —
// only ever compare full names.
//
// An abbreviation that fits several names, or (for a program whose table is complete) a long
// option the table does not know, makes the part unsure: deepcode cannot tell what it does. Open
// tables (npm, whose unknown options only set configuration the scripts see; git subcommands;
// pytest and emacs, whose plugins add options) hold every name that matters to the reader, so an
// unknown name there leaves the word as it is: the program resolves a prefix only to a name it
// knows, and every name that runs code or touches files is in the table.

import type { Word } from "./lexer.js";
import { LONG_OPTIONS } from "./long-options-table.js";

interface Table {
  names: ReadonlySet<string>;
  /** Unknown long options are the program's business (see the header). */
  open: boolean;
  /** A single dash also starts a long option (npm), unless the word is one of these shorthands
   *  or made of these single-letter ones. */
  singleDash?: { letters: string; words: ReadonlySet<string> };
  /** Options end at the first operand (npx: later words are the command's). */
  endsAtOperand?: boolean;
}

const EXTRA: Record<string, string> = {
  // gawk is not on every system; its options from its manual.
  gawk: "assign bignum characters-as-bytes copyright csv debug dump-variables exec field-separator file gen-pot help include lint lint-old load no-optimize non-decimal-data optimize persist posix pretty-print profile re-interval sandbox source trace traditional use-lc-numeric version",
  sudo: "askpass background bell chdir chroot close-from command-timeout edit group help host list login no-update non-interactive other-user preserve-env preserve-groups prompt remove-timestamp reset-timestamp role set-home shell stdin type user validate version",
};
const OPEN: Record<string, string> = {
  pytest: "co collect-only config-file confcutdir cov cov-report capture durations exitfirst failed-first ff fixtures help import-mode last-failed lf markers maxfail new-first nf override-ini pdb pdbcls pyargs quiet rootdir showlocals stepwise sw tb trace verbose version",
  emacs: "batch chdir directory eval execute file find-file funcall insert load no-init-file no-site-file quick script user visit",
  // diff, log and show read their options by exact name, but `--no-index`, `--output` and the
  // programs they run are treated as written in any prefix: asking is the safe side.
  "git diff": "ext-diff no-ext-diff textconv no-textconv no-index output output-indicator-new",
  "git log": "ext-diff no-ext-diff textconv no-textconv output",
  "git show": "ext-diff no-ext-diff textconv no-textconv output",
};

const TABLES = new Map<string, Table>();
for (const [k, v] of Object.entries({ ...LONG_OPTIONS, ...EXTRA })) TABLES.set(k, { names: new Set(v.split(" ")), open: k.startsWith("git ") || k === "npm" });
for (const [k, v] of Object.entries(OPEN)) TABLES.set(k, { names: new Set(v.split(" ")), open: true });
const npm = TABLES.get("npm") as Table;
// npm 11's shorthands (npm's option parser prefers them to an abbreviation).
const NPM_SHORT = { letters: "dqsnacfgLlmpCSBDEOP?Hhvwy", words: new Set("enjoy-by dd ddd quiet silent verbose desc help local no porcelain readonly reg iwr ws".split(" ")) };
TABLES.set("npm", { ...npm, singleDash: NPM_SHORT });
TABLES.set("npx", { ...npm, singleDash: NPM_SHORT, endsAtOperand: true });
const ALIASES: Record<string, string> = { egrep: "grep", fgrep: "grep", gmake: "make", gtar: "tar", pnpm: "npm", yarn: "npm", "py.test": "pytest", gsed: "sed", zstdcat: "zstd", unzstd: "zstd", gunzip: "gzip", zcat: "gzip", unxz: "xz", xzcat: "xz" };

export type Resolution = { kind: "name"; name: string } | { kind: "ambiguous"; names: string[] } | { kind: "unknown" };

/** What `--name` (without dashes or value) means to a program with these names. */
export function resolveLong(names: ReadonlySet<string>, name: string): Resolution {
  if (names.has(name)) return { kind: "name", name };
  const fits = [...names].filter((n) => n.startsWith(name));
  if (fits.length === 1) return { kind: "name", name: fits[0] };
  return fits.length > 1 ? { kind: "ambiguous", names: fits } : { kind: "unknown" };
}

/** The table of a program (for git, of its subcommand), and where its own words start. */
function tableOf(name: string, words: Word[]): { table: Table; from: number; label: string } | null {
  if (name === "git") {
    const k = gitSubcommand(words);
    if (k < 0) return null;
    const key = `git ${words[k].value}`;
    const table = TABLES.get(key);
    return table ? { table, from: k + 1, label: key } : null;
  }
  const key = ALIASES[name] ?? (/^python[0-9.]*$/.test(name) ? "" : name);
  const table = TABLES.get(key);
  return table ? { table, from: 1, label: name } : null;
}

/** Index of git's subcommand in `words` (after its global options), or -1. */
export function gitSubcommand(words: Word[]): number {
  for (let i = 1; i < words.length; i++) {
    const v = words[i].value;
    if (!v.startsWith("-")) return i;
    if (["-c", "-C", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix", "--exec-path"].includes(v) && v !== "--exec-path") i++;
  }
  return -1;
}

/** Long options a program reads by unique prefix, written out in full (`--in-pl` → `--in-place`,
 *  `--outp=x` → `--output=x`): the words every later check sees. Returns why a word cannot be read. */
export function spellOutOptions(name: string, words: Word[]): { words: Word[]; unsure: string[] } {
  const found = tableOf(name, words);
  if (found === null) return { words, unsure: [] };
  const { table, from, label } = found;
  const out = [...words];
  const unsure: string[] = [];
  for (let i = from; i < out.length; i++) {
    const w = out[i];
    const v = w.value;
    if (v === "--") break;
    const long = v.startsWith("--") ? 2 : singleDashLong(table, v) ? 1 : 0;
    if (long === 0) {
      if (table.endsAtOperand && !v.startsWith("-")) break;
      continue;
    }
    const eq = v.indexOf("=");
    const written = v.slice(long, eq < 0 ? undefined : eq);
    if (written === "") continue;
    const r = resolveLong(table.names, written);
    if (r.kind === "name") {
      if (r.name !== written || long === 1) out[i] = { ...w, value: `--${r.name}${eq < 0 ? "" : v.slice(eq)}` };
    } else if (r.kind === "ambiguous") {
      unsure.push(`'${label}' reads ${v.slice(0, eq < 0 ? undefined : eq)} as any of --${r.names.slice(0, 4).join(", --")}${r.names.length > 4 ? ", …" : ""} (an ambiguous abbreviation)`);
    } else if (!table.open && long === 2) {
      unsure.push(`unknown option ${v.slice(0, eq < 0 ? undefined : eq)} of '${label}': deepcode cannot tell what it does`);
    }
  }
  return { words: out, unsure };
}

/** npm's `-node-opt=…`: a single-dash word that is neither a shorthand nor made of single letters. */
function singleDashLong(table: Table, v: string): boolean {
  const short = table.singleDash;
  if (!short || !/^-[A-Za-z][A-Za-z0-9-]+/.test(v)) return false;
  const s = v.slice(1).split("=")[0];
  if (table.names.has(s)) return true;
  return !short.words.has(s) && ![...s].every((c) => short.letters.includes(c));
}

/** A wrapper's long option (`timeout --sig=KILL`) by its full name, given the names it knows. */
export function wrapperLong(name: string, known: readonly string[], written: string): string | null {
  const table = TABLES.get(name);
  const names = new Set([...known, ...(table?.names ?? [])]);
  const r = resolveLong(names, written);
  return r.kind === "name" ? r.name : null;
}
