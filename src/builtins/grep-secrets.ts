// What Grep never reads: the contract's secrets (src/contract/protected.ts) — files named like
// secrets (`.env…`, private keys, key files) wherever they are, the home folder's credential
// folders (~/.ssh …) and deepcode's credentials file. The permission gate makes a Read of one ask;
// a search must not hand the same text over without asking, so Grep leaves them out, says how
// many it left out, and the model can Read one by name (which asks).
//
// Two forms of one list, kept equal: `globs` for rg (each passed as `--glob '!…'`, after the
// user's globs, so they win over them and over .gitignore alike), `reason()` for the built-in
// walk. Name globs are generated from the contract's patterns (exceptions such as `.env.example`
// become character classes: a `!` glob cannot be re-included without turning rg's globs into a
// whitelist); place globs match the path as rg prints it — absolute outside the project root,
// relative (anchored with `/`) inside it.

import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative } from "node:path";
import { SECRET_NAMES, secretLocations, secretNameReason, type SecretLocation, type SecretNamePattern } from "../contract/protected.js";
import { isInside } from "../lib/paths.js";
import { identitySecret } from "./secret-identity.js";

export interface SecretScope {
  /** The home folder (its credential folders). */
  home: string;
  /** deepcode's home (its credentials file); `<home>/.deepcode` when not given. */
  deepcodeHome?: string;
}

/** The scope deepcode runs in: the home folder, and DEEPCODE_HOME (as src/cli/home.ts reads it). */
export function defaultSecretScope(): SecretScope {
  return { home: homedir(), deepcodeHome: process.env.DEEPCODE_HOME || undefined };
}

export interface SecretFilter {
  /** rg globs (without the leading `!`) that leave out every secret below the root. */
  globs: string[];
  /** The same, for a search of `target` only: the places (~/.ssh …) that neither hold nor lie
   *  inside `target` are left out, since rg (which follows no symlink below its start) prints
   *  no path in them. rg matches every glob against every path it walks, and the ~200 place
   *  globs doubled the time of a search of a large tree. */
  globsFor(target: string): string[];
  /** Why a walked file or folder (or a file named as the search path) is left out, or null. */
  reason(abs: string): string | null;
  /** Whether a file rg would search below `start` is left out: itself, or a folder between
   *  `start` and it (rg prunes a folder its globs match, and never matches `start` itself). */
  skips(abs: string, start: string): boolean;
  /** Whether a file the search found is a known secret under another name (a hard link to
   *  .env, a renamed key: secret-identity.ts); such a file is recorded in `sameAs` and its
   *  lines are left out. Asked only about files that matched, so a search stats no more. */
  isSecretFile(abs: string): boolean;
  /** The files left out by isSecretFile so far (absolute), with why. */
  readonly sameAs: Array<{ abs: string; why: string }>;
}

export function secretFilter(root: string, scope: SecretScope): SecretFilter {
  const places = placesFor(root, scope);
  const placeGlobs = (l: SecretLocation): string[] => {
    const out = [`**${escapeGlob(l.path)}`, `**${escapeGlob(l.path)}/**`];
    if (isInside(root, l.path)) {
      const rel = relative(root, l.path).split("\\").join("/");
      out.push(`/${escapeGlob(rel)}`, `/${escapeGlob(rel)}/**`);
    }
    return out;
  };
  const globs = [...SECRET_NAME_GLOBS, ...places.flatMap(placeGlobs)];
  const globsFor = (target: string): string[] => {
    const starts = [target, realOr(target)];
    const near = places.filter((l) => starts.some((t) => isInside(t, l.path) || isInside(l.path, t)));
    return [...SECRET_NAME_GLOBS, ...near.flatMap(placeGlobs)];
  };
  // The walk asks about every file and folder it meets: a place is found by looking `abs` and
  // its folders up in a map (as many lookups as `abs` is deep), not by testing ~100 places each
  // (that test was half the built-in search's time). The first place in the list wins, as before.
  const placeAt = new Map<string, number>();
  places.forEach((l, i) => {
    if (!placeAt.has(l.path)) placeAt.set(l.path, i);
  });
  const placeOf = (abs: string): SecretLocation | null => {
    if (!PLAIN_PATH.test(abs)) {
      for (const l of places) if (isInside(l.path, abs)) return l;
      return null;
    }
    let best = -1;
    for (let p = abs; p.length > 0; p = p.slice(0, Math.max(p.lastIndexOf("/"), 0))) {
      const i = placeAt.get(p);
      if (i !== undefined && (best < 0 || i < best)) best = i;
    }
    return best < 0 ? null : places[best];
  };
  const reason = (abs: string): string | null => placeOf(abs)?.why ?? secretNameReason(abs.slice(abs.lastIndexOf("/") + 1));
  const sameAs: Array<{ abs: string; why: string }> = [];
  const known = new Map<string, boolean>();
  return {
    globs,
    globsFor,
    reason,
    sameAs,
    isSecretFile(abs) {
      const cached = known.get(abs);
      if (cached !== undefined) return cached;
      const why = identitySecret(abs, { root, home: scope.home, deepcodeHome: scope.deepcodeHome });
      if (why !== null) sameAs.push({ abs, why });
      known.set(abs, why !== null);
      return why !== null;
    },
    skips(abs, start) {
      if (reason(abs) !== null) return true;
      const rel = relative(start, abs).split("\\").join("/");
      return !rel.startsWith("..") && rel.split("/").some((seg) => secretNameReason(seg) !== null);
    },
  };
}

/** An absolute POSIX path as path.resolve leaves it (no `//`, `.` or `..` segment, no trailing
 *  `/`): its folders are its prefixes up to each `/`. */
const PLAIN_PATH = /^\/(?!.*\/\/)(?!.*\/\.\.?(\/|$))(?!.*\/$)/;

/** The fixed places, as given and with symlinks followed; a place that holds the project root
 *  itself is left out (a project inside ~/.ssh is the person's own choice, and rg could not
 *  express it). */
function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p; // does not exist (yet): taken as written
  }
}

function placesFor(root: string, scope: SecretScope): SecretLocation[] {
  const real = realOr;
  const dh = scope.deepcodeHome ?? join(scope.home, ".deepcode");
  const all = [...secretLocations(scope.home, dh), ...secretLocations(real(scope.home), real(dh))];
  const out: SecretLocation[] = [];
  for (const l of all) if (!out.some((o) => o.path === l.path) && !isInside(l.path, root)) out.push(l);
  return out;
}

const NEVER =
  "Grep never reads .env files, private keys, key files, deepcode's credentials or the home folder's credential folders (~/.ssh, ~/.aws …); " +
  "Read one by name if you must: reading a secret asks the person.";

/** A line for the result: how many files were left out, a few of them (as shown), and why;
 *  null for none. `unknown`: the count could not be taken (rg's listing failed). */
export function skippedNote(shown: readonly string[], unknown = false): string | null {
  if (unknown) return `(Files that may hold secrets were not searched. ${NEVER})`;
  const n = shown.length;
  if (n === 0) return null;
  const more = n > 5 ? ` and ${n - 5} more` : "";
  return `(Not searched: ${n} file${n === 1 ? "" : "s"} that may hold secrets — ${shown.slice(0, 5).join(", ")}${more}. ${NEVER})`;
}

/** A line for the files whose matches were left out because they are secrets under another
 *  name; null for none. */
export function sameAsNote(shown: readonly string[], whys: readonly string[]): string | null {
  if (shown.length === 0) return null;
  const list = shown.slice(0, 5).map((s, i) => `${s} (${whys[i]})`).join(", ");
  const more = shown.length > 5 ? ` and ${shown.length - 5} more` : "";
  return `(Not shown: what matched in ${shown.length} file${shown.length === 1 ? "" : "s"} that ${shown.length === 1 ? "is a secret" : "are secrets"} under another name — ${list}${more}. Read one by name if you must: reading a secret asks the person.)`;
}

/** The answer for a search path that is itself a secret file. */
export function secretTargetNote(shown: string, why: string): string {
  return `Not searched: ${shown} may hold secrets (${why}). ${NEVER}`;
}

// ---- name globs, generated from the contract's patterns ----

function nameGlobs(p: SecretNamePattern): string[] {
  if (p.names !== undefined) return p.names.map((n) => (p.nocase ? caseless(n) : exactName(n)));
  if (p.suffix !== undefined) return [`*${caseless(p.suffix)}`];
  const prefix = p.prefix ?? "";
  if (p.except && p.exceptEnding !== undefined) throw new Error(`secret name pattern ${prefix}: 'except' and 'exceptEnding' together cannot be turned into rg globs`);
  if (p.except) return notOneOf(prefix, p.except.filter((e) => e.startsWith(prefix)).map((e) => e.slice(prefix.length)));
  if (p.exceptEnding !== undefined) return notEnding(prefix, p.exceptEnding);
  return [`${escapeGlob(prefix)}*`];
}

/** Globs for `prefix` + any text that is none of `tails`: one branch per character of the
 *  exceptions (`.env` + not `.example` → `.env`, `.env[!.]*`, `.env.`, `.env.[!est]*`, …). */
function notOneOf(prefix: string, tails: readonly string[]): string[] {
  const out: string[] = [];
  if (!tails.includes("")) out.push(exactName(prefix));
  const rest = tails.filter((t) => t !== "");
  const firsts = [...new Set(rest.map((t) => t[0]))].sort();
  out.push(firsts.length > 0 ? `${escapeGlob(prefix)}[!${classChars(firsts)}]*` : `${escapeGlob(prefix)}?*`);
  for (const c of firsts) {
    out.push(
      ...notOneOf(
        prefix + c,
        rest.filter((t) => t[0] === c).map((t) => t.slice(1)),
      ),
    );
  }
  return out;
}

/** Globs for `prefix` + any text that does not end with `ending` (`id_rsa` but not `id_rsa.pub`):
 *  the text is empty, or ends in k characters of `ending` preceded by a character that is not
 *  the one before them in `ending`, or is exactly those k characters. */
function notEnding(prefix: string, ending: string): string[] {
  const p = escapeGlob(prefix);
  const out = [exactName(prefix)];
  for (let k = 0; k < ending.length; k++) {
    const tail = ending.slice(ending.length - k);
    out.push(`${p}*[!${classChars([ending[ending.length - k - 1]])}]${escapeGlob(tail)}`);
    if (k > 0) out.push(exactName(prefix + tail));
  }
  return out;
}

/** A glob for exactly this name. rg (globset) does not match a glob that ends in a literal `.`
 *  (`.env.` matches no file named `.env.`), so a final `.` is written as the class `[.]`. */
function exactName(name: string): string {
  const g = escapeGlob(name);
  return g.endsWith(".") ? `${g.slice(0, -1)}[.]` : g;
}

/** Characters inside a `[!…]` class: only letters, digits, `.` and `_`, which need no escape. */
function classChars(chars: readonly string[]): string {
  for (const c of chars) if (!/^[A-Za-z0-9._]$/.test(c)) throw new Error(`cannot put ${JSON.stringify(c)} in a glob class`);
  return chars.join("");
}

function caseless(s: string): string {
  return [...s].map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : escapeGlob(c))).join("");
}

function escapeGlob(s: string): string {
  return s.replace(/[*?[\]{}\\!]/g, "\\$&");
}

/** Every secret file name, as basename globs for rg. */
export const SECRET_NAME_GLOBS: readonly string[] = SECRET_NAMES.flatMap(nameGlobs);
