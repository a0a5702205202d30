// What the shell parser hands the permission decision.

export interface Sub {
  source: string;
  kind: "command" | "backtick" | "process";
}

export interface Word {
  value: string;
  raw: string;
  /** Contains a parameter, command or arithmetic expansion: its value is known only at run time. */
  expanded: boolean;
  /** Contains an unquoted glob character (`*`, `?`, `[`). */
  glob: boolean;
  /** Contains an unquoted brace expansion (`{a,b}`, `{1..3}`). */
  brace: boolean;
  /** Starts with an unquoted `~`. */
  tilde: boolean;
  /** Any part of it was quoted or escaped. */
  quoted: boolean;
  subs: Sub[];
  unsure: string[];
}

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

// What a command reads and writes (effects.ts, effects-programs.ts).

export interface EditEffect {
  word: Word;
  /** What writes it, for the reason shown (`the redirection '>'`, `tee`, `sed -i`). */
  how: string;
  /** Index in `part.words` of the option that makes the write (an allow rule naming it covers it). */
  option?: number;
}

export interface TreeRead {
  /** A folder read recursively (every file below it). */
  word: Word;
  how: string;
  /** Honours .gitignore (rg, git grep) rather than reading everything (grep -r, tar, cp -r). */
  gitignore: boolean;
  /** Leaves hidden files and folders out, as rg and ag do without --hidden. */
  skipHidden?: boolean;
  /** Reads only files whose base name matches one of these (`grep -r --include='*.js'`):
   *  plain patterns of names and `*` alone, so they mean the same to the program and to us. */
  names?: string[];
}

/** Files copied, moved or linked into a destination: what lands there is named by the sources
 *  (`cp -r templates/.claude .` writes `./.claude/commands/…`), judged in bash-paths.ts. */
export interface CopyEffect {
  sources: Word[];
  dest: Word;
  how: string;
  /** Folders are copied with everything below them (cp -r, mv, rsync -r). */
  recursive: boolean;
  /** The destination is a folder the sources go into (`-t DIR`, several sources). */
  into: boolean;
  /** rsync: a source ending in `/` copies what is inside it, not the folder. */
  contents?: boolean;
  /** The source is an archive unpacked into the destination (`tar -x`, `unzip`): its members
   *  land there, less `strip` leading folders. */
  archive?: { kind: "tar" | "zip"; strip: number };
}

export interface FileEffects {
  writes: Word[];
  edits: EditEffect[];
  reads: Word[];
  trees: TreeRead[];
  /** Writes that act on the name itself (rm, unlink, rmdir): a final symlink is not followed. */
  noFollow: Set<Word>;
  /** Why this command may create or move links (ln, cp -r, mv, tar -x, git checkout …), or null:
   *  a later write on the same line cannot be placed before it runs. */
  links: string | null;
  /** A file command that gets more file arguments at run time (`xargs cat`): unknown files. */
  unknownFiles: boolean;
  copies: CopyEffect[];
  /** Folders below which files named elsewhere are written (`git checkout REV -- DIR`): what a
   *  commit holds there lands there, protected paths included. */
  writesBelow: Array<{ word: Word; how: string }>;
}

/** An option through which an allowed program runs code its rule does not name (programs.ts). */
export interface Risk {
  /** Index in `part.words` of the word that carries the risk. */
  at: number;
  why: string;
  /** A folder the risk depends on: none if it lies inside the workspace (`git -C DIR`). */
  dir?: Word;
}

// What the reader proves of a part without a sandbox (read-only.ts, read-only-git.ts).

export interface ReadOnlyProof {
  /** Words naming files or folders the program opens or lists, beyond what fileEffects names
   *  (`ls DIR`, `stat F`, `wc F`, `find DIR`): the gate judges them as reads. */
  paths: Word[];
  /** Environment variables whose presence would make it run another program (LESSOPEN for
   *  less, RIPGREP_CONFIG_PATH for rg): the gate checks them in its own environment. */
  envUnset?: string[];
  /** git: the repository's configuration must be judged (programs it names, and — when
   *  `printsConfig` — credentials it holds, since the command prints them). */
  git?: { printsConfig: boolean };
}

export type ReadOnly = ReadOnlyProof | { why: string };
