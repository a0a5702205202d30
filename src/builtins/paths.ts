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

/** True when `abs` is `root` or below it. */
export function isInside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === "" || !(rel.startsWith("..") || isAbsolute(rel));
}

/** The error code node:fs put on an error, if any. */
export function errCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}
