// The core answer of `tool.effects`: the files a tool call would write, before it runs — what
// checkpoints save first, and what tells plan mode a shell command only looks.
//
//   Write, Edit     their `file_path`; NotebookEdit its `notebook_path`. WebFetch: nothing.
//   (any write)     and the folders above a written path that do not exist yet (created with it).
//   a read-only tool  nothing (readOnly).
//   Bash            the shell reader's file effects (src/lib/shell/effects.ts): the operands
//                   of file commands (rm, cp, mv, touch, mkdir, tee, dd of=…), redirections
//                   (`> f`, `2>> f`, `&> f`), `sed -i`, `sort -o`, `find -fprint`; each word
//                   resolved as bash would, from the folder each part runs in. A part whose
//                   program is not one the reader knows completely is named in `unknown`
//                   (npm, make, git checkout, a script…): checkpoints cannot see what it does.
//   any other tool  unknown (a plugin's or an MCP server's side effects are its own).
//
// `readOnly` for Bash is deliberately narrow: every part a program of READERS (or a harmless
// builtin) with no write, nothing the parser is unsure of, no option that runs other code, and
// not inside a wrapper (`bash -c`, `xargs`, `find -exec`), no variable assigned. A reader's write
// options and operands (`xxd IN OUT`, `tree -o F`, `less -o F`) are file effects, its options
// that run a program (`rg --pre`, `git grep -O`) are program risks (src/lib/shell/programs.ts). Plan mode lets only such commands
// through; anything else is a change until shown otherwise.

import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { JsonValue, ToolEffects, ToolSpec } from "../../contract/index.js";
import { resolvePath } from "../paths.js";
import { fileEffects } from "../shell/effects.js";
import { parseShell, type ShellPart } from "../shell/parser.js";
import { programRisks } from "../shell/programs.js";
import { resolveWord } from "./resolve-word.js";
import { isSafeEnv } from "./safe-env.js";

export interface EffectsEnv {
  root: string;
  /** Where a shell command starts (the Bash tool's persistent folder). */
  cwd: string;
  home: string;
  /** The tool's spec, when it is registered. */
  spec?: ToolSpec;
}

/** Programs whose every file write the reader names (their operands, their write options). */
const WRITERS = new Set(["rm", "rmdir", "unlink", "shred", "touch", "mkdir", "truncate", "chmod", "chown", "chgrp", "cp", "mv", "install", "ln", "link", "tee", "dd", "sed", "sort"]);

/** Programs that only read (with the conditions in readsOnly). */
const READERS = new Set([
  "cat", "tac", "nl", "less", "more", "diff", "cmp", "paste", "comm", "join", "rev", "expand", "unexpand", "column", "zcat", "bzcat", "xzcat", "zstdcat", "strings",
  "head", "tail", "fold", "fmt", "pr", "od", "xxd", "hexdump", "base64", "base32", "sort", "cut", "tr", "grep", "egrep", "fgrep", "rg", "ag", "ack", "jq", "sed",
  "ls", "wc", "stat", "file", "du", "df", "tree", "which", "type", "echo", "printf", "pwd", "true", "false", ":", "test", "[", "[[", "date", "basename", "dirname",
  "realpath", "readlink", "whoami", "id", "uname", "printenv", "nproc", "cd", "pushd", "popd", "find", "git", "seq", "sleep",
]);

/** Programs that are not read-only (curl reaches a host) but whose every file write is named by
 *  fileEffects (effects-programs.ts), unless a config file may name more. */
const NAMED_WRITES = new Set(["curl"]);

/** git subcommands that only read (without an output file option). */
const GIT_READS = new Set(["status", "log", "diff", "show", "blame", "ls-files", "ls-tree", "rev-parse", "grep", "describe", "shortlog", "cat-file", "rev-list"]);

/** `git branch` options that only list (with no other word, `git branch` creates or deletes nothing). */
const GIT_BRANCH_LISTS = new Set(["--show-current", "--list", "-l", "-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "--no-color"]);

export function toolEffects(tool: string, input: Record<string, JsonValue>, env: EffectsEnv): ToolEffects {
  if (env.spec?.readOnly) return { writes: [], unknown: [], readOnly: true };
  if ((tool === "Write" || tool === "Edit") && typeof input.file_path === "string") {
    return { writes: withMissingParents([resolvePath(env.root, input.file_path)]), unknown: [], readOnly: false };
  }
  if (tool === "NotebookEdit" && typeof input.notebook_path === "string") return { writes: [resolvePath(env.root, input.notebook_path)], unknown: [], readOnly: false };
  // It asks before reaching a host, yet writes nothing here (plan mode lets it look things up).
  if (tool === "WebFetch") return { writes: [], unknown: [], readOnly: true };
  if (tool === "Bash" && typeof input.command === "string") return bashEffects(input.command, env);
  return { writes: [], unknown: [`${tool}: deepcode cannot see which files it changes`], readOnly: false };
}

export function bashEffects(command: string, env: Pick<EffectsEnv, "cwd" | "home">): ToolEffects {
  const parsed = parseShell(command, { cwd: env.cwd, home: env.home });
  const writes = new Set<string>();
  const unknown = parsed.unsure.map((u) => `deepcode cannot read the command with confidence (${u})`);
  let readOnly = unknown.length === 0;
  for (const part of parsed.parts) {
    const fx = fileEffects(part);
    const written = [...fx.writes, ...fx.edits.map((e) => e.word)];
    for (const w of written) {
      const groups = resolveWord(w, part.cwd, env.home);
      if (groups === null) unknown.push(`${part.name || "a redirection"} writes a file named only at run time (${w.raw})`);
      else for (const p of groups.flat()) writes.add(resolve(p));
    }
    if (fx.unknownFiles) unknown.push(`${part.name}: the files it gets come from its input`);
    const what = knownWrites(part);
    if (what) unknown.push(what);
    // A known program made to run another one (`rg --pre ./x`, `git grep -O./x`, `PAGER=./x git
    // log`): what that one writes is not the reader's to name.
    else if (part.words.length > 0) {
      for (const r of programRisks(part)) unknown.push(`${part.name}: ${r.why}`);
      const set = part.assigns.filter((a) => !isSafeEnv(a));
      if (set.length > 0) unknown.push(`${part.name}: ${set.join(", ")} set for it can make it run another program`);
    }
    if (written.length > 0 || what || !readsOnly(part)) readOnly = false;
  }
  return { writes: withMissingParents([...writes]), unknown, readOnly };
}

/** The paths, and the folders above them that do not exist yet: a write that creates its
 *  parents (`mkdir -p a/b`, Write into a new folder) creates those too. */
function withMissingParents(paths: string[]): string[] {
  const out = new Set(paths);
  for (const p of paths) {
    for (let d = dirname(p); d !== dirname(d) && !existsSync(d); d = dirname(d)) out.add(d);
  }
  return [...out];
}

/** Why the reader cannot list what this part writes, or null when it can. */
function knownWrites(part: ShellPart): string | null {
  if (part.words.length === 0) return null; // a bare redirection or assignment: its writes are named
  const name = part.name;
  const args = part.words.slice(1).map((w) => w.value);
  if (name === "find" && args.some((a) => /^-(?:delete|exec|execdir|ok|okdir)$/.test(a))) return `find ${args.find((a) => /^-(?:delete|exec)/.test(a))}: the files it changes are not listed`;
  if (name === "git") {
    const sub = args.find((a) => !a.startsWith("-"));
    if (sub && GIT_READS.has(sub) && !args.some((a) => a.startsWith("--output"))) return null;
    if (sub === "branch" && args.slice(args.indexOf(sub) + 1).every((a) => GIT_BRANCH_LISTS.has(a))) return null; // listing, not creating or deleting
    return `git ${sub ?? ""}: which files it changes is not known`.replace(" :", ":");
  }
  if (WRITERS.has(name) || READERS.has(name)) return null;
  if (NAMED_WRITES.has(name) && !args.some((a) => /^(?:-[A-Za-z]*K|--config\b)/.test(a))) return null;
  return `${name}: deepcode cannot see which files it changes`;
}

/** The part only reads: a known reader, run directly, with no option that runs other code. */
function readsOnly(part: ShellPart): boolean {
  // An assignment, before a command (`GIT_EXTERNAL_DIFF=./x git diff`, `PAGER=…`, `LESSOPEN=…`)
  // or alone (the Bash tool's shell keeps it, and an exported name such as PATH stays
  // exported), can make a reader run another program: never read-only.
  if (part.assigns.length > 0) return false;
  if (part.words.length === 0) return part.redirects.every((r) => !r.write);
  if (!READERS.has(part.name) || part.via.length > 0 || part.unsure.length > 0 || part.escalated) return false;
  if (part.redirects.some((r) => r.write)) return false;
  if (programRisks(part).length > 0) return false;
  if (part.name === "git" || part.name === "find") return knownWrites(part) === null;
  if (part.name === "sort") return !part.words.some((w) => /^-[A-Za-z]*o|^--output/.test(w.value));
  if (part.name === "sed") return !part.words.some((w) => /^-[A-Za-z]*i|^--in-place/.test(w.value));
  return true;
}
