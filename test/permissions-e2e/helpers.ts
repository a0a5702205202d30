// Shared by the end-to-end permission and hook tests: a temporary box with a project, a folder
// next to it and a home folder; the real CLI started as a process against the DeepSeek
// simulator; snapshots of folders (names, sizes, content hashes, link targets); a loopback TCP
// listener that counts connections. Run `npx tsc -p tsconfig.json` first: these start dist/.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator, type Script, type Simulator } from "../sim/server.mjs";

export const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const API_KEY = "sk-test-permissions-e2e";

export interface Box {
  /** Everything below lives here; removed by cleanup(). */
  base: string;
  /** The project: the CLI's working folder. */
  root: string;
  /** `<base>/box/outside`: next to the project, where escapes would land. */
  outside: string;
  /** HOME of the CLI process. */
  home: string;
  /** DEEPCODE_HOME: sessions and user settings (kept out of snapshots of `base/box`). */
  deepcodeHome: string;
  cleanup(): void;
}

/** `<base>/box/ws` is the project and `<base>/box/outside` its neighbour, so that `../../x`
 *  from the project still lands inside `base`. All real paths (no symlinks). */
export function makeBox(parent: string = tmpdir(), prefix = "deepcode-e2e-"): Box {
  const base = realpathSync(mkdtempSync(join(parent, prefix)));
  const root = join(base, "box", "ws");
  const outside = join(base, "box", "outside");
  const home = join(base, "home");
  const deepcodeHome = join(base, "deepcode-home");
  for (const d of [root, outside, home, deepcodeHome]) mkdirSync(d, { recursive: true });
  return { base, root, outside, home, deepcodeHome, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export function writeJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Project settings (`.deepcode/settings.json`). */
export function projectSettings(box: Box, settings: unknown): void {
  writeJson(join(box.root, ".deepcode", "settings.json"), settings);
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The result object (`json`), when stdout holds one. */
  result: { session_id?: string; result?: string; is_error?: boolean; stop_reason?: string; errors?: string[] } | null;
  /** `stream-json`: every event printed, in order. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- events are read field by field in tests
  events: any[];
}

export interface CliOptions {
  box: Box;
  sim: Simulator;
  prompt: string;
  /** A managed policy file, injected through test/helpers/cli-with-managed.mjs. */
  managed?: string;
  args?: string[];
  /** Extra environment (e.g. a PATH without bwrap). */
  env?: Record<string, string>;
  /** Default json. */
  format?: "json" | "stream-json";
  /** Run without `--trust-project`. By default the project counts as trusted: these tests are
   *  about what its rules do; test/permissions-e2e/trust.test.ts is about trust itself. */
  untrusted?: boolean;
  /** The process is stopped (SIGTERM: it kills its own children) after this long. Default 60 s:
   *  a test that failed to protect something must fail, not hang on what it let run. */
  killAfterMs?: number;
}

/** beforeAll limit for a test file that starts CLI processes. */
export const CLI_HOOK_TIMEOUT_MS = 120_000;

/** `deepcode -p PROMPT --output-format json` in the project, with a clean environment. */
export function runCli(o: CliOptions): Promise<CliRun> {
  const entry = o.managed ? [join(REPO, "test", "helpers", "cli-with-managed.mjs"), o.managed] : [join(REPO, "bin", "deepcode.js")];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: o.box.home,
    DEEPCODE_HOME: o.box.deepcodeHome,
    DEEPSEEK_BASE_URL: o.sim.url,
    DEEPSEEK_API_KEY: API_KEY,
    NO_COLOR: "1",
    ...o.env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...entry, "-p", o.prompt, "--output-format", o.format ?? "json", ...(o.untrusted ? [] : ["--trust-project"]), ...(o.args ?? [])], { cwd: o.box.root, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    const killer = setTimeout(() => child.kill("SIGTERM"), o.killAfterMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(killer);
      const events: CliRun["events"] = [];
      for (const line of stdout.split("\n")) {
        try {
          if (line.trim()) events.push(JSON.parse(line));
        } catch {
          // not a JSON line (a start-up failure printed text): the test looks at stderr
        }
      }
      const result = o.format === "stream-json" ? null : ((events[events.length - 1] ?? null) as CliRun["result"]);
      resolve({ code, stdout, stderr, result, events });
    });
  });
}

export function startSim(script: Script): Promise<Simulator> {
  return startSimulator({ script, apiKey: API_KEY });
}

/** The tool messages the model was sent, by tool call id (from every recorded request). */
export function toolResults(sim: Simulator): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of sim.requests) {
    for (const m of (r.json?.messages ?? []) as Array<{ role: string; tool_call_id?: string; content?: unknown }>) {
      if (m.role === "tool" && m.tool_call_id) out.set(m.tool_call_id, typeof m.content === "string" ? m.content : JSON.stringify(m.content));
    }
  }
  return out;
}

/** Every byte the model was sent, and every file deepcode's home holds (transcripts, logs),
 *  except the paths `skip` names (a fixture that holds a secret on purpose): what must not hold a
 *  secret. */
export function everythingWritten(sim: Simulator, box: Box, skip: (path: string) => boolean = () => false): string {
  const out = [sim.requests.map((r) => JSON.stringify(r.json ?? null)).join("\n")];
  const walk = (d: string): void => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (skip(p)) continue;
      if (lstatSync(p).isDirectory()) walk(p);
      else out.push(readFileSync(p, "utf8"));
    }
  };
  walk(box.deepcodeHome);
  return out.join("\n");
}

/** A Bash tool call for the simulator's script. */
export function bashCall(id: string, command: string): { id: string; name: string; arguments: { command: string } } {
  return { id, name: "Bash", arguments: { command } };
}

/** Every entry below `dir`: its kind, size and content hash (files), or its target (links).
 *  Links are recorded, never followed. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const rel = relative(dir, p);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out[rel] = `link -> ${readlinkSync(p)}`;
      else if (st.isDirectory()) {
        out[rel] = "dir";
        walk(p);
      } else out[rel] = `file ${st.size} ${createHash("sha256").update(readFileSync(p)).digest("hex").slice(0, 16)}`;
    }
  };
  walk(dir);
  return out;
}

export interface Listener {
  port: number;
  /** Connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

/** A TCP server on 127.0.0.1 that counts connections (and answers nothing). */
export async function listen(): Promise<Listener> {
  let connections = 0;
  const server: Server = createServer((s) => {
    connections++;
    s.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    port: address.port,
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
