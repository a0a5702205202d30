import { describe, expect, it } from "vitest";
import { TMUX_AVAILABLE } from "../helpers/tmux.js";
import { chats, deepcode, projects } from "../agents/helpers.js";

const p = projects();

const FILES = {
  ".claude/skills/toucher/SKILL.md": "---\nname: toucher\ndescription: Makes marker files\nargument-hint: <file>\nallowed-tools: Bash(touch:*)\n---\nMake the marker $ARGUMENTS with touch.\n",
  ".claude/skills/private/SKILL.md": "---\ndescription: Only on request\ndisable-model-invocation: true\n---\nPRIVATE STEPS\n",
  ".claude/agents/reader.md": "---\nname: reader\ndescription: Reads files and reports\ntools: Read, Grep, Bash(git *)\nmodel: haiku\n---\nYou read.\n",
  ".deepcode/settings.json": JSON.stringify({ estimate: "show" }),
};

const open = (): Promise<void> => p.open({ main: [{ content: "did it" }] }, FILES);

describe("skills and workspace trust", () => {
  it("lists a project skill's allowed-tools among what trusting the project lets take effect", async () => {
    await open();
    const r = await deepcode(p.env, ["trust", "--show"]);
    expect(r.stdout).toMatch(/the skill toucher allows Bash\(touch:\*\) while it is in use/);
  });
});

describe.skipIf(!TMUX_AVAILABLE)("/skills, /<skill> and /agents in the REPL", () => {
  const repl = async () => {
    await open();
    return p.repl();
  };

  it("lists the skills with where each comes from, and the commands in /help", async () => {
    const t = await repl();
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
    const t = await repl();
    t.type("/toucher done.txt");
    t.press("Enter");
    await t.waitFor("did it");
    const prompt = chats(p.sim.requests).at(-1)!.json.messages.at(-1).content as string;
    expect(prompt).toMatch(/^The user asked for the skill "toucher" with: done\.txt\. Follow it\./);
    expect(prompt).toContain("Make the marker done.txt with touch.");
    expect(prompt).toContain("Until this turn ends these run without asking: Bash(touch:*).");
  });

  it("lists the subagent types with their source, model and tools, and what deepcode changed", async () => {
    const t = await repl();
    t.type("/agents");
    t.press("Enter");
    const s = await t.waitFor(/reader\s+\.claude\/agents \(project\) · model inherit · Read, Grep/);
    expect(s).toContain("note: tools: 'Bash(git *)' is left out: deepcode gives a subagent a tool whole or not at all");
    expect(s).toContain("note: model: 'haiku' is Claude's model, which deepcode does not serve; this agent runs on the session's model");
    expect(s).toMatch(/explore\s+built in · model chat-fast · the caller's read-only tools except Task/);
    expect(s).toMatch(/general-purpose\s+built in · model inherit · all of the caller's tools/);
  });
});
