// Many plugins' skills: the index in the system prompt is bounded (16,000 characters), and
// what does not fit is never dropped silently — its last line says how many more there are and
// how to list them (`{"skill": "list"}`), and the cut depends only on the skills, so the
// prefix is byte-identical from one session to the next.
import { afterEach, describe, expect, it } from "vitest";
import { folderMarket } from "../plugins/helpers.js";
import { bodies, filesRig, systemOf, toolResults, type FilesRig } from "./helpers.js";

let rig: FilesRig | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await rig?.close();
  rig = undefined;
  cleanups.splice(0).forEach((c) => c());
});

const COUNT = 80;
const name = (i: number): string => `skill-${String(i).padStart(2, "0")}`;

/** A plugin with COUNT skills whose descriptions are long, as community plugins' are. */
function bigMarket(): string {
  const files: Record<string, string> = { ".claude-plugin/plugin.json": JSON.stringify({ name: "big-kit", version: "1.0.0" }) };
  for (let i = 0; i < COUNT; i++) {
    files[`skills/${name(i)}/SKILL.md`] = `---\nname: ${name(i)}\ndescription: Use this skill when the user works on area ${i}: it covers setting up, testing, debugging and shipping everything in area ${i}, with the checklists and scripts of this skill folder for each step of the way.\n---\n\nBODY-OF-${name(i)}\n`;
  }
  const m = folderMarket("big", { "big-kit": files });
  cleanups.push(m.cleanup);
  return m.dir;
}

async function install(r: FilesRig, market: string): Promise<void> {
  expect((await r.run(["plugin", "marketplace", "add", market])).code).toBe(0);
  expect((await r.run(["plugin", "install", "big-kit@big", "--yes-install"])).code).toBe(0);
}

describe("the skills index with more skills than fit", () => {
  it("ends with how many more there are and how to list them, and the Skill tool lists them", async () => {
    rig = await filesRig([], { replies: [{ tool_calls: [{ name: "Skill", arguments: { skill: "list", args: "area 79" } }] }, { tool_calls: [{ name: "Skill", arguments: { skill: `big-kit:${name(79)}` } }] }, { content: "done" }] });
    await install(rig, bigMarket());
    const r = await rig.run(["-p", "ship area 79"]);
    expect(r.code).toBe(0);
    const all = bodies(rig.sim);
    const system = systemOf(all[0]);
    // The skills index is one section: it ends where the next one (blank line between) starts.
    const index = system.slice(system.indexOf("Skills: ")).split("\n\n")[0];
    const listed = index.split("\n").filter((l) => /^- big-kit:skill-\d\d: /.test(l));
    expect(index.length).toBeLessThanOrEqual(16_000);
    expect(listed.length).toBeGreaterThan(10);
    expect(listed.length).toBeLessThan(COUNT);
    expect(index).toContain(`- … ${COUNT - listed.length} more skills are not listed here: call Skill with {"skill": "list"}`);
    expect(index).not.toContain(`big-kit:${name(79)}:`);
    const [listing, body] = toolResults(all.at(-1));
    expect(listing).toMatch(/^1 skill mentioning area and 79; load one with/);
    expect(listing).toContain(`- big-kit:${name(79)}: Use this skill when the user works on area 79`);
    expect(body).toContain(`BODY-OF-${name(79)}`);
  });

  it("is the same bytes in every new session while the skills are the same", async () => {
    rig = await filesRig([], { default: { content: "ok" } });
    await install(rig, bigMarket());
    expect((await rig.run(["-p", "one"])).code).toBe(0);
    expect((await rig.run(["-p", "two"])).code).toBe(0);
    const [a, b] = bodies(rig.sim).map(systemOf);
    expect(a).toContain("more skills are not listed here");
    expect(b).toBe(a);
  });
});
