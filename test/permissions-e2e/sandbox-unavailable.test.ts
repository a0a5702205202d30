// Where bubblewrap is missing, deepcode says so once at start and runs Bash without a sandbox —
// the permission gate and the path fence still hold.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import type { Simulator } from "../sim/server.mjs";
import { CLI_HOOK_TIMEOUT_MS, bashCall, makeBox, projectSettings, runCli, snapshot, startSim, toolResults, type Box, type CliRun } from "./helpers.js";

let box: Box;
let sim: Simulator;
let run: CliRun;
let outsideBefore: Record<string, string>;

beforeAll(async () => {
  box = makeBox();
  // A PATH with node and bash only: no bwrap to be found.
  const bin = join(box.base, "bin");
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, "node"));
  symlinkSync(realBash(), join(bin, "bash"));
  projectSettings(box, { permissions: { allow: ["Bash(echo:*)", "Write(inside.txt)"] } });
  outsideBefore = snapshot(box.outside);
  sim = await startSim({ replies: [{ tool_calls: [bashCall("call_in", "echo hi > inside.txt"), bashCall("call_out", "echo x > ../outside/escaped.txt")] }, { content: "done" }] });
  run = await runCli({ box, sim, prompt: "write", env: { PATH: bin } });
}, CLI_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await sim?.close();
  box?.cleanup();
});

function realBash(): string {
  for (const p of ["/bin/bash", "/usr/bin/bash"]) if (existsSync(p)) return p;
  throw new Error("no bash");
}

describe("without bubblewrap", () => {
  it("says once, at start, that the Bash sandbox is not active and why", () => {
    const lines = run.stderr.split("\n").filter((l) => l.includes("sandbox is not active"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/bwrap \(bubblewrap\) is not installed or not on PATH/);
  });

  it("still runs allowed commands, and the path fence still refuses a write next to the workspace", () => {
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    expect(readFileSync(join(box.root, "inside.txt"), "utf8")).toBe("hi\n");
    expect(toolResults(sim).get("call_out")).toMatch(/^Permission denied for Bash: /);
    expect(snapshot(box.outside)).toEqual(outsideBefore);
  });
});
