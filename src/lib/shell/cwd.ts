// The working folder a command may run in, as the parser tracks it: a set of possible folders
// (`cd X` adds X — the `cd` may fail and the next command still run), or unknown after a `cd`
// that cannot be resolved. Paths are resolved later, at decision time.

import { isAbsolute, resolve } from "node:path";
import type { CwdSet, ShellPart } from "./types.js";

const MAX_DIRS = 16;

export function cloneCwd(c: CwdSet): CwdSet {
  return { dirs: [...c.dirs], unknown: c.unknown };
}

/** A `cd`/`pushd`/`popd` part: records where it may go (`part.cdTargets`) and adds it to `c`. */
export function changeDir(part: ShellPart, c: CwdSet, home: string): void {
  let targets: string[] | null = null;
  if (part.name !== "popd") {
    const args = part.words.slice(1).filter((w) => !/^-[LPe@]+$/.test(w.value));
    const a = args[0];
    if (a === undefined) targets = [home];
    else if (a.expanded || a.glob || a.brace || a.value === "-" || a.value.startsWith("+")) targets = null;
    else {
      let v = a.value;
      if (a.tilde) v = v === "~" ? home : v.startsWith("~/") ? home + v.slice(1) : "";
      if (v === "") targets = null;
      else if (isAbsolute(v)) targets = [resolve(v)];
      else targets = c.unknown ? null : c.dirs.map((d) => resolve(d, v)); // logical, like bash's cd
    }
  }
  part.cdTargets = targets;
  if (targets === null) c.unknown = true;
  else for (const t of targets) if (!c.dirs.includes(t)) c.dirs.push(t);
  if (c.dirs.length > MAX_DIRS) c.unknown = true;
}
