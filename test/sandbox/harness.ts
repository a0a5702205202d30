// The sandbox mod registered against a fake plugin API, with the core's end of `process.run`
// played by a real spawn: real bash inside real bubblewrap, judged by effect on the disk.
// (containment.test.ts has its own copy of this; the holes tests share this one.)
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import plugin from "../../mods/sandbox/index.js";
import type { PluginApi, ProcessRunRequest, ProcessRunResult } from "../../src/contract/index.js";

type Hook = (e: ProcessRunRequest, next: (e: ProcessRunRequest) => Promise<ProcessRunResult>) => Promise<ProcessRunResult>;

export interface Sandboxed {
  run(command: string, extra?: Partial<ProcessRunRequest>): Promise<ProcessRunResult>;
  warnings: string[];
}

export interface LoadOptions {
  root: string;
  home: string;
  deepcodeHome: string;
  additionalDirectories?: string[];
  network?: boolean;
  /** Extra variables the command's environment gets (as deepcode passes its own on). */
  env?: Record<string, string>;
  /** Where the mod's warnings go (also when its register throws). */
  warnings?: string[];
}

export function loadSandbox(o: LoadOptions): Sandboxed {
  let hook: Hook | undefined;
  const warnings: string[] = o.warnings ?? [];
  const api = {
    id: "sandbox",
    readDenied: () => null,
    root: o.root,
    home: o.deepcodeHome,
    config: {},
    settings: { get: (key: string) => (key === "sandbox" ? { network: o.network } : undefined), layers: [], fileOf: () => undefined },
    host: { additionalDirectories: o.additionalDirectories ?? [] },
    log: { warn: (m: string) => warnings.push(m), info: () => undefined, error: () => undefined },
    on: (name: string, h: Hook) => {
      if (name === "process.run") hook = h;
    },
    status: () => undefined,
  };
  // The mod uses only these members of the API.
  void plugin.register(api as unknown as PluginApi);
  const env = { PATH: process.env.PATH ?? "", HOME: o.home, ...o.env };
  const exec = (e: ProcessRunRequest): Promise<ProcessRunResult> =>
    new Promise((resolve) => {
      const child = spawn(e.argv[0], e.argv.slice(1), { cwd: e.cwd, env: e.clearEnv === true ? e.env : { ...env, ...e.env }, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      child.on("close", (code) => resolve({ exitCode: code, signal: null, stdout, stderr, timedOut: false, interrupted: false, durationMs: 0, truncatedBytes: 0 }));
    });
  return {
    warnings,
    run: (command, extra = {}) => {
      if (!hook) throw new Error("the sandbox mod registered no process.run hook (is bwrap usable here?)");
      return hook({ argv: ["bash", "-c", command], cwd: o.root, timeoutMs: 60_000, ...extra }, exec);
    },
  };
}

/** git outside the sandbox, as the person runs it; throws with git's message when it fails. */
export function gitIn(cwd: string, home: string, ...args: string[]): string {
  const r = spawnSync("git", args, { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "", HOME: home, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} in ${cwd}: ${r.stderr}`);
  return r.stdout;
}

export const HOME_OF = (base: string): string => join(base, "home");
