// Read-only commands without a sandbox (issue #36). Where no sandbox contains commands (macOS,
// Windows, Linux without bubblewrap, `sandbox.enabled: false`), a part no rule allows runs
// without a question when the reader can prove it changes nothing and reads no secret:
//   - the program and its options are in the read-only table (src/lib/shell/read-only.ts and
//     read-only-git.ts): no output file, no program it runs, no list of further names;
//   - it is the program on PATH, and that program lies outside the workspace (a `cat` the
//     project ships, or a `./ls`, is not the one the table describes);
//   - no assignment changes how it runs (only the harmless ones of safe-env.ts), and no word
//     expands an environment variable that could hold a credential (`echo $GITHUB_TOKEN`):
//     only a short list of harmless ones, or a name the environment does not have (a loop's);
//   - every file or folder it reads or lists lies inside the workspace (its real path; /dev/null
//     aside), is a regular file or a folder (not a FIFO or a device), and is not a secret
//     (readVerdict: the Read tool's judgement, an allow rule naming it lifts nothing here);
//   - for git: the repository's configuration names no program a read runs (git-config.ts), and
//     a command that prints history asks where history holds a secret (git-history.ts), as one
//     printing configuration asks where the configuration holds a credential;
//   - a variable it depends on is not set (LESSOPEN for less, RIPGREP_CONFIG_PATH for rg).
// What fileEffects names (redirections, grep -r's trees) is judged by decide-bash.ts as for any
// command: a redirection that writes still asks, a tree with a secret below still asks.

import { lstatSync } from "node:fs";
import { findOnPath } from "../../../lib/path-lookup.js";
import { resolveWord } from "../../../lib/effects/resolve-word.js";
import { isSafeEnv } from "../../../lib/effects/safe-env.js";
import type { Word } from "../../../lib/shell/lexer.js";
import { readOnlyProof } from "../../../lib/shell/read-only.js";
import type { FileEffects, ShellPart } from "../../../lib/shell/types.js";
import { readVerdict, type Verdict } from "../checks.js";
import { gitHistoryRead } from "./contained.js";
import { gitConfigView } from "./git-config.js";
import { canonical, fenceDirs, isWithin, type PathEnv } from "../paths.js";
import type { Rule } from "../rules.js";

const SYSTEM_BIN = /^\/(?:usr\/)?(?:local\/)?s?bin\/[^/]+$/;

/** Shell builtins in the table: bash runs its own, whatever PATH holds. */
const BUILTINS = new Set(["echo", "printf"]);

/** Wrappers that run their command as it is (their own options are the parser's to judge). */
const WRAPPERS = new Set(["xargs", "env", "nice", "timeout", "time", "command", "stdbuf", "nohup", "eval", "bash -c", "sh -c", "dash -c"]);

/** Variables that hold no credential, whose value a command may print. */
const HARMLESS_VARS = new Set([
  "HOME", "PWD", "OLDPWD", "USER", "LOGNAME", "SHELL", "PATH", "TERM", "LANG", "LANGUAGE", "HOSTNAME", "TMPDIR", "SHLVL", "UID", "EUID",
  "PPID", "RANDOM", "LINENO", "SECONDS", "BASH_VERSION", "OSTYPE", "HOSTTYPE", "MACHTYPE", "IFS", "COLUMNS", "LINES", "EDITOR", "VISUAL", "TZ",
]);

export interface ReadOnlyEnv extends PathEnv {
  historySecret?: (dir: string) => boolean;
}

/**
 * An allow when the part is proven read-only (by "read-only"), an ask naming a secret or a
 * credential it would print (by "secrets"), or null with `why` — not proven, the caller's
 * default ask stands and says why.
 */
export function readOnlyVerdict(part: ShellPart, effects: FileEffects, rules: readonly Rule[], env: ReadOnlyEnv, label: string): Verdict | { why: string } {
  if (part.unsure.length > 0) return { why: "deepcode cannot read it with confidence" };
  const wrapper = part.via.find((v) => !WRAPPERS.has(v));
  if (wrapper) return { why: `it runs through ${wrapper}` };
  const unsafe = part.assigns.filter((a) => !isSafeEnv(a));
  if (unsafe.length > 0) return { why: `it sets ${unsafe.join(", ")}` };
  if (part.cwd.unknown) return { why: "it runs in a folder known only at run time" };
  const fence = fenceDirs(env);
  const away = part.cwd.dirs.find((d) => !fence.some((f) => isWithin(canonical(d) ?? d, f)));
  if (away) return { why: `it runs in ${away}, outside the workspace` };
  const proof = readOnlyProof(part);
  if ("why" in proof) return proof;
  const program = programPath(part, env);
  if (program) return { why: program };
  const words = [...part.words, ...part.redirects.flatMap((r) => (r.target ? [r.target] : []))];
  for (const w of words) {
    const v = variableWhy(w.raw);
    if (v) return { why: v };
  }
  for (const name of proof.envUnset ?? []) if (process.env[name]) return { why: `${name} is set, and '${part.name}' would run what it names` };
  const read = [...proof.paths, ...effects.reads, ...effects.trees.map((t) => t.word)];
  for (const w of read) {
    const judged = judgeRead(w, part, rules, env);
    if (judged) return judged;
  }
  if (part.name === "git" && proof.git) {
    if (part.cwd.unknown) return { why: "git runs in a folder known only at run time" };
    for (const dir of part.cwd.dirs.length > 0 ? part.cwd.dirs : [env.root]) {
      const config = gitConfigView(dir);
      if (config.runs) return { why: config.runs };
      if (proof.git.printsConfig && config.credential) return { decision: "ask", reason: `'${label}' prints the git configuration, which holds what looks like a credential (a URL with a password, a token or an extra header)`, by: "secrets" };
    }
    const history = env.historySecret ? gitHistoryRead(part, env.root, env.historySecret) : null;
    if (history) return { decision: "ask", reason: `'${label}' needs approval: ${history.why.replace(" the sandbox hides only in the working tree", "")}`, by: "secrets" };
  }
  return { decision: "allow", reason: `'${label}' only reads files in the workspace that are not secrets (read-only without a sandbox)`, by: "read-only" };
}

/** Why the program that would run is not the one the table describes, or null. */
function programPath(part: ShellPart, env: PathEnv): string | null {
  if (BUILTINS.has(part.name) && !part.qualified) return null;
  // A path names the program itself: only the system's folders hold the programs of the table.
  if (part.qualified && !SYSTEM_BIN.test(part.commandWord)) return `'${part.commandWord}' is not a system program`;
  const found = part.qualified ? part.commandWord : findOnPath(part.name);
  if (found === null) return `'${part.name}' is not on PATH`;
  const real = canonical(found) ?? found;
  if (fenceDirs(env).some((d) => isWithin(real, d))) return `'${part.name}' would run ${real}, a file in the workspace`;
  return null;
}

/** Why a word's expansions could print a credential from the environment, or null. Command
 *  substitutions are parts of their own, judged as such. */
function variableWhy(raw: string): string | null {
  if (raw.includes("${!")) return "an indirect expansion (${!…}) names a variable only known at run time";
  for (const m of raw.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const name = m[1];
    if (!HARMLESS_VARS.has(name) && process.env[name] !== undefined) return `$${name} comes from the environment, which may hold a credential`;
  }
  return null;
}

/** A file or folder the part reads or lists: an ask about a secret, a reason it is not proven,
 *  or null when it lies in the workspace and is a plain file or folder (or is missing). */
function judgeRead(w: Word, part: ShellPart, rules: readonly Rule[], env: PathEnv): Verdict | { why: string } | null {
  if (w.value === "-") return null; // standard input
  const groups = resolveWord(w, part.cwd, env.home);
  if (groups === null) return { why: `it reads a file named only at run time (${w.raw})` };
  const fence = fenceDirs(env);
  for (const p of groups.flat()) {
    if (p === "/dev/null") continue;
    const real = canonical(p);
    if (real === null) return { why: `${p} is a symlink loop` };
    if (!fence.some((d) => isWithin(real, d))) return { why: `it reads ${p}, outside the workspace` };
    const secret = readVerdict(p, rules, env);
    if (secret && secret.decision !== "allow") return secret;
    try {
      const st = lstatSync(real);
      if (!st.isFile() && !st.isDirectory()) return { why: `${p} is not a plain file or folder (a FIFO or a device can block or be consumed)` };
    } catch {
      // missing: the program reports it and reads nothing
    }
  }
  return null;
}
