// What in a package.json runs later without the person naming it: npm's lifecycle scripts and
// the git hook managers' keys. Guarded by content, not by path (protected.ts guards paths): the
// sandbox puts a contained command's change to them back (mods/sandbox/lifecycle.ts), and an
// Edit or Write that makes one asks (src/cli/permissions/containment/lifecycle.ts).

/** npm's lifecycle scripts (and pnpm's): run by `npm install`, `npm publish`, `npm pack`,
 *  `npm version` … without the person naming them. A contained command's change to one in a
 *  workspace package.json is put back (mods/sandbox/lifecycle.ts); an Edit or Write that
 *  changes one asks (src/cli/permissions/containment/lifecycle.ts). */
export const LIFECYCLE_SCRIPTS: readonly string[] = [
  "preinstall", "install", "postinstall", "preuninstall", "uninstall", "postuninstall",
  "prepublish", "preprepare", "prepare", "postprepare", "prepublishOnly", "prepack", "postpack",
  "publish", "postpublish", "preversion", "version", "postversion", "dependencies",
  "preshrinkwrap", "shrinkwrap", "postshrinkwrap", "pnpm:devPreinstall",
];

/** Top-level package.json keys that git hook managers read: husky 4 (`husky.hooks`), yorkie
 *  (`gitHooks`), simple-git-hooks, the `pre-commit` package, lint-staged. What they name runs at
 *  the person's next commit. Guarded like the lifecycle scripts. */
export const PACKAGE_HOOK_KEYS: readonly string[] = ["husky", "gitHooks", "simple-git-hooks", "pre-commit", "lint-staged"];

/** What a package.json's guarded keys hold: `scripts.<lifecycle script>` and the hook managers'
 *  top-level keys (PACKAGE_HOOK_KEYS), each as its JSON text; a key that is absent is left out.
 *  Anything but an object holds none (npm runs nothing from a `scripts` that is not one). */
export function packageRunKeys(pkg: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof pkg !== "object" || pkg === null || Array.isArray(pkg)) return out;
  const o = pkg as Record<string, unknown>;
  const scripts = o.scripts;
  if (typeof scripts === "object" && scripts !== null && !Array.isArray(scripts)) {
    for (const name of LIFECYCLE_SCRIPTS) {
      if (Object.hasOwn(scripts, name)) out.set(`scripts.${name}`, JSON.stringify((scripts as Record<string, unknown>)[name]));
    }
  }
  for (const k of PACKAGE_HOOK_KEYS) if (Object.hasOwn(o, k)) out.set(k, JSON.stringify(o[k]));
  return out;
}

/** The guarded keys `after` adds or changes compared with `before`, in a stable order. One
 *  it removes is not among them: without it, nothing runs that the person did not have. */
export function changedRunKeys(before: unknown, after: unknown): string[] {
  const a = packageRunKeys(before);
  const b = packageRunKeys(after);
  return [...b.keys()].filter((k) => a.get(k) !== b.get(k)).sort();
}
