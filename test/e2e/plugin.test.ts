import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { BIN, cliEnv, type CliEnv } from "../helpers/cli-env.js";

const AUDIT = fileURLToPath(new URL("../../dist/plugins/audit-log/index.js", import.meta.url));
let sim: Simulator | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  await sim?.close();
  env?.cleanup();
});

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: env!.root, env: env!.env });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stderr }));
    child.stdin.end();
  });
}

describe("a third-party plugin listed in settings", () => {
  it("loads in the user tier and sees every tool call and its final decision (the example audit-log plugin)", async () => {
    sim = await startSimulator({
      script: { replies: [{ tool_calls: [{ name: "Read", arguments: { file_path: "a.txt" } }, { name: "Bash", arguments: { command: "rm a.txt" } }] }, { content: "done" }] },
      apiKey: "sk-test-cli",
    });
    env = cliEnv(sim.url, { "a.txt": "keep me\n", ".deepcode/settings.json": JSON.stringify({ plugins: [AUDIT], pluginConfig: { "audit-log": { file: "audit.jsonl" } } }) });
    expect((await run(["-p", "tidy up", "--trust-project"])).code).toBe(0);
    const lines = readFileSync(join(env.root, "audit.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    // One line per decision, once final: in -p nobody can be asked, so the Bash call's ask ends
    // as a deny, answered by "non-interactive" (no plugin sees or answers the question itself).
    expect(lines.filter((l) => "decision" in l).map((l) => [l.tool, l.decision, l.gate])).toEqual([["Read", "allow", "allow"], ["Bash", "deny", "ask"]]);
    expect(lines.find((l) => l.tool === "Bash")?.answer).toMatchObject({ decision: "deny", by: "non-interactive" });
    expect(lines.filter((l) => "error" in l).map((l) => [l.tool, l.error])).toEqual([["Read", false]]);
    expect(readFileSync(join(env.root, "a.txt"), "utf8")).toBe("keep me\n");
  });

  it("is named at start-up when it cannot load, and deepcode still works", async () => {
    sim = await startSimulator({ script: { default: { content: "fine" } }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url, { ".deepcode/settings.json": JSON.stringify({ plugins: ["./no-such-plugin.js"] }) });
    const r = await run(["-p", "hi", "--trust-project"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/plugin \.\/no-such-plugin\.js did not load \(cannot load: .*\); the rest keeps working/);
  });
});
