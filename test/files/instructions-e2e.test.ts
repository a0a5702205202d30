// Issue 22, "Files that point elsewhere", with the real CLI: a cloned repository whose
// instruction files are symlinks or hard links to the person's secrets sends none of them to the
// API; a FIFO named AGENTS.md does not hang start-up. Judged by what the simulator received.
import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { BIN, cliEnv, type CliEnv } from "../helpers/cli-env.js";

let sim: Simulator | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  await sim?.close();
  env?.cleanup();
  sim = env = undefined;
});

function run(args: string[], timeoutMs = 120_000): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: env!.root, env: env!.env });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
    child.stdin.end();
  });
}

/** The secrets a person keeps, each with a marker that must never reach the API. */
const TARGETS: Record<string, (e: CliEnv) => string> = {
  "~/.ssh/id_rsa": (e) => join(e.home, ".ssh", "id_rsa"),
  "~/.aws/credentials": (e) => join(e.home, ".aws", "credentials"),
  "the project's .env": (e) => join(e.root, ".env"),
  "~/.npmrc": (e) => join(e.home, ".npmrc"),
  "deepcode's credentials": (e) => join(e.home, "credentials"),
};

function plant(e: CliEnv, target: string, marker: string): void {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, `${marker}\n`, { mode: 0o600 });
}

const sent = (): string => sim!.requests.map((r) => r.body).join("\n");

describe("instruction files that point at a secret are not read", () => {
  for (const [what, where] of Object.entries(TARGETS)) {
    for (const how of ["symlink", "hard link"] as const) {
      it(`AGENTS.md, AGENTS.local.md and ~/.deepcode/AGENTS.md as a ${how} to ${what}`, async () => {
        sim = await startSimulator({ script: { default: { content: "ok" } }, apiKey: "sk-test-cli" });
        env = cliEnv(sim.url);
        const target = where(env);
        const marker = `SECRET-${Math.random().toString(36).slice(2)}`;
        plant(env, target, marker);
        for (const file of [join(env.root, "AGENTS.md"), join(env.root, "AGENTS.local.md"), join(env.home, "AGENTS.md")]) {
          if (how === "symlink") symlinkSync(target, file);
          else linkSync(target, file);
        }
        const r = await run(["-p", "hi"]);
        expect(r.code).toBe(0);
        expect(sim.requests.length).toBeGreaterThan(0);
        expect(sent()).not.toContain(marker);
        expect(r.stderr).toMatch(/AGENTS\.md is not read/);
      });
    }
  }

  it("CLAUDE.md and CLAUDE.local.md linked to ~/.ssh/id_rsa are not read either", async () => {
    sim = await startSimulator({ script: { default: { content: "ok" } }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url);
    const key = join(env.home, ".ssh", "id_rsa");
    plant(env, key, "SECRET-claude-md");
    symlinkSync(key, join(env.root, "CLAUDE.md"));
    linkSync(key, join(env.root, "CLAUDE.local.md"));
    expect((await run(["-p", "hi"])).code).toBe(0);
    expect(sent()).not.toContain("SECRET-claude-md");
  });

  it("a project file linked outside the project (not a secret by name) is not read; one linked inside is", async () => {
    sim = await startSimulator({ script: { default: { content: "ok" } }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url, { "docs/agents.md": "INSIDE-TEXT\n" });
    writeFileSync(join(env.home, "notes.txt"), "OUTSIDE-TEXT\n");
    symlinkSync(join(env.home, "notes.txt"), join(env.root, "AGENTS.local.md"));
    symlinkSync(join(env.root, "docs", "agents.md"), join(env.root, "AGENTS.md"));
    expect((await run(["-p", "hi"])).code).toBe(0);
    expect(sent()).toContain("INSIDE-TEXT");
    expect(sent()).not.toContain("OUTSIDE-TEXT");
  });

  it("a FIFO named AGENTS.md does not hang start-up", async () => {
    sim = await startSimulator({ script: { default: { content: "answered" } }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url, { "AGENTS.local.md": "LOCAL-TEXT\n" });
    execFileSync("mkfifo", [join(env.root, "AGENTS.md")]);
    const r = await run(["-p", "hi"]); // a hang ends at run's limit, which is not a speed
    expect(r.code).toBe(0);
    expect(sent()).toContain("LOCAL-TEXT");
    expect(r.stderr).toMatch(/AGENTS\.md is not read: it is not a regular file \(a FIFO\)/);
  });
});
