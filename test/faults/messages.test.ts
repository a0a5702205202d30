// What deepcode says when its own files are wrong: each message names the file and the
// problem, never a bare errno (ENOENT … mkdir, EISDIR), and nothing is sent to the API.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { runBounded } from "./bounded.js";

let sim: Simulator | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  await sim?.close();
  env?.cleanup();
  sim = undefined;
  env = undefined;
});

async function rig(): Promise<{ sim: Simulator; env: CliEnv }> {
  sim = await startSimulator({ script: { replies: [{ content: "ok" }] }, apiKey: "sk-test-cli" });
  env = cliEnv(sim.url);
  return { sim, env };
}

// A read-only home, also when the tests run as root: a read-only bind mount (bubblewrap).
const bwrapWorks = process.platform === "linux" && spawnSync("bwrap", ["--dev-bind", "/", "/", "true"]).status === 0;

describe("messages about deepcode's own files", () => {
  it.skipIf(!bwrapWorks)("a read-only home is named as not writable, not ENOENT … mkdir", async () => {
    const { env: e, sim: s } = await rig();
    const home = join(e.home, "dc");
    const r = await runBounded(["-p", "hi"], { cwd: e.root, env: { ...e.env, DEEPCODE_HOME: home }, wrap: ["bwrap", "--dev-bind", "/", "/", "--ro-bind", e.home, e.home] });
    expect(r.hung).toBe(false);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/ENOENT/);
    expect(r.stderr).toContain(`deepcode's home ${home} is not writable`);
    expect(r.stderr).toMatch(/DEEPCODE_HOME/);
    expect(s.requests).toHaveLength(0);
  });

  it("a usage ledger that is a folder is named by `deepcode stats`", async () => {
    const { env: e } = await rig();
    mkdirSync(join(e.home, "usage.jsonl"));
    const r = await runBounded(["stats"], { cwd: e.root, env: e.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the usage ledger ${join(e.home, "usage.jsonl")} is a directory, not a file`);
  });

  it("a settings file with bytes that are not UTF-8 is refused at load, naming file, line and column", async () => {
    const { env: e, sim: s } = await rig();
    mkdirSync(join(e.root, ".deepcode"));
    const file = join(e.root, ".deepcode", "settings.json");
    writeFileSync(file, Buffer.concat([Buffer.from('{\n  "model": "deepseek-'), Buffer.from([0xff, 0xfe]), Buffer.from('chat"\n}\n')]));
    const r = await runBounded(["-p", "hi"], { cwd: e.root, env: e.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:2:22: holds bytes that are not UTF-8`);
    expect(s.requests).toHaveLength(0);
  });

  it("a dangling settings symlink is reported, not ignored", async () => {
    const { env: e, sim: s } = await rig();
    const file = join(e.home, "settings.json");
    rmSync(file, { force: true }); // the rig's own settings file, replaced by the dangling link
    symlinkSync(join(e.home, "dotfiles", "settings.json"), file);
    const r = await runBounded(["-p", "hi"], { cwd: e.root, env: e.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}: is a symlink to ${join(e.home, "dotfiles", "settings.json")}, which does not exist`);
    expect(s.requests).toHaveLength(0);
  });
});
