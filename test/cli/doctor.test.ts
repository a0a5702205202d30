import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { Writable } from "node:stream";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { doctorChecks, formatDoctor, runDoctor, type DoctorCheck, type DoctorOptions } from "../../src/cli/doctor.js";
import { saveApiKey } from "../../src/cli/credentials.js";
import { tempDirs, writeTree, type Dirs } from "./helpers.js";
import { probeBwrap } from "../../mods/sandbox/bwrap.js";
import { findOnPath } from "../../src/lib/path-lookup.js";
import { freePort } from "../helpers/free-port.js";

const GOOD = "sk-doctor-good-0123456789abcdef";
const BAD = "sk-doctor-bad-fedcba9876543210";

let sim: Simulator;
let d: Dirs;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: GOOD });
});
afterAll(() => sim.close());
beforeEach(() => {
  d = tempDirs();
});
afterEach(() => d.cleanup());

function options(env: Record<string, string>, more: Partial<DoctorOptions> = {}): DoctorOptions {
  return { root: d.root, home: d.home, managedPath: join(d.userHome, "managed", "managed-settings.json"), env: { PATH: process.env.PATH ?? "", DEEPSEEK_BASE_URL: sim.url, ...env }, ...more };
}

async function doctor(o: DoctorOptions): Promise<{ code: number; text: string }> {
  let text = "";
  const out = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  const code = await runDoctor(o, out);
  return { code, text };
}

const find = (checks: DoctorCheck[], id: string) => checks.filter((c) => c.id === id);

describe("the API key and the base URL, against the simulator", () => {
  it("says where the key comes from and that it was accepted, exits 0, and never prints the key", async () => {
    const { code, text } = await doctor(options({ DEEPSEEK_API_KEY: GOOD }));
    expect(code).toBe(0);
    expect(text).toContain("✓ API key: found (from DEEPSEEK_API_KEY)");
    expect(text).toContain(`✓ base URL: ${sim.url} (DEEPSEEK_BASE_URL) reachable`);
    expect(text).toMatch(/✓ key check: key from DEEPSEEK_API_KEY accepted; balance 100\.00 USD/);
    expect(text).not.toContain(GOOD);
  });

  it("reports a key from the credentials file by the file's path", async () => {
    const file = saveApiKey(d.home, GOOD);
    const checks = await doctorChecks(options({}));
    expect(find(checks, "key")[0].detail).toBe(`found (from ${file})`);
    expect(find(checks, "auth")[0].status).toBe("ok");
    expect(find(checks, "credentials")[0]).toMatchObject({ status: "ok", detail: `${file} (mode 600)` });
  });

  it("reports a rejected key (401) as a problem with its fix, exits 1, and never prints the key", async () => {
    const { code, text } = await doctor(options({ DEEPSEEK_API_KEY: BAD }));
    expect(code).toBe(1);
    expect(text).toMatch(/✗ key check: .*401.* — fix: create a key at https:\/\/platform\.deepseek\.com\/api_keys and export a valid DEEPSEEK_API_KEY/);
    expect(text).not.toContain(BAD);
    expect(text).toMatch(/^1 problem, \d+ warnings?\.$/m);
  });

  it("reports an unreachable base URL, leaves the key unchecked, and exits 1", async () => {
    const closed = await freePort();
    const { code, text } = await doctor(options({ DEEPSEEK_API_KEY: GOOD, DEEPSEEK_BASE_URL: `http://127.0.0.1:${closed}` }));
    expect(code).toBe(1);
    expect(text).toMatch(new RegExp(`✗ base URL: http://127\\.0\\.0\\.1:${closed} \\(DEEPSEEK_BASE_URL\\) unreachable: .*ECONNREFUSED.* — fix: check the network`));
    expect(text).toContain("! key check: not checked (the API could not be reached)");
  });

  it("gives up on a server that never answers, within its own time limit", async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const port = (silent.address() as { port: number }).port;
    try {
      const checks = await doctorChecks(options({ DEEPSEEK_API_KEY: GOOD, DEEPSEEK_BASE_URL: `http://127.0.0.1:${port}` }, { timeoutMs: 300 }));
      expect(find(checks, "api")[0]).toMatchObject({ status: "fail", detail: `http://127.0.0.1:${port} (DEEPSEEK_BASE_URL) unreachable: no answer within 0.3 s` });
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  });

  it("says how to set a key when there is none, still checks the base URL, and exits 1", async () => {
    const { code, text } = await doctor(options({}));
    expect(code).toBe(1);
    expect(text).toContain(`✗ API key: not found (neither DEEPSEEK_API_KEY nor ${join(d.home, "credentials")}) — fix: run \`deepcode setup\`, or export DEEPSEEK_API_KEY=sk-…`);
    expect(text).toContain("✓ base URL:");
  });
});

describe("settings and the managed policy", () => {
  it("lists each settings file found as valid, and the layers that have none", async () => {
    writeTree(d.root, { ".deepcode/settings.json": '{ "model": "deepseek-pro" }\n' });
    const checks = await doctorChecks(options({ DEEPSEEK_API_KEY: GOOD }));
    expect(find(checks, "settings").map((c) => `${c.status} ${c.label}: ${c.detail}`)).toEqual([
      `ok settings (project): ${join(d.root, ".deepcode/settings.json")} valid`,
      "ok settings: no user, local settings file (defaults apply there)",
    ]);
  });

  it("reports a malformed settings file with its file and line as a problem, not a crash, and exits 1", async () => {
    const file = join(d.root, ".deepcode/settings.local.json");
    writeTree(d.root, { ".deepcode/settings.local.json": '{\n  "model": "x",,\n}\n' });
    const { code, text } = await doctor(options({ DEEPSEEK_API_KEY: GOOD }));
    expect(code).toBe(1);
    expect(text).toMatch(new RegExp(`✗ settings \\(local\\): ${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:2:\\d+: .* — fix: correct the file at that line`));
  });

  it("lists Claude Code's settings files too, a malformed one as a warning with its line (deepcode still starts)", async () => {
    writeTree(d.root, { ".claude/settings.json": '{ "permissions": { "deny": ["Read(./.env)"] }, "model": "opus" }\n', ".claude/settings.local.json": '{\n  "permissions": {,}\n}\n' });
    const { code, text } = await doctor(options({ DEEPSEEK_API_KEY: GOOD }));
    expect(code).toBe(0);
    expect(text).toContain(`✓ settings (project, Claude Code's): ${join(d.root, ".claude/settings.json")} read (the keys deepcode applies)`);
    expect(text).toContain(`! settings (local, Claude Code's): ${join(d.root, ".claude/settings.local.json")}:2:`);
    expect(text.match(/settings\.local\.json:2:/g)).toHaveLength(1);
    expect(text).not.toContain("opus");
  });

  it("shows start-up warnings of valid files as warnings, which do not fail the run", async () => {
    writeTree(d.home, { "settings.json": '{ "permissions": { "allow": ["Glob(x:*)"] }, "colour": true }\n' });
    const checks = await doctorChecks(options({ DEEPSEEK_API_KEY: GOOD }));
    const warned = find(checks, "settings").filter((c) => c.status === "warn").map((c) => c.detail);
    expect(warned.some((w) => w.includes("colour"))).toBe(true);
    expect(warned.some((w) => w.includes("Glob(x:*)"))).toBe(true);
  });

  it("reports the managed policy as absent, present, or broken (a problem: every tool call is denied)", async () => {
    const o = options({ DEEPSEEK_API_KEY: GOOD });
    expect(find(await doctorChecks(o), "managed")[0]).toMatchObject({ status: "ok", detail: `none (${o.managedPath})` });
    writeTree(join(d.userHome, "managed"), { "managed-settings.json": '{ "permissions": { "deny": ["Bash(curl:*)"] } }' });
    expect(find(await doctorChecks(o), "managed")[0]).toMatchObject({ status: "ok", detail: `present: ${o.managedPath}` });
    writeTree(join(d.userHome, "managed"), { "managed-settings.json": "{ nope" });
    const broken = find(await doctorChecks(o), "managed")[0];
    expect(broken.status).toBe("fail");
    expect(broken.detail).toMatch(/^broken, so every tool call is denied: .*managed-settings\.json:1:/);
  });
});

describe("the machine and deepcode's files", () => {
  it("fails an old Node.js with how to fix it", async () => {
    const [node] = find(await doctorChecks(options({ DEEPSEEK_API_KEY: GOOD }, { nodeVersion: "20.9.0" })), "node");
    expect(formatDoctor([node])).toMatch(/^✗ Node\.js: 20\.9\.0 is too old \(needs ≥ 20\.18\) — fix: install Node\.js 20\.18 or later/);
  });

  it("says that rg is missing when it is not on PATH, as a warning with its fix", async () => {
    const checks = await doctorChecks(options({ DEEPSEEK_API_KEY: GOOD, PATH: d.userHome }));
    expect(find(checks, "rg")[0]).toMatchObject({ status: "warn" });
    expect(find(checks, "rg")[0].fix).toMatch(/install ripgrep/);
  });

  it("reports the sandbox Bash really runs in: active where bubblewrap works here, else not active with the reason and the fix", async () => {
    const probe = probeBwrap();
    const checks = await doctorChecks(options({ DEEPSEEK_API_KEY: GOOD }));
    if (probe.bwrap) {
      expect(find(checks, "sandbox")[0]).toMatchObject({ status: "ok" });
      // The first line says it is active; the next ones what it grants (mods/sandbox/grant.ts).
      const detail = find(checks, "sandbox")[0].detail.split("\n");
      expect(detail[0]).toBe("active: Bash commands run inside bwrap");
      expect(detail.slice(1).join("\n")).toMatch(/reads {6}the system.*\n.*writes .*\n.*home {7}a private one at ~.*\n.*env {8}/);
    }
    else {
      expect(find(checks, "sandbox")[0]).toMatchObject({ status: "warn", detail: `not active: ${probe.problem}; commands run uncontained and the permission gate decides (a question for what no rule allows)` });
      expect(find(checks, "sandbox")[0].fix).toMatch(/install bubblewrap/);
    }
  });

  it("reports the sandbox as not active, with how to install it, where bubblewrap is not on PATH", async () => {
    const saved = process.env.PATH;
    const bin = join(d.userHome, "bin");
    mkdirSync(bin, { recursive: true });
    symlinkSync(findOnPath("true", saved) ?? "/bin/true", join(bin, "true"));
    process.env.PATH = bin; // `true` for the test command, and no bwrap
    try {
      const checks = await doctorChecks(options({ DEEPSEEK_API_KEY: GOOD }, { platform: "linux" }));
      expect(find(checks, "sandbox")[0]).toMatchObject({
        status: "warn",
        detail: "not active: bwrap (bubblewrap) is not installed or not on PATH; commands run uncontained and the permission gate decides (a question for what no rule allows)",
        fix: expect.stringMatching(/^install bubblewrap \(apt install bubblewrap\)/),
      });
    } finally {
      process.env.PATH = saved;
    }
  });

  it("says when an instructions file is cut to its limit, with the limit and the setting that changes it", async () => {
    writeFileSync(join(d.root, "AGENTS.md"), "# Rules\n" + "x".repeat(1_000_000));
    const checks = await doctorChecks(options({ DEEPSEEK_API_KEY: GOOD }));
    expect(find(checks, "instructions")[0]).toMatchObject({
      status: "warn",
      detail: "AGENTS.md has 1.0M characters; only the first 40,000 are sent (raise or lower the limit with settings pluginConfig.instructions.maxChars)",
    });
    writeFileSync(join(d.root, "AGENTS.md"), "# Rules\nshort");
    expect(find(await doctorChecks(options({ DEEPSEEK_API_KEY: GOOD })), "instructions")[0]).toMatchObject({ status: "ok", detail: "AGENTS.md sent in full" });
  });

  it("reports the sandbox as not active when settings turn it off, as a warning", async () => {
    mkdirSync(join(d.root, ".deepcode"), { recursive: true });
    writeFileSync(join(d.root, ".deepcode", "settings.json"), JSON.stringify({ sandbox: { enabled: false } }));
    const checks = await doctorChecks(options({ DEEPSEEK_API_KEY: GOOD }, { trustProject: true }));
    expect(find(checks, "sandbox")[0]).toMatchObject({ status: "warn", detail: expect.stringMatching(/^not active: turned off in settings/) });
  });

  it("says an untrusted project's own switch-off of the sandbox is ignored, and how to trust it", async () => {
    mkdirSync(join(d.root, ".deepcode"), { recursive: true });
    writeFileSync(join(d.root, ".deepcode", "settings.json"), JSON.stringify({ sandbox: { enabled: false } }));
    const checks = await doctorChecks(options({ DEEPSEEK_API_KEY: GOOD }));
    expect(find(checks, "sandbox")[0].detail).not.toMatch(/turned off in settings/);
    expect(find(checks, "trust")[0]).toMatchObject({ status: "warn", detail: expect.stringMatching(/^untrusted: .* ignored .*switch the Bash sandbox off/), fix: expect.stringContaining("deepcode trust") });
  });

  it("fails session folders and a credentials file others can read, with the chmod that fixes them", async () => {
    const sessions = join(d.home, "sessions", "-project");
    mkdirSync(sessions, { recursive: true, mode: 0o755 });
    chmodSync(join(d.home, "sessions"), 0o755);
    chmodSync(sessions, 0o755);
    writeFileSync(join(sessions, "s.jsonl"), "{}\n", { mode: 0o644 });
    const cred = join(d.home, "credentials");
    writeFileSync(cred, `DEEPSEEK_API_KEY=${GOOD}\n`, { mode: 0o644 });
    chmodSync(cred, 0o644);
    const checks = await doctorChecks(options({}));
    expect(find(checks, "sessions")[0]).toMatchObject({ status: "fail", fix: `chmod -R go-rwx ${join(d.home, "sessions")}` });
    expect(find(checks, "sessions")[0].detail).toMatch(/^3 of 3 entries readable by others/);
    expect(find(checks, "credentials")[0]).toMatchObject({ status: "fail", detail: `${cred} has mode 644: others can read the key`, fix: `chmod 600 ${cred}` });
    expect(JSON.stringify(checks)).not.toContain(GOOD);
  });
});

