// Git repositories nested in the workspace. The person's `git status` at the top runs git in
// every submodule the index names (a gitlink), with that repository's own config and hooks —
// outside any sandbox. A command could create one (`git init sub`, a `core.fsmonitor` in
// sub/.git/config, `git add sub`), or write the config of one that exists. So:
//   - the control files of every nested repository that exists before a command are protected
//     like the workspace's own (protect.ts guards them: read-only where they exist, undone
//     where created);
//   - a `.git` (folder or file) the command created below the workspace is removed after it:
//     a new nested repository, a `.git` file pointing anywhere. `git init` or `git worktree add`
//     inside the workspace is therefore undone in the sandbox (the output says so).
// The walk is bounded (MAX_ENTRIES); what lies beyond the bound is not covered.

import { lstatSync, readdirSync, rmSync } from "node:fs";
import { join, relative, sep } from "node:path";

const MAX_ENTRIES = 50_000;

/** Walks made in the current synchronous run: the sandbox asks several times before one
 *  command starts (mounts, snapshot, parents), and the tree cannot change in between. Cleared
 *  on the next microtask, so the check after the command walks afresh. */
const walked = new Map<string, string[]>();

/** Every `.git` below `dir` (its own `dir/.git` excepted), not looking inside any `.git`. */
export function nestedGits(dir: string): string[] {
  const known = walked.get(dir);
  if (known) return known;
  const out = walkGits(dir);
  walked.set(dir, out);
  queueMicrotask(() => walked.delete(dir));
  return out;
}

function walkGits(dir: string): string[] {
  const out: string[] = [];
  const count = { n: 0 };
  const walk = (d: string): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return; // unreadable or gone: nothing below it can be listed
    }
    for (const e of entries) {
      if (++count.n > MAX_ENTRIES) return;
      const p = join(d, e.name);
      if (e.name === ".git") {
        if (d !== dir) out.push(p);
      } else if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

/** Remove each `.git` below the folders that is not in `before`; returns what it did. */
export function removeNewGits(dirs: readonly string[], before: ReadonlySet<string>, root: string): string[] {
  const done: string[] = [];
  for (const d of dirs) {
    for (const p of walkGits(d)) {
      if (before.has(p)) continue;
      const rel = relative(root, p).split(sep).join("/");
      try {
        lstatSync(p);
        rmSync(p, { recursive: true, force: true });
        done.push(`removed ${rel} (a new git repository in the workspace: its config and hooks would run in your own git, outside the sandbox)`);
      } catch (err) {
        done.push(`could not remove ${rel}: ${(err as Error).message}`);
      }
    }
  }
  return done;
}
