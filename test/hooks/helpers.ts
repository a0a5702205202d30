// An in-process deepcode put together by assemble() — settings layers, the permission gate, the
// hooks and sandbox mods, exactly as the CLI wires them — talking to the DeepSeek simulator.
// Hook commands are real bash commands; what they receive is written to files in the box.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { assemble, type App } from "../../src/cli/assemble.js";
import { Engine } from "../../src/core/engine/engine.js";
import { capsFor } from "../../src/providers/index.js";
import type { StreamEvent } from "../../src/contract/index.js";
import type { Script, Simulator } from "../sim/server.mjs";
import { API_KEY, bashCall, makeBox, projectSettings, startSim, toolResults, writeJson, type Box } from "../permissions-e2e/helpers.js";
import { ASKING_USER_SETTINGS } from "../helpers/cli-env.js";

export interface Session {
  box: Box;
  sim: Simulator;
  app: App;
  engine: Engine;
  /** Start-up and hook warnings, as the CLI would print them on stderr. */
  warnings: string[];
  /** Permission prompts that reached the person (the answer comes from `answer`). */
  asked: string[];
  turn(prompt: string): Promise<StreamEvent[]>;
  close(): Promise<void>;
}

export interface SessionOptions {
  script: Script;
  /** Project settings (`.deepcode/settings.json`). */
  project?: object;
  /** User settings (`$DEEPCODE_HOME/settings.json`). */
  user?: object;
  /** The managed policy. */
  managed?: object;
  /** How the person answers a permission prompt (default: no). */
  answer?: "allow" | "deny";
  /** Set up files before assembling (hook scripts, fixtures). */
  prepare?: (box: Box) => void;
}

export async function openSession(o: SessionOptions): Promise<Session> {
  const box = makeBox();
  o.prepare?.(box);
  if (o.project) projectSettings(box, o.project);
  // The sandbox's auto-allow off unless the test's user settings say otherwise: these sessions
  // are about what asks (test/helpers/cli-env.ts says why).
  // (`prepare` may have written the person's settings itself: those stand as written.)
  const userFile = join(box.deepcodeHome, "settings.json");
  if (o.user || !existsSync(userFile)) writeJson(userFile, { ...ASKING_USER_SETTINGS, ...(o.user ?? {}) });
  const managedPath = join(box.base, "policy", "managed-settings.json");
  if (o.managed) writeJson(managedPath, o.managed);
  const sim = await startSim(o.script);
  const warnings: string[] = [];
  const asked: string[] = [];
  const app = await assemble({
    root: box.root,
    home: box.deepcodeHome,
    env: { PATH: process.env.PATH, DEEPSEEK_API_KEY: API_KEY, DEEPSEEK_BASE_URL: sim.url },
    managedPath,
    interactive: true, // a person answers (the test-person hook below), as in the REPL
    trustProject: true, // the project's hooks are the person's own here
    warn: (m) => warnings.push(m),
  }).catch(async (err: unknown) => {
    // deepcode refused to start: nothing is left running (the caller reads the error).
    await sim.close();
    box.cleanup();
    throw err;
  });
  // The person at the terminal: answers every prompt the same way (in the builtin tier, where
  // the REPL's prompt sits, so observers upstream see the question first).
  app.chain.on("builtin", "test-person", "permission.ask", null, (e) => {
    asked.push(e.tool);
    return o.answer === "allow" ? { decision: "allow", by: "test-person" } : { decision: "deny", reason: "the person said no", by: "test-person" };
  });
  // app.engineOptions() without the package version (read next to dist/, not src/).
  const engine = await Engine.start({ chain: app.chain, root: box.root, model: app.model, caps: capsFor, registry: app.registry, store: app.store, version: "test" });
  app.engine = engine;
  return {
    box,
    sim,
    app,
    engine,
    warnings,
    asked,
    async turn(prompt) {
      const events: StreamEvent[] = [];
      for await (const e of engine.submit(prompt)) events.push(e);
      return events;
    },
    async close() {
      await engine.close();
      await sim.close();
      box.cleanup();
    },
  };
}

export function completion(events: StreamEvent[]): Extract<StreamEvent, { type: "turn.complete" }> {
  const c = events.filter((e) => e.type === "turn.complete");
  if (c.length !== 1) throw new Error(`expected one turn.complete, got ${c.length}`);
  return c[0] as Extract<StreamEvent, { type: "turn.complete" }>;
}

/** The text of every message of the last request the model received. */
export function lastRequestText(sim: Simulator): string {
  const last = sim.requests[sim.requests.length - 1];
  return ((last?.json?.messages ?? []) as Array<{ content?: unknown }>).map((m) => (typeof m.content === "string" ? m.content : "")).join("\n---\n");
}

/** A hook settings object for one event. */
export function hooksFor(event: string, command: string, matcher?: string, timeout?: number): object {
  return { [event]: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "command", command, ...(timeout === undefined ? {} : { timeout }) }] }] };
}

/** A PreToolUse hook on Bash that appends its name to hooks.log in the project (hooks run in the
 *  sandbox: outside the project they could not write) and goes on. */
export function logging(name: string): object {
  return hooksFor("PreToolUse", `echo ${name} >> ./hooks.log`, "Bash");
}

/** The names the `logging` hooks wrote in this project, sorted. */
export function logged(root: string): string[] {
  const file = join(root, "hooks.log");
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").sort() : [];
}

/** A session whose model makes one Bash call, `touch made.txt`, then says done: whether the file
 *  was made and what the call was told. */
export async function touchIn(o: Partial<SessionOptions>): Promise<{ session: Session; made: boolean; told: string }> {
  const session = await openSession({ script: { replies: [{ tool_calls: [bashCall("call_1", "touch made.txt")] }, { content: "done" }] }, ...o });
  await session.turn("make a file");
  return { session, made: existsSync(join(session.box.root, "made.txt")), told: toolResults(session.sim).get("call_1") ?? "" };
}
