// Issue 35, item 6: package lifecycle scripts a contained command adds or changes are put back.
// `npm pkg set scripts.postinstall=…` in the sandbox would otherwise run at the person's next
// `npm install`, outside any sandbox. Real npm in real bubblewrap, then real npm outside it as
// the person runs it, judged by a canary file. Skipped where bubblewrap cannot run.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { loadSandbox, type Sandboxed } from "./harness.js";

const available = sandboxStatus().active;

let base: string;
let root: string;
let home: string;
let box: Sandboxed;

/** npm outside the sandbox, as the person runs it (no network needed: the project has no
 *  dependencies). */
function npm(...args: string[]): { status: number | null; out: string } {
  const r = spawnSync("npm", args, { cwd: root, encoding: "utf8", env: { PATH: process.env.PATH ?? "", HOME: home, npm_config_cache: join(base, "npm-cache"), npm_config_update_notifier: "false", npm_config_audit: "false", npm_config_fund: "false" }, timeout: 120_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const pkg = (): Record<string, unknown> => JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-lifecycle-")));
  root = join(base, "ws");
  home = join(base, "home");
  mkdirSync(root, { recursive: true });
  mkdirSync(home);
  writeFileSync(join(root, "package.json"), `${JSON.stringify({ name: "app", version: "1.0.0", scripts: { test: "echo test", prepare: "echo prepared" } }, null, 2)}\n`);
  box = loadSandbox({ root, home, deepcodeHome: join(base, "dc-home"), env: { npm_config_cache: join(base, "npm-cache-inside"), npm_config_update_notifier: "false" } });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe.skipIf(!available)("lifecycle scripts a contained command plants (real npm in bubblewrap)", () => {
  it("npm pkg set scripts.postinstall is put back, and the person's next npm install and npm run postinstall do not run it", async () => {
    const r = await box.run('npm pkg set scripts.postinstall="touch CANARY" scripts.build="echo built"');
    expect(r.exitCode).toBe(0);
    expect(pkg().scripts).toEqual({ test: "echo test", prepare: "echo prepared", build: "echo built" }); // the rest of its change stays
    expect(r.stderr).toMatch(/put back scripts\.postinstall in package\.json/);
    expect(r.stderr).toMatch(/yours to make/);
    npm("install", "--offline", "--ignore-scripts=false");
    npm("run", "postinstall");
    expect(existsSync(join(root, "CANARY"))).toBe(false);
  });

  it("a changed prepare script gets its old command back, keeping the file's indentation", async () => {
    writeFileSync(join(root, "package.json"), '{\n\t"name": "app",\n\t"scripts": {\n\t\t"prepare": "echo prepared"\n\t}\n}\n');
    const r = await box.run("sed -i 's/echo prepared/touch CANARY/' package.json; true");
    expect(readFileSync(join(root, "package.json"), "utf8")).toBe('{\n\t"name": "app",\n\t"scripts": {\n\t\t"prepare": "echo prepared"\n\t}\n}\n');
    expect(r.stderr).toContain("put back scripts.prepare in package.json");
    const run = npm("run", "prepare");
    expect(run.out).toContain("prepared");
    expect(existsSync(join(root, "CANARY"))).toBe(false);
  });

  it("a new workspace package's install script and a git hook manager's key are taken out", async () => {
    const r = await box.run(
      [
        "mkdir -p packages/evil",
        `printf '%s' '{"name":"evil","version":"1.0.0","scripts":{"install":"touch ../../CANARY","build":"echo b"}}' > packages/evil/package.json`,
        `npm pkg set 'gitHooks.pre-commit=touch CANARY' 'simple-git-hooks.pre-commit=touch CANARY'`,
      ].join(" && "),
    );
    expect(JSON.parse(readFileSync(join(root, "packages", "evil", "package.json"), "utf8"))).toEqual({ name: "evil", version: "1.0.0", scripts: { build: "echo b" } });
    expect(pkg().gitHooks).toBeUndefined();
    expect(pkg()["simple-git-hooks"]).toBeUndefined();
    expect(r.stderr).toContain("put back gitHooks, simple-git-hooks in package.json");
  });

  it("leaves a removed lifecycle script removed and an ordinary script change alone", async () => {
    const r = await box.run("npm pkg delete scripts.prepare && npm pkg set scripts.test=vitest");
    expect(pkg().scripts).toEqual({ test: "vitest" });
    expect(r.stderr).not.toContain("put back");
  });
});
