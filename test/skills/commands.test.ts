import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { BIN, cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { Tmux, TMUX_AVAILABLE } from "../helpers/tmux.js";
import { chats, deepcode, planScript } from "../agents/helpers.js";

let sim: Simulator | undefined;
let env: CliEnv | undefined;
let term: Tmux | undefined;
afterEach(async () => {
  term?.kill();
  await sim?.close();
  env?.cleanup();
  term = undefined;
  sim = undefined;
  env = undefined;
});

const FILES = {
  ".claude/skills/toucher/SKILL.md": "---\nname: toucher\ndescription: Makes marker files\nargument-hint: <file>\nallowed-tools: Bash(touch:*)\n---\nMake the marker $ARGUMENTS with touch.\n",
  ".claude/skills/private/SKILL.md": "---\ndescription: Only on request\ndisable-model-invocation: true\n---\nPRIVATE STEPS\n",
  ".claude/agents/reader.md": "---\nname: reader\ndescription: Reads files and reports\ntools: Read, Grep, Bash(git *)\nmodel: haiku\n---\nYou read.\n",
  ".deepcode/settings.json": JSON.stringify({ estimate: "show" }),
};

async function setup(): Promise<void> {
  sim = await startSimulator({ script: planScript({ main: [{ content: "did it" }] }), apiKey: "sk-test-cli" });
  env = cliEnv(sim.url, FILES);
}

describe("skills and workspace trust", () => {
  it("lists a project skill's allowed-tools among what trusting the project lets take effect", async () => {
    await setup();
    const r = await deepcode(env!, ["trust", "--show"]);
    expect(r.stdout).toMatch(/the skill toucher allows Bash\(touch:\*\) while it is in use/);
  });
});

describe.skipIf(!TMUX_AVAILABLE)("/skills, /<skill> and /agents in the REPL", () => {
  async function open(): Promise<Tmux> {
    await setup();
    term = new Tmux(`node ${BIN} --trust-project`, { cwd: env!.root, env: env!.env });
    await term.waitFor(/· session \d{8}-\d{6}-[0-9a-f]{6} ·/);
    await term.waitFor(/^›\s*$/m);
    return term;
  }

  it("lists the skills with where each comes from, and the commands in /help", async () => {
    const t = await open();
    t.type("/skills");
    t.press("Enter");
    const s = await t.waitFor(/toucher\s+\.claude\/skills \(project\)/);
    expect(s).toMatch(/private\s+\.claude\/skills \(project\)\s+Only on request\s+\[only on request\]/);
    expect(s).toMatch(/toucher .*\[allows Bash\(touch:\*\)\]/);
    t.type("/help");
    t.press("Enter");
    const h = await t.waitFor(/\/toucher <file>/);
    expect(h).toMatch(/\/skills\s+the skills deepcode found/);
    expect(h).toMatch(/\/agents\s+the subagent types/);
    expect(h).toMatch(/\/private\s+Only on request \(skill, \.claude\/skills\)/);
  });

  it("loads a skill on request with its arguments, as a turn of its own", async () => {
    const t = await open();
    t.type("/toucher done.txt");
    t.press("Enter");
    await t.waitFor("did it");
    const prompt = chats(sim!.requests).at(-1)!.json.messages.at(-1).content as string;
    expect(prompt).toMatch(/^The user asked for the skill "toucher" with: done\.txt\. Follow it\./);
    expect(prompt).toContain("Make the marker done.txt with touch.");
    expect(prompt).toContain("Until this turn ends these run without asking: Bash(touch:*).");
  });

  it("lists the subagent types with their source, model and tools, and what deepcode changed", async () => {
    const t = await open();
    t.type("/agents");
    t.press("Enter");
    const s = await t.waitFor(/reader\s+\.claude\/agents \(project\) · model chat-fast · Read, Grep/);
    expect(s).toContain("note: tools: 'Bash(git *)' is left out: deepcode gives a subagent a tool whole or not at all");
    expect(s).toContain("note: model: Claude's haiku runs as the chat-fast tier");
    expect(s).toMatch(/explore\s+built in · model chat-fast · the caller's read-only tools except Task/);
    expect(s).toMatch(/general-purpose\s+built in · model inherit · all of the caller's tools/);
  });
});
