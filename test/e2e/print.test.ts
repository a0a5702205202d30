import { afterEach, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type Script, type Simulator } from "../sim/server.mjs";
import { BIN, cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { chatBodies } from "../helpers/extension.js";
import { runBin } from "./helpers.js";

let sim: Simulator | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  await sim?.close();
  env?.cleanup();
  sim = undefined;
  env = undefined;
});

/** Run the real CLI (asynchronously: the simulator lives in this process). */
const deepcode = (args: string[], opts: { stdin?: string } = {}) => runBin(args, { cwd: env!.root, env: env!.env, stdin: opts.stdin });

async function setup(script: Script, files: Record<string, string>): Promise<void> {
  sim = await startSimulator({ script, apiKey: "sk-test-cli" });
  env = cliEnv(sim.url, files);
  spawnSync("git", ["init", "-q"], { cwd: env.root });
  spawnSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "add", "."], { cwd: env.root });
  spawnSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init"], { cwd: env.root });
}

const call = (name: string, args: object) => ({ tool_calls: [{ name, arguments: args }] });

describe("deepcode -p does the job end to end in a real repository", () => {
  it("reads a file, edits it twice, runs the tests with Bash, and reports what a user expects", async () => {
    await setup(
      {
        replies: [
          call("Read", { file_path: "src/math.js" }),
          call("Edit", { file_path: "src/math.js", old_string: "return a - b;", new_string: "return a + b;" }),
          call("Edit", { file_path: "src/math.js", old_string: "// TODO", new_string: "// adds two numbers" }),
          call("Bash", { command: "npm test" }),
          { content: "Fixed add(): it subtracted. The test passes now." },
        ],
      },
      {
        "package.json": JSON.stringify({ name: "fixture", scripts: { test: "node test.js" } }),
        "src/math.js": "// TODO\nexports.add = (a, b) => {\n  return a - b;\n};\n",
        "test.js": "const { add } = require('./src/math.js');\nif (add(2, 3) !== 5) { console.error('FAIL: add(2, 3) =', add(2, 3)); process.exit(1); }\nconsole.log('PASS');\n",
        ".deepcode/settings.json": JSON.stringify({ permissions: { allow: ["Edit(src/**)", "Bash(npm test:*)"] } }),
      },
    );
    const r = await deepcode(["-p", "fix add() in src/math.js and run the tests", "--output-format", "json", "--trust-project"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(env!.root, "src/math.js"), "utf8")).toBe("// adds two numbers\nexports.add = (a, b) => {\n  return a + b;\n};\n");
    const result = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ type: "result", subtype: "success", is_error: false, result: "Fixed add(): it subtracted. The test passes now.", num_turns: 5, stop_reason: "completed" });
    expect(result.session_id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect((result.usage as Record<string, number>).prompt_tokens).toBeGreaterThan(0);
    expect(result.total_cost_usd as number).toBeGreaterThan(0);
    const bashResult = chatBodies(sim!.requests).pop()!.messages.filter((m) => m.role === "tool").pop();
    expect(bashResult?.content).toContain("PASS");
    expect(bashResult?.content).not.toMatch(/exit code [1-9]/);
    expect(r.stderr).toContain("● Edit src/math.js +1 −1");
  });

  it("denies what needs a person in -p, and tells the model why", async () => {
    await setup({ replies: [call("Bash", { command: "touch x" }), { content: "could not" }] }, { "a.txt": "a" });
    const r = await deepcode(["-p", "make x", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const toolMsg = chatBodies(sim!.requests).pop()!.messages.pop();
    expect(toolMsg?.content).toMatch(/Permission denied for Bash: deepcode runs non-interactively \(-p\), so nobody can approve Bash/);
  });

  it("takes the prompt from stdin, or uses stdin as context for the argument", async () => {
    await setup({ default: { content: "ok" } }, {});
    await deepcode(["-p"], { stdin: "question from stdin" });
    expect(chatBodies(sim!.requests).pop()!.messages.at(-1)).toEqual({ role: "user", content: "question from stdin" });
    await deepcode(["-p", "summarise this"], { stdin: "the log text" });
    expect(chatBodies(sim!.requests).pop()!.messages.at(-1)).toEqual({ role: "user", content: "summarise this\n\n<stdin>\nthe log text\n</stdin>" });
  });

  it("streams JSON lines: the system/init line first, the assistant's message, the result object last", async () => {
    await setup({ default: { content: "streamed" } }, {});
    const lines = (await deepcode(["-p", "hi", "--output-format", "stream-json"])).stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string });
    expect(lines[0]).toMatchObject({ type: "system", subtype: "init" });
    const texts = lines.filter((l) => l.type === "assistant").flatMap((l) => (l as unknown as { message: { content: Array<{ type: string; text?: string }> } }).message.content).filter((b) => b.type === "text");
    expect(texts).toEqual([{ type: "text", text: "streamed" }]);
    expect(lines.at(-1)).toMatchObject({ type: "result", result: "streamed" });
  });

  it("exits 1 with the error when the API rejects the key, and keeps the session resumable", async () => {
    await setup({ replies: [{ fault: { status: 401 } }, { content: "back" }] }, {});
    const r = await deepcode(["-p", "hello"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error: API key rejected \(key from DEEPSEEK_API_KEY\)/);
    expect(r.stderr).not.toContain("sk-test-cli");
    const again = await deepcode(["-p", "again", "-c"]);
    expect(again.code).toBe(0);
    expect(chatBodies(sim!.requests).pop()!.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["hello", "again"]);
  });

  it("resumes with everything before a kill -9 in the middle of a turn", async () => {
    await setup(
      {
        replies: [
          call("Read", { file_path: "a.txt" }),
          // Stops mid-reply with the connection open: the process is killed while it streams, on any machine.
          { reasoning: "ok", content: "this reply streams slowly and the process dies while it streams ".repeat(10), chunkSize: 4, fault: { stallAfterChunks: 20 } },
          { content: "continued after the crash" },
        ],
      },
      { "a.txt": "alpha\n" },
    );
    const child = spawn(process.execPath, [BIN, "-p", "read a.txt", "--output-format", "stream-json", "--include-partial-messages"], { cwd: env!.root, env: env!.env });
    child.stdin.end();
    let out = "";
    await new Promise<void>((resolve) => {
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes('"text_delta"')) {
          child.kill("SIGKILL");
          resolve();
        }
      });
    });
    await new Promise((r) => child.on("exit", r));
    const r = await deepcode(["-p", "go on", "-c", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ result: "continued after the crash" });
    const last = chatBodies(sim!.requests).pop()!;
    expect(last.messages.find((m) => m.role === "user")).toEqual({ role: "user", content: "read a.txt" });
    expect(last.messages.find((m) => m.role === "tool")?.content).toContain("alpha");
    expect(last.messages.at(-1)).toEqual({ role: "user", content: "go on" });
  });

  it("refuses bad usage with exit code 2", () => {
    const r = spawnSync(process.execPath, [BIN, "-p", "x", "--output-format", "yaml"], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--output-format must be text, json or stream-json");
  });
});

describe("resuming with a model chosen for this run", () => {
  it("switches a resumed session to the model given with -m, and says so", async () => {
    await setup({ default: { content: "ok" } }, {});
    await deepcode(["-p", "one"]);
    const r = await deepcode(["-p", "two", "-c", "-m", "deepseek-v4-pro"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("switched from deepseek-flash to deepseek-v4-pro (-m)");
    const models = sim!.requests.filter((q) => q.status === 200).map((q) => (JSON.parse(q.body) as { model: string }).model);
    expect(models).toEqual(["deepseek-flash", "deepseek-v4-pro"]);
  });
});
