import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Script, type Simulator } from "../sim/server.mjs";
import { Tmux } from "../helpers/tmux.js";
import { BIN, cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { runBin } from "../e2e/helpers.js";

let sim: Simulator | undefined;
let term: Tmux | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  term?.kill();
  await sim?.close();
  env?.cleanup();
  term = undefined;
  sim = undefined;
  env = undefined;
});

const call = (name: string, args: object) => ({ tool_calls: [{ name, arguments: args }] });

async function project(script: Script, files: Record<string, string> = {}): Promise<void> {
  sim = await startSimulator({ script, apiKey: "sk-test-cli" });
  env = cliEnv(sim.url, { ".deepcode/settings.json": JSON.stringify({ estimate: "show" }), ...files });
}

async function repl(args: string): Promise<Tmux> {
  term = new Tmux(`node ${BIN} ${args}`, { cwd: env!.root, env: env!.env, width: 160 });
  await term.waitFor(/^›\s*$/m);
  return term;
}

describe("a resumed session, shown and counted as it happened", () => {
  it("replays the earlier turns in order, each call with how it ended: ✓, ✗ denied, ✗ failed, ↷ suppressed", async () => {
    await project(
      {
        replies: [
          { content: "Let me look.", ...call("Read", { file_path: "a.txt" }) },
          call("Read", { file_path: "missing.txt" }),
          call("Read", { file_path: "a.txt" }),
          call("Read", { file_path: "a.txt" }),
          call("Bash", { command: "touch x" }),
          { content: "All done." },
        ],
      },
      { "a.txt": "alpha\n" },
    );
    expect((await runBin(["-p", "look around"], { cwd: env!.root, env: env!.env })).code).toBe(0);
    const s = await (await repl("-c")).waitFor("── earlier in this session ──");
    const earlier = s.slice(s.indexOf("── earlier in this session ──"));
    const order = ["› look around", "Let me look.", "✓ Read a.txt", "✗ Read missing.txt: failed", "✓ Read a.txt", "↷ Read a.txt: suppressed (the same call again)", "✗ Bash touch x: denied", "All done."];
    let at = 0;
    for (const line of order) {
      const i = earlier.indexOf(line, at);
      expect(i, `${line} after position ${at} in:\n${earlier}`).toBeGreaterThanOrEqual(at);
      at = i + line.length;
    }
  });

  it("counts the resumed session's cost in /status, the same figure /sessions lists", async () => {
    await project({ default: { content: "answer" } });
    for (const p of ["one", "two"]) expect((await runBin(["-p", p, ...(p === "two" ? ["-c"] : [])], { cwd: env!.root, env: env!.env })).code).toBe(0);
    const t = await repl("-c");
    t.type("/sessions");
    t.press("Enter");
    const listed = /^\s*1 .*?(\$[\d.]+|<\$0\.0001)\s/m.exec(await t.waitFor(/^\s*1\s+\d{4}-/m))![1];
    t.type("/status");
    t.press("Enter");
    const s = await t.waitFor(/^cost\s+/m);
    expect(s).toMatch(new RegExp(`^cost\\s+${listed.replace(/[$.]/g, "\\$&")} this session \\(2 requests\\)$`, "m"));
    expect(s).toMatch(/^cache\s+\d+% of this session's prompt tokens served from the cache \(2 requests\)$/m);
    expect(s).toMatch(/^session\s+\S+ · 2 turns$/m);
  });

  it("shows a banner prefix figure that is not larger than the first request", async () => {
    await project({ default: { content: "hi" } });
    const t = await repl("");
    const banner = /prefix ≈([\d.]+)k tokens/.exec(await t.waitFor(/prefix ≈[\d.]+k tokens/))!;
    t.type("hello");
    t.press("Enter");
    await t.waitFor(/^hi$/m);
    const first = sim!.requests.find((r) => r.usage)!.usage!.prompt_tokens;
    expect(Number(banner[1]) * 1000).toBeLessThanOrEqual(first);
    expect(Number(banner[1]) * 1000).toBeGreaterThan(first * 0.9);
  });
});
