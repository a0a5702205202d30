// Protected paths by another spelling, in a real process: under a Write/Edit allow, the model
// writing `.GIT/hooks/pre-commit`, `.DeepCode/settings.json`, `.MCP.json`, `.mcp.json.` or
// `.mcp.json ` is asked about (so refused by -p, where nobody can answer) — on macOS and Windows
// those are the protected files themselves. Ordinary files are still written without a prompt.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Simulator } from "../sim/server.mjs";
import { CLI_HOOK_TIMEOUT_MS, bashCall, makeBox, runCli, startSim, toolResults, writeJson, type Box, type CliRun } from "./helpers.js";

const SPELLINGS = [".GIT/hooks/pre-commit", ".DeepCode/settings.json", ".MCP.json", ".mcp.json.", ".mcp.json ", ".Claude/Settings.JSON", ".claude/commands./x.md", ".git/HOOKS/post-checkout"];

let box: Box;
let sim: Simulator;
let run: CliRun;
beforeAll(async () => {
  box = makeBox();
  const flag = join(box.base, "flag-settings.json");
  writeJson(flag, { sandbox: { enabled: false }, permissions: { allow: ["Write", "Edit", "Bash(echo:*)"] } });
  sim = await startSim({
    replies: [
      {
        tool_calls: [
          ...SPELLINGS.map((f, i) => ({ id: `call_${i}`, name: "Write", arguments: { file_path: f, content: '{"mcpServers":{"x":{"command":"touch"}}}\n' } })),
          { id: "call_plain", name: "Write", arguments: { file_path: "src/ok.ts", content: "export {};\n" } },
          bashCall("call_redirect", "echo x > .MCP.JSON"),
        ],
      },
      { content: "done" },
    ],
  });
  run = await runCli({ box, sim, prompt: "configure things", args: ["--settings", flag] });
}, CLI_HOOK_TIMEOUT_MS);
afterAll(async () => {
  await sim?.close();
  box?.cleanup();
});

describe("a protected path by another spelling, under a Write/Edit allow", () => {
  SPELLINGS.forEach((f, i) => {
    it(`refuses to write ${JSON.stringify(f)} without asking, and creates nothing`, () => {
      expect(run.result?.stop_reason, run.stderr).toBe("completed");
      expect(toolResults(sim).get(`call_${i}`), f).toMatch(/^Permission denied for Write: /);
      expect(existsSync(join(box.root, f)), f).toBe(false);
    });
  });

  it("refuses a redirection into one too", () => {
    expect(toolResults(sim).get("call_redirect")).toMatch(/^Permission denied for Bash: /);
    expect(existsSync(join(box.root, ".MCP.JSON"))).toBe(false);
  });

  it("still writes an ordinary file, and leaves nothing else in the project", () => {
    expect(existsSync(join(box.root, "src", "ok.ts"))).toBe(true);
    expect(readdirSync(box.root).sort()).toEqual([".deepcode", "src"].filter((n) => existsSync(join(box.root, n))));
  });
});
