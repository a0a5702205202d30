// The sandbox mod at the process.run level, with real bash inside real bubblewrap (issue 21):
// protected paths stay unwritten whether they exist or not (what a command creates where no
// mount could stop it is undone before the call returns), project secrets are hidden, plan
// mode's read-only run writes nothing, and processes outside cannot be killed. Judged by effect
// on the disk. Skipped where bubblewrap cannot run (CI installs it).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import plugin, { sandboxStatus } from "../../mods/sandbox/index.js";
import type { PluginApi, ProcessRunRequest, ProcessRunResult } from "../../src/contract/index.js";

const available = sandboxStatus().active;

type Hook = (e: ProcessRunRequest, next: (e: ProcessRunRequest) => Promise<ProcessRunResult>) => Promise<ProcessRunResult>;

let base: string;
let root: string;
let home: string;
let hook: Hook;
let status: () => unknown;
const warnings: string[] = [];

/** The mod registered against a fake API that keeps its process.run hook. */
function load(config: Record<string, unknown> = {}): void {
  const api = {
    id: "sandbox",
    readDenied: () => null,
    root,
    home: join(base, "deepcode-home"),
    config: {},
    // Settings `sandbox` and the folders the person opened, as assembly gives every plugin.
    settings: { get: (key: string) => (key === "sandbox" ? { enabled: config.enabled, network: config.network } : undefined), layers: [], fileOf: () => undefined },
    host: { additionalDirectories: Array.isArray(config.additionalDirectories) ? config.additionalDirectories : [] },
    log: { warn: (m: string) => warnings.push(m), info: () => undefined, error: () => undefined },
    on: (name: string, h: Hook) => {
      if (name === "process.run") hook = h;
    },
    status: (r: () => unknown) => (status = r),
  };
  // The mod uses only these members of the API.
  void plugin.register(api as unknown as PluginApi);
}

/** The core's end of the chain: run the argv, collect the output. */
function exec(e: ProcessRunRequest): Promise<ProcessRunResult> {
  return new Promise((resolve) => {
    const child = spawn(e.argv[0], e.argv.slice(1), { cwd: e.cwd, env: e.clearEnv === true ? e.env : { PATH: process.env.PATH ?? "", HOME: home, ...e.env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("close", (code) => resolve({ exitCode: code, signal: null, stdout, stderr, timedOut: false, interrupted: false, durationMs: 0, truncatedBytes: 0 }));
  });
}

function run(command: string, extra: Partial<ProcessRunRequest> = {}): Promise<ProcessRunResult> {
  return hook({ argv: ["bash", "-c", command], cwd: root, timeoutMs: 60_000, ...extra }, exec);
}

const git = (...args: string[]): void => {
  spawnSync("git", args, { cwd: root, env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: "1" } });
};

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-contain-")));
  root = join(base, "ws");
  home = join(base, "home");
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(root, "README.md"), "readme\n");
  git("init", "-q");
  git("config", "core.hooksPath", ".husky");
  warnings.length = 0;
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe.skipIf(!available)("the sandbox at the process.run level (real bash in bubblewrap)", () => {
  it("reports itself active without network, for the permission gate", () => {
    load();
    expect(status()).toMatchObject({ active: true, mechanism: "bwrap", network: false });
    // What it grants, for /status, doctor and the gate: the workspace read-write, the system read-only.
    expect(status()).toMatchObject({ grants: { write: [realpathSync(root)], walked: [realpathSync(root)] } });
    expect((status() as { grants: { readOnly: string[] } }).grants.readOnly).toContain("/usr");
  });

  it("hides deepcode's home but shows the installed plugins' files, read-only, so a plugin's command can run its own script", async () => {
    const dh = join(base, "deepcode-home");
    const plugin = join(dh, "plugins", "installed", "kit@market");
    mkdirSync(join(plugin, "scripts"), { recursive: true });
    writeFileSync(join(plugin, "scripts", "setup.sh"), "echo PLUGIN-SCRIPT-RAN\n");
    writeFileSync(join(dh, "plugins", "lock.json"), "{}\n");
    writeFileSync(join(dh, "credentials"), "sk-secret\n");
    load();
    const r = await run(`bash ${plugin}/scripts/setup.sh; cat ${dh}/plugins/lock.json ${dh}/credentials; echo changed > ${plugin}/scripts/setup.sh; echo more > ${plugin}/new.txt; true`);
    expect(r.stdout).toContain("PLUGIN-SCRIPT-RAN");
    expect(r.stdout).not.toContain("sk-secret");
    expect(r.stderr).toMatch(/lock\.json: No such file/);
    expect(readFileSync(join(plugin, "scripts", "setup.sh"), "utf8")).toBe("echo PLUGIN-SCRIPT-RAN\n");
    expect(existsSync(join(plugin, "new.txt"))).toBe(false);
  });

  it.each([
    [".mcp.json", "echo '{\"mcpServers\":{}}' > .mcp.json"],
    [".claude/settings.json", "mkdir -p .claude && echo '{}' > .claude/settings.json"],
    [".claude/commands/x.md", "mkdir -p .claude/commands && echo evil > .claude/commands/x.md"],
    [".git/config.worktree", "printf '[core]\\n\\tfsmonitor = evil\\n' > .git/config.worktree"],
    [".git/info/attributes", "mkdir -p .git/info && echo '* filter=evil' > .git/info/attributes"],
    [".husky/pre-commit", "mkdir -p .husky && printf '#!/bin/sh\\nevil\\n' > .husky/pre-commit && chmod +x .husky/pre-commit"],
    [".git/hooks/post-checkout", "mkdir -p .git/hooks && echo evil > .git/hooks/post-checkout"],
    [".deepcode/settings.json", "echo '{}' > .deepcode/settings.json"],
  ])("leaves no %s behind, whether or not it existed", async (path, command) => {
    load();
    rmSync(join(root, ".git", "hooks"), { recursive: true, force: true }); // even with no hooks folder yet
    rmSync(join(root, ".git", "info"), { recursive: true, force: true });
    const r = await run(`${command}; cat ${path} >/dev/null 2>&1 && echo inside-it-existed`);
    expect(existsSync(join(root, path))).toBe(false);
    if (r.stdout.includes("inside-it-existed")) expect(r.stderr).toContain("protected paths are never written");
    // A folder made only to hold it goes too.
    if (path.startsWith(".claude/")) expect(existsSync(join(root, ".claude"))).toBe(false);
  });

  it("puts back a protected file replaced by moving its folder aside", async () => {
    mkdirSync(join(root, ".claude"));
    writeFileSync(join(root, ".claude", "settings.json"), '{"permissions":{"deny":["Bash"]}}\n');
    load();
    const r = await run("mv .claude .claude-old && mkdir .claude && echo '{\"permissions\":{\"allow\":[\"Bash\"]}}' > .claude/settings.json; echo done");
    expect(r.stdout).toContain("done");
    expect(readFileSync(join(root, ".claude", "settings.json"), "utf8")).toContain('"deny"');
  });

  it("keeps existing git config and hooks read-only (git remote add, git config fail)", async () => {
    load();
    const before = readFileSync(join(root, ".git", "config"), "utf8");
    await run("git remote add evil http://127.0.0.1:9/x.git; git config core.fsmonitor evil; printf '[alias]\\n\\tx = !evil\\n' >> .git/config");
    expect(readFileSync(join(root, ".git", "config"), "utf8")).toBe(before);
  });

  it("hides project secrets (.env, keys, token files) but not templates or ordinary files", async () => {
    writeFileSync(join(root, ".env"), "API_KEY=project-secret-1\n");
    writeFileSync(join(root, ".env.example"), "API_KEY=\n");
    mkdirSync(join(root, "deploy", "keys"), { recursive: true });
    writeFileSync(join(root, "deploy", "keys", "id_ed25519"), "project-secret-2\n");
    writeFileSync(join(root, "deploy", "server.pem"), "project-secret-3\n");
    writeFileSync(join(root, "src", ".npmrc"), "//registry/:_authToken=project-secret-4\n");
    load();
    const r = await run("cat .env deploy/keys/id_ed25519 deploy/server.pem src/.npmrc; grep -r project-secret . ; cat .env.example README.md");
    expect(r.stdout).not.toContain("project-secret");
    expect(r.stdout).toContain("API_KEY=\n");
    expect(r.stdout).toContain("readme");
    // And they stay as they were on disk.
    expect(readFileSync(join(root, ".env"), "utf8")).toBe("API_KEY=project-secret-1\n");
  });

  it("writes nothing at all for a read-only (plan mode) run, the private temp folder aside", async () => {
    load();
    const r = await run("echo x > planned.txt; echo y > /tmp/t && cat /tmp/t; node -e 'require(\"fs\").writeFileSync(\"src/n.js\",\"x\")' 2>&1 | tail -1", { readOnly: true });
    expect(existsSync(join(root, "planned.txt"))).toBe(false);
    expect(existsSync(join(root, "src", "n.js"))).toBe(false);
    expect(r.stdout).toContain("y");
  });

  it("cannot kill a process outside (a PID namespace of its own)", async () => {
    const victim = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    try {
      load();
      await run(`kill -9 ${victim.pid}; pkill -f setInterval; true`);
      expect(victim.exitCode).toBeNull();
      expect(() => process.kill(victim.pid as number, 0)).not.toThrow();
    } finally {
      victim.kill("SIGKILL");
    }
  });
});
