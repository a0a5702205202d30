// Where the file words of a Bash command lead, and the verdicts about them: each word is resolved
// against every folder the command may run in (a `cd` may fail), globs are expanded as bash would
// just before running, and a folder read recursively (`grep -r`, `tar c`, `cp -r`) is walked for
// the secrets below it. The verdicts about single paths are checks.ts's (shared with the file
// tools); this file only says which paths a word names.

import { lstatSync, readdirSync, statSync, type Dirent } from "node:fs";
import { basename, join, resolve } from "node:path";
import { secretFilter } from "../../builtins/grep-secrets.js";
import { gitignoreVerdict, loadGitignore, parentGitignores, type IgnoreFile } from "../../lib/gitignore.js";
import { listTar, listZip } from "./archive-list.js";
import { globMatch } from "../../lib/glob-match.js";
import { hiddenSecret, readVerdict, searchVerdict, strongest, writeVerdict, type Verdict } from "./checks.js";
import { canonical, type PathEnv } from "./paths.js";
import type { Rule } from "./rules.js";
import type { Word } from "../../lib/shell/lexer.js";
import { PROTECTED_PROJECT_PATHS } from "../../contract/protected.js";
import type { CopyEffect, TreeRead } from "../../lib/shell/effects.js";
import type { CwdSet } from "../../lib/shell/types.js";
import { resolveWord } from "../../lib/effects/resolve-word.js";

export interface PathContext {
  rules: readonly Rule[];
  env: PathEnv & { cwd: string; sandboxed?: boolean; sandboxHides?: (path: string) => boolean };
}

/**
 * The verdicts `judge` gives the paths a word names (allows dropped). `verb` words the reason
 * when the word is only known at run time. A path outside the workspace from one possible folder
 * and inside from another (a `cd` that may fail) is not certain: that fence verdict becomes an ask.
 */
export function judgeWord(w: Word, cwd: CwdSet, ctx: PathContext, verb: string, judge: (path: string) => Verdict | null): Verdict[] {
  const groups = resolveWord(w, cwd, ctx.env.home);
  if (groups === null) return [{ decision: "ask", reason: `${verb} a file named only at run time (${w.raw})`, by: "shell parser" }];
  const perFolder = groups.map((paths) => paths.map(judge).filter((v): v is Verdict => v !== null && v.decision !== "allow"));
  const fenced = perFolder.filter((vs) => vs.some((v) => v.by === "path fence")).length;
  if (fenced > 0 && fenced < perFolder.length) {
    const rest = perFolder.flat().filter((v) => v.by !== "path fence");
    return [...rest, { decision: "ask", reason: `${w.value} may be outside the workspace, depending on whether an earlier cd succeeds`, by: "path fence" }];
  }
  return perFolder.flat();
}

/** At most this many entries are looked at below a folder read recursively; beyond, it asks. */
const MAX_TREE_ENTRIES = 20_000;

/**
 * A folder read recursively reads every file below it: the secrets among them (the contract's
 * names and places, as Grep leaves them out — grep-secrets.ts — and every symlink, which may
 * lead to one) are judged as Reads (readVerdict: an allow rule naming one lifts it), and a
 * search reaching the home folder's credentials asks (searchVerdict, as for Grep). A tree too
 * large to look through asks.
 */
export function treeVerdict(dir: string, tree: Pick<TreeRead, "how" | "gitignore" | "skipHidden" | "names">, ctx: PathContext): Verdict | null {
  const { how, gitignore } = tree;
  const shown = resolve(dir); // for the reason only: `link/..` is walked as the kernel resolves it
  const wide = hiddenSecret(searchVerdict(dir, ctx.rules, ctx.env), dir, ctx.env);
  if (wide && wide.decision !== "allow") return { ...wide, reason: `${how} reads every file below ${shown}: ${wide.reason}` };
  if (wide) return null;
  const filter = secretFilter(ctx.env.root, { home: ctx.env.home, deepcodeHome: ctx.env.deepcodeHome });
  const found: string[] = [];
  const walk = { seen: 0, found, gitignore, skipHidden: tree.skipHidden === true, reason: filter.reason };
  const self = readVerdict(dir, ctx.rules, ctx.env);
  if (self && self.decision !== "allow") return self;
  if (!visit(dir, gitignore ? parentGitignores(dir) : [], walk)) {
    return { decision: "ask", reason: `${how} reads every file below ${shown}, which holds more than ${MAX_TREE_ENTRIES} entries: too many to check for secrets`, by: "secrets" };
  }
  // A symlink to a folder leads a search that follows links (grep -R, zip -r) wherever it points.
  const judge = (p: string): Verdict | null => hiddenSecret(strongest([readVerdict(p, ctx.rules, ctx.env), isLinkToFolder(p) ? searchVerdict(p, ctx.rules, ctx.env) : null].filter((v): v is Verdict => v !== null)), p, ctx.env);
  // `grep -r --include=…` opens only files whose name matches (links are kept: judged as found).
  const only = tree.names;
  const opened = only ? found.filter((p) => isLink(p) || only.some((g) => globMatch(g, basename(p), { nocase: true }))) : found;
  const verdicts = opened.map(judge).filter((v): v is Verdict => v !== null && v.decision !== "allow");
  const worst = strongest(verdicts);
  if (worst === null) return null;
  if (worst.decision === "deny") return { ...worst, reason: `${how} reads every file below ${shown}: ${worst.reason}` };
  const names = verdicts.length > 3 ? `${opened.slice(0, 3).join(", ")} and ${verdicts.length - 3} more` : opened.join(", ");
  return { decision: "ask", reason: `${how} reads every file below ${shown}, among them secrets (${names}), so it asks (${worst.reason})`, by: "secrets" };
}

interface Walk {
  seen: number;
  found: string[];
  gitignore: boolean;
  skipHidden: boolean;
  reason(abs: string): string | null;
}

/** False when the walk went past the bound. */
function visit(dir: string, stack: IgnoreFile[], walk: Walk): boolean {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return true; // not a folder (a file read as itself), or unreadable: nothing below
  }
  let here = stack;
  if (walk.gitignore && entries.some((e) => e.name === ".gitignore")) {
    const f = loadGitignore(dir);
    if (f) here = [...stack, f];
  }
  for (const e of entries) {
    if (++walk.seen > MAX_TREE_ENTRIES) return false;
    const abs = join(dir, e.name);
    const isDir = e.isDirectory();
    if (walk.skipHidden && e.name.startsWith(".")) continue;
    if (walk.gitignore && (e.name === ".git" || gitignoreVerdict(here, abs, isDir) === "ignore")) continue;
    if (e.isSymbolicLink() || walk.reason(abs) !== null) walk.found.push(abs);
    else if (isDir && !visit(abs, here, walk)) return false;
  }
  return true;
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return true; // unreadable: kept, as a link would be
  }
}

function isLinkToFolder(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink() && statSync(p).isDirectory();
  } catch {
    return false; // dangling or unreadable: leads nowhere a search could follow
  }
}

/** At most this many entries below a copied folder are placed at the destination; beyond, it asks. */
const MAX_COPY_ENTRIES = 5_000;

/**
 * Where a copy, move or link lands (`cp -r templates/.claude .` writes `./.claude/commands/…`,
 * `ln -s x/.mcp.json .` writes `./.mcp.json`): every path it creates below the destination is
 * judged as a write of its own — protected paths and the fence as for Edit — since the
 * destination word alone names only the folder. Paths are placed as the program places them: into
 * the destination when it is a folder (or `-t`, or several sources), as the destination otherwise.
 */
/** `relax`: the caller's last word on a destination's write verdict (the sandbox's private
 *  /tmp makes a write there contained). */
export function copyVerdicts(c: CopyEffect, cwd: CwdSet, ctx: PathContext, relax: (v: Verdict | null, path: string) => Verdict | null = (v) => v): Verdict[] {
  const dests = resolveWord(c.dest, cwd, ctx.env.home);
  if (dests === null) return []; // the destination itself is judged as a write (a file named only at run time)
  const out: Verdict[] = [];
  const judge = (p: string): void => {
    const v = relax(writeVerdict(p, ctx.rules, ctx.env), p);
    if (v && v.decision !== "allow") out.push({ ...v, reason: `${c.how} writes ${p}: ${v.reason}` });
  };
  dests.forEach((group, g) => {
    for (const dest of group) {
      const into = c.into || isFolder(dest);
      for (const w of c.sources) {
        const sources = resolveWord(w, cwd, ctx.env.home);
        if (sources === null) {
          out.push({ decision: "ask", reason: `${c.how} copies a file named only at run time (${w.raw}) into ${dest}`, by: "shell parser" });
          continue;
        }
        for (const src of sources[g] ?? sources[0]) {
          if (c.archive) {
            const members = c.archive.kind === "tar" ? listTar(src) : listZip(src);
            if (members === null) {
              out.push({ decision: "ask", reason: `${c.how} unpacks ${src}, whose members deepcode cannot list, so where they land is unknown`, by: "shell parser" });
              continue;
            }
            for (const m of members) {
              const rel = m.split("/").filter((x) => x !== "" && x !== ".").slice(c.archive.strip);
              if (rel.length > 0) judge(join(dest, ...rel));
            }
            continue;
          }
          const trimmed = src.replace(/\/+$/, "");
          const top = into && !(c.contents && src.endsWith("/")) ? join(dest, basename(trimmed)) : dest;
          judge(top);
          if (!c.recursive || !isFolder(src)) continue;
          const below: string[] = [];
          if (!listBelow(trimmed, "", below)) {
            out.push({ decision: "ask", reason: `${c.how} copies ${trimmed}, which holds more than ${MAX_COPY_ENTRIES} entries: too many to check where they land`, by: "shell parser" });
            continue;
          }
          for (const rel of below) judge(join(top, rel));
        }
      }
    }
  });
  return out;
}

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false; // missing or unreadable: the copy creates it as a file
  }
}

/** Relative paths below `dir` (links not followed), at most MAX_COPY_ENTRIES; false past that. */
function listBelow(dir: string, rel: string, out: string[]): boolean {
  let entries: Dirent[];
  try {
    entries = readdirSync(join(dir, rel), { withFileTypes: true });
  } catch {
    return true; // unreadable: the copy fails there too
  }
  for (const e of entries) {
    const r = rel === "" ? e.name : `${rel}/${e.name}`;
    out.push(r);
    if (out.length > MAX_COPY_ENTRIES) return false;
    if (e.isDirectory() && !listBelow(dir, r, out)) return false;
  }
  return true;
}

/**
 * A write of files named elsewhere below `dir` (`git checkout REV -- DIR`): `dir` itself is
 * judged as a write, and a protected project path at or below it may be written with whatever
 * the commit holds there, so it asks.
 */
export function writesBelowVerdict(dir: string, how: string, ctx: PathContext): Verdict | null {
  const self = writeVerdict(dir, ctx.rules, ctx.env);
  if (self && self.decision !== "allow") return self;
  const at = resolve(dir);
  for (const root of new Set([resolve(ctx.env.root), canonical(ctx.env.root) ?? resolve(ctx.env.root)])) {
    const hit = PROTECTED_PROJECT_PATHS.find((p) => {
      const entry = join(root, p.path);
      return entry === at || entry.startsWith(`${at === "/" ? "" : at}/`);
    });
    if (hit) return { decision: "ask", reason: `${how} writes what the commit holds below ${at}, which may include ${hit.path}${hit.names ? " files" : ""} (it ${hit.why})`, by: "protected file" };
  }
  return null;
}
