// `tool.effects` for Bash, judged by real bash: every file a command changes on disk must be
// among the writes it names, unless it says what it cannot see; a command it calls read-only
// changes nothing at all.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bashEffects, toolEffects } from "../../src/lib/effects/tool-effects.js";

const BASH = spawnSync("bash", ["--version"]).status === 0;
if (!BASH) process.stderr.write("deepcode tests: bash not found; the tool.effects tests against real bash are skipped\n");

function project(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-fx-")));
  writeFileSync(join(root, "a.txt"), "hello\nworld\n");
  writeFileSync(join(root, "b.txt"), "b\n");
  mkdirSync(join(root, "sub"));
  writeFileSync(join(root, "sub", "c.txt"), "c\n");
  return root;
}

/** Every path below root with what it is (content, mode, link target). */
function tree(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const n of readdirSync(dir)) {
      const p = join(dir, n);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out.set(p, `link:${readlinkSync(p)}`);
      else if (st.isDirectory()) {
        out.set(p, `dir:${st.mode & 0o777}`);
        walk(p);
      } else out.set(p, `file:${st.mode & 0o777}:${readFileSync(p, "utf8")}`);
    }
  };
  walk(root);
  return out;
}

function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const all = new Set([...before.keys(), ...after.keys()]);
  return [...all].filter((p) => before.get(p) !== after.get(p)).sort();
}

/** A path counts as named when it or a folder above it is. */
const covered = (p: string, writes: string[]): boolean => writes.some((w) => p === w || p.startsWith(`${w}/`));

const SEEN = [
  "echo x > new.txt",
  "echo x >> a.txt",
  "sed -i s/hello/bye/ a.txt",
  "tee t1 t2 < a.txt > /dev/null",
  "cp a.txt copy.txt",
  "mv b.txt moved.txt",
  "rm a.txt",
  "rm -r sub",
  "mkdir -p d/e",
  "touch a.txt fresh",
  "dd if=a.txt of=dd.out 2>/dev/null",
  "cd sub && echo y > here.txt",
  "sort -o sorted a.txt",
  "ln -s a.txt link",
  "truncate -s 0 b.txt",
  "chmod 600 a.txt",
  "cp -r sub sub2",
  "echo a > x; echo b 2> y; echo c &> z",
  "cat a.txt | tee -a b.txt >/dev/null",
  "xxd a.txt xx.out",
];

const UNSEEN: Array<[string, RegExp]> = [
  ["npm install", /^npm: deepcode cannot see which files it changes$/],
  ["make build", /^make: /],
  ["git checkout -- a.txt", /^git checkout: which files it changes is not known$/],
  ["git branch feature", /^git branch: which files it changes is not known$/],
  ["git branch -D old", /^git branch: which files it changes is not known$/],
  ["python3 x.py", /^python3: /],
  ['echo x > "$OUT"', /writes a file named only at run time/],
  ["ls | xargs rm", /the files it gets come from its input|xargs/],
  ["find . -name '*.txt' -delete", /^find -delete: /],
  ["rg --pre ./x.sh hello", /^rg: --pre runs a program/],
  ["git grep -O./x.sh hello", /^git: git grep -O opens the matches in a program/],
  ["GIT_EXTERNAL_DIFF=./x.sh git diff", /^git: GIT_EXTERNAL_DIFF set for it/],
  ["PAGER=./x.sh git log", /^git: PAGER set for it/],
];

describe("tool.effects for a shell command", () => {
  it.skipIf(!BASH)("names every file real bash changes, for the commands it can read", () => {
    for (const command of SEEN) {
      const root = project();
      try {
        const fx = bashEffects(command, { cwd: root, home: root });
        expect({ command, unknown: fx.unknown, readOnly: fx.readOnly }).toEqual({ command, unknown: [], readOnly: false });
        const before = tree(root);
        spawnSync("bash", ["-c", command], { cwd: root });
        const diff = changed(before, tree(root));
        expect({ command, missed: diff.filter((p) => !covered(p, fx.writes)) }).toEqual({ command, missed: [] });
        expect(diff.length).toBeGreaterThan(0);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }
  });

  it("says what it cannot see: unknown programs, files named at run time, input-fed file lists", () => {
    for (const [command, why] of UNSEEN) {
      const fx = bashEffects(command, { cwd: "/p", home: "/h" });
      expect({ command, readOnly: fx.readOnly, why: fx.unknown.some((u) => why.test(u)) }).toEqual({ command, readOnly: false, why: true });
    }
  });

  it("names every file curl writes, so a fetch to the screen is no effect it cannot see (and never read-only: it reaches a host)", () => {
    const env = { cwd: "/p", home: "/h" };
    expect(bashEffects("curl -s https://example.com/x | head", env)).toEqual({ writes: [], unknown: [], readOnly: false });
    const saved = bashEffects("curl -o out.html https://example.com/", env);
    expect({ writes: saved.writes.includes("/p/out.html"), unknown: saved.unknown }).toEqual({ writes: true, unknown: [] });
    expect(bashEffects("curl -K my.cfg https://example.com/", env).unknown).toEqual(["curl: deepcode cannot see which files it changes"]);
  });

  it.skipIf(!BASH)("calls read-only only what changes nothing", () => {
    for (const command of ["ls -la", "cat a.txt b.txt", "grep -rn hello .", "wc -l a.txt", "head -1 a.txt | sort", "find . -type f", "git status", "git log --oneline -3", "git branch --show-current", "git branch -a -v", "echo hi", "pwd && cd sub && ls", "seq 1 3", "sleep 0"]) {
      const root = project();
      try {
        expect({ command, ...bashEffects(command, { cwd: root, home: root }) }).toEqual({ command, writes: [], unknown: [], readOnly: true });
        const before = tree(root);
        spawnSync("bash", ["-c", command], { cwd: root });
        expect({ command, changed: changed(before, tree(root)) }).toEqual({ command, changed: [] });
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }
  });

  it("takes Write and Edit's file_path against the project root, with the folders it creates, and a read-only tool as changing nothing", () => {
    const root = project();
    try {
      const env = { root, cwd: join(root, "sub"), home: root };
      expect(toolEffects("Write", { file_path: "a.txt", content: "" }, env)).toEqual({ writes: [join(root, "a.txt")], unknown: [], readOnly: false });
      expect(toolEffects("Write", { file_path: "new/deep/x.ts", content: "" }, env).writes.sort()).toEqual([join(root, "new"), join(root, "new/deep"), join(root, "new/deep/x.ts")]);
      expect(toolEffects("Edit", { file_path: join(root, "b.txt"), old_string: "a", new_string: "b" }, env).writes).toEqual([join(root, "b.txt")]);
      const spec = { name: "Read", description: "", inputSchema: {}, readOnly: true, run: async () => ({ content: "" }) };
      expect(toolEffects("Read", { file_path: "a" }, { ...env, spec })).toEqual({ writes: [], unknown: [], readOnly: true });
      expect(toolEffects("mcp__db__drop", {}, env)).toEqual({ writes: [], unknown: ["mcp__db__drop: deepcode cannot see which files it changes"], readOnly: false });
      // A relative shell path starts from the Bash folder, not the root.
      expect(toolEffects("Bash", { command: "touch x" }, env).writes).toEqual([join(root, "sub", "x")]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
