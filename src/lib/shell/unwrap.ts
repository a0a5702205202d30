// Wrappers that run another command: `nohup`, `time`, `timeout N`, `nice`, `env VAR=…`,
// `command`, `builtin`, `exec`, `setsid`, `stdbuf`, `sudo`/`doas`, `xargs`, and shells given a
// script (`bash -c '…'`, `sh -c`, `zsh -c`) or `eval`. A permission rule is about the command
// that finally runs, so the wrapper is peeled off and the inner command is what gets matched.
// An option we do not know makes the result unsure: we cannot tell whether it takes a value,
// so we cannot tell which word is the command.

import { setOptionRisk, setLetterRisk } from "./builtins.js";
import { plainWord, type Word } from "./lexer.js";
import { wrapperLong } from "./long-options.js";

export interface Unwrapped {
  /** The command that runs, first word is its name; empty when the wrapper runs nothing. */
  words: Word[];
  /** Variables assigned for the command (`env A=1 cmd`). */
  assigns: string[];
  /** The command gets more arguments at run time (xargs, find -exec). */
  argsUnknown: boolean;
  /** Runs with raised privileges (sudo, doas). */
  escalated: boolean;
  /** Files the wrappers themselves write (`time -o FILE`, `flock FILE`, `script FILE`). */
  writes: Word[];
  /** Files the wrappers themselves read (`xargs -a FILE`). */
  reads: Word[];
  unsure: string[];
  /** The wrappers peeled off, outermost first, for messages. */
  via: string[];
  /** A script to analyse as shell code: `bash -c '…'` (new shell) or `eval …` (this shell). */
  script?: { source: string; sameShell: boolean };
  /** `command -v x`: a lookup, not a run. */
  lookup?: boolean;
}

export const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "ash", "mksh", "busybox-sh", "rbash", "yash", "posh", "lksh", "oksh", "loksh", "pdksh", "ksh93"]);

interface OptSpec {
  /** Short options that take a value (`-n 5` or `-n5`). */
  arg?: string;
  /** Short options without a value. */
  flag?: string;
  longArg?: string[];
  longFlag?: string[];
  /** `-NUM` is a flag (nice -10). */
  numeric?: boolean;
}

const SPECS: Record<string, OptSpec> = {
  nohup: {},
  builtin: {},
  time: { arg: "fo", flag: "pavq", longArg: ["format", "output"], longFlag: ["append", "verbose", "quiet", "portability"] },
  command: { flag: "pvV" },
  exec: { arg: "a", flag: "cl" },
  nice: { arg: "n", longArg: ["adjustment"], numeric: true },
  timeout: { arg: "sk", flag: "v", longArg: ["signal", "kill-after"], longFlag: ["preserve-status", "foreground", "verbose"] },
  env: { arg: "uCS", flag: "i0v", longArg: ["unset", "chdir", "split-string"], longFlag: ["ignore-environment", "null", "debug"] },
  setsid: { flag: "cfw", longFlag: ["ctty", "fork", "wait"] },
  stdbuf: { arg: "ioe", longArg: ["input", "output", "error"] },
  sudo: {
    arg: "ugChprtUTDR",
    flag: "AbEHknPSBNsie",
    longArg: ["user", "group", "close-from", "host", "prompt", "role", "type", "other-user", "command-timeout", "chdir", "chroot"],
    longFlag: ["askpass", "background", "preserve-env", "set-home", "reset-timestamp", "non-interactive", "preserve-groups", "stdin", "bell", "no-update", "shell", "login", "edit"],
  },
  doas: { arg: "uC", flag: "ns" },
  busybox: {},
  toybox: {},
  // util-linux's personality wrappers: `setarch ARCH [options] [command]`, `linux64 [command]`.
  setarch: { flag: "vRFZLXBIST3", longFlag: ["verbose", "addr-no-randomize", "fdpic-funcptrs", "mmap-page-zero", "addr-compat-layout", "read-implies-exec", "32bit", "short-inode", "whole-seconds", "sticky-timeouts", "3gb", "4gb", "uname-2.6"] },
  chronic: { flag: "ev" },
  unbuffer: { flag: "p" },
  ionice: { arg: "cnpPu", flag: "tV", longArg: ["class", "classdata", "pid", "pgid", "uid"], longFlag: ["ignore"] },
  flock: { arg: "wEc", flag: "sexunoFv", longArg: ["timeout", "wait", "conflict-exit-code", "command"], longFlag: ["shared", "exclusive", "unlock", "nonblock", "nb", "close", "no-fork", "verbose"] },
  script: { arg: "cEoTBIO", flag: "aefqm", longArg: ["command", "echo", "output-limit", "log-timing", "log-io", "log-in", "log-out", "logging-format"], longFlag: ["append", "return", "flush", "force", "quiet"] },
  watch: { arg: "nqs", flag: "bcCegtwrpx", longArg: ["interval", "equexit", "shell"], longFlag: ["beep", "color", "no-color", "differences", "errexit", "chgexit", "exec", "no-title", "no-wrap", "no-rerun", "precise"] },
  xargs: {
    arg: "adEILnPs",
    flag: "0rtpxo",
    longArg: ["arg-file", "delimiter", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"],
    longFlag: ["null", "no-run-if-empty", "verbose", "interactive", "exit", "open-tty", "show-limits", "eof", "replace"],
  },
};

interface Scanned {
  rest: Word[];
  /** Options seen, with their values (an empty word for flags). */
  opts: Array<[string, Word]>;
  unknown: string[];
}

function scanOptions(program: string, ws: Word[], spec: OptSpec, optionalGlued = ""): Scanned {
  const opts: Array<[string, Word]> = [];
  const empty = plainWord("");
  const part = (w: Word, value: string): Word => ({ ...w, value, raw: value });
  const unknown: string[] = [];
  let i = 0;
  while (i < ws.length) {
    const v = ws[i].value;
    if (ws[i].expanded && v.startsWith("$")) {
      unknown.push(v);
      i++;
      continue;
    }
    if (v === "--") {
      i++;
      break;
    }
    if (!v.startsWith("-") || v === "-") break;
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const written = eq < 0 ? v.slice(2) : v.slice(2, eq);
      // `timeout --sig=KILL`: the wrapper reads any unique prefix (long-options.ts).
      const name = wrapperLong(program, [...(spec.longArg ?? []), ...(spec.longFlag ?? [])], written) ?? written;
      if (spec.longArg?.includes(name)) {
        if (eq >= 0) opts.push([name, part(ws[i], v.slice(eq + 1))]);
        else opts.push([name, ws[++i] ?? empty]);
      } else if (spec.longFlag?.includes(name)) opts.push([name, eq < 0 ? empty : part(ws[i], v.slice(eq + 1))]);
      else unknown.push(v);
      i++;
      continue;
    }
    if (spec.numeric && /^-[0-9]+$/.test(v)) {
      opts.push(["n", part(ws[i], v.slice(1))]);
      i++;
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const c = v[j];
      if (spec.arg?.includes(c)) {
        const glued = v.slice(j + 1);
        opts.push([c, glued !== "" ? part(ws[i], glued) : (ws[++i] ?? empty)]);
        break;
      }
      if (optionalGlued.includes(c)) {
        opts.push([c, part(ws[i], v.slice(j + 1))]);
        break;
      }
      if (spec.flag?.includes(c)) opts.push([c, empty]);
      else unknown.push(`-${c}`);
    }
    i++;
  }
  return { rest: ws.slice(i), opts, unknown };
}

/** `env` takes every leading word with a `=` as an assignment, whatever its name. */
const ENV_ASSIGN = /^[^=]+=/;

/** Programs that run another command given on their command line, which deepcode does not
 *  follow (their options are many and odd): the line asks, so a deny rule cannot be bypassed
 *  through them and an allow rule for them does not vouch for what they run. */
const RUNS_ANOTHER = new Set([
  "strace", "ltrace", "valgrind", "gdb", "ionice", "chrt", "taskset", "numactl",
  "su", "sg", "runuser", "setpriv", "pkexec", "firejail", "unshare", "nsenter", "chroot", "systemd-run",
  "parallel", "sem", "at", "batch", "entr", "caffeinate", "faketime", "fakeroot", "proxychains", "proxychains4",
  "torsocks", "catchsegv", "cgexec", "prlimit", "xvfb-run", "dbus-run-session", "ssh-agent", "tsp",
  "coreutils", "nq", "ts", "pee", "ifne", "vipe", "expect", "rlwrap", "sshpass", "nocache", "eatmydata", "hwloc-bind", "cpulimit", "trickle",
  "tsocks", "perf", "hyperfine", "watchexec", "nodemon", "direnv", "nix-shell", "dotenv", "cross-env", "env-cmd", "ccache", "distcc", "bwrap",
  "capsh", "runcon", "chpst", "softlimit", "envdir", "setlock", "setuidgid", "tini", "dumb-init", "gosu", "su-exec", "run-parts", "start-stop-daemon",
  "daemonize", "tmux", "screen", "dtach", "abduco", "xterm", "sandbox-exec", "fish", "csh", "tcsh", "nu", "pwsh", "xonsh", "elvish", "rc", "es",
  "newgrp", "pexec", "byobu", "reptyr", "retry", "timelimit", "stdbuf-wrapper",
]);
/** `linux64 [options] [command]`: setarch under another name, with the architecture in the name. */
const PERSONALITY = new Set(["linux32", "linux64", "i386", "x86_64", "uname26", "i686", "armv7l", "aarch64", "ppc64", "s390x"]);

export function basename(p: string): string {
  const i = p.lastIndexOf("/");
  return i < 0 ? p : p.slice(i + 1);
}

/** Peel wrappers off a command (its words after any leading `VAR=x` assignments). */
export function unwrap(words: Word[]): Unwrapped {
  const out: Unwrapped = { words, assigns: [], argsUnknown: false, escalated: false, writes: [], reads: [], unsure: [], via: [] };
  for (let guard = 0; guard < 16 && out.words.length > 0; guard++) {
    const cw = out.words[0];
    if (cw.expanded || cw.glob || cw.brace) return out; // the parser reports the computed name
    const name = basename(cw.value);
    const args = out.words.slice(1);

    if (SHELLS.has(name)) return shellScript(out, name, args);
    if (name === "eval") {
      out.via.push("eval");
      if (args.some((a) => a.expanded)) out.unsure.push("eval of text expanded at run time");
      out.words = [];
      out.script = { source: args.map((a) => a.value).join(" "), sameShell: true };
      return out;
    }
    if (RUNS_ANOTHER.has(name) && args.length > 0) {
      out.unsure.push(`'${name}' runs another command, which deepcode does not follow`);
      return out;
    }
    const personality = PERSONALITY.has(name);
    const spec = SPECS[personality ? "setarch" : name];
    if (spec === undefined) return out;

    // `setarch ARCH [options] …`: the architecture comes first.
    const scanned = name === "setarch" && args[0] !== undefined && !args[0].value.startsWith("-") ? args.slice(1) : args;
    const s = scanOptions(name, scanned, spec, name === "xargs" ? "eil" : "");
    if (s.unknown.length > 0) {
      out.unsure.push(`unknown option ${s.unknown.join(" ")} of '${name}'`);
      return out;
    }
    const has = (o: string): boolean => s.opts.some(([k]) => k === o);
    out.via.push(name);
    let rest = s.rest;
    switch (name) {
      case "command":
        if (has("v") || has("V")) {
          out.lookup = true;
          out.via.pop();
          return out;
        }
        break;
      case "time":
        for (const [k, v] of s.opts) if (k === "o" || k === "output") out.writes.push(v);
        break;
      case "timeout":
        rest = rest.slice(1); // the duration
        break;
      case "setarch":
      case "linux32":
      case "linux64":
        if (rest.length === 0 && !has("list")) out.unsure.push(`${name} without a command runs a shell that reads its commands from standard input`);
        break;
      case "ionice":
        if (has("p") || has("P") || has("u") || has("pid") || has("pgid") || has("uid")) return { ...out, words: [] }; // sets running processes' priority
        break;
      case "flock": {
        // `flock FILE CMD…`, `flock FILE -c CMD`, `flock FD`: the lock file is created if missing.
        const lock = rest[0];
        if (lock === undefined) return { ...out, words: [] };
        if (/^[0-9]+$/.test(lock.value) && rest.length === 1) return { ...out, words: [] };
        out.writes.push(lock);
        rest = rest.slice(1);
        const c = s.opts.find(([k]) => k === "c" || k === "command")?.[1];
        if (rest[0]?.value === "-c" || rest[0]?.value === "--command" || c) return commandString(out, "flock -c", c ?? rest[1]);
        break;
      }
      case "script": {
        // `script [-c CMD] [FILE]`: FILE (default ./typescript) and the timing logs are written.
        out.writes.push(rest[0] ?? plainWord("typescript"));
        for (const [k, v] of s.opts) if ("TBIO".includes(k) || k.startsWith("log-")) out.writes.push(v);
        const c = s.opts.find(([k]) => k === "c" || k === "command")?.[1];
        if (c === undefined) {
          out.unsure.push("script without -c runs an interactive shell");
          return { ...out, words: [] };
        }
        return commandString(out, "script -c", c);
      }
      case "watch":
        // The command's words are joined with spaces and run by `sh -c` (unless -x/--exec).
        if (has("x") || has("exec")) break;
        if (rest.some((w) => w.expanded)) out.unsure.push("watch runs text expanded at run time as a shell command");
        return commandString(out, "watch", { ...plainWord(rest.map((w) => w.value).join(" ")) });
      case "env":
        if (has("S") || has("split-string")) out.unsure.push("env -S splits a string into a command");
        if (has("C") || has("chdir")) out.unsure.push("env -C runs the command in another folder");
        while (rest.length > 0 && ENV_ASSIGN.test(rest[0].value)) {
          const variable = rest[0].value.slice(0, rest[0].value.indexOf("="));
          if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) out.unsure.push(`env sets '${variable}', which is no variable name (BASH_FUNC_…%% defines a function for bash)`);
          out.assigns.push(variable);
          rest = rest.slice(1);
        }
        if (rest.length === 0) return out; // `env` alone prints the environment
        break;
      case "sudo":
      case "doas":
        out.escalated = true;
        if (has("s") || has("i") || has("shell") || has("login")) out.unsure.push(`${name} runs the command through a shell`);
        if (has("e") || has("edit")) out.unsure.push("sudo -e edits files as another user");
        if (has("D") || has("chdir") || has("R") || has("chroot")) out.unsure.push(`${name} runs the command in another folder`);
        if (rest.length === 0) return out;
        break;
      case "xargs":
        out.argsUnknown = true;
        for (const [k, v] of s.opts) if (k === "a" || k === "arg-file") out.reads.push(v);
        if (rest.length === 0) rest = [plainWord("echo")];
        break;
    }
    if (rest.length === 0) {
      out.words = [];
      return out;
    }
    out.words = rest;
  }
  return out;
}

/** A wrapper that runs a string as a shell command (`flock F -c CMD`, `script -c CMD`, `watch`). */
function commandString(out: Unwrapped, how: string, cmd: Word | undefined): Unwrapped {
  out.words = [];
  if (cmd === undefined) {
    out.unsure.push(`${how} without a command`);
    return out;
  }
  if (cmd.expanded) out.unsure.push(`the ${how} command is expanded at run time`);
  out.via[out.via.length - 1] = how;
  out.script = { source: cmd.value, sameShell: false };
  return out;
}

function shellScript(out: Unwrapped, name: string, args: Word[]): Unwrapped {
  let hasC = false;
  let stdin = false;
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i].value;
    if (v === "--" || v === "-") {
      stdin = v === "-";
      i++;
      break;
    }
    if (/^[-+]o$/.test(v)) {
      const risk = setOptionRisk(args[++i]?.value ?? "");
      if (risk) out.unsure.push(`${name} ${risk}`);
      continue;
    }
    if (/^[-+]O$/.test(v)) {
      out.unsure.push(`${name} ${v} sets a shell option that changes how bash expands later commands`);
      i++;
      continue;
    }
    if (/^--(?:rcfile|init-file)$/.test(v)) {
      out.unsure.push(`${name} ${v} runs another startup file`);
      i++;
      continue;
    }
    if (v === "--version" || v === "--help") return out; // prints and exits
    if (v.startsWith("--")) continue;
    if (/^[-+][A-Za-z]+$/.test(v)) {
      for (const c of v.slice(1)) {
        if (c === "c" && v.startsWith("-")) hasC = true;
        else if (c === "s") stdin = true;
        else if (!"ilrD".includes(c)) {
          const risk = setLetterRisk(v[0], c);
          if (risk) out.unsure.push(`${name} ${risk}`);
        }
      }
      continue;
    }
    break;
  }
  if (!hasC) {
    // A script file runs as the command itself (known limits); without one, commands come from stdin.
    if (stdin || args[i] === undefined) out.unsure.push(`${name} reads its commands from standard input`);
    return out;
  }
  out.via.push(`${name} -c`);
  const script = args[i];
  out.words = [];
  if (script === undefined) {
    out.unsure.push(`${name} -c without a script`);
    return out;
  }
  if (script.expanded) out.unsure.push(`the ${name} -c script is expanded at run time`);
  out.script = { source: script.value, sameShell: false };
  return out;
}
