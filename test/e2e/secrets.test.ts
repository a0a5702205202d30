import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { BIN, cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { chatBodies } from "../helpers/extension.js";

let sim: Simulator | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  await sim?.close();
  env?.cleanup();
});

function run(args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: env!.root, env: env!.env });
    child.on("close", resolve);
    child.stdin.end();
  });
}

/** Every byte deepcode wrote for the session: the transcript must not hold the key. */
function transcripts(): string {
  const dir = join(env!.home, "sessions");
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => readFileSync(join(d.parentPath, d.name), "utf8"))
    .join("\n");
}

describe("the API key never reaches the model or the transcript", () => {
  it("is not in the environment of the commands the model runs", async () => {
    sim = await startSimulator({ script: { replies: [{ tool_calls: [{ name: "Bash", arguments: { command: "printenv DEEPSEEK_API_KEY; echo done" } }] }, { content: "ok" }] }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url, { ".deepcode/settings.json": JSON.stringify({ permissions: { allow: ["Bash(printenv:*)", "Bash(echo:*)"] } }) });
    expect(await run(["-p", "show the key", "--trust-project"])).toBe(0);
    const result = chatBodies(sim.requests).pop()!.messages.filter((m) => m.role === "tool").pop();
    expect(result?.content).toBe("done");
    expect(sim.requests.map((r) => r.body).join("\n")).not.toContain("sk-test-cli");
    expect(transcripts()).toContain("printenv DEEPSEEK_API_KEY");
    expect(transcripts()).not.toContain("sk-test-cli");
  });

  it("treats the credentials file in DEEPCODE_HOME as a secret: reading it asks (and -p cannot ask)", async () => {
    sim = await startSimulator({ script: { replies: [], rules: [], respond: (json: { messages: Array<{ role: string }> }) => (json.messages.at(-1)?.role === "tool" ? { content: "ok" } : { tool_calls: [{ name: "Read", arguments: { file_path: join(env!.home, "credentials") } }] }) }, apiKey: "sk-test-cli" });
    env = cliEnv(sim.url);
    writeFileSync(join(env.home, "credentials"), "DEEPSEEK_API_KEY=sk-stored-secret\n", { mode: 0o600 });
    expect(await run(["-p", "read my credentials"])).toBe(0);
    const result = chatBodies(sim.requests).pop()!.messages.filter((m) => m.role === "tool").pop();
    expect(result?.content).toMatch(/^Permission denied for Read/);
    expect(transcripts()).toContain("credentials");
    expect(transcripts()).not.toContain("sk-stored-secret");
  });
});
