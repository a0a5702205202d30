// Named pipes (and other files that are not regular files) never hang deepcode: Read and
// @-mentions refuse them at once, a settings file or the usage ledger that is a FIFO is a clear
// error naming it. Every run here is bounded (runBounded): a hang fails the test.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
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

const mkfifo = (path: string): void => {
  mkdirSync(join(path, ".."), { recursive: true });
  execFileSync("mkfifo", [path]);
};

describe.skipIf(process.platform === "win32")("a named pipe", () => {
  it("read by the Read tool is refused at once, and the run goes on", async () => {
    sim = await startSimulator({ script: { replies: [{ tool_calls: [{ name: "Read", arguments: { file_path: "pipe" } }] }, { content: "done" }] }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url);
    mkfifo(join(env.root, "pipe"));
    const r = await runBounded(["-p", "read the pipe", "--allowedTools", "Read"], { cwd: env.root, env: env.env });
    expect(r.hung).toBe(false);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("done\n");
    const second = sim.requests[1].json as { messages: Array<{ role: string; content: string }> };
    const result = second.messages.find((m) => m.role === "tool");
    expect(result?.content).toMatch(/pipe is not a regular file \(a named pipe \(FIFO\)\)/);
  });

  it("@-mentioned is not attached, and the prompt is sent", async () => {
    sim = await startSimulator({ script: { replies: [{ content: "ok" }] }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url);
    mkfifo(join(env.root, "pipe"));
    const r = await runBounded(["-p", "look at @pipe"], { cwd: env.root, env: env.env });
    expect(r.hung).toBe(false);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/@pipe: a named pipe \(FIFO\), not a regular file; not attached/);
  });

  it("as the project's settings file stops start-up with an error naming it", async () => {
    sim = await startSimulator({ script: { replies: [{ content: "ok" }] }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url);
    const file = join(env.root, ".deepcode", "settings.json");
    mkfifo(file);
    const r = await runBounded(["-p", "hi"], { cwd: env.root, env: env.env });
    expect(r.hung).toBe(false);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`${file}: is a named pipe (FIFO), not a settings file`);
    expect(sim.requests).toHaveLength(0);
  });

  it("as the usage ledger does not hang a run or `deepcode stats`, and is named", async () => {
    sim = await startSimulator({ script: { replies: [{ content: "ok" }] }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url);
    const ledger = join(env.home, "usage.jsonl");
    mkfifo(ledger);
    const stats = await runBounded(["stats"], { cwd: env.root, env: env.env });
    expect(stats.hung).toBe(false);
    expect(stats.code).not.toBe(0);
    expect(stats.stderr).toContain(`${ledger} is a named pipe (FIFO), not a regular file`);
    const r = await runBounded(["-p", "hi"], { cwd: env.root, env: env.env });
    expect(r.hung).toBe(false);
    expect(r.stdout).toBe("ok\n");
    expect(r.stderr).toContain(ledger);
  });
});
