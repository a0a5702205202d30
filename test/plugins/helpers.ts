// A local marketplace for the plugin tests: test/fixtures/claude-marketplace (a Claude Code
// marketplace with the review-kit plugin, written as its authors would) committed into a git
// repository and published as a bare repository in a temp folder — never the network. The
// real CLI runs against the simulator with its own project and home (cliEnv).
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator, type Script, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { runBin, type Run } from "../e2e/helpers.js";

export const FIXTURE = fileURLToPath(new URL("../fixtures/claude-marketplace", import.meta.url));
export const MANAGED_BIN = fileURLToPath(new URL("../helpers/cli-with-managed.mjs", import.meta.url));
export const PLUGIN_ID = "review-kit@acme-tools";

/** git is a Debian peer (.ci/run installs it): the tests that need it skip without it. */
export const GIT_AVAILABLE = spawnSync("git", ["--version"], { encoding: "utf8" }).status === 0;
if (!GIT_AVAILABLE) process.stderr.write("deepcode tests: git not found; the plugin marketplace tests are skipped\n");

const GIT_ENV = { GIT_AUTHOR_NAME: "Acme", GIT_AUTHOR_EMAIL: "devex@acme.example", GIT_COMMITTER_NAME: "Acme", GIT_COMMITTER_EMAIL: "devex@acme.example", GIT_CONFIG_NOSYSTEM: "1", HOME: tmpdir() };

function gitSync(args: string[], cwd: string): string {
  const r = spawnSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...GIT_ENV } });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

export interface Market {
  /** The working copy the marketplace's authors edit. */
  work: string;
  /** The bare repository people add (`deepcode plugin marketplace add <bare>`). */
  bare: string;
  /** Write files in the working copy (relative paths), commit, and push to the bare repository. */
  publish(files: Record<string, string>, message: string): string;
  cleanup(): void;
}

export function makeMarket(): Market {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-market-")));
  const work = join(base, "work");
  const bare = join(base, "acme-tools.git");
  cpSync(FIXTURE, work, { recursive: true });
  gitSync(["init", "-q", "-b", "main"], work);
  gitSync(["add", "-A"], work);
  gitSync(["commit", "-q", "-m", "review-kit 1.0.0"], work);
  gitSync(["clone", "-q", "--bare", work, bare], base);
  gitSync(["remote", "add", "origin", bare], work);
  return {
    work,
    bare,
    publish(files, message) {
      for (const [p, c] of Object.entries(files)) {
        mkdirSync(dirname(join(work, p)), { recursive: true });
        writeFileSync(join(work, p), c);
      }
      gitSync(["add", "-A"], work);
      gitSync(["commit", "-q", "-m", message], work);
      gitSync(["push", "-q", "origin", "main"], work);
      return gitSync(["rev-parse", "HEAD"], work);
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** The real CLI (async: the simulator lives in this process). `managed`: a policy file. */
export function deepcode(env: CliEnv, args: string[], o: { managed?: string; env?: Record<string, string>; stdin?: string } = {}): Promise<Run> {
  return runBin(args, { cwd: env.root, env: { ...env.env, ...o.env }, stdin: o.stdin, entry: o.managed ? [MANAGED_BIN, o.managed] : undefined });
}

export interface Rig {
  sim: Simulator;
  env: CliEnv;
  market: Market;
  run(args: string[], o?: { managed?: string; env?: Record<string, string> }): Promise<Run>;
  /** Add the marketplace and install review-kit (agreeing with --yes-install). */
  installKit(): Promise<void>;
  close(): Promise<void>;
}

export async function pluginRig(script: Script = { default: { content: "ok" } }, files: Record<string, string> = {}): Promise<Rig> {
  const sim = await startSimulator({ script, apiKey: "sk-test-cli" });
  const env = cliEnv(sim.url, files);
  const market = makeMarket();
  const rig: Rig = {
    sim,
    env,
    market,
    run: (args, o) => deepcode(env, args, o),
    installKit: async () => {
      const added = await deepcode(env, ["plugin", "marketplace", "add", market.bare]);
      if (added.code !== 0) throw new Error(`marketplace add failed: ${added.stderr}${added.stdout}`);
      const installed = await deepcode(env, ["plugin", "install", PLUGIN_ID, "--yes-install"]);
      if (installed.code !== 0) throw new Error(`install failed: ${installed.stderr}${installed.stdout}`);
    },
    close: async () => {
      await sim.close();
      env.cleanup();
      market.cleanup();
    },
  };
  return rig;
}

export function installedDir(env: CliEnv): string {
  return join(env.home, "plugins", "installed", PLUGIN_ID);
}

/** A marketplace folder (no git) in a temp folder: `plugins` maps each plugin's name to its
 *  files (relative paths → content); `entries` overrides marketplace entries by name. */
export function folderMarket(name: string, plugins: Record<string, Record<string, string>>, entries: Record<string, object> = {}): { dir: string; cleanup(): void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-folder-market-")));
  const list = Object.keys({ ...plugins, ...entries }).map((p) => ({ name: p, source: `./plugins/${p}`, ...entries[p] }));
  mkdirSync(join(dir, ".claude-plugin"), { recursive: true });
  writeFileSync(join(dir, ".claude-plugin", "marketplace.json"), JSON.stringify({ name, owner: { name: "Someone" }, plugins: list }));
  for (const [p, files] of Object.entries(plugins)) {
    for (const [rel, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, "plugins", p, rel)), { recursive: true });
      writeFileSync(join(dir, "plugins", p, rel), content);
    }
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The plugin verbs in this process (what `deepcode plugin …` runs), against a home and a
 *  project; `answer` is what the person says to an install or update; `managed` a policy. */
export async function verbs(o: { home: string; root: string; managed?: object; answer?: boolean }, args: string[]): Promise<{ code: number; out: string; asked: string[] }> {
  const { loadSettings } = await import("../../src/cli/settings/load.js");
  const { runPluginVerbs } = await import("../../mods/marketplace/command.js");
  const managedPath = join(o.home, "policy", "managed-settings.json");
  if (o.managed) {
    mkdirSync(dirname(managedPath), { recursive: true });
    writeFileSync(managedPath, JSON.stringify(o.managed));
  }
  const settings = loadSettings({ root: o.root, home: o.home, managedPath });
  const lines: string[] = [];
  const asked: string[] = [];
  const code = await runPluginVerbs(args, { home: o.home, root: o.root, settings }, (yes) => ({
    say: (l) => void lines.push(l),
    confirm: async (title) => {
      asked.push(title);
      return yes || o.answer === true;
    },
  }));
  return { code, out: lines.join("\n"), asked };
}

/** A deepcode home and a project, each a new temp folder; `cleanups` gets their removal. */
export function homeAndProject(cleanups: Array<() => void>): { home: string; root: string } {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-plugin-home-")));
  const root = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-plugin-proj-")));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }), () => rmSync(root, { recursive: true, force: true }));
  return { home, root };
}

/** Temporary folders (real paths) a test file makes; `clean()` in its afterEach removes them. */
export function tempFolders(): { make(prefix: string): string; clean(): void } {
  const made: string[] = [];
  return {
    make: (prefix) => {
      const d = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
      made.push(d);
      return d;
    },
    clean: () => made.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })),
  };
}
