// Files a command reads or writes, for the commands whose arguments we understand (sed, find,
// tar, curl and the other programs whose options decide it: effects-programs.ts), so that an
// allowed `rm`/`cp` still cannot write outside the workspace, an allowed `echo` cannot write a
// file through a redirection nobody allowed, and an allowed `cat`/`cp`/`grep -r` still asks
// before it reads `~/.ssh/id_rsa` or `.env`. Commands not listed here (and in
// effects-programs.ts) are not inspected (docs: known limits); the Bash sandbox, where
// available, is the boundary for what they do.
//
// Two kinds of write, on purpose:
// - `writes`: the operands of a program whose job is changing the files it is given (rm, cp, mv,
//   ln, touch, mkdir, chmod, install, dd of=…). Its own allow rule (`Bash(rm:*)`) allows them —
//   inside the workspace, outside protected paths, as for any write.
// - `edits`: writes no command rule names — redirections (`> X`, `2>> X`, `&> X`, `<> X`,
//   `{fd}> X`, `exec > X`), tee's files, and a write option of a program that usually only
//   reads (`sed -i`, `sort -o`, `find -fprint`, `curl -o`, `time -o`). They need what a Write or
//   Edit of that path needs: an `Edit`/`Write` rule for it, a bare `Bash` allow, an allow of the
//   exact line, or an allow rule whose own words include the option (`Bash(sed -i:*)`).

import type { Word } from "./lexer.js";
import type { FileEffects, ShellPart } from "./types.js";
import { programEffects } from "./effects-programs.js";

// The effect types live in types.ts so effects-programs.ts needs nothing from this file.
export type { CopyEffect, EditEffect, FileEffects, TreeRead } from "./types.js";

interface Spec {
  /** Short options that take a value. */
  arg?: string;
  /** Long options that take a value (as `--name VALUE`; `--name=VALUE` is always understood). */
  longArg?: string[];
  /** Which operands are files written: all, or the last (a destination). */
  writes?: "all" | "last";
  /** Operands other than the destination are files read (cp, install, ln, mv). */
  readsSources?: boolean;
  /** All operands are files read. */
  reads?: boolean;
  /** The first operand is not a file (chmod's mode, grep's pattern, sed's script). */
  skipFirst?: boolean;
  /** `-t DIR` / `--target-directory=DIR` names the destination. */
  targetOpt?: boolean;
  /** Its written files are edits (tee: a redirection in program form). */
  edits?: boolean;
}

const R: Spec = { reads: true };
const SPECS: Record<string, Spec> = {
  tee: { writes: "all", edits: true, arg: "", longArg: ["output-error"] },
  rm: { writes: "all" },
  rmdir: { writes: "all" },
  unlink: { writes: "all" },
  shred: { writes: "all", arg: "ns", longArg: ["iterations", "size", "random-source"] },
  touch: { writes: "all", arg: "dtr", longArg: ["date", "reference"] },
  mkdir: { writes: "all", arg: "m", longArg: ["mode"] },
  truncate: { writes: "all", arg: "sr", longArg: ["size", "reference"] },
  chmod: { writes: "all", skipFirst: true },
  chown: { writes: "all", skipFirst: true },
  chgrp: { writes: "all", skipFirst: true },
  cp: { writes: "last", readsSources: true, arg: "S", longArg: ["suffix"], targetOpt: true },
  mv: { writes: "all", readsSources: true, arg: "S", longArg: ["suffix"], targetOpt: true },
  install: { writes: "last", readsSources: true, arg: "mogS", longArg: ["mode", "owner", "group", "suffix"], targetOpt: true },
  ln: { writes: "last", readsSources: true, arg: "S", longArg: ["suffix"], targetOpt: true },
  link: { writes: "last", readsSources: true },
  ...Object.fromEntries(["cat", "tac", "nl", "less", "more", "diff", "cmp", "source", ".", "paste", "comm", "join", "rev", "expand", "unexpand", "column", "zcat", "bzcat", "xzcat", "zstdcat", "zless", "zmore", "strings"].map((n) => [n, R])),
  head: { reads: true, arg: "nc", longArg: ["lines", "bytes"] },
  tail: { reads: true, arg: "ncs", longArg: ["lines", "bytes", "sleep-interval", "pid"] },
  fold: { reads: true, arg: "w", longArg: ["width"] },
  fmt: { reads: true, arg: "wpg", longArg: ["width", "prefix", "goal"] },
  pr: { reads: true, arg: "hlwoNsSe", longArg: ["header", "length", "width", "indent"] },
  iconv: { reads: true, arg: "fto", longArg: ["from-code", "to-code", "output"] },
  od: { reads: true, arg: "ANjtw" },
  xxd: { reads: true, arg: "cglso" },
  hexdump: { reads: true, arg: "nsef" },
  base64: { reads: true, arg: "w" },
  base32: { reads: true, arg: "w" },
  sort: { reads: true, arg: "koSt", longArg: ["key", "output", "buffer-size", "field-separator", "compress-program"] },
  uniq: { reads: true, arg: "fsw", longArg: ["skip-fields", "skip-chars", "check-chars"] },
  shuf: { reads: true, arg: "nio", longArg: ["head-count", "input-range", "output", "random-source"] },
  sponge: { writes: "all", edits: true },
  file: { reads: true, arg: "mefFP", longArg: ["magic-file", "exclude", "exclude-quiet", "files-from", "separator", "parameter"] },
  cut: { reads: true, arg: "bcdf", longArg: ["bytes", "characters", "delimiter", "fields"] },
  grep: { reads: true, skipFirst: true, arg: "efmABCDd", longArg: ["regexp", "file", "max-count", "after-context", "before-context", "context", "directories", "devices", "include", "exclude", "exclude-dir", "label"] },
  egrep: { reads: true, skipFirst: true, arg: "efmABCd" },
  fgrep: { reads: true, skipFirst: true, arg: "efmABCd" },
  rg: { reads: true, skipFirst: true, arg: "efgtTmABCMjE", longArg: ["regexp", "file", "glob", "iglob", "type", "type-not", "max-count", "max-depth", "threads", "encoding", "replace", "type-add", "sort", "sortr", "pre"] },
  ag: { reads: true, skipFirst: true, arg: "ABCGgm", longArg: ["after", "before", "context", "file-search-regex", "max-count", "depth"] },
  ack: { reads: true, skipFirst: true, arg: "ABCgm", longArg: ["after-context", "before-context", "context", "type", "max-count"] },
  awk: { reads: true, skipFirst: true, arg: "Ffv" },
  gawk: { reads: true, skipFirst: true, arg: "FfvilE" },
  mawk: { reads: true, skipFirst: true, arg: "Ffv" },
  gzip: { reads: true, arg: "S", longArg: ["suffix"] },
  gunzip: { reads: true, arg: "S", longArg: ["suffix"] },
  bzip2: R,
  bunzip2: R,
  xz: R,
  unxz: R,
  zstd: { reads: true, arg: "o" },
};

/** Commands that may create or move links, and the reason. `cp`, `git`, `tar` are judged by
 *  their options (effects-programs.ts). */
const MAKES_LINKS: Record<string, string> = {
  ln: "ln creates links",
  link: "link creates a hard link",
  mv: "mv can move a link to a new name",
  unzip: "unzip can create links",
  cpio: "cpio can create links",
  rsync: "rsync can copy links",
  "7z": "7z can create links",
};

const ON_NAME = new Set(["rm", "unlink", "rmdir"]);
const SYSTEM_BIN = /^\/(?:usr\/)?(?:local\/)?s?bin\//;

export function fileEffects(part: ShellPart): FileEffects {
  const out: FileEffects = { writes: [], edits: [], reads: [], trees: [], noFollow: new Set(), links: null, unknownFiles: false, copies: [], writesBelow: [] };
  for (const w of part.writes) out.edits.push({ word: w, how: part.via.includes("time") ? "time -o" : "a wrapper's output file" });
  out.reads.push(...part.reads);
  for (const r of part.redirects) {
    if (!r.target) continue;
    if (r.write) out.edits.push({ word: r.target, how: `the redirection '${r.fd ?? ""}${r.op}'` });
    if (r.read) out.reads.push(r.target);
  }
  if (part.words.length === 0 || (part.qualified && !SYSTEM_BIN.test(part.commandWord))) return out;
  out.links = MAKES_LINKS[part.name] ?? null;
  const spec = SPECS[part.name];
  if (spec) operandEffects(part, spec, out);
  const known = programEffects(part, out);
  // `xargs cat`: the files come from its input. (`find -exec cat {}`: they are below find's
  // folders, which find's own effects read as trees.)
  out.unknownFiles ||= part.argsUnknown && !part.via.includes("find -exec") && (spec !== undefined || known);
  return out;
}

function operandEffects(part: ShellPart, spec: Spec, out: FileEffects): void {
  const operands: Word[] = [];
  let target: Word | null = null;
  let scriptGiven = false;
  const words = part.words.slice(1);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const v = w.value;
    if (v === "--") {
      operands.push(...words.slice(i + 1));
      break;
    }
    if (!v.startsWith("-") || v === "-") {
      operands.push(w);
      continue;
    }
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const name = eq < 0 ? v.slice(2) : v.slice(2, eq);
      const value = eq < 0 && spec.longArg?.includes(name) ? words[++i] : eq < 0 ? undefined : { ...w, value: v.slice(eq + 1) };
      if (name === "target-directory" && spec.targetOpt && value) target = value;
      if (["regexp", "expression", "file"].includes(name) && spec.skipFirst) scriptGiven = true;
      if ((name === "file" || name === "rawfile" || name === "slurpfile") && value && spec.reads) out.reads.push(value);
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const c = v[j];
      if (spec.targetOpt && c === "t") {
        target = j + 1 < v.length ? { ...w, value: v.slice(j + 1) } : (words[++i] ?? null);
        break;
      }
      if (spec.arg?.includes(c)) {
        const value = j + 1 < v.length ? { ...w, value: v.slice(j + 1) } : words[++i];
        if ((c === "e" || c === "f") && spec.skipFirst) scriptGiven = true;
        if (c === "f" && value && spec.reads) out.reads.push(value);
        break;
      }
    }
  }
  const files = spec.skipFirst && !scriptGiven ? operands.slice(1) : operands;
  if (spec.reads) out.reads.push(...files);
  const written = spec.writes === "all" ? files : spec.writes === "last" && !target && files.length >= 2 ? [files[files.length - 1]] : [];
  if (target) written.push(target);
  if (spec.edits) out.edits.push(...written.map((word) => ({ word, how: part.name })));
  else out.writes.push(...written);
  if (ON_NAME.has(part.name)) for (const f of files) out.noFollow.add(f);
  if (spec.readsSources) out.reads.push(...(target ? files : files.slice(0, -1)));
  if (spec.readsSources && (target || files.length >= 2)) {
    const dest = target ?? files[files.length - 1];
    const sources = target ? files : files.slice(0, -1);
    const recursive = part.name === "mv" || part.words.slice(1).some((w) => /^-[A-Za-z]*[rRa]|^--(?:recursive|archive)$/.test(w.value));
    const noTarget = part.words.slice(1).some((w) => /^-[A-Za-z]*T|^--no-target-directory$/.test(w.value));
    out.copies.push({ sources, dest, how: part.name, recursive: recursive && part.name !== "ln" && part.name !== "link", into: !noTarget && (target !== null || sources.length > 1) });
  }
}
