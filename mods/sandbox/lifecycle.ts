// Package lifecycle scripts in the sandbox (issue 35, item 6). npm runs `preinstall`,
// `postinstall`, `prepare`, `prepack` … (the contract's LIFECYCLE_SCRIPTS) and git hook managers
// run what package.json's `husky`, `gitHooks`, `simple-git-hooks`, `pre-commit`, `lint-staged`
// keys name (PACKAGE_HOOK_KEYS) — outside any sandbox, at the person's next `npm install` or
// `git commit`, without them naming it. package.json itself stays writable (adding a
// dependency or a build script is ordinary work), so:
//   - before a command: what those keys hold in every workspace package.json (the root's and
//     nested ones: npm workspaces run theirs too), found by a bounded walk like secrets.ts's;
//   - after it (and while a background job runs, on each change the watch sees): a key the
//     command added or changed is put back — removed, or set to what it held — and the rest of
//     the command's change stays. A key it removed stays removed (nothing then runs that the
//     person did not have). The file is written again with its own indentation; a package.json
//     that no longer parses is left alone (npm refuses to run anything from it).
// Dependencies are not guarded: adding one (from the registry, a git URL or `file:`) is
// ordinary work whose scripts are the dependency's own; a `file:` package inside the workspace
// is walked here like any nested package.json.

import { lstatSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { LIFECYCLE_SCRIPTS, changedRunKeys, packageRunKeys } from "../../src/contract/package-scripts.js";

const MAX_ENTRIES = 20_000;
const MAX_DEPTH = 8;
const SKIP = new Set(["node_modules", ".git", ".venv", "venv", "__pycache__", "target", ".next", ".nuxt", ".cache", ".gradle", ".terraform", "dist", "build", "coverage"]);

/** What the guarded keys of each package.json held: key → JSON text. A file that does not
 *  parse holds none. */
export type PackageKeys = Map<string, Record<string, string>>;

/** Every package.json below the folders (bounded walk), absolute. */
export function packageFiles(dirs: readonly string[]): string[] {
  const out: string[] = [];
  const count = { n: 0 };
  const walk = (d: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return; // unreadable or gone: nothing below it is listed
    }
    for (const e of entries) {
      if (++count.n > MAX_ENTRIES) return;
      if (e.isDirectory() && !SKIP.has(e.name)) walk(join(d, e.name), depth + 1);
      else if (e.name === "package.json" && (e.isFile() || e.isSymbolicLink())) out.push(join(d, e.name));
    }
  };
  for (const d of dirs) walk(d, 0);
  return out;
}

/** The guarded keys of each package.json below the folders, as they are now. */
export function packageKeys(dirs: readonly string[]): PackageKeys {
  const out: PackageKeys = new Map();
  for (const f of packageFiles(dirs)) {
    const pkg = parsed(f);
    out.set(f, pkg === undefined ? {} : Object.fromEntries(packageRunKeys(pkg.value)));
  }
  return out;
}

/** Put back each guarded key a command added or changed in a package.json below the folders
 *  (new files included: everything they hold is new). Returns what it did, for people.
 *  `files`: only these (the watch's passes while the command runs, which must stay cheap; the
 *  pass after it walks the folders again). */
export function putBackPackageKeys(before: PackageKeys, dirs: readonly string[], root: string, files?: readonly string[]): string[] {
  const done: string[] = [];
  for (const f of files ?? packageFiles(dirs)) {
    const pkg = parsed(f);
    if (pkg === undefined || typeof pkg.value !== "object" || pkg.value === null || Array.isArray(pkg.value)) continue;
    const was = before.get(f) ?? {};
    const wasObject = Object.fromEntries(Object.entries(was).map(([k, v]) => [k, JSON.parse(v) as unknown]));
    const changed = changedRunKeys(unflatten(wasObject), pkg.value);
    if (changed.length === 0) continue;
    const o = pkg.value as Record<string, unknown>;
    for (const key of changed) {
      const [top, script] = key.startsWith("scripts.") ? ["scripts", key.slice("scripts.".length)] : [key, undefined];
      if (script === undefined) {
        if (was[key] === undefined) delete o[top];
        else o[top] = JSON.parse(was[key]) as unknown;
        continue;
      }
      const scripts = o.scripts as Record<string, unknown>;
      if (was[key] === undefined) delete scripts[script];
      else scripts[script] = JSON.parse(was[key]) as unknown;
    }
    const rel = relative(root, f).split(sep).join("/") || f;
    try {
      // A package.json made a link is replaced by a file: what it leads to may lie outside.
      if (pkg.link) rmSync(f);
      writeFileSync(f, `${JSON.stringify(o, null, pkg.indent)}${pkg.newline ? "\n" : ""}`);
      done.push(`put back ${changed.join(", ")} in ${rel} (what npm or a git hook runs without you naming it: a change there is yours to make)`);
    } catch (err) {
      done.push(`could not put back ${changed.join(", ")} in ${rel}: ${(err as Error).message}`);
    }
  }
  return done;
}

/** `{ "scripts.postinstall": x, husky: y }` → `{ scripts: { postinstall: x }, husky: y }`. */
function unflatten(flat: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const scripts: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(flat)) {
    if (k.startsWith("scripts.") && LIFECYCLE_SCRIPTS.includes(k.slice(8))) scripts[k.slice(8)] = v;
    else out[k] = v;
  }
  if (Object.keys(scripts).length > 0) out.scripts = scripts;
  return out;
}

function parsed(file: string): { value: unknown; indent: string | number; newline: boolean; link: boolean } | undefined {
  try {
    const link = lstatSync(file).isSymbolicLink();
    if (!statSync(file).isFile()) return undefined;
    const text = readFileSync(file, "utf8");
    const indent = /^\{\r?\n([ \t]+)"/.exec(text)?.[1] ?? 2;
    return { value: JSON.parse(text) as unknown, indent, newline: text.endsWith("\n"), link };
  } catch {
    return undefined; // gone, unreadable or not JSON: npm runs nothing from it either
  }
}
