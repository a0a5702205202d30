import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { BIN } from "../helpers/cli-env.js";
import { TMUX_AVAILABLE } from "../helpers/tmux.js";
import { call, chats, deepcode, isSubagent, task, type Plan, projects } from "./helpers.js";

const p = projects();

const MAKER = "---\nname: maker\ndescription: makes files\ntools: Bash\n---\nYou are the MAKER-AGENT.\n";
const making: Plan = {
  main: [{ tool_calls: [task("maker", "make the file", "Create made.txt with touch.")] }, { content: "parent done" }],
  agents: [{ marker: "MAKER-AGENT", steps: [call("Bash", { command: "touch made.txt" }), { content: "maker done" }] }],
};

describe("a subagent's calls go through the same gate, to the same person", () => {
  it("is denied an ask in -p, as the main agent would be, and the subagent is told why", async () => {
    await p.open(making, { ".claude/agents/maker.md": MAKER });
    const r = await deepcode(p.env, ["-p", "make it", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(p.env.root, "made.txt"))).toBe(false);
    const sub = chats(p.sim.requests).filter((c) => isSubagent(c.json));
    expect(sub[1].json.messages.at(-1).content).toMatch(/^Permission denied for Bash: deepcode runs non-interactively \(-p\)/);
  });

  it("is allowed what an allow rule of the settings allows, like the main agent", async () => {
    await p.open(making, { ".claude/agents/maker.md": MAKER, ".deepcode/settings.json": JSON.stringify({ permissions: { allow: ["Bash(touch made.txt)"] } }) });
    const r = await deepcode(p.env, ["-p", "make it", "--output-format", "json", "--trust-project"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(p.env.root, "made.txt"))).toBe(true);
  });

  it.skipIf(!TMUX_AVAILABLE)("asks the person in the REPL, saying which subagent asks and for what task", async () => {
    await p.open(making, { ".claude/agents/maker.md": MAKER, ".deepcode/settings.json": JSON.stringify({ estimate: "show" }) });
    const term = await p.repl();
    term.type("make it");
    term.press("Enter");
    const s = await term.waitFor("[a] always this session: Bash(touch:*)");
    expect(s).toContain("[subagent maker: make the file] ? Bash wants to run");
    expect(s).toContain("touch made.txt");
    term.type("y");
    await term.waitFor("parent done");
    expect(existsSync(join(p.env.root, "made.txt"))).toBe(true);
    expect(term.screen()).toMatch(/● Task maker: make the file \(2 rounds, \$\d+\.\d{4}\)/);
  });
});

describe("interrupting a turn", () => {
  it("stops the subagents it started: the subagent's turn ends interrupted, and so does the parent's", async () => {
    const slow = { content: "still working ".repeat(200), chunkSize: 4, chunkDelayMs: 30 };
    await p.open({ main: [{ tool_calls: [task("slowpoke", "slow", "Take long.")] }, { content: "never" }], agents: [{ marker: "SLOWPOKE-AGENT", steps: [slow] }] }, { ".claude/agents/slowpoke.md": "---\nname: slowpoke\ndescription: slow\ntools: Read\n---\nYou are the SLOWPOKE-AGENT.\n" });
    const child = spawn(process.execPath, [BIN, "-p", "go slow", "--output-format", "json"], { cwd: p.env.root, env: p.env.env });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stdin.end("");
    const deadline = Date.now() + 120_000;
    while (!p.sim.requests.some((r) => String(r.body).includes("SLOWPOKE-AGENT")) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200)); // the subagent's reply is streaming now
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(130);
    expect((JSON.parse(stdout) as { stop_reason: string }).stop_reason).toBe("interrupted");
    const project = readdirSync(join(p.env.home, "sessions"))[0];
    const dir = join(p.env.home, "sessions", project);
    const main = readdirSync(dir).find((f) => f.endsWith(".jsonl"))!.replace(/\.jsonl$/, "");
    const sub = readdirSync(join(dir, main))[0];
    const turns = readFileSync(join(dir, main, sub), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { t: string; stopReason?: string }).filter((r) => r.t === "turn");
    expect(turns.map((t) => t.stopReason)).toEqual(["interrupted"]);
  });
});
