// Background jobs through the real CLI in -p, against the simulator: Bash with
// run_in_background returns while the command still runs, BashOutput shows only what is new (a
// filter consumes what it hides), KillShell stops it, the gate and the bound apply before a job
// starts, the model hears of a job that exited at its next request, and the run's end takes
// every job with it. Judged by effect: files, processes, what the model was sent.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";
import { isSubagent, task } from "../agents/helpers.js";
import { eventually, processesRunning, toolResults, uniqueSleep, type Chat } from "./helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const bash = (command: string, background = true) => ({ tool_calls: [{ name: "Bash", arguments: { command, run_in_background: background } }] });
const use = (name: string, input: object) => ({ tool_calls: [{ name: "UseTool", arguments: { name, input } }] });
const settings = (o: object) => ({ ".deepcode/settings.json": JSON.stringify(o) });
const ALLOW = ["Bash(echo:*)", "Bash(sleep:*)", "Bash(touch:*)", "Bash(exit:*)"];

function lastResults(r: CliRig): string[] {
  return toolResults(chatBodies(r.sim.requests).pop() as Chat);
}

describe("a background command", () => {
  it("returns at once, its new output is read with a filter and then without, and KillShell stops it", async () => {
    const sleep = uniqueSleep();
    const seen: { lateAtStart?: boolean; aliveAtKill?: boolean } = {};
    rig = await cliRig({
      respond: async (json: Chat) => {
        const n = toolResults(json).length;
        if (n === 0) return bash(`echo one; echo error two; touch two.txt; ${sleep}; touch late.txt`);
        if (n === 1) {
          // The model has the start result while the command is still at its sleep.
          await eventually(() => existsSync(join(rig!.env.root, "two.txt")));
          seen.lateAtStart = existsSync(join(rig!.env.root, "late.txt"));
          return use("BashOutput", { bash_id: "1", filter: "error" });
        }
        if (n === 2) return { tool_calls: [{ name: "BashOutput", arguments: { bash_id: "1" } }] };
        if (n === 3) {
          seen.aliveAtKill = processesRunning(sleep).length > 0;
          return use("KillShell", { shell_id: "1" });
        }
        return { content: "done" };
      },
    }, settings({ permissions: { allow: ALLOW } }));
    const r = await rig.run(["-p", "start the server", "--trust-project", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const [start, filtered, again, killed] = lastResults(rig);
    expect(start).toMatch(/^Started background job 1; you will be told when it exits\.\nNew output: UseTool \{"name":"BashOutput","input":\{"bash_id":"1"\}\}/);
    expect(seen.lateAtStart).toBe(false);
    expect(filtered).toMatch(/^error two\n\[1 line not matching the filter left out\]\n\[job 1 running for \d+ s\]$/);
    expect(again).toMatch(/^\(no new output\)\n\[job 1 running for \d+ s\]$/);
    expect(seen.aliveAtKill).toBe(true);
    expect(killed).toMatch(/^Killed job 1 \(`echo one; echo error two; touch two\.txt; sleep [\d.]+; \S*…`\)\.$/);
    expect(processesRunning(sleep)).toEqual([]);
    expect(existsSync(join(rig.env.root, "late.txt"))).toBe(false);
    expect(JSON.parse(r.stdout).permission_denials).toEqual([]);
  });

  it("passes the same gate as a foreground one: a denied command never starts", async () => {
    rig = await cliRig({
      respond: (json: Chat) => (toolResults(json).length === 0 ? bash("touch made.txt") : { content: "done" }),
    }, settings({ permissions: { deny: ["Bash(touch:*)"] } }));
    const r = await rig.run(["-p", "make it", "--trust-project", "--output-format", "json"]);
    expect(lastResults(rig)[0]).toMatch(/^Permission denied for Bash: /);
    expect(JSON.parse(r.stdout).permission_denials).toEqual([expect.objectContaining({ tool_name: "Bash", tool_input: { command: "touch made.txt" } })]);
    // Long enough for a job that had started to have made it.
    await new Promise((res) => setTimeout(res, 500));
    expect(existsSync(join(rig.env.root, "made.txt"))).toBe(false);
  });

  it("is refused past the most jobs allowed at once (pluginConfig.jobs.maxJobs)", async () => {
    const sleep = uniqueSleep();
    rig = await cliRig({
      respond: (json: Chat) => {
        const n = toolResults(json).length;
        if (n < 2) return bash(sleep);
        return { content: "done" };
      },
    }, settings({ permissions: { allow: ALLOW }, pluginConfig: { jobs: { maxJobs: 1 } } }));
    const r = await rig.run(["-p", "two servers", "--trust-project", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const [first, second] = lastResults(rig);
    expect(first).toMatch(/^Started background job 1;/);
    expect(second).toBe("1 background job is running, the most allowed at once (pluginConfig.jobs.maxJobs). Stop one with KillShell first, or run this one in the foreground.");
  });

  it("that exits is heard by the model at its next request, once", async () => {
    rig = await cliRig({
      respond: (json: Chat) => {
        const results = toolResults(json);
        if (results.length === 0) return bash("sleep 0.5; exit 3");
        if (results.some((c) => c.includes("Background job 1")) || results.length > 60) return { content: "done" };
        return bash("sleep 0.2", false);
      },
    }, settings({ permissions: { allow: ALLOW } }));
    const r = await rig.run(["-p", "run it", "--trust-project", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const results = lastResults(rig);
    const told = results.filter((c) => c.includes("Background job 1"));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/\n\n\[deepcode\] Background job 1 \(`sleep 0\.5; exit 3`\) exited with code 3\.$/);
    expect(results.indexOf(told[0])).toBeGreaterThan(0);
  });

  it("ends with the -p run: no process of it is left", async () => {
    const sleep = uniqueSleep();
    rig = await cliRig({
      respond: (json: Chat) => (toolResults(json).length === 0 ? bash(`${sleep} & ${sleep}`) : { content: "started" }),
    }, settings({ permissions: { allow: ALLOW } }));
    const r = await rig.run(["-p", "start it", "--trust-project"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("started");
    expect(processesRunning(sleep)).toEqual([]);
  });

  it("starts in the folder the session's Bash is in, as a foreground command would", async () => {
    rig = await cliRig({
      respond: async (json: Chat) => {
        const n = toolResults(json).length;
        if (n === 0) return bash("cd sub", false);
        if (n === 1) return bash("pwd; sleep 0.5");
        if (n === 2) return { keepAliveMs: 1500, tool_calls: [{ name: "BashOutput", arguments: { bash_id: "1" } }] };
        return { content: "done" };
      },
    }, { ...settings({ permissions: { allow: [...ALLOW, "Bash(cd:*)", "Bash(pwd:*)"] } }), "sub/keep.txt": "" });
    const r = await rig.run(["-p", "where", "--trust-project", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const [, start, read] = lastResults(rig);
    expect(start).toMatch(/^Started background job 1 in sub;/);
    expect(read.split("\n")[0]).toBe(join(rig.env.root, "sub"));
    expect(read).toMatch(/^[^\n]*\n\[job 1 exited with code 0 after \d+ s\]$/);
  });
});

describe("the tools of background jobs", () => {
  it("leave the prefix to Bash's one added parameter: BashOutput and KillShell are never offered nor announced, yet answer when called", async () => {
    rig = await cliRig({
      respond: (json: Chat) => {
        const n = toolResults(json).length;
        if (n === 0) return { tool_calls: [{ name: "KillShell", arguments: { shell_id: "7" } }] };
        if (n === 1) return use("BashOutput", { bash_id: 7 });
        return { content: "done" };
      },
    }, settings({ permissions: { allow: ALLOW } }));
    const r = await rig.run(["-p", "look", "--trust-project", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const bodies = chatBodies(rig.sim.requests) as Array<Chat & { tools: Array<{ function: { name: string; parameters: { properties: Record<string, unknown> } } }> }>;
    const names = bodies[0].tools.map((t) => t.function.name);
    expect(names).not.toContain("BashOutput");
    expect(names).not.toContain("KillShell");
    expect(bodies[0].tools.find((t) => t.function.name === "Bash")?.function.parameters.properties.run_in_background).toEqual({ type: "boolean" });
    const said = bodies.flatMap((b) => b.messages.map((m) => String(m.content ?? "")));
    expect(said.some((c) => c.includes("New tools are available"))).toBe(false);
    expect(lastResults(rig)).toEqual(["No background job 7. None was started.", "No background job 7. None was started."]);
  });
});

describe("a subagent's background job", () => {
  it("that ends after the subagent's run is heard by the main agent, at its next request", async () => {
    rig = await cliRig({
      respond: (json: Chat) => {
        const results = toolResults(json);
        if (isSubagent(json)) return results.length === 0 ? bash("sleep 0.5; exit 5") : { content: "the check is running" };
        if (results.length === 0) return { tool_calls: [task("general-purpose", "start the check", "Start the check in the background.")] };
        if (results.some((c) => c.includes("Background job 1")) || results.length > 60) return { content: "done" };
        return bash("sleep 0.2", false);
      },
    }, settings({ permissions: { allow: [...ALLOW, "Task"] } }));
    const r = await rig.run(["-p", "delegate it", "--trust-project", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const told = lastResults(rig).filter((c) => c.includes("Background job 1"));
    expect(told).toEqual([expect.stringMatching(/\n\n\[deepcode\] Background job 1 \(`sleep 0\.5; exit 5`\) exited with code 5\.$/)]);
  });
});

