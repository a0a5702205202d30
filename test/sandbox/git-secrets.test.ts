// Issue 21, hole 1: a secret the sandbox hides in the tree must not come back through git's
// object store — staged (`git add -f` of an ignored file), stashed with `-u`, committed once
// and removed, packed by `git gc` — whether read with git (`git show :.env`, `git cat-file`,
// `git log -p`, `git stash show -p`) or by inflating the object files with zlib. Real git,
// real bash in real bubblewrap; skipped where bubblewrap cannot run.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { indexEntries } from "../../mods/sandbox/git-objects.js";
import { gitIn, loadSandbox, type Sandboxed } from "./harness.js";

const available = sandboxStatus().active;
const SECRET = "API_KEY=sk-live-7f3a9c-secret";

let base: string;
let root: string;
let home: string;
let box: Sandboxed;
const git = (...args: string[]): string => gitIn(root, home, ...args);

/** Every way a command inside could read git's copies: git's own commands, and a script that
 *  inflates every loose object and greps every pack. */
const READ_EVERYTHING = [
  "git show :.env",
  "git cat-file -p $(git hash-object --stdin <<<'') 2>/dev/null",
  "for r in HEAD~1 HEAD~2 stash stash^3; do git show $r:.env; done",
  "git log -p --all",
  "git stash show -p --include-untracked",
  "git fsck --lost-found >/dev/null 2>&1; cat .git/lost-found/other/* 2>/dev/null",
  `python3 -c '
import os, zlib
for d, _, fs in os.walk(".git/objects"):
  for f in fs:
    p = os.path.join(d, f)
    b = open(p, "rb").read()
    try: print(zlib.decompress(b))
    except Exception: pass
    if p.endswith(".pack"):
      i = 12
      while i < len(b):
        try:
          o = zlib.decompressobj(); print(o.decompress(b[i:])); i += 1
        except Exception: i += 1
'`,
].join("; ");

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-gitsecret-")));
  root = join(base, "ws");
  home = join(base, "home");
  mkdirSync(root, { recursive: true });
  mkdirSync(home);
  git("init", "-q");
  writeFileSync(join(root, "README.md"), "readme\n");
  writeFileSync(join(root, ".gitignore"), ".env\n");
  git("add", "README.md", ".gitignore");
  git("commit", "-qm", "start");
  box = loadSandbox({ root, home, deepcodeHome: join(base, "dc-home") });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe.skipIf(!available)("a hidden secret stays hidden in git's object store (real git in bubblewrap)", () => {
  it("an ignored .env staged with git add -f: not through the index, cat-file or the object file", async () => {
    writeFileSync(join(root, ".env"), `${SECRET}\n`);
    git("add", "-f", ".env");
    const r = await box.run(READ_EVERYTHING);
    expect(r.stdout + r.stderr).not.toContain("sk-live");
    // Other git work goes on: status and log still run.
    const ok = await box.run("git log --oneline && git status --short");
    expect(ok.stdout).toContain("start");
  });

  it("an untracked .env kept in a stash (git stash -u, then apply): not through the stash", async () => {
    writeFileSync(join(root, "notes.txt"), "n\n");
    writeFileSync(join(root, ".env.local"), `${SECRET}\n`);
    git("stash", "-u");
    git("stash", "apply", "-q");
    expect(readFileSync(join(root, ".env.local"), "utf8")).toContain("sk-live");
    const r = await box.run(`${READ_EVERYTHING.replaceAll(":.env", ":.env.local")}; git show stash^3:.env.local`);
    expect(r.stdout + r.stderr).not.toContain("sk-live");
  });

  it("a .env committed once and then untracked, loose and after git gc packed it", async () => {
    writeFileSync(join(root, ".env"), `${SECRET}\n`);
    git("add", "-f", ".env");
    git("commit", "-qm", "oops");
    git("rm", "-q", "--cached", ".env");
    git("commit", "-qm", "untrack");
    const loose = await box.run(READ_EVERYTHING);
    expect(loose.stdout + loose.stderr).not.toContain("sk-live");
    git("gc", "-q", "--prune=now");
    const packed = await box.run(READ_EVERYTHING);
    expect(packed.stdout + packed.stderr).not.toContain("sk-live");
    // Outside the sandbox nothing changed: the person's git still has its history.
    expect(git("show", "HEAD~1:.env")).toContain("sk-live");
  });

  it("leaves git whole where the hidden .env only repeats a tracked template (.env copied from .env.example)", async () => {
    writeFileSync(join(root, ".env.example"), "API_KEY=\n");
    git("add", ".env.example");
    git("commit", "-qm", "template");
    git("gc", "-q");
    writeFileSync(join(root, ".env"), "API_KEY=\n");
    const r = await box.run("git log --oneline | wc -l; git show HEAD:.env.example");
    expect(r.stdout).toMatch(/^2\n/);
    expect(r.stdout).toContain("API_KEY=");
  });

  it("reads git's index of every version's layout it writes (v2, v3 with extended flags, v4)", () => {
    writeFileSync(join(root, "a.txt"), "a\n");
    mkdirSync(join(root, "deep", "er"), { recursive: true });
    writeFileSync(join(root, "deep", "er", "b.txt"), "b\n");
    git("add", "a.txt", "deep");
    writeFileSync(join(root, "deep", "c.txt"), "c\n");
    const want = [".gitignore", "README.md", "a.txt", "deep/er/b.txt"];
    for (const v of ["2", "3", "4"]) {
      // An intent-to-add entry needs the extended flags, which only version 3 and up write.
      if (v === "3") git("add", "-N", "deep/c.txt");
      git("update-index", "--index-version", v);
      const entries = [...indexEntries(join(root, ".git", "index"), "sha1")].map((e) => e.split("\0")[0]);
      expect(entries.sort()).toEqual(v === "2" ? want : [...want, "deep/c.txt"].sort());
    }
  });
});
