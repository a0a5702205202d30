// Files a command reads or writes, for the commands whose arguments we understand. Redirections
// are the shell's own writes (parser.ts); this covers the common file tools, so that an allowed
// `rm`/`cp`/`tee` still cannot write outside the workspace and an allowed `cat` still asks
// before printing `~/.ssh/id_rsa`. Commands not listed here are not inspected (README: limits);
// the Bash sandbox, where available, is the boundary for what they do.

import type { Word } from "./lexer.js";
import type { ShellPart } from "./parser.js";

interface Spec {
  /** Short options that take a value. */
  arg?: string;
  /** Long options that take a value (as `--name VALUE`; `--name=VALUE` is always understood). */
  longArg?: string[];
  /** Which operands are files written: all, the last (a destination), or all (mv moves them). */
  writes?: "all" | "last";
  /** Operands other than the destination are files read (cp, install). */
  readsSources?: boolean;
  /** All operands are files read. */
  reads?: boolean;
  /** The first operand is not a file (chmod's mode, grep's pattern, sed's script). */
  skipFirst?: boolean;
  /** `-t DIR` / `--target-directory=DIR` names the destination. */
  targetOpt?: boolean;
}

const SPECS: Record<string, Spec> = {
  tee: { writes: "all" },
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
  mv: { writes: "all", arg: "S", longArg: ["suffix"], targetOpt: true },
  install: { writes: "last", readsSources: true, arg: "mogS", longArg: ["mode", "owner", "group", "suffix"], targetOpt: true },
  ln: { writes: "last", arg: "S", longArg: ["suffix"], targetOpt: true },
  cat: { reads: true },
  tac: { reads: true },
  nl: { reads: true },
  head: { reads: true, arg: "nc", longArg: ["lines", "bytes"] },
  tail: { reads: true, arg: "ncs", longArg: ["lines", "bytes", "sleep-interval", "pid"] },
  less: { reads: true },
  more: { reads: true },
  od: { reads: true, arg: "ANjtw" },
  xxd: { reads: true, arg: "cgls" },
  hexdump: { reads: true, arg: "nse" },
  strings: { reads: true, arg: "nt" },
  base64: { reads: true, arg: "w" },
  sort: { reads: true, arg: "koSt", longArg: ["key", "output", "buffer-size", "field-separator"] },
  uniq: { reads: true, arg: "fsw" },
  cut: { reads: true, arg: "bcdf", longArg: ["bytes", "characters", "delimiter", "fields"] },
  diff: { reads: true },
  cmp: { reads: true },
  source: { reads: true },
  ".": { reads: true },
  grep: { reads: true, skipFirst: true, arg: "efmABCD", longArg: ["regexp", "file", "max-count", "after-context", "before-context", "context"] },
  egrep: { reads: true, skipFirst: true, arg: "efmABC" },
  fgrep: { reads: true, skipFirst: true, arg: "efmABC" },
  rg: { reads: true, skipFirst: true, arg: "efgtTmABCM", longArg: ["regexp", "file", "glob", "type", "type-not", "max-count"] },
  jq: { reads: true, skipFirst: true, arg: "f", longArg: ["arg", "argjson", "slurpfile", "rawfile"] },
  awk: { reads: true, skipFirst: true, arg: "Ffv" },
  sed: { reads: true, skipFirst: true, arg: "ef", longArg: ["expression", "file"] },
};

export interface FileEffects {
  writes: Word[];
  reads: Word[];
  /** Writes that act on the name itself (rm, unlink, rmdir): a final symlink is not followed. */
  noFollow: Set<Word>;
}

const ON_NAME = new Set(["rm", "unlink", "rmdir"]);

export function fileEffects(part: ShellPart): FileEffects {
  const out: FileEffects = { writes: [...part.writes], reads: [], noFollow: new Set() };
  for (const r of part.redirects) {
    if (!r.target) continue;
    if (r.write) out.writes.push(r.target);
    if (r.read) out.reads.push(r.target);
  }
  const spec = part.qualified && !/^\/(?:usr\/)?(?:local\/)?s?bin\//.test(part.commandWord) ? undefined : SPECS[part.name];
  if (spec === undefined || part.words.length === 0) {
    if (part.name === "dd") for (const w of part.words.slice(1)) ddOperand(w, out);
    return out;
  }
  const operands: Word[] = [];
  let target: Word | null = null;
  let scriptGiven = false;
  let inPlace = false;
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
      if (["regexp", "expression", "file"].includes(name)) scriptGiven = true;
      if (name === "in-place") inPlace = true;
      if ((name === "file" || name === "rawfile" || name === "slurpfile") && value && spec.reads) out.reads.push(value);
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const c = v[j];
      if (part.name === "sed" && c === "i") {
        inPlace = true;
        break; // -i[SUFFIX]
      }
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
  if (part.name === "sed") {
    (inPlace ? out.writes : out.reads).push(...files);
    return out;
  }
  if (spec.reads) out.reads.push(...files);
  if (spec.writes === "all") out.writes.push(...files);
  if (ON_NAME.has(part.name)) for (const f of files) out.noFollow.add(f);
  if (target) out.writes.push(target);
  if (spec.writes === "last" && !target && files.length >= 2) out.writes.push(files[files.length - 1]);
  if (spec.readsSources) out.reads.push(...(target ? files : files.slice(0, -1)));
  return out;
}

function ddOperand(w: Word, out: FileEffects): void {
  if (w.value.startsWith("of=")) out.writes.push({ ...w, value: w.value.slice(3), tilde: w.value.startsWith("of=~") });
  if (w.value.startsWith("if=")) out.reads.push({ ...w, value: w.value.slice(3), tilde: w.value.startsWith("if=~") });
}
