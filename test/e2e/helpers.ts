// The real CLI against the simulator, for the end-to-end tests of `-p` and the command line.
// Asynchronous on purpose: the simulator lives in this process and must keep answering while
// the child runs (spawnSync would block it). Run `npx tsc -p tsconfig.json` first: this starts
// dist/ through bin/deepcode.js.
import { spawn } from "node:child_process";
import { startSimulator, type Script, type Simulator } from "../sim/server.mjs";
import { BIN, cliEnv, type CliEnv } from "../helpers/cli-env.js";

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRig {
  sim: Simulator;
  env: CliEnv;
  /** Run `deepcode …args` in the project; stdin is `stdin` (closed at once) or empty. */
  run(args: string[], o?: { stdin?: string; env?: Record<string, string | undefined>; cwd?: string }): Promise<Run>;
  /** The JSON lines of stdout. */
  lines(r: Run): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function cliRig(script: Script, files: Record<string, string> = {}): Promise<CliRig> {
  const sim = await startSimulator({ script, apiKey: "sk-test-cli" });
  const env = cliEnv(sim.url, files);
  return {
    sim,
    env,
    run: (args, o = {}) => runBin(args, { cwd: o.cwd ?? env.root, env: { ...env.env, ...o.env }, stdin: o.stdin }),
    lines: (r) => r.stdout.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>),
    close: async () => {
      await sim.close();
      env.cleanup();
    },
  };
}

/** `entry`: what node runs instead of bin/deepcode.js (test/helpers/cli-with-managed.mjs and its policy file). */
export function runBin(args: string[], o: { cwd: string; env: Record<string, string | undefined>; stdin?: string; entry?: string[] }): Promise<Run> {
  return new Promise((resolve) => {
    const env = Object.fromEntries(Object.entries(o.env).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const child = spawn(process.execPath, [...(o.entry ?? [BIN]), ...args], { cwd: o.cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(o.stdin ?? "");
  });
}

export const call = (name: string, args: object) => ({ tool_calls: [{ name, arguments: args }] });
