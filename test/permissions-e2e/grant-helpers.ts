// Shared by the tests of "the sandbox grants only what the work needs" (issue #35:
// sandbox-grant-env, sandbox-grant-files, sandbox-grant-tools): a box like helpers.ts's makeBox,
// but on disk outside /tmp, and one `deepcode -p` run that makes a list of Bash calls one after
// another, judged by what the simulator received.
//
// Why not under /tmp: the sandbox gives every command an empty private /tmp, so a home folder
// under /tmp is invisible (and writable) inside it whatever the sandbox grants — a canary there
// proves nothing, and Go's cache "works" only because the person's home became a scratch folder.
// A real home is on disk; so is this one (/var/tmp, else a folder in the repository).
import { accessSync, constants, mkdirSync } from "node:fs";
import { join } from "node:path";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { findOnPath } from "../../src/lib/path-lookup.js";
import type { Simulator } from "../sim/server.mjs";
import { REPO, bashCall, makeBox, runCli, startSim, toolResults, writeJson, type Box, type CliRun } from "./helpers.js";

const status = sandboxStatus();
/** The sandbox works here (bubblewrap); the tests below are about it and skip without it. */
export const SANDBOX = status.active;
/** Said in a skipped describe's title: why it did not run. */
export const WHY_NOT = status.active ? "" : ` (skipped: ${status.detail})`;
export const has = (program: string): boolean => findOnPath(program, process.env.PATH ?? "") !== null;
/** Each family starts several CLI processes one after another. */
export const FAMILY_TIMEOUT_MS = 300_000;

function diskParent(): string {
  try {
    accessSync("/var/tmp", constants.W_OK);
    return "/var/tmp";
  } catch {
    const d = join(REPO, ".e2e-boxes"); // no writable /var/tmp: beside the repository, still on disk
    mkdirSync(d, { recursive: true });
    return d;
  }
}

/** makeBox's layout (`box/ws`, `box/outside`, `home`, `deepcode-home`) on disk, outside /tmp. */
export function makeDiskBox(): Box {
  return makeBox(diskParent(), "deepcode-grant-");
}

/** The person's own settings (`$DEEPCODE_HOME/settings.json`): the layer a project cannot write. */
export function userSettings(box: Box, settings: unknown): void {
  writeJson(join(box.deepcodeHome, "settings.json"), settings);
}

export interface CallsRun {
  run: CliRun;
  sim: Simulator;
  /** Each call's tool result, in the order of `commands` ("" when there is none). */
  results: string[];
  /** Every request body the simulator received: what must never hold a withheld value. */
  sent: string;
  /** The calls that asked (in -p an ask is a denial), with the reason. */
  denials: Array<{ tool_name?: string; tool_input?: { command?: string }; reason?: string }>;
}

/** One `deepcode -p` in the box's project whose model makes the Bash calls `commands` one after
 *  another (each answered before the next), then says "done". */
export async function runCalls(box: Box, commands: readonly string[], o: { env?: Record<string, string>; args?: string[]; managed?: string } = {}): Promise<CallsRun> {
  const ids = commands.map((_, i) => `call_${i}`);
  const sim = await startSim({ replies: [...commands.map((c, i) => ({ tool_calls: [bashCall(ids[i] as string, c)] })), { content: "done" }] });
  try {
    const run = await runCli({ box, sim, prompt: "run the commands", env: o.env, args: o.args, managed: o.managed, killAfterMs: 240_000 });
    const byId = toolResults(sim);
    const sent = sim.requests.map((r) => JSON.stringify(r.json ?? null)).join("\n");
    const denials = ((run.result as { permission_denials?: CallsRun["denials"] } | null)?.permission_denials ?? []) as CallsRun["denials"];
    return { run, sim, results: ids.map((id) => byId.get(id) ?? ""), sent, denials };
  } finally {
    await sim.close();
  }
}

/** A readable account of a run for an assertion's message: each command, whether it asked, and
 *  the start of what it printed. */
export function account(commands: readonly string[], r: CallsRun): string {
  const asked = new Set(r.denials.map((d) => d.tool_input?.command));
  return commands.map((c, i) => `$ ${c}${asked.has(c) ? "  [ASKED: denied in -p]" : ""}\n${(r.results[i] ?? "").slice(0, 400)}`).join("\n---\n") + `\nstderr: ${r.run.stderr.slice(0, 400)}`;
}

/** A tool result that reports a failure: the Bash tool's `[exit code N]`, or a denial. */
export const failed = (result: string): boolean => /\[exit code \d+\]/.test(result) || result === "";

/** `text` as a script the shell reader cannot see into (it asks nothing of what the script
 *  does): only the sandbox stands in its way. */
export const hiddenScript = (text: string, file = "s.sh"): string => `echo ${Buffer.from(text).toString("base64")} | base64 -d > ${file} && sh ${file}`;
