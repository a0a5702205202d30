// Runs a writer as its own process (`node -e CHILD args…`), as a second deepcode would: the
// concurrency families start several at once and judge the file they all wrote.
import { spawn } from "node:child_process";

export function runChild(child: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ["--input-type=module", "-e", child, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    p.on("close", (code) => resolve({ code, stderr }));
  });
}
