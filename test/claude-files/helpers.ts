// Claude Code plugins as their authors write them (test/fixtures/claude-files: a marketplace
// in the official shapes — marketplace.json, plugin.json, SKILL.md, agents/*.md,
// commands/*.md, .mcp.json), copied to a temp folder, added as a marketplace and installed
// with the real CLI, which then runs against the simulator.
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator, type Script, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { runBin, type Run } from "../e2e/helpers.js";

export const FIXTURE = fileURLToPath(new URL("../fixtures/claude-files", import.meta.url));
export const MARKET = "cc-files";

export interface FilesRig {
  sim: Simulator;
  env: CliEnv;
  /** The marketplace's folder (a copy of the fixture). */
  market: string;
  run(args: string[], o?: { stdin?: string }): Promise<Run>;
  /** Where an installed plugin's files are. */
  installed(plugin: string): string;
  close(): Promise<void>;
}

/** The simulator answering `script`, a project with `files`, the marketplace (`fixture`: a copy
 *  of that folder, test/fixtures/claude-files by default) added and `plugins` installed (agreeing with --yes-install, as a person would at the question). */
export async function filesRig(plugins: string[], script: Script = { default: { content: "ok" } }, files: Record<string, string> = {}, fixture = FIXTURE): Promise<FilesRig> {
  const sim = await startSimulator({ script, apiKey: "sk-test-cli" });
  const env = cliEnv(sim.url, files);
  const market = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-cc-files-")));
  cpSync(fixture, market, { recursive: true });
  const name = (JSON.parse(readFileSync(join(market, ".claude-plugin", "marketplace.json"), "utf8")) as { name: string }).name;
  const run = (args: string[], o: { stdin?: string } = {}): Promise<Run> => runBin(args, { cwd: env.root, env: env.env, stdin: o.stdin });
  const rig: FilesRig = {
    sim,
    env,
    market,
    run,
    installed: (plugin) => join(env.home, "plugins", "installed", `${plugin}@${name}`),
    close: async () => {
      await sim.close();
      env.cleanup();
      rmSync(market, { recursive: true, force: true });
    },
  };
  try {
    const added = await run(["plugin", "marketplace", "add", market]);
    if (added.code !== 0) throw new Error(`marketplace add failed: ${added.stderr}${added.stdout}`);
    for (const p of plugins) {
      const r = await run(["plugin", "install", `${p}@${name}`, "--yes-install"]);
      if (r.code !== 0) throw new Error(`install ${p} failed: ${r.stderr}${r.stdout}`);
    }
  } catch (err) {
    await rig.close();
    throw err;
  }
  return rig;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a chat request as sent
export type Json = any;

/** The chat requests the simulator answered, in order. */
export function bodies(sim: Simulator): Json[] {
  return sim.requests.filter((r) => r.path.endsWith("/chat/completions") && r.status === 200).map((r) => r.json);
}

export function systemOf(json: Json): string {
  return json.messages?.[0]?.role === "system" ? String(json.messages[0].content) : "";
}

/** What the tools returned, in a request's history. */
export function toolResults(json: Json): string[] {
  return (json.messages ?? []).filter((m: Json) => m.role === "tool").map((m: Json) => String(m.content));
}

/** The user messages of a request (the prompts as sent). */
export function userMessages(json: Json): string[] {
  return (json.messages ?? []).filter((m: Json) => m.role === "user").map((m: Json) => String(m.content));
}
