import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { call, chats, deepcode, isSubagent, task, projects } from "../agents/helpers.js";

const p = projects();

const TOUCHER = "---\nname: toucher\ndescription: Makes marker files\nallowed-tools: Bash(touch:*)\n---\nMake the marker with touch.\n";
const toolResults = (): string[] => chats(p.sim.requests).flatMap((c) => (c.json.messages.at(-1).role === "tool" ? [c.json.messages.at(-1).content as string] : []));

describe("a skill's allowed-tools", () => {
  it("let matching calls run without asking while it is in use, in a trusted project", async () => {
    await p.open({ main: [call("Skill", { skill: "toucher" }), call("Bash", { command: "touch marker.txt" }), { content: "done" }] }, { ".claude/skills/toucher/SKILL.md": TOUCHER });
    const r = await deepcode(p.env, ["-p", "make the marker", "--trust-project"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(p.env.root, "marker.txt"))).toBe(true);
    expect(toolResults()[0]).toContain("Until this turn ends these run without asking: Bash(touch:*).");
  });

  it("ask as usual in a project that is not trusted (in -p: denied), and the model is told why", async () => {
    await p.open({ main: [call("Skill", { skill: "toucher" }), call("Bash", { command: "touch marker.txt" }), { content: "done" }] }, { ".claude/skills/toucher/SKILL.md": TOUCHER });
    await deepcode(p.env, ["-p", "make the marker"]);
    expect(existsSync(join(p.env.root, "marker.txt"))).toBe(false);
    expect(toolResults()[0]).toContain("This project is not trusted, so the skill's allowed-tools (Bash(touch:*)) ask as usual.");
    expect(toolResults()[1]).toMatch(/^Permission denied for Bash/);
  });

  it("never beat a deny rule", async () => {
    await p.open(
      { main: [call("Skill", { skill: "toucher" }), call("Bash", { command: "touch marker.txt" }), { content: "done" }] },
      { ".claude/skills/toucher/SKILL.md": TOUCHER, ".deepcode/settings.json": JSON.stringify({ permissions: { deny: ["Bash(touch:*)"] } }) },
    );
    await deepcode(p.env, ["-p", "make the marker", "--trust-project"]);
    expect(existsSync(join(p.env.root, "marker.txt"))).toBe(false);
  });

  it("hold for the session that loaded the skill, not for a subagent it starts", async () => {
    const maker = "---\nname: maker\ndescription: makes\ntools: Bash\n---\nYou are the MAKER-AGENT.\n";
    await p.open(
      {
        main: [call("Skill", { skill: "toucher" }), { tool_calls: [task("maker", "make", "touch child.txt")] }, { content: "done" }],
        agents: [{ marker: "MAKER-AGENT", steps: [call("Bash", { command: "touch child.txt" }), { content: "tried" }] }],
      },
      { ".claude/skills/toucher/SKILL.md": TOUCHER, ".claude/agents/maker.md": maker },
    );
    await deepcode(p.env, ["-p", "go", "--trust-project"]);
    expect(existsSync(join(p.env.root, "child.txt"))).toBe(false);
    const sub = chats(p.sim.requests).filter((c) => isSubagent(c.json));
    expect(sub[1].json.messages.at(-1).content).toMatch(/^Permission denied for Bash/);
  });
});
