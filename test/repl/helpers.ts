// The REPL in a real terminal against the simulator, for the tmux tests: `useRepl()` in a test
// file gives `open(script, files, options)` and cleans up after each test (the terminal, the
// simulator, the temp project and home).
import { afterEach, beforeEach } from "vitest";
import { startSimulator, type Script, type Simulator } from "../sim/server.mjs";
import { TMUX_AVAILABLE, Tmux } from "../helpers/tmux.js";
import { BIN, cliEnv, type CliEnv } from "../helpers/cli-env.js";

export interface OpenOptions {
  args?: string;
  width?: number;
  height?: number;
  /** Project settings (default: the estimate only shown, so keys go where a test means them). */
  settings?: object;
  /** Runs after the project exists, before deepcode starts (seed a ledger, a session…). */
  before?: (env: CliEnv) => void | Promise<void>;
  /** Wait for the whole banner (everything loaded) before returning (default true). */
  loaded?: boolean;
}

export interface ReplTest {
  readonly sim: Simulator;
  readonly env: CliEnv;
  readonly term: Tmux;
  /** A project with `files` and deepcode's REPL in a terminal on it, at its prompt. */
  open(script: Script, files?: Record<string, string>, o?: OpenOptions): Promise<Tmux>;
  /** Only the project and the simulator (start the REPL later, after a `-p` run say). */
  project(script: Script, files?: Record<string, string>, o?: Pick<OpenOptions, "settings" | "before">): Promise<CliEnv>;
  /** deepcode's REPL (again) in the same project; an earlier terminal is closed. */
  start(args?: string, o?: { width?: number; height?: number; loaded?: boolean; cwd?: string }): Promise<Tmux>;
}

export function useRepl(): ReplTest {
  let sim: Simulator | undefined;
  let term: Tmux | undefined;
  let env: CliEnv | undefined;
  // tmux is a Debian peer (.ci/run installs it): without it these tests skip, and say so once.
  beforeEach((ctx) => {
    if (!TMUX_AVAILABLE) ctx.skip();
  });
  afterEach(async () => {
    term?.kill();
    await sim?.close();
    env?.cleanup();
    term = undefined;
    sim = undefined;
    env = undefined;
  });
  const t: ReplTest = {
    get sim() {
      return sim!;
    },
    get env() {
      return env!;
    },
    get term() {
      return term!;
    },
    async project(script, files = {}, o = {}) {
      sim = await startSimulator({ script, apiKey: "sk-test-cli" });
      env = cliEnv(sim.url, { ".deepcode/settings.json": JSON.stringify(o.settings ?? { estimate: "show" }), ...files });
      await o.before?.(env);
      return env;
    },
    async open(script, files = {}, o = {}) {
      await t.project(script, files, o);
      return t.start(o.args, { width: o.width, height: o.height, loaded: o.loaded });
    },
    async start(args = "", s = {}) {
      term?.kill();
      // Trusted: these tests are about the REPL, test/repl/trust.test.ts about trust.
      term = new Tmux(`node ${BIN} --trust-project ${args}`, { cwd: s.cwd ?? env!.root, env: env!.env, width: s.width, height: s.height });
      if (s.loaded !== false) await term.waitFor(/· session \d{8}-\d{6}-[0-9a-f]{6}/); // the rest of the banner: everything has loaded
      await term.waitFor(/^›\s*$/m);
      return term;
    },
  };
  return t;
}

/** Type a line and press Enter. */
export function enter(t: Tmux, line: string): void {
  t.type(line);
  t.press("Enter");
}
