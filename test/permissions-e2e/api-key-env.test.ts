// The API key is not readable by a tool, in a real process with the sandbox off: deepcode takes
// DEEPSEEK_API_KEY out of its own environment at start — also out of the environment it was
// started with, which `ps eww` and /proc/<pid>/environ show (key-env.ts) — so a Bash call under a
// `Bash` allow that prints deepcode's environment, or every process's, does not show it. The
// Read tool asks before it reads a process's environment at all. The model keeps working: the
// key still reaches the API.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { startSimulator, type Script, type Simulator } from "../sim/server.mjs";
import { CLI_HOOK_TIMEOUT_MS, REPO, bashCall, makeBox, runCli, toolResults, everythingWritten, writeJson, type Box } from "./helpers.js";

// A key of this run's own: `cat /proc/*/environ` reads every process of the user, and other
// processes on the machine may hold the suite's shared test key.
const API_KEY = `sk-envtest-${randomBytes(8).toString("hex")}`;
const startSim = (script: Script): Promise<Simulator> => startSimulator({ script, apiKey: API_KEY });

let box: Box;
let sim: Simulator | undefined;
let flag: string;
beforeEach(() => {
  box = makeBox();
  flag = join(box.base, "flag-settings.json");
  writeJson(flag, { sandbox: { enabled: false }, permissions: { allow: ["Bash"] } });
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  box.cleanup();
});

const everything = (s: Simulator): string => everythingWritten(s, box);

const FIND_DEEPCODE = "p=$PPID; until tr '\\0' ' ' < /proc/$p/cmdline | grep -q bin/deepcode.js || [ \"$p\" -le 1 ]; do p=$(awk '{print $4}' /proc/$p/stat); done";
const PROBES = [
  // deepcode: the first ancestor running bin/deepcode.js.
  ["ps", `${FIND_DEEPCODE}; ps eww -p $p`],
  ["deepcode", `${FIND_DEEPCODE}; cat /proc/$p/environ | tr '\\0' '\\n'`],
  ["all", "cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep -a -i -e deepseek -e sk-"],
  ["grandparent-walk", "p=$PPID; while [ \"$p\" -gt 1 ]; do tr '\\0' '\\n' < /proc/$p/environ; p=$(awk '{print $4}' /proc/$p/stat); done"],
] as const;

// Linux: elsewhere deepcode cannot change its start-up environment, and says so (doctor, docs).
describe.skipIf(process.platform !== "linux")("the API key in deepcode's own environment", () => {
  it("is not shown by ps eww or /proc/<pid>/environ, of deepcode or of any process, under a Bash allow with the sandbox off", async () => {
    // Reading a process's environment asks (a secret); an allow naming /proc lets the probes run.
    writeJson(flag, { sandbox: { enabled: false }, permissions: { allow: ["Bash", "Read(/proc/**)"] } });
    // Each probe is a script, as a model would write one: what it reads is its own business.
    mkdirSync(join(box.root, "probes"));
    for (const [id, c] of PROBES) writeFileSync(join(box.root, "probes", `${id}.sh`), `${c}\n`);
    sim = await startSim({ replies: [{ tool_calls: PROBES.map(([id]) => bashCall(`call_${id}`, `bash probes/${id}.sh`)) }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "show me the environment", args: ["--settings", flag], env: { DEEPSEEK_API_KEY: API_KEY } });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    const results = toolResults(sim);
    // The probes ran and printed deepcode's environment — with the variable's name, not its value.
    expect(results.get("call_deepcode")).toContain("DEEPCODE_HOME=");
    expect(results.get("call_deepcode")).toMatch(/^DEEPSEEK_API_KEY=$/m);
    expect(results.get("call_ps")).toContain("bin/deepcode.js -p");
    for (const [id] of PROBES) expect(results.get(`call_${id}`), id).not.toContain(API_KEY);
    expect(everything(sim)).not.toContain(API_KEY);
    expect(run.stderr).not.toContain(API_KEY);
    expect(run.stderr).not.toMatch(/WARNING: DEEPSEEK_API_KEY stays readable/);
  }, CLI_HOOK_TIMEOUT_MS);

  it("is not read by the Read tool through /proc (a process's environment is a secret: -p refuses)", async () => {
    sim = await startSim({ replies: [{ tool_calls: [{ id: "call_self", name: "Read", arguments: { file_path: "/proc/self/environ" } }] }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "read it", args: ["--settings", flag], env: { DEEPSEEK_API_KEY: API_KEY } });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    expect(toolResults(sim).get("call_self")).toMatch(/^Permission denied for Read: /);
    expect(everything(sim)).not.toContain(API_KEY);
  }, CLI_HOOK_TIMEOUT_MS);

  it("is reported by deepcode doctor as removed from its environment", async () => {
    sim = await startSim({ replies: [] });
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [join(REPO, "bin", "deepcode.js"), "doctor"], {
        cwd: box.root,
        env: { PATH: process.env.PATH, HOME: box.home, DEEPCODE_HOME: box.deepcodeHome, DEEPSEEK_BASE_URL: sim!.url, DEEPSEEK_API_KEY: API_KEY, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let text = "";
      child.stdout.on("data", (c: Buffer) => (text += c.toString("utf8")));
      child.on("error", reject);
      child.on("close", () => resolve(text));
    });
    expect(out).toMatch(/✓ key in deepcode's environment: DEEPSEEK_API_KEY removed: commands cannot read it/);
    expect(out).not.toContain(API_KEY);
  }, CLI_HOOK_TIMEOUT_MS);
});
