// Background jobs die with deepcode, however it ends — with the real CLI, judged by the
// processes left: `kill -9` of a `-p` run (no handler runs: the core's watchdog, which sees
// deepcode's end as the end of a pipe, kills the job's process group; bubblewrap's
// --die-with-parent too where the sandbox is on — so the run without the sandbox is the one
// that proves the watchdog), Ctrl-C of a -p run, Ctrl-C twice at the REPL's prompt, and the terminal closing
// (SIGHUP) under the REPL. A Ctrl-C that interrupts a turn leaves the jobs running.
import { afterEach, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { BIN, cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { enter, useRepl } from "../repl/helpers.js";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { eventually, processesRunning, toolResults, uniqueSleep, type Chat } from "./helpers.js";

const bash = (command: string) => ({ tool_calls: [{ name: "Bash", arguments: { command, run_in_background: true } }] });

describe("the end of a -p run", () => {
  let sim: Simulator | undefined;
  let env: CliEnv | undefined;
  let child: ChildProcess | undefined;
  afterEach(async () => {
    child?.kill("SIGKILL");
    await sim?.close();
    env?.cleanup();
    sim = undefined;
    env = undefined;
    child = undefined;
  });

  const cases = [
    { name: "after kill -9, with the sandbox off (the watchdog alone)", sandbox: false, signal: "SIGKILL" as const },
    { name: "after kill -9, inside the sandbox", sandbox: true, signal: "SIGKILL" as const },
    { name: "after Ctrl-C (SIGINT) of the run", sandbox: false, signal: "SIGINT" as const },
  ];
  for (const c of cases) {
    it(`no process of a background job is left ${c.name}`, async (ctx) => {
      if (c.sandbox && !sandboxStatus().active) ctx.skip(); // bubblewrap cannot run here (CI installs it)
      const sleep = uniqueSleep();
      let started!: () => void;
      const reached = new Promise<void>((r) => (started = r));
      sim = await startSimulator({
        apiKey: "sk-test-cli",
        script: {
          respond: (json: Chat) => {
            if (toolResults(json).length === 0) return bash(`${sleep} & ${sleep}`);
            started();
            return { keepAliveMs: 120_000, content: "never sent: deepcode is killed first" };
          },
        },
      });
      env = cliEnv(sim.url, { ".deepcode/settings.json": JSON.stringify({ permissions: { allow: ["Bash(sleep:*)"] }, ...(c.sandbox ? {} : { sandbox: { enabled: false } }) }) });
      child = spawn(process.execPath, [BIN, "-p", "start it", "--trust-project"], { cwd: env.root, env: env.env, stdio: "ignore" });
      await reached;
      expect(await eventually(() => processesRunning(sleep).length === 2)).toBe(true);
      child.kill(c.signal);
      expect(await eventually(() => processesRunning(sleep).length === 0)).toBe(true);
    });
  }
});

describe("the REPL's end", () => {
  const repl = useRepl();
  const open = async (sleep: string) => {
    const t = await repl.open(
      {
        respond: (json: Chat) => {
          const last = json.messages.at(-1);
          if (last?.role === "user" && last.content === "start it") return bash(`${sleep} & ${sleep}`);
          if (last?.role === "tool") return { content: "started the job" };
          // Stops mid-reply with the connection open: still streaming when Ctrl-C comes, on any machine.
          return { content: `ok ${"slowly ".repeat(60)}`, chunkSize: 4, fault: { stallAfterChunks: 24 } }; // after the default reasoning (10 chunks) and some text
        },
      },
      {},
      { settings: { estimate: "show", permissions: { allow: ["Bash(sleep:*)"] } } },
    );
    enter(t, "start it");
    await t.waitFor("started the job");
    await t.waitFor(/^›\s*$/m);
    expect(await eventually(() => processesRunning(sleep).length === 2)).toBe(true);
    return t;
  };

  it("leaves no job running after Ctrl-C twice at the prompt, and a Ctrl-C that interrupts a turn leaves them be", async () => {
    const sleep = uniqueSleep();
    const t = await open(sleep);
    enter(t, "talk slowly");
    await t.waitFor("ok slowly");
    t.press("C-c");
    await t.waitFor("■ interrupted");
    await t.waitFor(/^›\s*$/m);
    expect(processesRunning(sleep)).toHaveLength(2);
    t.press("C-c");
    await t.waitFor("press Ctrl-C again to exit");
    t.press("C-c");
    await t.waitFor(/\[exit \d+\]/);
    expect(await eventually(() => processesRunning(sleep).length === 0)).toBe(true);
  });

  it("leaves no job running after the terminal closes (SIGHUP)", async () => {
    const sleep = uniqueSleep();
    const t = await open(sleep);
    t.kill();
    expect(await eventually(() => processesRunning(sleep).length === 0)).toBe(true);
  });
});
