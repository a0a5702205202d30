// Options whose value is a shell command the program runs (`split --filter='…'`, `tar
// --to-command=…`, `rsync -e …`, `ssh -o ProxyCommand=…`, `git -c core.pager=…`): the parser
// reads each as a command line of its own, so deny rules see what it runs and the command needs
// its own allow, as for `bash -c`. (Under an allow rule for the program, programs.ts also asks
// for the option itself.) And words a glob becomes that the program would take as options: a
// file the repository ships named `-r` or `--output=x` turns `grep x *` into something else.

import { readdirSync } from "node:fs";
import { globToRegExp } from "../glob-match.js";
import type { Word } from "./lexer.js";
import { gitSubcommand } from "./long-options.js";
import type { CwdSet } from "./types.js";

export interface CommandString {
  source: string;
  how: string;
  /** Its text is only known at run time. */
  expanded: boolean;
}

interface Found {
  value: string;
  expanded: boolean;
}

/** Values of `--name=V`, `--name V`, `-xV`, `-x V` (long names are spelled out already). */
function values(words: Word[], short: string, long: readonly string[], from = 1): Found[] {
  const out: Found[] = [];
  for (let i = from; i < words.length; i++) {
    const v = words[i].value;
    if (v === "--") break;
    const eq = v.indexOf("=");
    if (v.startsWith("--")) {
      const name = v.slice(2, eq < 0 ? undefined : eq);
      if (!long.includes(name)) continue;
      const w = eq < 0 ? words[++i] : words[i];
      if (w) out.push({ value: eq < 0 ? w.value : v.slice(eq + 1), expanded: w.expanded });
    } else if (/^-[A-Za-z]/.test(v) && short !== "") {
      const j = [...v.slice(1)].findIndex((c) => short.includes(c));
      if (j < 0) continue;
      const glued = v.slice(j + 2);
      const w = glued === "" ? words[++i] : words[i];
      if (w) out.push({ value: glued === "" ? w.value : glued, expanded: w.expanded });
    }
  }
  return out;
}

const GIT_CONFIG_COMMANDS = /^(?:core\.(?:pager|editor|sshcommand|fsmonitor|askpass)|sequence\.editor|diff\.external|diff\.[^.]+\.(?:command|textconv)|merge\.[^.]+\.driver|filter\.[^.]+\.(?:clean|smudge|process)|pager\.[^.]+|gpg\.(?:[^.]+\.)?program|credential\.helper|alias\.[^.]+|uploadpack\.packobjectshook|core\.hookspath)$/i;

/** Shell commands an option of this part runs. */
export function commandStrings(name: string, words: Word[]): CommandString[] {
  const found: Array<Found & { how: string }> = [];
  const add = (how: string, list: Found[], map: (v: string) => string | null = (v) => v): void => {
    for (const f of list) {
      const source = map(f.value);
      if (source !== null) found.push({ value: source, expanded: f.expanded, how });
    }
  };
  switch (name) {
    case "split":
      add("split --filter", values(words, "", ["filter"]));
      break;
    case "tar":
    case "gtar":
      add("tar --to-command", values(words, "", ["to-command", "rsh-command", "rmt-command"]));
      add("tar -I", values(words, "IF", ["use-compress-program", "info-script", "new-volume-script"]));
      add("tar --checkpoint-action", values(words, "", ["checkpoint-action"]), (v) => (/^exec=/.test(v) ? v.slice(5) : null));
      break;
    case "sort":
      add("sort --compress-program", values(words, "", ["compress-program"]));
      break;
    case "rsync":
      add("rsync -e", values(words, "e", ["rsh", "rsync-path"]));
      break;
    case "ssh":
    case "scp":
    case "sftp":
      add(`${name} -o`, values(words, "o", []), (v) => {
        const m = /^\s*(?:ProxyCommand|LocalCommand|KnownHostsCommand)\s*[= ]\s*(.*)$/is.exec(v);
        return m ? m[1] : null;
      });
      break;
    case "git": {
      const sub = gitSubcommand(words);
      add("git -c", values(words.slice(0, sub < 0 ? words.length : sub), "c", ["config-env"]), (v) => {
        const eq = v.indexOf("=");
        if (eq < 0 || !GIT_CONFIG_COMMANDS.test(v.slice(0, eq))) return null;
        const value = v.slice(eq + 1);
        return /^alias\./i.test(v) ? (value.startsWith("!") ? value.slice(1) : null) : value.replace(/^!/, "");
      });
      break;
    }
  }
  return found.map((f) => ({ source: f.value, how: f.how, expanded: f.expanded }));
}

/** At most this many names are looked at in a folder a glob is matched in. */
const MAX_NAMES = 5_000;

/**
 * Files whose names a program would read as options, found by matching each glob word of the
 * command that lies in the working folder itself (`*`, `*.md`, `-?`) against that folder now, as
 * bash will just before running. A glob into another folder (`src/*`) yields `src/…`: no option;
 * nor does a glob after `--`.
 */
export function optionLikeMatches(words: Word[], cwd: CwdSet): string[] {
  const out: string[] = [];
  const end = words.findIndex((w, k) => k > 0 && w.value === "--");
  for (const w of words.slice(1, end < 0 ? undefined : end)) {
    if (!w.glob || w.expanded || w.brace || w.value.includes("/")) continue;
    if (cwd.unknown) {
      out.push(`${w.value} (matched in a folder known only at run time)`);
      continue;
    }
    const re = globToRegExp(w.value, { dot: false });
    for (const dir of cwd.dirs) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue; // no such folder: the word stays as written
      }
      if (names.length > MAX_NAMES) {
        out.push(`${w.value} (a folder too large to look through)`);
        break;
      }
      for (const n of names) if (n.startsWith("-") && re.test(n)) out.push(n);
    }
  }
  return [...new Set(out)];
}
