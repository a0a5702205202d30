// What the shell parser hands the permission decision.

import type { Word } from "./lexer.js";

export interface Redirect {
  op: string;
  fd: string | null;
  /** The file (or fd, for `>&2`); null when missing. */
  target: Word | null;
  /** Opens a file for writing (`>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `>&FILE`). */
  write: boolean;
  /** Opens a file for reading (`<`, `<>`). */
  read: boolean;
}

export interface CwdSet {
  dirs: string[];
  /** A `cd` we could not resolve happened: relative paths cannot be placed. */
  unknown: boolean;
}

export interface ShellPart {
  /** The command as it runs (wrappers peeled), first word its name; empty for a bare redirect or assignment. */
  words: Word[];
  /** The command name for matching: quotes removed, directories stripped (`/bin/rm` → `rm`). */
  name: string;
  /** The command word as written after quote removal (`/bin/rm`). */
  commandWord: string;
  qualified: boolean;
  argsUnknown: boolean;
  assigns: string[];
  redirects: Redirect[];
  /** Files written by wrappers (`time -o FILE`). */
  writes: Word[];
  /** Files read by wrappers (`xargs -a FILE`). */
  reads: Word[];
  cwd: CwdSet;
  unsure: string[];
  escalated: boolean;
  /** `command -v x`: only looks a name up. */
  lookup: boolean;
  /** For `cd`/`pushd`: the folders it may change to (null: cannot tell). */
  cdTargets?: string[] | null;
  /** Wrappers and shells this part was found inside (`bash -c`, `eval`, `xargs`…). */
  via: string[];
  text: string;
}

export interface ParsedShell {
  parts: ShellPart[];
  /** Reasons the whole line cannot be read with confidence (syntax, nesting, invisible characters). */
  unsure: string[];
}

export interface ShellContext {
  cwd: string;
  home: string;
}
