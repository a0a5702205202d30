// The jobs mod through the plugin API alone, the way assembly loads it: a Bash call whose input
// says run_in_background is taken out of the input at tool.input (so the gate and hooks see the
// plain Bash call) and answered at tool.call with a job started through process.run; the
// BashOutput filter refuses a pattern that could backtrack for minutes; bad settings are named.
import { afterEach, describe, expect, it } from "vitest";
import plugin from "../../mods/jobs/index.js";
import { runProcess } from "../../src/core/effects.js";
import type { JsonValue, PluginApi, ProcessRunRequest, ToolContext, ToolOutput, ToolSpec } from "../../src/contract/index.js";

type AnyHook = (e: Record<string, unknown>, next: (e?: unknown) => Promise<unknown>) => Promise<unknown>;

function load(config: Record<string, JsonValue> = {}) {
  const hooks = new Map<string, AnyHook>();
  const tools = new Map<string, ToolSpec>();
  const warnings: string[] = [];
  const runs: ProcessRunRequest[] = [];
  const api = {
    id: "jobs",
    root: process.cwd(),
    home: "/nonexistent",
    config,
    log: { warn: (m: string) => warnings.push(m), info: () => undefined, error: () => undefined },
    on: (name: string, a: unknown, b?: unknown) => void hooks.set(name, (typeof a === "function" ? a : b) as AnyHook),
    tool: (spec: ToolSpec) => void tools.set(spec.name, spec),
    command: () => () => undefined,
    shellCwd: () => process.cwd(),
    dispatch: (e: { type: string } & ProcessRunRequest) => {
      if (e.type === "process.run") {
        runs.push(e);
        return runProcess(e);
      }
      return Promise.resolve(undefined);
    },
  };
  // The mod uses only these members of the API.
  void plugin.register(api as unknown as PluginApi);
  const call = async (input: Record<string, JsonValue>): Promise<ToolOutput> => {
    const parsed = (await hooks.get("tool.input")!({ sessionId: "s", callId: "c1", tool: "Bash" }, async () => ({ input }))) as { input: Record<string, JsonValue> };
    return (await hooks.get("tool.call")!({ sessionId: "s", callId: "c1", tool: "Bash", input: parsed.input }, async () => ({ content: "ran in the foreground" }))) as ToolOutput;
  };
  const ctx = { keepOutput: async () => null } as unknown as ToolContext;
  const tool = (name: string, input: Record<string, JsonValue>) => tools.get(name)!.run(input, ctx);
  return { hooks, tools, warnings, runs, call, tool };
}

let cleanup: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe("the jobs mod", () => {
  it("takes run_in_background out of the input the gate sees, and answers the call with a job", async () => {
    const m = load();
    cleanup = () => m.hooks.get("session.end")!({ sessionId: "s" }, async () => undefined);
    const parsed = await m.hooks.get("tool.input")!({ sessionId: "s", callId: "c0", tool: "Bash" }, async () => ({ input: { command: "echo hi", run_in_background: false } }));
    expect(parsed).toEqual({ input: { command: "echo hi" } });
    expect(await m.hooks.get("tool.call")!({ sessionId: "s", callId: "c0", tool: "Bash", input: { command: "echo hi" } }, async () => ({ content: "ran in the foreground" }))).toEqual({ content: "ran in the foreground" });
    const out = await m.call({ command: "sleep 30", run_in_background: true });
    expect(out.content).toMatch(/^Started background job 1;/);
    expect(m.runs.map((r) => r.argv)).toEqual([["bash", "-c", "sleep 30"]]);
    expect(m.tools.get("BashOutput")?.onDemand).toBe("");
    expect(m.tools.get("KillShell")?.onDemand).toBe("");
  });

  it("refuses a BashOutput filter that could backtrack for minutes, and one that is not a regex", async () => {
    const m = load();
    cleanup = () => m.hooks.get("session.end")!({ sessionId: "s" }, async () => undefined);
    await m.call({ command: "sleep 30", run_in_background: true });
    expect(await m.tool("BashOutput", { bash_id: "1", filter: "(a+)+$" })).toEqual({ content: expect.stringContaining("repeats a group that itself repeats"), isError: true });
    expect(await m.tool("BashOutput", { bash_id: "1", filter: "(" })).toEqual({ content: expect.stringMatching(/^filter is not a valid regular expression: /), isError: true });
  });

  it("names a setting it cannot use, and goes on with the default", () => {
    const m = load({ maxJobs: 0, maxOutputChars: "lots" });
    expect(m.warnings).toEqual([
      "pluginConfig.jobs.maxJobs must be an integer from 1 to 64, not 0; using 8",
      'pluginConfig.jobs.maxOutputChars must be an integer from 1000 to 50000000, not "lots"; using 500000',
    ]);
  });
});
