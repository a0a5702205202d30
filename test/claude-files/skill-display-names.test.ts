// A skill whose `name:` is a display name (plugin-dev's `name: Hook Development`) loads, as in
// Claude Code: named by its folder (`plugin-kit:hook-development`), the display name kept for
// people (`deepcode plugin list`, /skills).
import { afterEach, describe, expect, it } from "vitest";
import { bodies, filesRig, systemOf, toolResults, type FilesRig } from "./helpers.js";

let rig: FilesRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("a plugin skill whose name: is a display name", () => {
  it("is in the index under its folder's name and loads with the Skill tool", async () => {
    rig = await filesRig(["plugin-kit"], { replies: [{ tool_calls: [{ name: "Skill", arguments: { skill: "plugin-kit:hook-development" } }] }, { content: "hook written" }] });
    const r = await rig.run(["-p", "add a PreToolUse hook"]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/is not a skill name|this skill is skipped/);
    const [first, last] = [bodies(rig.sim)[0], bodies(rig.sim).at(-1)];
    expect(systemOf(first)).toMatch(/^- plugin-kit:hook-development: This skill should be used when the user asks to "create a hook"/m);
    expect(toolResults(last)[0]).toContain("HOOK-DEVELOPMENT-BODY");
  });

  it("is listed by deepcode plugin list with its display name beside the name it loads as", async () => {
    rig = await filesRig(["plugin-kit"]);
    const r = await rig.run(["plugin", "list"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("skills hook-development (Hook Development)");
  });

  it("answers the Skill tool asked by its display name too", async () => {
    rig = await filesRig(["plugin-kit"], { replies: [{ tool_calls: [{ name: "Skill", arguments: { skill: "Hook Development" } }] }, { content: "done" }] });
    const r = await rig.run(["-p", "make a hook"]);
    expect(r.code).toBe(0);
    expect(toolResults(bodies(rig.sim).at(-1))[0]).toContain('Skill "plugin-kit:hook-development"');
  });
});
