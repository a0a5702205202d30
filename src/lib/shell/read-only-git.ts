// The git forms the reader can prove read-only (issue #36; read-only.ts is the rest of the
// table): subcommands that inspect — status, diff, log, show, blame, grep, branch and tag
// listings, stash list/show, remote -v, config reads, rev-parse … — without an option that
// writes a file (`--output`), runs a program (`--ext-diff`, `grep -O`, `--show-signature`'s gpg,
// `-p`'s pager), reads files outside the repository (`--no-index`, `blame --contents`) or
// points git elsewhere (`-C`, `-c`, `--git-dir`, `--work-tree`, `--exec-path`). What the
// repository's own configuration makes git run (core.fsmonitor, a diff driver's textconv, a
// clean filter …) is not in the words: the gate judges the configuration itself
// (src/cli/permissions/containment/git-config.ts), and whether history holds a secret (git-history.ts).

import type { Word } from "./lexer.js";
import type { ReadOnly } from "./types.js";

/** Global options that change nothing about what runs. */
const GLOBAL_OK = new Set(["--no-pager", "-P", "--no-optional-locks", "--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs"]);

/** Options denied in every subcommand (any prefix of a long one counts). */
const DENY_LONG = ["output", "ext-diff", "no-index", "show-signature", "open-files-in-pager", "contents", "ignore-revs-file", "exec", "no-exclude-standard", "paginate", "upload-pack", "receive-pack", "edit", "file", "blob"];

/** Subcommands that inspect whatever their options (beyond DENY_LONG). */
const INSPECT = new Set([
  "status", "diff", "log", "show", "whatchanged", "shortlog", "blame", "annotate", "grep", "rev-parse", "rev-list", "ls-files", "ls-tree",
  "describe", "name-rev", "merge-base", "for-each-ref", "show-ref", "count-objects", "check-ignore", "check-attr", "cat-file", "diff-tree", "diff-files", "diff-index", "cherry", "show-branch", "version",
]);

/** Listing options of `git branch` and `git tag` (anything else creates, deletes or moves). */
const LISTING = /^(?:-a|--all|-r|--remotes|-v|-vv|--verbose|-l|--list|--show-current|-i|--ignore-case|--no-color|--color(?:=.*)?|--column(?:=.*)?|--no-column|--sort=.*|--format=.*|--merged(?:=.*)?|--no-merged(?:=.*)?|--contains(?:=.*)?|--no-contains(?:=.*)?|--points-at(?:=.*)?|-n\d*|--abbrev=\d+|--no-abbrev|--omit-empty)$/;
const LISTING_VALUE = new Set(["--merged", "--no-merged", "--contains", "--no-contains", "--points-at", "--sort", "--format"]);

/** Options of `git config` that only read. */
const CONFIG_READ = /^(?:--get|--get-all|--get-regexp|--get-urlmatch|-l|--list|--show-origin|--show-scope|--name-only|-z|--null|--includes|--no-includes|--local|--global|--system|--worktree|--type=\w+|--bool|--int|--bool-or-int|--path|--expiry-date|--default=.*)$/;

export function gitReadOnly(args: Word[]): ReadOnly {
  let i = 0;
  while (i < args.length && args[i].value.startsWith("-")) {
    if (args.length === 1 && args[0].value === "--version") return { paths: [] };
    if (!GLOBAL_OK.has(args[i].value)) return { why: `'git ${args[i].value}' points git elsewhere, sets configuration or runs a pager` };
    i++;
  }
  const sub = args[i]?.value;
  const rest = args.slice(i + 1);
  if (sub === undefined) return { why: "git without a subcommand" };
  if (args.slice(0, i + 1).some((w) => w.expanded) || rest.some((w) => w.expanded && w.subs.length === 0)) return { why: "a git word known only at run time" };
  const values = rest.map((w) => w.value);
  const denied = values.find((v) => v.startsWith("--") && v.length > 3 && DENY_LONG.some((d) => d.startsWith(v.slice(2).split("=")[0])));
  if (denied) return { why: `'git ${sub} ${denied}' writes a file, runs a program or reads outside the repository` };
  const plain = { paths: [], git: { printsConfig: false } };
  if (INSPECT.has(sub)) {
    // `git grep -O` / `-Oprog` opens the matches in a program.
    if (sub === "grep" && values.some((v) => /^-[A-Za-z]*O/.test(v))) return { why: "'git grep -O' runs a program" };
    // `git cat-file --filters/--textconv` runs configured programs (judged with the config), fine.
    return plain;
  }
  if (sub === "branch" || sub === "tag") return listing(sub, values) ? plain : { why: `'git ${sub}' with these words creates, deletes or moves a ${sub}` };
  if (sub === "stash") return values[0] === "list" || values[0] === "show" ? plain : { why: "'git stash' other than list and show changes the working tree" };
  if (sub === "reflog") return values.length === 0 || values[0] === "show" || values[0].startsWith("-") ? plain : { why: `'git reflog ${values[0]}' changes the reflog` };
  if (sub === "remote") {
    const ok = values.every((v) => v === "-v" || v === "--verbose") || (values[0] === "get-url" && values.length <= 3);
    return ok ? { paths: [], git: { printsConfig: true } } : { why: "'git remote' other than -v and get-url changes remotes or reaches them" };
  }
  if (sub === "config") return configRead(values) ? { paths: [], git: { printsConfig: true } } : { why: "'git config' with these words sets configuration or reads another file" };
  if (sub === "symbolic-ref") return values.filter((v) => !v.startsWith("-")).length <= 1 && values.every((v) => !v.startsWith("-") || v === "--short" || v === "-q" || v === "--quiet") ? plain : { why: "'git symbolic-ref' with these words changes a ref" };
  return { why: `deepcode does not know 'git ${sub}' to be read-only` };
}

function listing(sub: string, values: string[]): boolean {
  let operands = 0;
  let listFlag = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v.startsWith("-")) {
      if (!LISTING.test(v)) return false;
      if (v === "-l" || v === "--list") listFlag = true;
      if (LISTING_VALUE.has(v)) i++;
    } else operands++;
  }
  // `git branch NAME` / `git tag NAME` create one; with --list the operands are patterns.
  return operands === 0 || listFlag || (sub === "branch" && values.some((v) => v.startsWith("--merged") || v.startsWith("--contains") || v.startsWith("--no-merged") || v.startsWith("--no-contains") || v.startsWith("--points-at")) && operands <= 1);
}

function configRead(values: string[]): boolean {
  // The subcommand form (git 2.46+): `git config get NAME`, `git config list`.
  if (values[0] === "get" || values[0] === "list") return values.slice(1).every((v) => !v.startsWith("-") || CONFIG_READ.test(v) || /^--(?:all|regexp|show-names)$/.test(v));
  const opts = values.filter((v) => v.startsWith("-"));
  const operands = values.filter((v) => !v.startsWith("-"));
  if (!opts.every((v) => CONFIG_READ.test(v))) return false;
  const reading = opts.some((v) => /^--get|^-l$|^--list$/.test(v));
  return reading ? operands.length <= 2 : operands.length === 1;
}
