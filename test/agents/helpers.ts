// Subagent tests against the simulator: a stateless scripted model that answers the main agent
// and each subagent from their own conversation (which agent is asking is read from its system
// prompt), and the real CLI run in a temp project.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach } from "vitest";
import { startSimulator, type Script, type ScriptEntry, type SimRequest, type Simulator } from "../sim/server.mjs";
import { BIN, cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { runBin } from "../e2e/helpers.js";
import { Tmux } from "../helpers/tmux.js";

/** What every subagent's system prompt starts with (src/core/engine/system-prompt.ts). */
export const SUBAGENT_MARK = "You are a subagent of deepcode";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a chat request as sent
type Json = any;

export interface AgentPlan {
  /** Picks the subagent: a text its system prompt contains (an agent file's body). */
  marker: string;
  /** Its replies in order (the last repeats); a function gets the task prompt it was given. */
  steps: ScriptEntry[] | ((prompt: string) => ScriptEntry[]);
}

export interface Plan {
  /** The main agent's replies per turn, by prompt (or one list for every prompt). */
  main: ScriptEntry[] | Record<string, ScriptEntry[]>;
  agents?: AgentPlan[];
}

export function systemOf(json: Json): string {
  const first = json.messages?.[0];
  return first?.role === "system" ? String(first.content) : "";
}

export function isSubagent(json: Json): boolean {
  return systemOf(json).startsWith(SUBAGENT_MARK);
}

/** The prompt of the request's turn and how many replies it has had since. */
export function turnOf(json: Json): { prompt: string; step: number } {
  const msgs: Json[] = json.messages ?? [];
  let i = msgs.length - 1;
  while (i >= 0 && !(msgs[i].role === "user" && !String(msgs[i].content).startsWith("[deepcode]"))) i--;
  const step = msgs.slice(i + 1).filter((m: Json) => m.role === "assistant").length;
  return { prompt: i >= 0 ? String(msgs[i].content) : "", step };
}

export function planScript(plan: Plan): Script {
  return {
    respond: (json: Json) => {
      const { prompt, step } = turnOf(json);
      const pick = (steps: ScriptEntry[]): ScriptEntry => steps[Math.min(step, steps.length - 1)];
      if (isSubagent(json)) {
        const system = systemOf(json);
        const a = plan.agents?.find((x) => system.includes(x.marker));
        if (!a) return { content: "(no plan for this subagent)" };
        return pick(typeof a.steps === "function" ? a.steps(prompt) : a.steps);
      }
      const main = Array.isArray(plan.main) ? plan.main : (plan.main[prompt] ?? Object.values(plan.main)[0]);
      return pick(main);
    },
  };
}

/** Chat requests that were answered, parsed, in the order they arrived. */
export function chats(requests: readonly SimRequest[]): Array<{ json: Json; usage: SimRequest["usage"] }> {
  return requests.filter((r) => r.path.endsWith("/chat/completions") && r.status === 200).map((r) => ({ json: r.json, usage: r.usage }));
}

export const toolNamesOf = (json: Json): string[] => (json.tools ?? []).map((t: Json) => t.function.name);

export const call = (name: string, args: object): ScriptEntry => ({ tool_calls: [{ name, arguments: args }] });
export const task = (subagent_type: string, description: string, prompt: string): { name: string; arguments: object } => ({ name: "Task", arguments: { subagent_type, description, prompt } });

/** Run the real CLI in the project; asynchronously (the simulator lives in this process). */
export function deepcode(env: CliEnv, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runBin(args, { cwd: env.root, env: env.env });
}

export function gitInit(root: string): void {
  spawnSync("git", ["init", "-q"], { cwd: root });
}

/** The usage ledger's lines. */
export function ledger(env: CliEnv): Array<Record<string, unknown>> {
  try {
    return readFileSync(join(env.home, "usage.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    return [];
  }
}

/** Tokens of a request's prefix as the simulator counts them: its system message(s) and tools. */
export function prefixTokens(json: Json, count: (text: string) => number, render: (json: Json) => string[]): number {
  const systems = (json.messages ?? []).filter((m: Json) => m.role === "system").length;
  const pieces = render(json);
  const n = systems + (Array.isArray(json.tools) && json.tools.length > 0 ? 1 : 0);
  return pieces.slice(0, n).reduce((a, p) => a + count(p), 0);
}

/** A simulator answering `plan` and a temp project with `files`, for one test at a time; call
 *  it once at the top of a test file: what a test opened is closed after it (and a REPL in tmux
 *  with it, when the test opened one). */
export function projects(): {
  open(plan: Plan, files: Record<string, string>, onRequest?: (r: SimRequest) => void): Promise<void>;
  /** The REPL on the opened project (trusted), in a real terminal, once it shows its prompt. */
  repl(): Promise<Tmux>;
  readonly sim: Simulator;
  readonly env: CliEnv;
} {
  let sim: Simulator | undefined;
  let env: CliEnv | undefined;
  let term: Tmux | undefined;
  const p = {
    async open(plan: Plan, files: Record<string, string>, onRequest?: (r: SimRequest) => void): Promise<void> {
      sim = await startSimulator({ script: planScript(plan), apiKey: "sk-test-cli", onRequest });
      env = cliEnv(sim.url, files);
    },
    async repl(): Promise<Tmux> {
      term = new Tmux(`node ${BIN} --trust-project`, { cwd: p.env.root, env: p.env.env });
      await term.waitFor(/· session \d{8}-\d{6}-[0-9a-f]{6} ·/);
      await term.waitFor(/^›\s*$/m);
      return term;
    },
    get sim(): Simulator {
      if (!sim) throw new Error("no simulator: call open() first");
      return sim;
    },
    get env(): CliEnv {
      if (!env) throw new Error("no project: call open() first");
      return env;
    },
  };
  afterEach(async () => {
    term?.kill();
    await sim?.close();
    env?.cleanup();
    term = sim = env = undefined;
  });
  return p;
}
