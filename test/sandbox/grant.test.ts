// What the sandbox grants (mods/sandbox/grant.ts, env.ts, gitconfig.ts), piece by piece: the
// environment by grant, the git config without its credentials, the toolchains a PATH points
// into, and a run's own read grant (Grep's search path) — the last with real bash in real
// bubblewrap, judged by what the command sees. (The whole, through the real CLI, is judged in
// test/permissions-e2e/sandbox-grant-*.test.ts.)
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { grantEnv, isCredential, redact } from "../../mods/sandbox/env.js";
import { sanitizeGitConfig } from "../../mods/sandbox/gitconfig.js";
import { toolchainDirs } from "../../mods/sandbox/grant.js";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { loadSandbox } from "./harness.js";

describe("the environment a sandboxed command gets", () => {
  it("passes what programs need and drops what nothing grants", () => {
    const g = grantEnv({ PATH: "/usr/bin", HOME: "/h", LANG: "C.UTF-8", LC_ALL: "C", TERM: "xterm", GOFLAGS: "-mod=mod", npm_config_registry: "https://r.example/", MY_APP_MODE: "dev", SSH_AUTH_SOCK: "/run/a.sock" });
    expect(g.env).toEqual({ PATH: "/usr/bin", HOME: "/h", LANG: "C.UTF-8", LC_ALL: "C", TERM: "xterm", GOFLAGS: "-mod=mod", npm_config_registry: "https://r.example/" });
    expect(g.dropped).toEqual(["MY_APP_MODE", "SSH_AUTH_SOCK"]);
  });

  it.each([
    ["GITHUB_TOKEN", "x"], ["NPM_TOKEN", "x"], ["AWS_SECRET_ACCESS_KEY", "x"], ["AWS_ACCESS_KEY_ID", "x"], ["OPENAI_API_KEY", "x"], ["HF_TOKEN", "x"],
    ["CI_JOB_TOKEN", "x"], ["VAULT_TOKEN", "x"], ["DB_PASSWORD", "x"], ["DB_PWD", "x"], ["SENTRY_DSN", "x"], ["npm_config__authToken", "x"], ["CI_JOB_JWT", "x"],
    ["DATABASE_URL", "postgres://app:hunter2@db.internal/app"], ["GOPROXY", "https://user:s3cret@proxy.example"], ["GIT_CONFIG_PARAMETERS", "'http.extraheader=AUTHORIZATION: bearer ghp_abcdefghijklmnopqrstuvwxyz0123'"],
    ["SOME_VALUE", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"], ["X", "AKIAABCDEFGHIJKLMNOP"], ["Y", "eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0"],
  ])("withholds %s (a credential by its name or its value), even under a passing family", (name, value) => {
    expect(isCredential(name, value)).toBe(true);
    const g = grantEnv({ [name]: value });
    expect(g.env[name]).toBeUndefined();
    expect(g.withheld.map((w) => w.name)).toEqual([name]);
  });

  it.each([["GIT_AUTHOR_NAME", "Ada"], ["KEYBOARD_LAYOUT", "us"], ["PWD", "/w"], ["GOPATH", "/h/go"], ["DATABASE_URL", "postgres://db.internal/app"]])("does not take %s for a credential", (name, value) => {
    expect(isCredential(name, value)).toBe(false);
  });

  it("passes what settings sandbox.env names, by name or glob, credentials included", () => {
    const g = grantEnv({ GITHUB_TOKEN: "a", HF_TOKEN: "b", HF_HOME: "/h/hf", NPM_TOKEN: "c", MYAPP_MODE: "dev" }, {}, ["GITHUB_TOKEN", "HF_*", "MYAPP_*"]);
    expect(g.env).toEqual({ GITHUB_TOKEN: "a", HF_TOKEN: "b", HF_HOME: "/h/hf", MYAPP_MODE: "dev" });
    expect(g.withheld.map((w) => w.name)).toEqual(["NPM_TOKEN"]);
  });

  it("keeps what the request itself sets (deepcode's own choice for the command)", () => {
    expect(grantEnv({ PAGER: "less" }, { PAGER: "cat", GIT_TERMINAL_PROMPT: "0" }).env).toEqual({ PAGER: "cat", GIT_TERMINAL_PROMPT: "0" });
  });

  it("replaces a withheld value wherever it shows in output, and leaves short ones alone", () => {
    const w = [{ name: "GITHUB_TOKEN", value: "ghp_secretsecretsecret" }, { name: "PIN", value: "1234" }];
    expect(redact("token=ghp_secretsecretsecret; again ghp_secretsecretsecret; pin 1234", w)).toBe("token=[withheld: GITHUB_TOKEN]; again [withheld: GITHUB_TOKEN]; pin 1234");
  });
});

describe("the person's git config in the private home", () => {
  it("keeps identity, aliases and settings, and leaves out what can carry a credential", () => {
    const text = [
      "[user]", "\tname = Ada", "\temail = ada@example.com",
      "[alias]", "\tco = checkout",
      '[url "https://x-access-token:ghp_abcdefghijklmnopqrstuvwxyz012345@github.com/"]', "\tinsteadOf = https://github.com/",
      '[url "git@github.com:"]', "\tpushInsteadOf = https://github.com/",
      "[credential]", "\thelper = store",
      '[http "https://git.corp.example/"]', "\textraheader = AUTHORIZATION: basic dXNlcjpwYXNz",
      "[include]", "\tpath = ~/.gitconfig.secret",
      "[core]", "\teditor = vim",
    ].join("\n");
    const out = sanitizeGitConfig(text);
    for (const kept of ["name = Ada", "email = ada@example.com", "co = checkout", '[url "git@github.com:"]', "pushInsteadOf", "editor = vim"]) expect(out).toContain(kept);
    for (const gone of ["ghp_", "helper = store", "dXNlcjpwYXNz", ".gitconfig.secret"]) expect(out).not.toContain(gone);
  });
});

describe("the toolchains a PATH points into", () => {
  let base: string;
  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-grant-")));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it("grants a PATH folder's install prefix and companions, never the home itself nor other programs' data", () => {
    const home = join(base, "home");
    for (const d of [".cargo/bin", ".rustup/toolchains", ".pyenv/shims", ".pyenv/versions", ".local/bin", ".local/lib", ".local/share/keyrings", "bin", "tools/x/bin", "proj/node_modules/.bin", "proj/node_modules/pkg"]) mkdirSync(join(home, d), { recursive: true });
    symlinkSync(join(home, "tools", "x", "bin", "x"), join(home, "bin", "x"));
    writeFileSync(join(home, "tools", "x", "bin", "x"), "");
    const path = [".cargo/bin", ".pyenv/shims", ".local/bin", "bin", "proj/node_modules/.bin"].map((d) => join(home, d)).join(":");
    const dirs = toolchainDirs(path, home, [], "/usr/bin/node");
    expect(dirs).toEqual([".cargo", ".local/bin", ".local/lib", ".pyenv", ".rustup", "bin", "proj/node_modules", "tools/x"].map((d) => join(home, d)).sort());
  });
});

const available = sandboxStatus().active;

describe.skipIf(!available)("a run's own read grant (real bubblewrap)", () => {
  let base: string;
  beforeEach(() => {
    base = realpathSync(mkdtempSync(join("/var/tmp", "deepcode-grant-")));
    mkdirSync(join(base, "ws"));
    mkdirSync(join(base, "elsewhere"));
    writeFileSync(join(base, "elsewhere", "notes.txt"), "needle here\n");
    writeFileSync(join(base, "elsewhere", ".env"), "TOKEN=needle-secret\n");
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it("shows a folder outside the grants only to the run that names it (Grep's search path), read-only, secrets empty", async () => {
    const box = loadSandbox({ root: join(base, "ws"), home: join(base, "home"), deepcodeHome: join(base, "dh") });
    const cmd = `grep -r needle ${join(base, "elsewhere")}; touch ${join(base, "elsewhere", "w")} 2>&1 | grep -o 'Read-only file system'`;
    const without = await box.run(cmd);
    expect(without.stdout).not.toContain("needle here");
    const granted = await box.run(cmd, { grantRead: [join(base, "elsewhere")] });
    expect(granted.stdout).toContain("needle here");
    expect(granted.stdout).toContain("Read-only file system");
    expect(granted.stdout).not.toContain("needle-secret");
  });
});
