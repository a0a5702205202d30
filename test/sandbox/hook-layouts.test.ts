// Issue 35, item 6: git hooks in every layout stay as the person left them. For each layout a
// contained command tries to add or alter the hook (real bash in real bubblewrap); afterwards
// the person's next real `git commit`, run here outside the sandbox, must not run the planted
// code: a canary file outside the workspace stays absent.
//
// Layouts: git's own `.git/hooks`; husky ≥ 9 (`core.hooksPath=.husky/_`, whose stubs run
// `.husky/<hook>`; the stubs are written here in husky 9's shape), before and after its hooks
// exist; husky ≤ 8 (`core.hooksPath=.husky`); another `core.hooksPath` folder that does not
// exist yet; husky 4 and yorkie, whose installed hooks read package.json at each commit (a
// hook of that shape is installed here); lefthook and pre-commit, whose installed hooks read
// their config at each commit — the commit runs through the real tool where it is on PATH,
// otherwise the config's state is what is judged (the test says so).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { findOnPath } from "../../src/lib/path-lookup.js";
import { gitIn, loadSandbox, type Sandboxed } from "./harness.js";

const available = sandboxStatus().active;

let base: string;
let root: string;
let home: string;
let canary: string;
let box: Sandboxed;
const git = (...args: string[]): string => gitIn(root, home, ...args);

/** A husky 9 style stub folder: each stub runs `<dir>/<its own name>` with sh. */
function huskyStubs(dir: string): void {
  mkdirSync(join(root, dir, "_"), { recursive: true });
  writeFileSync(join(root, dir, "_", "pre-commit"), '#!/bin/sh\nhook="$(dirname "$(dirname "$0")")/$(basename "$0")"\n[ -f "$hook" ] || exit 0\nexec sh -e "$hook" "$@"\n');
  chmodSync(join(root, dir, "_", "pre-commit"), 0o755);
  git("config", "core.hooksPath", `${dir}/_`);
}

/** The person's next commit, outside the sandbox, with a change staged. */
function commit(): string {
  writeFileSync(join(root, "work.txt"), `${Date.now()}\n`);
  git("add", "work.txt");
  return git("commit", "-q", "-m", "work");
}

const plant = (cmd: string): string => cmd.replaceAll("CANARY", canary);

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-hooks-")));
  root = join(base, "ws");
  home = join(base, "home");
  canary = join(base, "CANARY");
  mkdirSync(root, { recursive: true });
  mkdirSync(home);
  git("init", "-q", "-b", "main");
  writeFileSync(join(root, "README.md"), "readme\n");
  git("add", ".");
  git("commit", "-qm", "start");
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe.skipIf(!available)("git hooks a contained command plants do not run at the person's next commit (real git in bubblewrap)", () => {
  const layouts: Array<[string, () => void, string]> = [
    [".git/hooks/pre-commit", () => undefined, "printf '#!/bin/sh\\ntouch CANARY\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit"],
    ["husky 9, a hook changed", () => {
      huskyStubs(".husky");
      writeFileSync(join(root, ".husky", "pre-commit"), "echo lint\n");
    }, "printf 'touch CANARY\\n' >> .husky/pre-commit; printf 'touch CANARY\\n' > .husky/pre-commit"],
    ["husky 9, no hook yet", () => huskyStubs(".husky"), "printf 'touch CANARY\\n' > .husky/pre-commit"],
    ["husky 9, stubs in a folder of its own choosing", () => huskyStubs(".config/husky"), "printf 'touch CANARY\\n' > .config/husky/pre-commit"],
    ["husky 9 configured, .husky/ not there yet", () => git("config", "core.hooksPath", ".husky/_"), "mkdir -p .husky/_ && printf '#!/bin/sh\\ntouch CANARY\\n' > .husky/_/pre-commit && chmod +x .husky/_/pre-commit"],
    ["husky ≤ 8 (.husky itself)", () => git("config", "core.hooksPath", ".husky"), "mkdir -p .husky && printf '#!/bin/sh\\ntouch CANARY\\n' > .husky/pre-commit && chmod +x .husky/pre-commit"],
    ["another core.hooksPath, not there yet", () => git("config", "core.hooksPath", ".githooks"), "mkdir -p .githooks && printf '#!/bin/sh\\ntouch CANARY\\n' > .githooks/pre-commit && chmod +x .githooks/pre-commit"],
  ];

  it.each(layouts)("%s", async (_name, setup, attack) => {
    setup();
    box = loadSandbox({ root, home, deepcodeHome: join(base, "dc-home") });
    const r = await box.run(`${plant(attack)}; true`);
    expect(r.exitCode).toBe(0);
    commit();
    expect(existsSync(canary), r.stderr).toBe(false);
  });

  it("husky 4 and yorkie: hook keys added to package.json are put back before the commit reads them", async () => {
    writeFileSync(join(root, "package.json"), '{\n  "name": "app"\n}\n');
    // The shape of husky 4's and yorkie's installed hook: it reads package.json at each commit.
    const runner = 'const p = require("./package.json"); const h = (p.husky && p.husky.hooks && p.husky.hooks["pre-commit"]) || (p.gitHooks && p.gitHooks["pre-commit"]); if (h) require("child_process").execSync(h, { stdio: "inherit" });';
    writeFileSync(join(root, ".git", "hooks", "pre-commit"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} -e '${runner}'\n`);
    chmodSync(join(root, ".git", "hooks", "pre-commit"), 0o755);
    box = loadSandbox({ root, home, deepcodeHome: join(base, "dc-home") });
    const r = await box.run(plant(`node -e 'const f=require("fs");const p=JSON.parse(f.readFileSync("package.json"));p.husky={hooks:{"pre-commit":"touch CANARY"}};p.gitHooks={"pre-commit":"touch CANARY"};f.writeFileSync("package.json",JSON.stringify(p,null,2)+"\\n")'`));
    expect(r.stderr).toContain("put back gitHooks, husky in package.json");
    commit();
    expect(existsSync(canary)).toBe(false);
    expect(readFileSync(join(root, "package.json"), "utf8")).toBe('{\n  "name": "app"\n}\n');
  });

  const configs: Array<[string, string, string, string | null]> = [
    ["lefthook", "lefthook.yml", "pre-commit:\n  commands:\n    lint:\n      run: echo lint\n", "lefthook"],
    ["lefthook, hidden name", ".lefthook.yml", "pre-commit:\n  commands:\n    lint:\n      run: echo lint\n", "lefthook"],
    ["lefthook, local override", "lefthook-local.yml", "", "lefthook"],
    ["lefthook under .config", ".config/lefthook.yml", "", "lefthook"],
    ["pre-commit", ".pre-commit-config.yaml", "repos: []\n", "pre-commit"],
  ];

  it.each(configs)("%s: a planted or changed %s is undone", async (_name, file, original, tool) => {
    if (original !== "") writeFileSync(join(root, file), original);
    const bin = tool ? findOnPath(tool, process.env.PATH ?? "") : null;
    if (bin && original !== "") expect(spawnSync(bin, ["install"], { cwd: root, env: { PATH: process.env.PATH ?? "", HOME: home } }).status).toBe(0);
    box = loadSandbox({ root, home, deepcodeHome: join(base, "dc-home") });
    const planted = file.includes("pre-commit")
      ? "repos:\n- repo: local\n  hooks:\n  - id: x\n    name: x\n    entry: touch CANARY\n    language: system\n    always_run: true\n"
      : "pre-commit:\n  commands:\n    x:\n      run: touch CANARY\n";
    const r = await box.run(`mkdir -p .config; printf '%s' '${plant(planted)}' > ${file}; true`);
    expect(r.exitCode).toBe(0);
    if (original === "") expect(existsSync(join(root, file))).toBe(false);
    else expect(readFileSync(join(root, file), "utf8")).toBe(original);
    if (bin) {
      commit();
      expect(existsSync(canary)).toBe(false);
    } else {
      // Not on PATH here: the installed hook cannot run, so the config's state (above) is the judge.
      console.info(`${tool} is not on PATH: judged by the state of ${file} alone`);
    }
  });
});
