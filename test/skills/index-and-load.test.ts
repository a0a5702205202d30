import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { call, chats, deepcode, toolNamesOf, projects } from "../agents/helpers.js";

const p = projects();

const PDF = "---\nname: pdf-tools\ndescription: Fill in and read PDF forms with the scripts of this skill\n---\n# PDF tools\n\nRun `python scripts/fill.py FORM` to fill a form. See reference.md for the fields.\n";
const FILES = {
  ".claude/skills/pdf-tools/SKILL.md": PDF,
  ".claude/skills/pdf-tools/scripts/fill.py": "print('fill')\n",
  ".claude/skills/pdf-tools/reference.md": "# fields\n",
  ".claude/skills/changelog/SKILL.md": "---\ndescription: Write changelog entries in the project's style\n---\nWrite entries as `- area: change`.\n",
  ".claude/skills/broken/SKILL.md": "---\nname: broken\ndescription: [unclosed\n---\nbody\n",
  ".claude/skills/private/SKILL.md": "---\nname: private\ndescription: Only when the user asks\ndisable-model-invocation: true\n---\nsecret steps\n",
  ".claude/skills/nested/SKILL.md": "---\nname: nested\ndescription: Has keys deepcode does not read\nmetadata:\n  author: someone\n  version: 2\nhooks:\n  PreToolUse:\n    - matcher: Bash\n---\nnested body\n",
};

describe("skills from .claude/skills", () => {
  it("appear in the prefix's index, one sorted line each, and load with the Skill tool with their files", async () => {
    await p.open({ main: [call("Skill", { skill: "pdf-tools" }), { content: "loaded" }] }, FILES);
    const r = await deepcode(p.env, ["-p", "fill the form", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const [first, second] = chats(p.sim.requests);
    expect(toolNamesOf(first.json)).toContain("Skill");
    const system = first.json.messages[0].content as string;
    // The skills index is one section: it ends where the next one (blank line between) starts.
    const index = system.slice(system.indexOf("Skills: ")).split("\n\n")[0];
    expect(index.split("\n").filter((l) => l.startsWith("- "))).toEqual([
      "- changelog: Write changelog entries in the project's style",
      "- nested: Has keys deepcode does not read",
      "- pdf-tools: Fill in and read PDF forms with the scripts of this skill",
    ]);
    const result = second.json.messages.at(-1).content as string;
    expect(result).toContain(`base directory: ${join(p.env.root, ".claude/skills/pdf-tools")}`);
    expect(result).toContain("Run `python scripts/fill.py FORM` to fill a form.");
    expect(result).toContain(`- ${join(p.env.root, ".claude/skills/pdf-tools/reference.md")}`);
    expect(result).toContain(`- ${join(p.env.root, ".claude/skills/pdf-tools/scripts/fill.py")}`);
    expect(result).not.toContain("SKILL.md\n");
    expect(r.stderr).toContain("● Skill pdf-tools (.claude/skills, 2 files)");
  });

  it("reports a malformed SKILL.md with its file and line, skips it, and loads the rest", async () => {
    await p.open({ main: [{ content: "ok" }] }, FILES);
    const r = await deepcode(p.env, ["-p", "hi"]);
    expect(r.stderr).toContain(`${join(p.env.root, ".claude/skills/broken/SKILL.md")}:3: description: a [list] is not closed with ]; this skill is skipped`);
    const system = chats(p.sim.requests)[0].json.messages[0].content as string;
    expect(system).not.toContain("- broken");
    expect(system).toContain("- pdf-tools");
  });

  it("keeps a skill the user reserved for themselves out of the index, and the Skill tool will not load it", async () => {
    await p.open({ main: [call("Skill", { skill: "private" }), { content: "ok" }] }, FILES);
    await deepcode(p.env, ["-p", "hi"]);
    const [first, second] = chats(p.sim.requests);
    expect(first.json.messages[0].content).not.toContain("private");
    expect(second.json.messages.at(-1).content).toMatch(/loaded only when the user asks for it \(\/private\)/);
    expect(second.json.messages.at(-1).content).not.toContain("secret steps");
  });

  it("answers an unknown skill with the names it has", async () => {
    await p.open({ main: [call("Skill", { skill: "nope" }), { content: "ok" }] }, FILES);
    await deepcode(p.env, ["-p", "hi"]);
    expect(chats(p.sim.requests)[1].json.messages.at(-1).content).toBe("There is no skill 'nope'. Skills you can load: changelog, nested, pdf-tools.");
  });

  it("finds the person's own skills in ~/.claude/skills and ~/.deepcode/skills, and theirs win over the project's", async () => {
    await p.open({ main: [call("Skill", { skill: "changelog" }), { content: "ok" }] }, FILES);
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(join(p.env.home, ".claude/skills/changelog"), { recursive: true });
    writeFileSync(join(p.env.home, ".claude/skills/changelog/SKILL.md"), "---\ndescription: My own changelog style\n---\nMINE\n");
    mkdirSync(join(p.env.home, "skills/review"), { recursive: true });
    writeFileSync(join(p.env.home, "skills/review/SKILL.md"), "---\ndescription: Review a diff\n---\nreview it\n");
    await deepcode(p.env, ["-p", "hi"]);
    const [first, second] = chats(p.sim.requests);
    expect(first.json.messages[0].content).toContain("- changelog: My own changelog style");
    expect(first.json.messages[0].content).toContain("- review: Review a diff");
    expect(second.json.messages.at(-1).content).toContain("MINE");
  });
});
