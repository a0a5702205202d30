// An installed plugin's skills and agents reach the model through the skills and agents mods,
// namespaced by plugin: the skill index in the system prompt lists `review-kit:changelog`, the
// Skill tool loads its body, and the Task tool runs `review-kit:code-reviewer` on its own
// system prompt (the agent file's body) with the tools the file names.
import { afterEach, describe, expect, it } from "vitest";
import { chatBodies } from "../helpers/extension.js";
import { planScript, isSubagent, systemOf, task, toolNamesOf } from "../agents/helpers.js";
import { GIT_AVAILABLE, pluginRig, type Rig } from "./helpers.js";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Body = { messages: Array<Record<string, unknown>>; tools?: Array<{ function: { name: string } }> };
const toolResults = (body: Body): string[] => body.messages.filter((m) => m.role === "tool").map((m) => String(m.content));

describe.skipIf(!GIT_AVAILABLE)("an installed plugin's skills and agents", () => {
  it("lists the plugin's skill in the index as review-kit:changelog and loads its body with the Skill tool", async () => {
    rig = await pluginRig({ replies: [{ tool_calls: [{ name: "Skill", arguments: { skill: "review-kit:changelog" } }] }, { content: "entry written" }] });
    await rig.installKit();
    const r = await rig.run(["-p", "write a changelog entry"]);
    expect(r.stderr).not.toMatch(/NOT loaded|did not load/);
    expect(r.code).toBe(0);
    const bodies = chatBodies(rig.sim.requests) as Body[];
    expect(systemOf(bodies[0])).toMatch(/review-kit:changelog[^\n]*Keep a Changelog/);
    const results = toolResults(bodies.at(-1)!);
    expect(results[0]).toContain("Put the entry under `## [Unreleased]`");
  });

  it("runs the plugin's agent as review-kit:code-reviewer, on its own prompt and only the tools it names", async () => {
    rig = await pluginRig(
      planScript({
        main: [{ tool_calls: [task("review-kit:code-reviewer", "review a.ts", "Review src/a.ts")] }, { content: "review done" }],
        agents: [{ marker: "You are a code reviewer.", steps: [{ content: "src/a.ts:1 x is never used" }] }],
      }),
      { "src/a.ts": "export const x = 1;\n" },
    );
    await rig.installKit();
    const r = await rig.run(["-p", "review my change"]);
    expect(r.code).toBe(0);
    const bodies = chatBodies(rig.sim.requests) as Body[];
    const sub = bodies.find((b) => isSubagent(b));
    expect(sub, "a subagent request").toBeDefined();
    expect(systemOf(sub)).toContain("Never edit files.");
    expect(toolNamesOf(sub).filter((n: string) => n !== "UseTool").sort()).toEqual(["Glob", "Grep", "Read"]);
    expect(toolResults(bodies.at(-1)!).join("\n")).toContain("src/a.ts:1 x is never used");
  });
});
