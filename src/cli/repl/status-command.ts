// Claude Code's `statusLine` setting in the REPL: `{"type": "command", "command": "…", "padding": n}`
// (or the command alone). After each turn the command runs with the session's facts as JSON on
// stdin, in Claude Code's field names (session_id, cwd, model, workspace, version,
// output_style, cost), and the first line it prints is shown under deepcode's own status line,
// indented by `padding` spaces. Contracts:
// - Started through the chain's `process.launch` as a hook is (the sandbox contains it where it
//   is active); the whole environment is deepcode's minus the API key, as for hooks.
// - Bounded: killed after TIMEOUT_MS; runs at most once per MIN_INTERVAL_MS (a later ask within
//   that time shows the last line again).
// - Fail-soft: a failure (exit status, timeout, nothing printed, a spawn error) never stops the
//   REPL; it is said once, in one dim line naming the command and why, and again only when the
//   reason changes — never dropped without a word.

import { spawn } from "node:child_process";
import type { Chain } from "../../core/chain.js";
import type { JsonValue } from "../../contract/index.js";
import { isObject } from "../../lib/json.js";
import { packageVersion } from "../version.js";

export const TIMEOUT_MS = 5_000;
export const MIN_INTERVAL_MS = 300;

export interface StatusCommandConfig {
  command: string;
  padding: number;
}

/** The setting read: a command, nothing (unset), or a problem to say once. */
export function statusCommandOf(v: JsonValue | undefined): { config?: StatusCommandConfig; problem?: string } {
  if (v === undefined || v === null) return {};
  if (typeof v === "string" && v.trim()) return { config: { command: v, padding: 0 } };
  if (isObject(v) && (v.type === undefined || v.type === "command") && typeof v.command === "string" && v.command.trim()) {
    const padding = typeof v.padding === "number" && v.padding >= 0 ? Math.min(Math.floor(v.padding), 40) : 0;
    return { config: { command: v.command, padding } };
  }
  return { problem: `statusLine ${JSON.stringify(v).slice(0, 80)} is not {"type": "command", "command": "…"}; no custom status line is shown` };
}

export interface StatusFacts {
  sessionId: string;
  cwd: string;
  model: string;
  version: string;
  outputStyle?: string;
  costUsd: number;
  durationMs: number;
}

export class StatusCommand {
  private last?: { at: number; line: string | undefined };
  private said = "";

  constructor(
    private readonly cfg: StatusCommandConfig,
    private readonly chain: Chain,
    private readonly cwd: string,
    private readonly warn: (line: string) => void,
    private readonly timeoutMs = TIMEOUT_MS,
  ) {}

  /** The line to show (padding included), or undefined when there is none to show. */
  async line(f: StatusFacts): Promise<string | undefined> {
    if (this.last && Date.now() - this.last.at < MIN_INTERVAL_MS) return this.last.line;
    const input = {
      hook_event_name: "Status",
      session_id: f.sessionId,
      cwd: f.cwd,
      model: { id: f.model, display_name: f.model },
      workspace: { current_dir: f.cwd, project_dir: f.cwd },
      version: f.version,
      output_style: { name: f.outputStyle ?? "default" },
      cost: { total_cost_usd: f.costUsd, total_duration_ms: f.durationMs },
    };
    const r = await this.run(JSON.stringify(input));
    const first = r.ok ? r.out.split(/\r?\n/).find((l) => l.trim() !== "") : undefined;
    const why = !r.ok ? r.why : first === undefined ? "it printed nothing" : "";
    if (why && why !== this.said) this.warn(`statusLine \`${this.cfg.command}\`: ${why}; the custom status line is left out until it works`);
    this.said = why;
    const line = first === undefined ? undefined : `${" ".repeat(this.cfg.padding)}${first.slice(0, 500)}`;
    this.last = { at: Date.now(), line };
    return line;
  }

  private async run(stdin: string): Promise<{ ok: true; out: string } | { ok: false; why: string }> {
    let launch;
    try {
      const argv = ["bash", "-c", this.cfg.command];
      const env = { CLAUDE_PROJECT_DIR: this.cwd, DEEPCODE_PROJECT_DIR: this.cwd }; // as hooks get (hooks-mastery's command names it)
      launch = await this.chain.dispatch({ type: "process.launch", argv, cwd: this.cwd, env, purpose: "hook", name: `statusLine ${this.cfg.command}` });
    } catch (err) {
      return { ok: false, why: `could not start (${(err as Error).message})` };
    }
    return new Promise((resolve) => {
      let out = "";
      let err = "";
      let timedOut = false;
      const child = spawn(launch.argv[0], launch.argv.slice(1), { cwd: this.cwd, env: launch.env, stdio: ["pipe", "pipe", "pipe"] });
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill("SIGKILL");
      }, this.timeoutMs);
      child.stdout.on("data", (d: Buffer) => (out = (out + d.toString("utf8")).slice(0, 64 * 1024)));
      child.stderr.on("data", (d: Buffer) => (err = (err + d.toString("utf8")).slice(0, 4096)));
      child.stdin.on("error", () => undefined); // a command that does not read its input closes the pipe early: nothing lost
      child.stdin.end(stdin);
      let done = false;
      const finish = (r: { ok: true; out: string } | { ok: false; why: string }): void => {
        if (done) return; // "error" and "close" may both come
        done = true;
        clearTimeout(timer);
        launch.ended();
        resolve(r);
      };
      child.on("error", (e) => finish({ ok: false, why: `could not start (${e.message})` }));
      child.on("close", (code) => {
        if (timedOut) return finish({ ok: false, why: `no answer within ${Math.round(this.timeoutMs / 1000)} s (stopped)` });
        if (code !== 0) return finish({ ok: false, why: `exited with status ${code}${err.trim() ? ` (${err.trim().split("\n")[0].slice(0, 160)})` : ""}` });
        finish({ ok: true, out });
      });
    });
  }
}

/** The REPL's custom status line from the settings in force: a function that shows the line
 *  after a turn through `show`, or undefined when none is set (a malformed setting is said once
 *  through `warn`). */
export function customStatusLine(
  app: { chain: Chain; root: string; settings: { merged: Record<string, JsonValue | undefined> } },
  show: (line: string) => void,
  warn: (line: string) => void,
): ((sessionId: string, model: string, costUsd: number) => Promise<void>) | undefined {
  const { config, problem } = statusCommandOf(app.settings.merged.statusLine);
  if (problem) warn(problem);
  if (!config) return undefined;
  const cmd = new StatusCommand(config, app.chain, app.root, warn);
  const style = app.settings.merged.outputStyle;
  const outputStyle = typeof style === "string" ? style : undefined;
  return async (sessionId, model, costUsd) => {
    const durationMs = Math.round(process.uptime() * 1000);
    const line = await cmd.line({ sessionId, cwd: app.root, model, version: packageVersion(), outputStyle, costUsd, durationMs });
    if (line !== undefined) show(line);
  };
}
