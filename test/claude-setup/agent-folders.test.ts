// Agent files as setups keep them: in sub-folders of .claude/agents (hooks-mastery's
// `team/builder.md`, which its /plan_w_team names), named by their header as Claude Code names
// them; and a personal collection copied into ~/.claude/agents whose every file names a Claude
// model (VoltAgent's README suggests that copy) is said in one line, not one per file.
import { describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chats, deepcode, isSubagent, projects, task } from "../agents/helpers.js";

const p = projects();

const BUILDER = "---\nname: builder\ndescription: Builds one task of the team's plan\ntools: Read, Write, Edit\ncolor: cyan\n---\nYou are the BUILDER-AGENT.\n";
const VALIDATOR = "---\nname: validator\ndescription: Checks what the builder made\ntools: Read, Grep\n---\nYou are the VALIDATOR-AGENT.\n";

describe("agent files in sub-folders", () => {
  it("loads .claude/agents/team/builder.md as builder and runs it", async () => {
    await p.open(
      {
        main: [{ tool_calls: [task("builder", "build step one", "Build step one.")] }, { content: "done" }],
        agents: [{ marker: "BUILDER-AGENT", steps: [{ content: "step one built" }] }],
      },
      { ".claude/agents/team/builder.md": BUILDER, ".claude/agents/team/checks/validator.md": VALIDATOR },
    );
    const r = await deepcode(p.env, ["-p", "build the plan"]);
    expect(r.code).toBe(0);
    const sent = chats(p.sim.requests);
    const main = String(sent[0].json.messages[0].content);
    expect(main).toMatch(/^- builder: Builds one task of the team's plan$/m);
    expect(main).toMatch(/^- validator: Checks what the builder made$/m);
    expect(sent.some((c) => isSubagent(c.json) && String(c.json.messages[0].content).includes("BUILDER-AGENT"))).toBe(true);
    expect(JSON.stringify(sent.at(-1)!.json.messages)).toContain("step one built");
  });
});

describe("a personal collection of agents naming Claude's models", () => {
  it("says so in one line at start, naming how many and which models", async () => {
    await p.open({ main: [{ content: "hello" }], agents: [] }, {});
    const dir = join(p.env.home, ".claude", "agents");
    mkdirSync(join(dir, "core"), { recursive: true });
    for (const [i, model] of ["sonnet", "opus", "sonnet", "haiku"].entries()) {
      writeFileSync(join(dir, "core", `agent-${i}.md`), `---\nname: agent-${i}\ndescription: Agent ${i}\nmodel: ${model}\n---\nYou are agent ${i}.\n`);
    }
    const r = await deepcode(p.env, ["-p", "hi"]);
    expect(r.code).toBe(0);
    const lines = r.stderr.split("\n").filter((l) => /sonnet|opus|haiku/.test(l));
    expect(lines).toEqual([expect.stringContaining("4 agent files name Claude's models (sonnet, opus, haiku), which deepcode does not serve: they run on the session's model")]);
  });
});
