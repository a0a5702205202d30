import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { call, chats, deepcode, isSubagent, projects, task } from "./helpers.js";

const p = projects();

/** A plugin that ships a skills folder and an agents folder beside itself. */
const PLUGIN = `import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
const here = dirname(fileURLToPath(import.meta.url));
export default {
  id: "kit",
  register(api) {
    api.contribute("skills", join(here, "kit-skills"));
    api.contribute("agents", join(here, "kit-agents"));
  },
};
`;

describe("a plugin's skills and agents folders (api.contribute)", () => {
  it("are found under the plugin's name: its skill in the index and loadable, its agent a Task type", async () => {
    await p.open(
      {
        main: [call("Skill", { skill: "kit:release" }), { tool_calls: [task("kit:checker", "check", "Check it.")] }, { content: "done" }],
        agents: [{ marker: "KIT-CHECKER", steps: [{ content: "checked" }] }],
      },
      {
        ".deepcode/settings.json": JSON.stringify({ plugins: ["./kit.mjs"] }),
        ".deepcode/kit.mjs": PLUGIN,
        ".deepcode/kit-skills/release/SKILL.md": "---\ndescription: Cut a release the kit's way\n---\nRELEASE STEPS\n",
        ".deepcode/kit-agents/checker.md": "---\nname: checker\ndescription: Checks a release\ntools: Read\n---\nYou are the KIT-CHECKER.\n",
      },
    );
    const r = await deepcode(p.env, ["-p", "release it", "--trust-project"]);
    expect(r.stderr).not.toMatch(/did not load/);
    const [first, second, third] = chats(p.sim.requests).filter((c) => !isSubagent(c.json));
    const system = first.json.messages[0].content as string;
    expect(system).toContain("- kit:release: Cut a release the kit's way");
    expect(system).toContain("- kit:checker: Checks a release");
    expect(second.json.messages.at(-1).content).toContain(`base directory: ${join(p.env.root, ".deepcode/kit-skills/release")}`);
    expect(second.json.messages.at(-1).content).toContain("RELEASE STEPS");
    expect(third.json.messages.at(-1).content).toBe("checked");
  });
});
