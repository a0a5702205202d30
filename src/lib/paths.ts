// Paths as the model sends them (absolute, `~/…`, or relative to the project root) and as
// results show them (project-relative inside the root, absolute outside it).

import { homedir } from "node:os";
import { isAbsolute, relative, resolve, sep } from "node:path";

export function resolvePath(root: string, p: string): string {
  if (p === "~") return homedir();
  if (p.startsWith("~/")) return resolve(homedir(), p.slice(2));
  return isAbsolute(p) ? resolve(p) : resolve(root, p);
}

/** Project-relative with `/` when `abs` is inside `root` ("." for the root itself), else absolute. */
export function displayPath(root: string, abs: string): string {
  const rel = relative(root, abs);
  if (rel === "") return ".";
  if (rel.startsWith("..") || isAbsolute(rel)) return abs;
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/** A POSIX path that path.resolve would leave as it is: absolute, no `.`/`..` segment, no `//`. */
const NOT_NORMAL = /\/\/|\/\.\.?(\/|$)/;

/** True when `abs` is `root` or below it. */
export function isInside(root: string, abs: string): boolean {
  // The fast path (a prefix test) for normalised POSIX paths: a search asks this for every walked
  // file and every secret place, and path.relative was most of the built-in Grep's time.
  if (sep === "/" && root.startsWith("/") && abs.startsWith("/") && !NOT_NORMAL.test(root) && !NOT_NORMAL.test(abs)) {
    const r = root.length > 1 && root.endsWith("/") ? root.slice(0, -1) : root;
    return abs === r || r === "/" || (abs.startsWith(r) && abs.charCodeAt(r.length) === 47);
  }
  const rel = relative(root, abs);
  return rel === "" || !(rel.startsWith("..") || isAbsolute(rel));
}

/** The error code node:fs put on an error, if any. */
export function errCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}
