// The managed policy in real processes (its path injected the way only code can: through
// test/helpers/cli-with-managed.mjs). Its deny beats every other layer's allow; a drop-in file in
// managed-settings.d/ counts as policy too; and a malformed managed file makes `-p` run nothing and fail,
// loudly, instead of silently lifting the policy.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Simulator } from "../sim/server.mjs";
import { CLI_HOOK_TIMEOUT_MS, bashCall, makeBox, projectSettings, runCli, startSim, toolResults, writeJson, type Box, type CliRun } from "./helpers.js";

let box: Box;
let sim: Simulator | undefined;
beforeEach(() => {
  box = makeBox();
  // Every layer a user controls allows touch and echo (and echo's redirection into echoed.txt).
  writeJson(join(box.deepcodeHome, "settings.json"), { permissions: { allow: ["Bash(touch:*)", "Bash(echo:*)", "Write(echoed.txt)"] } });
  projectSettings(box, { permissions: { allow: ["Bash(touch:*)"] } });
  writeJson(join(box.root, ".deepcode", "settings.local.json"), { permissions: { allow: ["Bash(touch:*)"] } });
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  box.cleanup();
});

const managedFile = (): string => join(box.base, "policy", "managed-settings.json");

describe("a managed policy in a real process", () => {
  it("denies what it denies, though the user, project and local settings all allow it; other allows still work", async () => {
    writeJson(managedFile(), { permissions: { deny: ["Bash(touch:*)"] } });
    sim = await startSim({ replies: [{ tool_calls: [bashCall("call_touch", "touch managed-denied.txt"), bashCall("call_echo", "echo written > echoed.txt")] }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "make files", managed: managedFile() });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    expect(existsSync(join(box.root, "managed-denied.txt"))).toBe(false);
    expect(toolResults(sim).get("call_touch")).toMatch(/^Permission denied for Bash: .*managed/);
    expect(readFileSync(join(box.root, "echoed.txt"), "utf8")).toBe("written\n");
  }, CLI_HOOK_TIMEOUT_MS);

  it("counts a drop-in file in managed-settings.d/ as policy, next to the main file", async () => {
    writeJson(managedFile(), {});
    writeJson(join(box.base, "policy", "managed-settings.d", "10-no-echo.json"), { permissions: { deny: ["Bash(echo:*)"] } });
    sim = await startSim({ replies: [{ tool_calls: [bashCall("call_echo", "echo written > echoed.txt")] }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "write", managed: managedFile() });
    expect(run.result?.stop_reason, run.stderr).toBe("completed");
    expect(existsSync(join(box.root, "echoed.txt"))).toBe(false);
    expect(toolResults(sim).get("call_echo")).toMatch(/^Permission denied for Bash: .*managed/);
  }, CLI_HOOK_TIMEOUT_MS);

  it("runs nothing and fails (exit 1, is_error) when the managed file is malformed, and says so on stderr with the file, line and column", async () => {
    mkdirSync(join(box.base, "policy"), { recursive: true });
    writeFileSync(managedFile(), '{\n  "permissions": { "deny": [ }\n}\n');
    writeFileSync(join(box.root, "notes.txt"), "readable\n");
    sim = await startSim({
      replies: [
        { tool_calls: [{ id: "call_read", name: "Read", arguments: { file_path: "notes.txt" } }, bashCall("call_echo", "echo written > echoed.txt"), { id: "call_write", name: "Write", arguments: { file_path: "new.txt", content: "x" } }] },
        { content: "done" },
      ],
    });
    const run = await runCli({ box, sim, prompt: "work", managed: managedFile() });
    expect(run.stderr).toContain(`MANAGED POLICY IS BROKEN: ${managedFile()}:2:`);
    refusedWhole(run);
    expect(existsSync(join(box.root, "echoed.txt"))).toBe(false);
    expect(existsSync(join(box.root, "new.txt"))).toBe(false);
  }, CLI_HOOK_TIMEOUT_MS);

  it("runs nothing and fails when a managed deny rule cannot be parsed, instead of silently dropping it", async () => {
    writeJson(managedFile(), { permissions: { deny: ["Bash(touch:* --force)"] } });
    sim = await startSim({ replies: [{ tool_calls: [bashCall("call_touch", "touch made.txt")] }, { content: "done" }] });
    const run = await runCli({ box, sim, prompt: "make a file", managed: managedFile() });
    expect(run.stderr).toContain(`MANAGED POLICY IS BROKEN: ${managedFile()}`);
    expect(run.stderr).toContain('deny rule "Bash(touch:* --force)" cannot be applied');
    refusedWhole(run);
    expect(existsSync(join(box.root, "made.txt"))).toBe(false);
  }, CLI_HOOK_TIMEOUT_MS);
});

/** A broken policy: `-p` runs nothing at all — no request reaches the API, no tool runs — and
 *  fails (exit 1, is_error), so CI goes red instead of green with nothing done (issue #42). */
function refusedWhole(run: CliRun): void {
  expect(run.code, run.stderr).toBe(1);
  expect(run.result?.is_error, run.stdout).toBe(true);
  expect(String(run.result?.errors?.[0] ?? ""), run.stdout).toMatch(/The managed policy is broken, so every tool call is denied: .*Nothing was run: an administrator must fix the policy/);
  expect(sim?.requests).toHaveLength(0);
}

describe("a managed policy that cannot be applied exactly as written denies every call, in a real process", () => {
  const dropIn = (name: string): string => join(box.base, "policy", "managed-settings.d", name);
  const cases: Array<[string, () => void, RegExp]> = [
    ["a 0-byte managed-settings.json", () => (mkdirSync(join(box.base, "policy"), { recursive: true }), writeFileSync(managedFile(), "")), /is empty/],
    ["a dangling symlink at managed-settings.json", () => (mkdirSync(join(box.base, "policy"), { recursive: true }), symlinkSync(join(box.base, "policy", "moved.json"), managedFile())), /is a symlink that leads nowhere/],
    ["a drop-in named 30-deny.JSON", () => writeJson(dropIn("30-deny.JSON"), { permissions: { deny: ["Bash(touch:*)"] } }), /30-deny\.JSON: deepcode reads only drop-in files named \*\.json/],
    ["a dotfile drop-in", () => writeJson(dropIn(".30-deny.json"), { permissions: { deny: ["Bash(touch:*)"] } }), /\.30-deny\.json: deepcode reads only/],
    ["a folder in the drop-in folder", () => mkdirSync(dropIn("30-deny.json"), { recursive: true }), /30-deny\.json: is a folder/],
    ["a misspelt key (permisions)", () => writeJson(managedFile(), { permisions: { deny: ["Bash(touch:*)"] } }), /unknown setting 'permisions'/],
  ];
  for (const [what, make, why] of cases) {
    it(`${what}: says so on stderr, runs nothing and fails`, async () => {
      make();
      sim = await startSim({ replies: [{ tool_calls: [bashCall("call_touch", "touch made.txt")] }, { content: "done" }] });
      const run = await runCli({ box, sim, prompt: "make a file", managed: managedFile() });
      expect(run.stderr).toMatch(/MANAGED POLICY IS BROKEN: /);
      expect(run.stderr).toMatch(why);
      refusedWhole(run);
      expect(existsSync(join(box.root, "made.txt"))).toBe(false);
    }, CLI_HOOK_TIMEOUT_MS);
  }
});
