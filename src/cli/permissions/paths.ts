// Paths for permission checks: where a path really leads (symlinks followed at check time, so a
// link made earlier in the session is caught), whether it is inside the workspace fence, whether
// it is a well-known secret, and whether a path rule matches it.

import { lstatSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, parse, relative, resolve, sep } from "node:path";
import { globToRegExp } from "../../lib/glob-match.js";
import { CREDENTIALS_FILE, gitHooksPath, procSecretReason, protectedProjectEntry, secretLocations, type SecretLocation } from "../../contract/protected.js";
import { secretFileReason } from "../../contract/secret-content.js";
import { identitySecret } from "../../builtins/secret-identity.js";
import { readConfigText } from "../../lib/regular-file.js";
import type { RuleMatch } from "./rules.js";

export interface PathEnv {
  root: string;
  home: string;
  /** deepcode's home (credentials live there); defaults to `<home>/.deepcode`. */
  deepcodeHome?: string;
  additionalDirectories?: readonly string[];
  /** The current session's outputs folder (SessionStore.outputsDir): the one place in
   *  deepcode's home the Read tool may open without asking (sessionOutput). */
  sessionOutputs?: string;
}

/** What the gate decides with: the paths, and the Bash-specific facts (gate.ts). */
export interface GateEnv extends PathEnv {
  /** Bash's current folder (the Bash tool's persistent cwd). */
  cwd: string;
  /** Bash commands run in a sandbox without network, and `sandbox.autoAllowBashIfSandboxed`
   *  is on: contained commands need no rule (decide-bash.ts). */
  sandboxed?: boolean;
  /** Whether the repository holding a folder has a secret file in its history (decide-bash.ts). */
  historySecret?: (dir: string) => boolean;
  /** The sandbox reaches `sandbox.network.allowedDomains` through its filtering proxy (decide-bash.ts). */
  sandboxProxied?: boolean;
  /** With `sandboxed`: whether a contained command cannot read the secret at `path` — the
   *  sandbox does not have it, or hides it (sandbox-view.ts); such a read needs no question. */
  sandboxHides?: (path: string) => boolean;
  /** The ports background jobs' servers are forwarded at on the host's loopback (served.ts):
   *  WebFetch there is the agent's own server and needs no question. */
  servedPorts?: readonly number[];
  /** No sandbox is active (off, unavailable, not this platform): a Bash part the reader proves
   *  read-only needs no rule (read-only.ts). */
  readerAlone?: boolean;
}

/** `~` and `~/x` → the home folder; anything else unchanged. */
export function expandHome(p: string, home: string): string {
  if (p === "~") return home;
  if (p.startsWith("~/") || p.startsWith(`~${sep}`)) return join(home, p.slice(2));
  return p;
}

/**
 * Where a path leads once every symlink in it is followed, as the kernel would at open():
 * components are taken left to right, so `link/..` is the parent of the link's *target*. A part
 * that does not exist yet is taken as written (the deepest existing ancestor decides), and a
 * dangling final symlink is followed to where a write would create its target.
 * Returns null for a symlink loop.
 */
export function canonical(p: string): string | null {
  const abs = isAbsolute(p) ? p : resolve(p);
  const root = parse(abs).root;
  const queue = abs.slice(root.length).split(/[\\/]+/);
  let cur = root;
  let hops = 0;
  while (queue.length > 0) {
    const c = queue.shift() as string;
    if (c === "" || c === ".") continue;
    if (c === "..") {
      cur = dirname(cur);
      continue;
    }
    const next = join(cur, c);
    let link: string | null = null;
    try {
      const st = lstatSync(next);
      if (st.isSymbolicLink()) link = readlinkSync(next);
    } catch {
      // Missing (or unreadable): this component and the rest are taken as written.
      cur = next;
      for (const r of queue) {
        if (r === "" || r === ".") continue;
        cur = r === ".." ? dirname(cur) : join(cur, r);
      }
      return cur;
    }
    if (link === null) {
      cur = next;
      continue;
    }
    if (++hops > 40) return null;
    if (isAbsolute(link)) cur = parse(link).root;
    queue.unshift(...link.slice(isAbsolute(link) ? parse(link).root.length : 0).split(/[\\/]+/));
  }
  return cur;
}

export function isWithin(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The fence: the canonical workspace root and additional directories. */
export function fenceDirs(env: PathEnv): string[] {
  const dirs = [env.root, ...(env.additionalDirectories ?? []).map((d) => resolve(env.root, expandHome(d, env.home)))];
  return dirs.map((d) => canonical(d) ?? d);
}

export interface PathView {
  /** As written, made absolute (`..` resolved lexically). */
  lexical: string;
  /** With symlinks followed; null for a symlink loop. */
  real: string | null;
}

/** `followLast: false` for operations on a name itself (rm, unlink): a final symlink is not followed. */
export function viewPath(abs: string, followLast = true): PathView {
  const name = basename(abs);
  if (followLast || abs.endsWith("/") || name === "" || name === "." || name === "..") return { lexical: resolve(abs), real: canonical(abs) };
  const parent = canonical(dirname(abs));
  return { lexical: resolve(abs), real: parent === null ? null : join(parent, name) };
}

/** Inside the fence? A symlink loop is never inside. */
export function insideFence(view: PathView, env: PathEnv): boolean {
  if (view.real === null) return false;
  const real = view.real;
  return fenceDirs(env).some((d) => isWithin(real, d));
}

const DEV_SPECIAL = /^\/dev\/(?:null|zero|stdout|stderr|stdin|tty|fd\/[0-9]+|full|random|urandom)$/;

/** Redirect targets that are not files (`/dev/null`, `/dev/stderr`…). */
export function isDeviceSink(lexical: string): boolean {
  return DEV_SPECIAL.test(lexical);
}

/** A well-known secret (why it is one), or null. Reading one asks even though reads are allowed.
 *  The lists are the contract's (src/contract/protected.ts), shared with the sandbox and Grep:
 *  the path as written and with symlinks followed is in a secret place or has a secret's name,
 *  is a process's environment, or the file it leads to is a known secret under another name (a
 *  hard link, or a secret renamed: secret-identity.ts). */
export function secretReason(view: PathView, env: PathEnv, opts: { sessionOutput?: boolean } = {}): string | null {
  // A session output is in deepcode's home, and that alone does not make it a secret; its
  // name and what file it is (a hard link, a secret renamed) are still checked below.
  const locations = opts.sessionOutput ? secretPlaces(env).filter((l) => !l.deepcodeHome) : secretPlaces(env);
  for (const p of [view.lexical, view.real]) {
    if (p === null) continue;
    for (const l of locations) if (p === l.path || p.startsWith(l.sep)) return l.why;
    // A content-judged name (a token-free `.npmrc`) is read where it really is.
    const why = secretFileReason(basename(p), () => readConfigText(view.real ?? p), posix(p));
    if (why) return `${why} (${basename(p)})`;
    const proc = procSecretReason(posix(p));
    if (proc) return proc;
  }
  if (view.real === null) return null;
  return identitySecret(view.real, { root: env.root, home: env.home, deepcodeHome: env.deepcodeHome });
}

type Place = SecretLocation & { sep: string };

const OUTPUT_NAME = /^[A-Za-z0-9_-]+\.txt$/;

/**
 * Is `path` a whole command output deepcode kept beside the current session (SessionStore
 * .keepOutput), which the Read tool opens without asking although it lies in deepcode's home?
 * Exactly that kind of file: directly in the current session's outputs folder — as written and
 * with every symlink followed, so a link into it or out of it does not count — with a name
 * deepcode gives (`<call id>.txt`), a regular file (not a symlink) with one name (not a hard
 * link to something else), owned by this user, in a folder that is not itself a symlink.
 * Another session's outputs, the session files, credentials and the rest of the home stay
 * secret.
 */
export function sessionOutput(path: string, env: PathEnv): boolean {
  const dir = env.sessionOutputs;
  if (dir === undefined) return false;
  const abs = resolve(path);
  if (dirname(abs) !== resolve(dir) || !OUTPUT_NAME.test(basename(abs))) return false;
  const realDir = canonical(dir);
  if (realDir === null || canonical(abs) !== join(realDir, basename(abs))) return false;
  try {
    if (!lstatSync(dir).isDirectory()) return false; // the folder itself a symlink: not deepcode's
    const st = lstatSync(abs);
    return st.isFile() && st.nlink === 1 && (process.getuid === undefined || st.uid === process.getuid());
  } catch {
    return false; // missing: nothing deepcode kept
  }
}

const placeCache = new Map<string, Place[]>();

/** The fixed secret places for this env: home's credential places and deepcode's home, each as
 *  written and with symlinks followed (worked out once per env: home folders do not move). A
 *  place that holds the project root is left out (a project inside ~/.deepcode/plugins is the
 *  person's own choice), except deepcode's credentials file in it. */
export function secretPlaces(env: PathEnv): Place[] {
  const dh = env.deepcodeHome ?? join(env.home, ".deepcode");
  const key = `${env.root}\u0000${env.home}\u0000${dh}`;
  const cached = placeCache.get(key);
  if (cached) return cached;
  const roots = [resolve(env.root), canonical(env.root) ?? env.root];
  const out: Place[] = [];
  const add = (l: SecretLocation): void => {
    const path = fromPosix(l.path);
    if (!out.some((o) => o.path === path)) out.push({ path, why: l.why, deepcodeHome: l.deepcodeHome, sep: path.endsWith(sep) ? path : path + sep });
  };
  for (const [home, dhome] of [
    [env.home, dh],
    [canonical(env.home) ?? env.home, canonical(dh) ?? dh],
  ]) {
    for (const l of secretLocations(posix(home), posix(dhome))) {
      if (!roots.some((r) => isWithin(r, fromPosix(l.path)))) add(l);
      else if (l.deepcodeHome) add({ path: `${l.path}/${CREDENTIALS_FILE}`, why: "deepcode's credentials file", deepcodeHome: true });
    }
  }
  placeCache.set(key, out);
  return out;
}

/** Why a change to this path would loosen the rules or run code later (the contract's
 *  protected project paths, below the root as written or with symlinks followed), or null.
 *  `entry` is the protected entry's absolute path (`<root>/.deepcode`): an allow rule lifts the
 *  protection only when it names that entry or a path inside it (see checks.ts). */
export function protectedReason(view: PathView, env: PathEnv): { why: string; entries: string[] } | null {
  const roots = [env.root, canonical(env.root) ?? env.root];
  let found: { why: string; entries: string[] } | null = null;
  for (const p of [view.lexical, view.real]) {
    if (p === null) continue;
    for (const r of roots) {
      if (!isWithin(p, r)) continue;
      const hit = protectedProjectEntry(posix(relative(r, p)));
      if (!hit) continue;
      found ??= { why: hit.why, entries: [] };
      const entry = join(r, hit.entry);
      if (!found.entries.includes(entry)) found.entries.push(entry);
    }
  }
  if (found) return found;
  // The folder the repository's `core.hooksPath` names holds programs git runs, as .git/hooks does.
  for (const hooks of hooksFolders(env)) {
    const inside = [view.lexical, view.real].some((p) => p !== null && [hooks, canonical(hooks) ?? hooks].some((h) => isWithin(p, h)));
    if (inside) return { why: `${hooks}/ is this repository's core.hooksPath: it holds programs git runs`, entries: [hooks] };
  }
  return null;
}

const hooksCache = new Map<string, { stamp: string; folders: string[] }>();

/** The folders `core.hooksPath` names in the project's git config (`.git/config` and
 *  `.git/config.worktree`, or those of the git directory a `.git` file points to), resolved as
 *  git does: `~/` from the home folder, a relative path from the top of the working tree. Read
 *  again when a config file changes (a hooksPath set mid-session counts at once). */
function hooksFolders(env: PathEnv): string[] {
  const gitDir = gitDirOf(env.root);
  if (gitDir === null) return [];
  const files = [join(gitDir, "config"), join(gitDir, "config.worktree")];
  const stamp = files.map((f) => {
    try {
      const st = statSync(f);
      return `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      return "-"; // no such config file: nothing from it
    }
  }).join("|");
  const key = `${env.root}\u0000${env.home}`;
  const cached = hooksCache.get(key);
  if (cached?.stamp === stamp) return cached.folders;
  const folders: string[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(f, "utf8");
    } catch {
      continue; // missing or unreadable: it names no hooks folder
    }
    const h = gitHooksPath(text);
    if (h === undefined) continue;
    const abs = resolve(env.root, expandHome(h, env.home));
    // husky ≥ 9 points git at `<dir>/_`, whose stubs run `<dir>/<hook>`: the folder above counts.
    for (const f of basename(abs) === "_" ? [abs, dirname(abs)] : [abs]) if (!folders.includes(f)) folders.push(f);
  }
  hooksCache.set(key, { stamp, folders });
  return folders;
}

/** The project's git directory: `.git`, or where a `.git` file (`gitdir: …`) points. */
function gitDirOf(root: string): string | null {
  const dot = join(root, ".git");
  try {
    const st = lstatSync(dot);
    if (st.isDirectory()) return dot;
    if (!st.isFile()) return null;
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dot, "utf8"));
    return m ? resolve(root, m[1]) : null;
  } catch {
    return null; // not a git repository (or unreadable): no hooks folder to protect
  }
}

const NOCASE = process.platform === "darwin" || process.platform === "win32";

/**
 * Does a path rule match this absolute path? Anchors resolve against `root`/`home` as given
 * (pass the canonical ones for a canonical path). gitignore-style: a pattern that matches a
 * folder also covers everything inside it.
 */
export function pathRuleMatches(match: Extract<RuleMatch, { type: "path" }>, path: string, anchors: { root: string; home: string }): boolean {
  const base = match.anchor === "abs" ? "/" : match.anchor === "home" ? anchors.home : anchors.root;
  const glob = match.anchor === "anywhere" ? `**/${match.glob}` : match.glob;
  const pattern = normaliseDots(`${escapeGlob(posix(base)).replace(/\/+$/, "")}/${glob === "" ? "**" : glob}`);
  const re = globToRegExp(pattern, { nocase: NOCASE });
  let p = posix(path);
  for (;;) {
    if (re.test(p)) return true;
    const parent = p.slice(0, p.lastIndexOf("/")) || "/";
    if (parent === p) return false;
    p = parent;
  }
}

function posix(p: string): string {
  return sep === "\\" ? p.replace(/\\/g, "/") : p;
}

function fromPosix(p: string): string {
  return sep === "\\" ? p.replace(/\//g, "\\") : p;
}

function escapeGlob(s: string): string {
  return s.replace(/[*?[\]{}\\]/g, "\\$&");
}

/** Resolve literal `.` and `..` segments of a pattern (`Edit(../shared/**)` from the root). */
function normaliseDots(pattern: string): string {
  const out: string[] = [];
  for (const seg of pattern.split("/")) {
    if (seg === ".") continue;
    if (seg === ".." && out.length > 1) out.pop();
    else out.push(seg);
  }
  return out.join("/") || "/";
}
