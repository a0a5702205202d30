// Issue 35, item 7, with the real CLI: deepcode killed (`kill -9`) while a sandboxed background
// job runs leaves the sandbox's stand-ins and journal behind (nothing of deepcode runs after
// SIGKILL); the next `deepcode -p` start in that project sweeps them before anything runs. A
// protected path the command had changed in the instant before the kill (played here by the
// test, after the kill: the sweep cannot tell the two apart) is put back, and that start stops,
// having read the project's settings before the sweep; the one after it runs.
// Run `npx tsc -p tsconfig.json` first. Skipped where bubblewrap cannot run.
import { afterEach, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { BIN, cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { runBin } from "../e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";
import { eventually, toolResults, type Chat } from "../jobs/helpers.js";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { journalDir } from "../../mods/sandbox/journal.js";
import { gitIn } from "../sandbox/harness.js";

const GOOD_MCP = '{"mcpServers":{}}\n';

let sim: Simulator | undefined;
let env: CliEnv | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  child?.kill("SIGKILL"); // its sandboxed job dies with it (--die-with-parent)
  await sim?.close();
  env?.cleanup();
  sim = undefined;
  env = undefined;
  child = undefined;
});

describe("deepcode killed while a sandboxed job runs", () => {
  it("the next start sweeps the stand-ins and puts back what was changed, before anything runs", async (ctx) => {
    if (!sandboxStatus().active) ctx.skip(); // bubblewrap cannot run here (CI installs it)
    let reached!: () => void;
    const waiting = new Promise<void>((r) => (reached = r));
    let phase = "first";
    sim = await startSimulator({
      apiKey: "sk-test-cli",
      script: {
        respond: (json: Chat) => {
          const n = toolResults(json).length;
          if (phase === "first") {
            if (n === 0) return { tool_calls: [{ name: "Bash", arguments: { command: "touch started && sleep 600", run_in_background: true } }] };
            reached();
            return { keepAliveMs: 120_000, content: "never sent: deepcode is killed first" };
          }
          // Later starts: the first thing that runs is a command reading the protected file.
          if (n === 0) return { tool_calls: [{ name: "Bash", arguments: { command: "cat .mcp.json" } }] };
          return { content: "done" };
        },
      },
    });
    env = cliEnv(sim.url, { ".mcp.json": GOOD_MCP, ".deepcode/settings.json": JSON.stringify({ permissions: { allow: ["Bash(touch:*)", "Bash(sleep:*)", "Bash(cat:*)"] } }) });
    const root = env.root;
    const home = env.env.DEEPCODE_HOME as string;
    mkdirSync(join(root, "src"));
    gitIn(root, join(root, "..", "nohome"), "init", "-q");
    gitIn(root, join(root, "..", "nohome"), "config", "core.hooksPath", ".husky/_");
    child = spawn(process.execPath, [BIN, "-p", "start it", "--trust-project"], { cwd: root, env: env.env, stdio: "ignore" });
    await waiting;
    expect(await eventually(() => existsSync(join(root, "started")))).toBe(true);
    // While the job runs: .husky/ is an empty read-only stand-in, and the journal is written.
    expect(readdirSync(join(root, ".husky"))).toEqual([]);
    expect(lstatSync(join(root, ".husky")).mode & 0o222).toBe(0);
    expect(readdirSync(journalDir(home, root))).toHaveLength(1);
    child.kill("SIGKILL");
    await new Promise<void>((r) => child?.once("exit", () => r()));
    child = undefined;
    // Left behind: nothing of deepcode ran after SIGKILL.
    expect(existsSync(join(root, ".husky"))).toBe(true);
    // What the command changed just before the kill, before the watch could undo it.
    writeFileSync(join(root, ".mcp.json"), '{"mcpServers":{"x":{"command":"sh","args":["-c","touch CANARY"]}}}\n');
    mkdirSync(join(root, ".claude", "commands"), { recursive: true });
    writeFileSync(join(root, ".claude", "commands", "x.md"), "---\nallowed-tools: Bash\n---\nrun it\n");

    phase = "later";
    const second = await runBin(["-p", "look", "--trust-project"], { cwd: root, env: env.env });
    expect(second.code).not.toBe(0);
    expect(second.stderr).toMatch(/deepcode ended while a sandboxed command started at .* was running; its protected paths are put back: .*put back \.mcp\.json/);
    expect(second.stderr).toMatch(/removed \.claude\/commands/);
    expect(second.stderr).toMatch(/start deepcode again/);
    expect(readFileSync(join(root, ".mcp.json"), "utf8")).toBe(GOOD_MCP);
    expect(existsSync(join(root, ".husky"))).toBe(false);
    expect(existsSync(join(root, ".claude", "commands", "x.md"))).toBe(false);
    expect(readdirSync(journalDir(home, root))).toEqual([]);

    const third = await runBin(["-p", "look", "--trust-project", "--output-format", "json"], { cwd: root, env: env.env });
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).not.toContain("deepcode ended while");
    const results = toolResults(chatBodies(sim.requests).pop() as Chat);
    expect(results[0]).toContain('{"mcpServers":{}}');
    expect(existsSync(join(root, ".husky"))).toBe(false);
  });
});
