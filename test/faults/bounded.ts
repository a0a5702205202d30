// Running the real CLI with a bound: a run that hangs is killed (SIGKILL) and reported as
// `hung`, so a test of a hang fails instead of hanging itself. The bound is generous (the
// machine is loaded); only a run that would wait forever reaches it.
import { spawn, type ChildProcess } from "node:child_process";
import { BIN } from "../helpers/cli-env.js";

export interface BoundedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  hung: boolean;
}

export function runBounded(
  args: string[],
  o: { cwd: string; env: Record<string, string | undefined>; stdin?: string; limitMs?: number; onStart?: (child: ChildProcess) => void; wrap?: string[] },
): Promise<BoundedRun> {
  return new Promise((resolve) => {
    const env = Object.fromEntries(Object.entries(o.env).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const argv = [...(o.wrap ?? []), process.execPath, BIN, ...args];
    const child = spawn(argv[0], argv.slice(1), { cwd: o.cwd, env });
    let stdout = "";
    let stderr = "";
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill("SIGKILL");
    }, o.limitMs ?? 20_000);
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, hung });
    });
    child.stdin.on("error", () => undefined); // EPIPE: the CLI exited before reading its input
    child.stdin.end(o.stdin ?? "");
    o.onStart?.(child);
  });
}
