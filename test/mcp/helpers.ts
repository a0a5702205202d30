// The real MCP servers from npm (devDependencies) and a way to run the real CLI with them
// configured, against the simulator.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BIN, type CliEnv } from "../helpers/cli-env.js";

export const EVERYTHING = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));
export const FILESYSTEM = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url));

/** The everything server over stdio, as a `.mcp.json` entry. */
export function everythingStdio(): { command: string; args: string[] } {
  return { command: process.execPath, args: [EVERYTHING, "stdio"] };
}

export function mcpJson(servers: Record<string, unknown>): string {
  return JSON.stringify({ mcpServers: servers }, null, 2);
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The real CLI, asynchronously (the simulator lives in this process). `bin`: another entry
 *  point (test/helpers/cli-with-managed.mjs, whose first argument is the managed policy). */
export function deepcode(env: CliEnv, args: string[], o: { stdin?: string; extraEnv?: Record<string, string>; timeoutMs?: number; bin?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [o.bin ?? BIN, ...args], { cwd: env.root, env: { ...env.env, ...o.extraEnv } });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`deepcode ${args.join(" ")} did not exit within ${o.timeoutMs ?? 60_000} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, o.timeoutMs ?? 60_000);
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(o.stdin ?? "");
  });
}

/** The tool results (role "tool" messages) of the requests the simulator received. */
export function toolResults(bodies: Array<{ messages: Array<Record<string, unknown>> }>): string[] {
  const last = bodies[bodies.length - 1];
  return (last?.messages ?? []).filter((m) => m.role === "tool").map((m) => String(m.content));
}

/** Every MCP log (`<session>.mcp.log`) under a deepcode home, each headed by its path: what a
 *  test that failed on a server's state shows in its message. */
export function mcpLogs(home: string): string {
  const files = readdirSync(home, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".mcp.log"));
  return files.map((f) => `${f}:\n${readFileSync(join(home, f), "utf8")}`).join("\n") || "(none under the home)";
}
