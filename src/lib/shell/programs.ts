// Options through which an allowed program runs code its allow rule does not name:
// `npm test --node-options=--require=./x.js`, `node -e …`, `git -c core.pager=…`, `python -c`,
// `make -f other.mk`, `sed 'e cmd'`, `tar --to-command=…`, `ssh -o ProxyCommand=…`. A rule for a
// program cannot know every option it takes, but these common ones are known: each makes a line
// that an allow rule let through ask, with the option named — unless the rule's own words
// include that option (`Bash(node -e:*)`, `Bash(python -m pytest:*)`), or a bare `Bash` allow
// (everything) allowed it. Deny rules are not affected. What a program does with its own
// configuration files (`package.json` scripts, a Makefile, `.git/config`) is not an option:
// docs/permissions.md says so plainly.

import type { Risk, ShellPart } from "./types.js";
import { awkRisk, sedRisk } from "./scripts.js";

// Risk lives in types.ts so scripts.ts can use it without importing this file.
export type { Risk } from "./types.js";

interface Spec {
  /** Option → why it runs code (`-e`, `--eval`; a long option matches `--name` and `--name=…`). */
  risky: Record<string, string>;
  /** Options that take a value as the next word (so that word is not the script). */
  value?: readonly string[];
  /** Options end at the first operand (an interpreter's script): later words are the script's. */
  endsAtOperand?: boolean;
  /** With no operand at all the program reads code from stdin (an interpreter). */
  stdinCode?: boolean;
}

const NODE_CODE = "loads or runs code before the script";
const interp = (risky: Record<string, string>, value: readonly string[] = []): Spec => ({ risky, value, endsAtOperand: true, stdinCode: true });

const NODE: Spec = interp(
  {
    "-e": "runs the code given on the command line", "--eval": "runs the code given on the command line",
    "-p": "runs the code given on the command line", "--print": "runs the code given on the command line",
    "-r": NODE_CODE, "--require": NODE_CODE, "--import": NODE_CODE, "--loader": NODE_CODE, "--experimental-loader": NODE_CODE,
    "--env-file": "reads environment settings (NODE_OPTIONS among them) from a file", "--env-file-if-exists": "reads environment settings from a file",
    "--inspect": "opens a debugger port that runs any code sent to it", "--inspect-brk": "opens a debugger port", "--experimental-config-file": "reads options from a file",
  },
  ["-r", "--require", "--import", "--loader", "--experimental-loader", "-e", "--eval", "-p", "--print", "--input-type", "-C", "--conditions", "--title", "--env-file", "--inspect-port", "--redirect-warnings", "--test-reporter", "--test-reporter-destination", "--watch-path", "--disable-warning", "--stack-size"],
);
const PYTHON: Spec = interp({ "-c": "runs the code given on the command line", "-m": "runs a module by name (the rule does not name it)" }, ["-c", "-m", "-W", "-X", "-Q"]);
const PERL: Spec = interp(
  { "-e": "runs the code given on the command line", "-E": "runs the code given on the command line", "-M": "loads a module", "-m": "loads a module", "-I": "loads modules from another folder", "-d": "runs under a debugger module", "-i": "edits files in place" },
  ["-I", "-M", "-m", "-x", "-0", "-l"],
);
const RUBY: Spec = interp({ "-e": "runs the code given on the command line", "-r": "loads a library", "-I": "loads libraries from another folder", "-i": "edits files in place", "-C": "runs in another folder", "-x": "runs code found after a marker" }, ["-r", "-I", "-C", "-E", "-F"]);
const PHP: Spec = interp({ "-r": "runs the code given on the command line", "-d": "sets an ini option (auto_prepend_file runs code)", "-c": "reads another php.ini", "-B": "runs code", "-R": "runs code", "-E": "runs code", "-F": "runs a file per line" }, ["-r", "-d", "-c", "-B", "-R", "-E", "-F", "-f", "-S", "-t", "-z"]);
const NPM_RISKS: Record<string, string> = {
  "--node-options": "sets node options for the scripts it runs (--require, --import load code)",
  "--script-shell": "runs the package scripts with another program",
  "--prefix": "runs the package scripts of another folder's package.json",
  "-C": "runs the package scripts of another folder's package.json",
  "--userconfig": "reads another .npmrc (which can set node-options and script-shell)",
  "--globalconfig": "reads another global npmrc (which can set node-options and script-shell)",
  "-c": "runs the command given on the command line", "--call": "runs the command given on the command line",
  "--shell": "runs another shell", "--init-module": "runs a module to initialise a package", "--onload-script": "runs a script when npm loads",
  "--editor": "runs another editor program", "--browser": "runs another browser program", "--viewer": "runs another help viewer program", "--git": "runs another program as git",
};
const NPM_SUBCOMMANDS: Record<string, string> = {
  exec: "runs a package's program (it may be downloaded first)", x: "runs a package's program (it may be downloaded first)",
  dlx: "downloads and runs a package", explore: "runs a shell in a package's folder", edit: "runs an editor", init: "runs a package to initialise a project", create: "downloads and runs a package",
};

const SPECS: Record<string, Spec> = {
  node: NODE, nodejs: NODE,
  bun: interp({ "-e": "runs the code given on the command line", "--eval": "runs the code given on the command line", "-p": "runs the code given on the command line", "--print": "runs the code given on the command line", "-r": NODE_CODE, "--preload": NODE_CODE }, ["-e", "--eval", "-p", "--print", "-r", "--preload", "--cwd"]),
  python: PYTHON, python2: PYTHON, python3: PYTHON, pypy: PYTHON, pypy3: PYTHON,
  perl: PERL, ruby: RUBY, php: PHP,
  lua: interp({ "-e": "runs the code given on the command line", "-l": "loads a library" }, ["-e", "-l"]),
  npx: { risky: { ...NPM_RISKS, "-p": "installs and runs another package", "--package": "installs and runs another package" }, value: ["-c", "--call", "-p", "--package", "--prefix", "-C"] },
  pytest: {
    risky: { "-p": "loads a plugin module", "--pyargs": "imports test packages by name", "-c": "reads another configuration file", "--config-file": "reads another configuration file", "-o": "overrides configuration options", "--override-ini": "overrides configuration options", "--pdbcls": "imports a debugger class", "--rootdir": "runs with another root folder (its conftest.py files)", "--confcutdir": "loads conftest.py files from further up" },
  },
  make: { risky: { "-f": "reads another makefile", "--file": "reads another makefile", "--makefile": "reads another makefile", "--eval": "evaluates make code given on the command line", "-E": "evaluates make code given on the command line", "-C": "runs another folder's makefile", "--directory": "runs another folder's makefile", "-I": "includes makefiles from another folder", "--include-dir": "includes makefiles from another folder" } },
  cargo: { risky: { "--config": "sets configuration (runners and wrappers run programs)", "-Z": "turns on unstable options", "--manifest-path": "builds another crate (its build.rs runs)", "-C": "runs in another folder" } },
  tar: { risky: { "--to-command": "pipes every file to a command", "--use-compress-program": "compresses through another program", "-I": "compresses through another program", "--checkpoint-action": "runs an action (exec=…) at checkpoints", "--info-script": "runs a script at each volume", "-F": "runs a script at each volume", "--new-volume-script": "runs a script at each volume", "--rsh-command": "reaches a remote archive through another program", "--rmt-command": "runs another remote tape program" } },
  rsync: { risky: { "-e": "reaches the remote through another program", "--rsh": "reaches the remote through another program", "--rsync-path": "runs another program on the remote" } },
  ssh: { risky: { "-o": "sets options (ProxyCommand, LocalCommand run programs)", "-F": "reads another configuration file (which can run programs)" } },
  scp: { risky: { "-o": "sets ssh options (ProxyCommand runs a program)", "-F": "reads another ssh configuration file", "-S": "uses another program instead of ssh" } },
  sftp: { risky: { "-o": "sets ssh options (ProxyCommand runs a program)", "-F": "reads another ssh configuration file", "-S": "uses another program instead of ssh", "-D": "runs another sftp server program" } },
  man: { risky: { "-P": "runs another pager program", "--pager": "runs another pager program", "-H": "runs a browser program", "--html": "runs a browser program", "-C": "reads another configuration file", "--config-file": "reads another configuration file" } },
  vim: { risky: { "-c": "runs an editor command", "--cmd": "runs an editor command", "-S": "sources a script", "-u": "reads another vimrc", "+": "runs an editor command" } },
  emacs: { risky: { "--eval": "evaluates lisp", "-l": "loads lisp", "--load": "loads lisp", "-f": "calls a lisp function", "--funcall": "calls a lisp function" } },
  zip: { risky: { "-TT": "tests the archive with another command", "--unzip-command": "tests the archive with another command" } },
  sort: { risky: { "--compress-program": "compresses temporary files through another program" } },
  less: { risky: { "+": "runs a command at start" } },
  more: { risky: { "+": "runs a command at start" } },
  gcc: { risky: { "-wrapper": "runs the compiler under another program", "-fplugin": "loads a compiler plugin", "-specs": "reads a specs file (which can run programs)" } },
  find: { risky: { "-delete": "deletes every file it finds" } },
  rg: {
    risky: { "--pre": "runs a program on every file it searches", "--pre-glob": "chooses the files a --pre program runs on", "--hostname-bin": "runs a program to learn the host name" },
    value: ["-e", "--regexp", "-f", "--file", "-g", "--glob", "--iglob", "-t", "--type", "-T", "--type-not", "-m", "--max-count", "-A", "-B", "-C", "-M", "-j", "-E", "-r", "--replace", "--type-add", "--sort", "--sortr", "--pre", "--pre-glob", "--hostname-bin"],
  },
  ag: { risky: { "--pager": "runs another pager program" } },
  ack: { risky: { "--pager": "runs another pager program", "--output": "evaluates an output expression" } },
  tree: { risky: { "-R": "runs tree again in every folder, writing 00Tree.html there" } },
  file: { risky: { "-C": "compiles a magic file, writing a .mgc file" } },
};
SPECS.nvim = SPECS.vi = SPECS.view = SPECS.ex = SPECS.vim;
SPECS.cc = SPECS["g++"] = SPECS.clang = SPECS.gcc;
SPECS["py.test"] = SPECS.pytest;
SPECS.gmake = SPECS.make;
for (const pm of ["npm", "pnpm", "yarn"]) SPECS[pm] = { risky: NPM_RISKS, value: ["--prefix", "-C", "--node-options", "--script-shell", "--userconfig", "--globalconfig", "-c", "--call", "--shell", "-w", "--workspace"] };

/** `-o`, `--name`, `--name=…`; `+cmd` counts as `+`. */
function optionName(v: string): string | null {
  if (v.startsWith("+") && v.length > 1) return "+";
  if (!v.startsWith("-") || v === "-" || v === "--") return null;
  const eq = v.indexOf("=");
  return eq < 0 ? v : v.slice(0, eq);
}

function scan(part: ShellPart, spec: Spec, out: Risk[]): void {
  const words = part.words;
  for (let i = 1; i < words.length; i++) {
    const v = words[i].value;
    if (v === "--") break;
    const name = optionName(v);
    if (name === null) {
      if (spec.endsAtOperand) break;
      continue;
    }
    if (spec.risky[name]) out.push({ at: i, why: `${name} ${spec.risky[name]}` });
    else if (/^-[^-]/.test(v) && v.length > 2) {
      // A cluster of single-letter options (`-Bc code`, `-ne '…'`, `-oProxyCommand=…`): each
      // letter counts, up to one that takes a value (the rest of the word is that value).
      for (const c of v.slice(1)) {
        const why = spec.risky[`-${c}`];
        if (why) out.push({ at: i, why: `-${c} ${why}` });
        if (why || spec.value?.includes(`-${c}`)) break;
      }
    }
    if (!v.includes("=") && spec.value?.includes(name) && (name.startsWith("--") || v.length === 2)) i++;
  }
  if (spec.stdinCode && (words.length === 1 || (words.length === 2 && words[1].value === "-"))) {
    out.push({ at: words.length, why: "runs a program read from standard input" });
  }
}

export function programRisks(part: ShellPart): Risk[] {
  if (part.words.length === 0) return [];
  const out: Risk[] = [];
  const name = /^python[0-9.]*$/.test(part.name) ? "python" : part.name;
  const spec = SPECS[name];
  if (spec) scan(part, spec, out);
  if (name === "npm" || name === "pnpm" || name === "yarn") npmSubcommand(part, out);
  if (name === "git") gitRisks(part, out);
  if (name === "make" || name === "gmake") {
    // `make test SHELL=./x CC=…`: a variable set on the command line wins over the makefile's.
    const k = part.words.findIndex((w, i) => i > 0 && /^[A-Za-z_][A-Za-z0-9_.]*\s*[:+?!]?=/.test(w.value));
    if (k > 0) out.push({ at: k, why: `make ${part.words[k].value.split("=")[0]}=… overrides a makefile variable, which can change the commands make runs` });
  }
  if (name === "sed" || name === "awk" || name === "gawk" || name === "mawk" || name === "nawk") {
    const r = name === "sed" ? sedRisk(part.words) : awkRisk(part.words);
    if (r) out.push(r);
  }
  return out;
}

function npmSubcommand(part: ShellPart, out: Risk[]): void {
  const k = part.words.findIndex((w, i) => i > 0 && optionName(w.value) === null);
  const why = k > 0 ? NPM_SUBCOMMANDS[part.words[k].value] : undefined;
  if (why) out.push({ at: k, why: `${part.name} ${part.words[k].value} ${why}` });
}

const GIT_GLOBAL: Record<string, string> = {
  "-c": "sets configuration for this run (core.pager, core.sshCommand, aliases and hooks run programs)",
  "--config-env": "sets configuration for this run (which can run programs)",
  "--exec-path": "runs git's programs from another folder",
};
const GIT_OPTIONS: Record<string, string> = {
  "--upload-pack": "runs another program for the transfer", "-u": "runs another program for the transfer",
  "--receive-pack": "runs another program on the remote", "--exec": "runs another program", "-x": "runs a command",
  "--ext-diff": "runs the external diff program from the configuration", "--textconv": "runs text conversion programs from the configuration",
  "--open-files-in-pager": "opens the matches in a program", "-O": "opens the matches in a program",
  "--extcmd": "runs a diff command", "--tool": "runs a diff or merge tool", "-t": "runs a diff or merge tool",
  "--template": "copies hooks from a template folder", "--config": "sets configuration in the new repository (which can run programs)",
};
const GIT_SUBCOMMANDS: Record<string, string> = {
  difftool: "runs a diff tool", mergetool: "runs a merge tool", "filter-branch": "runs the filters given", instaweb: "starts a web server program",
  "send-email": "runs mail programs", credential: "prints stored credentials", "credential-store": "prints stored credentials", "credential-cache": "prints stored credentials",
};

function gitRisks(part: ShellPart, out: Risk[]): void {
  const w = part.words;
  let i = 1;
  for (; i < w.length; i++) {
    const v = w[i].value;
    const name = optionName(v);
    if (name === null) break;
    if (GIT_GLOBAL[name] && (name !== "--exec-path" || v.includes("="))) out.push({ at: i, why: `git ${name} ${GIT_GLOBAL[name]}` });
    if (name === "-C" || name === "--git-dir" || name === "--work-tree") {
      const dir = v.includes("=") ? { ...w[i], value: v.slice(v.indexOf("=") + 1) } : w[i + 1];
      if (dir) out.push({ at: i, why: `git ${name} runs git in another repository, whose configuration can make git run programs`, dir });
    }
    if (!v.includes("=") && ["-c", "-C", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix"].includes(name)) i++;
  }
  const subcommand = w[i]?.value;
  if (subcommand === undefined) return;
  const sub = GIT_SUBCOMMANDS[subcommand];
  if (sub) out.push({ at: i, why: `git ${subcommand} ${sub}` });
  if (subcommand === "config" && !w.slice(i + 1).some((x) => /^(?:--get|--get-all|--get-regexp|--list|-l|get|list|--show-origin)$/.test(x.value))) {
    out.push({ at: i, why: "git config changes git's configuration, which can make git run programs (.git/config is protected)" });
  }
  if ((subcommand === "submodule" && w[i + 1]?.value === "foreach") || (subcommand === "bisect" && w[i + 1]?.value === "run")) {
    out.push({ at: i + 1, why: `git ${subcommand} ${w[i + 1].value} runs the command given` });
  }
  for (let k = i + 1; k < w.length; k++) {
    const v = w[k].value;
    if (v === "--") break;
    const name = optionName(v);
    if (name === null) continue;
    // `git grep -Ovim`, `-nO`: -O takes its program attached, and short options cluster.
    if (subcommand === "grep" && /^-[A-Za-z]*O/.test(v) && GIT_OPTIONS[name] === undefined) {
      out.push({ at: k, why: `git grep -O ${GIT_OPTIONS["-O"]}` });
      continue;
    }
    if (GIT_OPTIONS[name] === undefined) continue;
    const only = GIT_OPTION_SUBCOMMANDS[name];
    if (only === undefined || only.has(subcommand)) out.push({ at: k, why: `git ${subcommand} ${name} ${GIT_OPTIONS[name]}` });
  }
}

/** Short options that mean something else in other subcommands (`git commit -u`, `git log -t`). */
const GIT_OPTION_SUBCOMMANDS: Record<string, ReadonlySet<string>> = {
  "-u": new Set(["fetch", "clone", "ls-remote", "pull", "archive"]),
  "-x": new Set(["rebase", "difftool"]),
  "-t": new Set(["difftool", "mergetool"]),
  "-O": new Set(["grep"]),
  "--config": new Set(["clone"]),
};
