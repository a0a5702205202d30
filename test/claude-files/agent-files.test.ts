// Agent files as plugin-dev and pr-review-toolkit write them: a `description:` that continues
// on unindented lines (into `<example>` blocks with `user: "…"` lines) loads, as in Claude Code,
// without a warning line per line of it; agents are listed and run by their frontmatter name;
// a Claude Code tool deepcode lacks is said once, not dropped silently.
import { afterEach, describe, expect, it } from "vitest";
import { isSubagent, planScript, task, toolNamesOf } from "../agents/helpers.js";
import { bodies, filesRig, systemOf, toolResults, type FilesRig } from "./helpers.js";

let rig: FilesRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("a plugin's agent files read as Claude Code reads them", () => {
  it("loads an agent whose description runs on unindented lines, and runs it by its name with the tools it has", async () => {
    rig = await filesRig(
      ["plugin-kit"],
      planScript({
        main: [{ tool_calls: [task("plugin-kit:agent-creator", "write an agent", "Write a code review agent")] }, { content: "agent written" }],
        agents: [{ marker: "You are AGENT-CREATOR.", steps: [{ content: "agents/code-reviewer.md written" }] }],
      }),
    );
    const r = await rig.run(["-p", "create an agent that reviews code"]);
    expect(r.code).toBe(0);
    // No line per continuation line; the plugin's two broken files are one line together.
    expect(r.stderr).not.toMatch(/expected 'key: value'/);
    expect(r.stderr).not.toMatch(/agent-creator\.md|reviewer\.md/);
    const skipped = r.stderr.split("\n").filter((l) => /broken\.md|unclosed\.md/.test(l));
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatch(/2 agent files of installed plugins are skipped \(.*agents\/broken\.md, .*agents\/unclosed\.md\); \/agents says why for each/);
    const all = bodies(rig.sim);
    const main = systemOf(all[0]);
    expect(main).toMatch(/^- plugin-kit:agent-creator: Use this agent when the user asks to "create an agent"/m);
    expect(main).toMatch(/^- plugin-kit:skill-reviewer: Use this agent when the user wants a skill reviewed\. It checks the description's trigger phrases and the body's length\.$/m);
    expect(main).not.toContain("Broken Agent");
    const sub = all.find((b) => isSubagent(b));
    expect(systemOf(sub)).toContain("You are AGENT-CREATOR.");
    expect(toolNamesOf(sub).filter((n: string) => n !== "UseTool").sort()).toEqual(["Read", "Write"]);
    expect(toolResults(all.at(-1)).join("\n")).toContain("agents/code-reviewer.md written");
  });

  it("says once which tools an agent file names that deepcode does not have", async () => {
    rig = await filesRig(["plugin-kit"], { default: { content: "ok" } });
    const r = await rig.run(["-p", "hello"]);
    expect(r.code).toBe(0);
    const said = r.stderr.split("\n").filter((l) => l.includes("ComputerUse"));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/tools deepcode does not have.*plugin-kit:agent-creator \(ComputerUse\)/);
  });

  it("lists in deepcode plugin list only the agents that load, by their frontmatter names", async () => {
    rig = await filesRig(["plugin-kit"]);
    const r = await rig.run(["plugin", "list"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("agents agent-creator, skill-reviewer");
    expect(r.stdout).not.toMatch(/agents[^;\n]*(broken|reviewer,|, reviewer\b)/);
  });
});
