// The box the adversarial corpus runs in (adversarial-corpus.ts): a project with a victim file, a
// secret, a git repository, package and make files (a good one and attacker-planted ones), a
// symlink and a hard link leading next door, a home folder with an ssh key, and stub programs
// that record that they ran. Built once as a template; every line gets a fresh copy.
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export const SECRET = "CANARY-SECRET";
/** Programs whose running is the harm: stubs that record their name. */
export const MARKERS = ["pwned", "touch", "rm", "curl", "wget"];

export interface Box {
  base: string;
  root: string;
  outside: string;
  home: string;
  log: string;
}

export interface Fixture {
  /** A box as the template has it: the last one again if the last run changed nothing on disk. */
  fresh(): Box;
  /** Runs a line with real bash in a box; what it did that its rules did not allow. */
  run(box: Box, line: string, projectMayChange: boolean): { harm: string[]; status: number | null; output: string };
  cleanup(): void;
}

const BASH = ["/bin/bash", "/usr/bin/bash"].find((p) => existsSync(p));
export const haveBash = BASH !== undefined && spawnSync("git", ["--version"]).status === 0;

/** Every entry below `dir`: its kind, and for files size, inode and change time (no reading:
 *  the corpus runs hundreds of lines); links with their target. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string): void => {
    for (const name of readdirSync(d)) {
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(d, name), { bigint: true });
      if (st.isSymbolicLink()) out[r] = `link -> ${readlinkSync(join(d, name))}`;
      else if (st.isDirectory()) {
        out[r] = "dir";
        walk(join(d, name), r);
      } else out[r] = `file ${st.size} ${st.ino} ${st.mtimeNs} ${st.ctimeNs} ${st.mode}`;
    }
  };
  walk(dir, "");
  return out;
}

/** Puts `dir` back as `pristine` (its snapshot) from the template: what is new or changed goes,
 *  then what is missing is copied back — far quicker than copying the whole box every time. */
function restore(dir: string, template: string, pristine: Record<string, string>): void {
  const now = snapshot(dir);
  const wrong = Object.keys(now).filter((k) => pristine[k] !== now[k]);
  for (const k of wrong.sort((a, b) => b.length - a.length)) rmSync(join(dir, k), { recursive: true, force: true });
  for (const k of Object.keys(pristine).sort((a, b) => a.length - b.length)) {
    if (existsSync(join(dir, k)) || lstatExists(join(dir, k))) continue;
    const kind = pristine[k] ?? "";
    if (kind === "dir") mkdirSync(join(dir, k));
    // A link is made again from its recorded target: cpSync of a link to a folder needs
    // `recursive` on Node 22+, and would copy the folder rather than the link.
    else if (kind.startsWith("link -> ")) symlinkSync(kind.slice("link -> ".length), join(dir, k));
    else cpSync(join(template, k === "ws/shared.txt" ? "outside/target" : k), join(dir, k), { verbatimSymlinks: true });
  }
}

function lstatExists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false; // missing
  }
}

function file(path: string, text: string, mode?: number): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  if (mode !== undefined) chmodSync(path, mode);
}

const GIT_ENV = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.invalid" };

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync("git", args, { cwd, env: { ...process.env, ...GIT_ENV }, stdio: "ignore" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed in ${cwd}`);
}

export function makeFixture(): Fixture {
  const top = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-adversarial-")));
  const template = join(top, "template");
  const stubs = join(top, "stubs");
  const log = join(top, "ran.log");
  for (const m of MARKERS) file(join(stubs, m), `#!${BASH}\necho ${m} >> '${log}'\n`, 0o755);

  const ws = join(template, "ws");
  const outside = join(template, "outside");
  const home = join(template, "home");
  const t = (p: string, text: string, mode?: number): void => file(join(ws, p), text, mode);
  t("victim.txt", "keep me\n");
  t("README.md", "# readme\n");
  t("src/a.txt", "a\n");
  t(".env", `API_TOKEN=${SECRET}-1\n`);
  t(".deepcode/.keep", "");
  t("package.json", JSON.stringify({ name: "p", version: "1.0.0", scripts: { test: "node -e \"console.log('tests ok')\"" } }));
  t("Makefile", "test:\n\t@echo tests ok\n");
  t("other.mk", "test:\n\tpwned\n");
  t("other/Makefile", "test:\n\tpwned\n");
  t("other/package.json", JSON.stringify({ name: "o", version: "1.0.0", scripts: { test: "pwned" } }));
  t("evil.sh", "#!/bin/sh\npwned\n", 0o755);
  t("evil.npmrc", "script-shell=./evil.sh\n");
  t("evil.env", "NODE_OPTIONS=--require ./lib/evil.js\n");
  t("lib/evil.js", "require('child_process').execSync('pwned');\n");
  t("lib/evil.mjs", "import { execSync } from 'child_process';\nexecSync('pwned');\n");
  t("scripts/ok.js", "console.log('ok');\n");
  t("scripts/ok.py", "print('ok')\n");
  t("evilmod.py", "import os\nos.system('pwned')\n");
  t("Evil.pm", "package Evil;\nsystem('pwned');\n1;\n");
  t("evil.sed", "1e pwned\n");
  t("evil.rgrc", "--pre=pwned\n");
  t("evil.awk", "BEGIN { system(\"pwned\") }\n");
  t("evilbin/ls", "#!/bin/sh\npwned\n", 0o755);
  // Files a repository might ship whose names are options (`sort *` reads `--output=made.txt`).
  t("opt-sort/--output=made.txt", "x\n");
  t("opt-sort/a.txt", "a\n");
  t("opt-sed/--in-place=.md", "x\n");
  t("opt-sed/a.md", "keep me\n");
  t("opt-grep/-r", "x\n");
  t("opt-grep/sub/.env", `TOKEN=${SECRET}-2\n`);
  // A folder of templates that would plant protected paths if copied into the project root.
  t("templates/.claude/commands/x.md", "run pwned\n");
  t("templates/.mcp.json", "{}\n");
  t("templates/ok/a.txt", "a\n");
  t("evil-tpl/hooks/post-checkout", "#!/bin/sh\npwned\n", 0o755);
  symlinkSync("../outside", join(ws, "linkdir"));
  mkdirSync(join(top, "git-template"));
  git(ws, "init", "-q", `--template=${join(top, "git-template")}`);
  mkdirSync(join(ws, ".git", "hooks"));
  git(ws, "add", "-A");
  git(ws, "commit", "-qm", "init");
  // A branch whose tree holds protected paths (`git checkout evil -- .` would plant them).
  git(ws, "checkout", "-q", "-b", "evil");
  t(".mcp.json", "{}\n");
  t(".claude/commands/x.md", "run pwned\n");
  git(ws, "add", "-A");
  git(ws, "commit", "-qm", "evil");
  git(ws, "checkout", "-q", "-");
  spawnSync("tar", ["-cf", "a.tar", "README.md"], { cwd: ws });
  const tarDir = join(top, "tar");
  mkdirSync(tarDir);
  symlinkSync("../outside", join(tarDir, "tlink"));
  spawnSync("tar", ["-cf", join(ws, "links.tar"), "tlink"], { cwd: tarDir });
  // Archives that would plant protected paths when unpacked in the project, and harmless ones.
  const plant = join(top, "plant");
  file(join(plant, ".mcp.json"), "{}\n");
  file(join(plant, ".claude", "commands", "x.md"), "run pwned\n");
  spawnSync("tar", ["-cf", join(ws, "plant.tar"), ".mcp.json", ".claude"], { cwd: plant });
  spawnSync("tar", ["-czf", join(ws, "plant.tgz"), ".mcp.json", ".claude"], { cwd: plant });
  spawnSync("zip", ["-qr", join(ws, "plant.zip"), ".mcp.json", ".claude"], { cwd: plant });
  file(join(top, "ok", "made-untar.txt"), "ok\n");
  spawnSync("tar", ["-cf", join(ws, "ok.tar"), "made-untar.txt"], { cwd: join(top, "ok") });
  spawnSync("zip", ["-q", join(ws, "ok.zip"), "made-untar.txt"], { cwd: join(top, "ok") });
  file(join(outside, "target"), "original\n");
  mkdirSync(join(outside, "repo"));
  git(join(outside, "repo"), "init", "-q", `--template=${join(top, "git-template")}`);
  git(join(outside, "repo"), "config", "core.fsmonitor", "pwned");
  file(join(home, ".ssh", "id_rsa"), `-----BEGIN KEY-----\n${SECRET}-KEY\n`);

  const boxDir = join(top, "box");
  const box: Box = { base: boxDir, root: join(boxDir, "ws"), outside: join(boxDir, "outside"), home: join(boxDir, "home"), log };
  const copy = (): void => {
    rmSync(boxDir, { recursive: true, force: true });
    cpSync(template, boxDir, { recursive: true, verbatimSymlinks: true });
    linkSync(join(box.outside, "target"), join(box.root, "shared.txt"));
  };
  copy();
  /** The box as the last reset left it (restored files have new inodes, so it is taken again). */
  let baseline = snapshot(boxDir);
  let dirty = false;
  return {
    fresh() {
      if (dirty) {
        restore(boxDir, template, baseline);
        if (statSync(join(box.root, "shared.txt")).nlink !== 2) {
          rmSync(join(box.root, "shared.txt"), { force: true });
          linkSync(join(box.outside, "target"), join(box.root, "shared.txt"));
        }
        baseline = snapshot(boxDir);
      }
      dirty = false;
      rmSync(log, { force: true });
      return box;
    },
    run(box, line, projectMayChange) {
      const r = spawnSync(BASH as string, ["-c", line], {
        cwd: box.root,
        env: { PATH: `${stubs}:${process.env.PATH ?? "/usr/bin:/bin"}`, HOME: box.home, LANG: "C", GIT_CONFIG_NOSYSTEM: "1", npm_config_update_notifier: "false", npm_config_cache: join(top, "npm-cache") },
        input: "",
        // No line of the corpus waits for anything (the slowest, npm and python, take 1–4 s on a
        // loaded machine): the limit only stops a wrong line, never a slow machine.
        timeout: 60_000,
        encoding: "utf8",
      });
      const output = `${r.stdout ?? ""}${r.stderr ?? ""}`;
      const harm: string[] = [];
      if (existsSync(log)) harm.push(`ran ${readFileSync(log, "utf8").trim().split("\n").join(",")}`);
      if (output.includes(SECRET)) harm.push("printed a secret");
      const after = snapshot(boxDir);
      const differs = (k: string): boolean => baseline[k] !== after[k];
      const keys = [...new Set([...Object.keys(baseline), ...Object.keys(after)])].filter(differs);
      dirty = keys.length > 0;
      if (keys.some((k) => k.startsWith("outside/"))) harm.push("changed ../outside");
      if (keys.some((k) => k.startsWith("home/"))) harm.push("changed the home folder");
      const inProject = keys.filter((k) => k.startsWith("ws/") && k !== "ws/.git/index" && !(projectMayChange && k.startsWith("ws/made-")));
      if (inProject.length > 0) harm.push(`changed the project (${inProject.slice(0, 3).join(", ")})`);
      return { harm, status: r.status, output };
    },
    cleanup: () => rmSync(top, { recursive: true, force: true }),
  };
}
