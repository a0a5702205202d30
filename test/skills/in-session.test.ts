import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openSession, type Session } from "../hooks/helpers.js";
import { call, planScript } from "../agents/helpers.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const skill = (root: string, name: string, text: string): void => {
  mkdirSync(join(root, ".claude/skills", name), { recursive: true });
  writeFileSync(join(root, ".claude/skills", name, "SKILL.md"), text);
};
const TOUCHER = "---\nname: toucher\ndescription: Makes marker files\nallowed-tools: Bash(touch:*)\n---\nMake the marker with touch.\n";
const systemOf = (i: number): string => s!.sim.requests.filter((r) => r.path.endsWith("/chat/completions"))[i].json.messages[0].content;
const lastUser = (i: number): string => {
  const msgs = s!.sim.requests.filter((r) => r.path.endsWith("/chat/completions"))[i].json.messages as Array<{ role: string; content: string }>;
  return msgs.filter((m) => m.role === "user").map((m) => m.content).join("\n---\n");
};

describe("skills within one session", () => {
  it("take back what allowed-tools allowed when the turn that loaded the skill ends", async () => {
    s = await openSession({
      script: planScript({ main: { first: [call("Skill", { skill: "toucher" }), call("Bash", { command: "touch one.txt" }), { content: "one" }], second: [call("Bash", { command: "touch two.txt" }), { content: "two" }] } }),
      prepare: (box) => skill(box.root, "toucher", TOUCHER),
    });
    await s.turn("first");
    expect(s.asked).toEqual([]); // touch ran without a question while the skill was in use
    await s.turn("second");
    expect(s.asked).toEqual(["Bash"]); // the next turn asks again (and the person said no)
  });

  it("tell the model of a skill added mid-session at the tail, and the prefix stays as it was", async () => {
    s = await openSession({
      script: planScript({ main: [{ content: "ok" }] }),
      prepare: (box) => skill(box.root, "first", "---\ndescription: The first skill\n---\none\n"),
    });
    await s.turn("hello");
    skill(s.box.root, "second", "---\ndescription: The second skill\n---\ntwo\n");
    await s.turn("again");
    expect(systemOf(1)).toBe(systemOf(0));
    expect(systemOf(0)).not.toContain("second");
    const tail = lastUser(1);
    expect(tail).toContain('The instructions "skills" gained these lines since this session began');
    expect(tail).toContain("- second: The second skill");
  });

  it("bring the Skill tool along when the first skill appears mid-session: through UseTool, the prefix untouched", async () => {
    s = await openSession({ script: planScript({ main: { hello: [{ content: "ok" }], again: [call("UseTool", { name: "Skill", input: { skill: "late" } }), { content: "used it" }] } }) });
    await s.turn("hello");
    const first = s.sim.requests.filter((r) => r.path.endsWith("/chat/completions"))[0].json;
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).not.toContain("Skill");
    skill(s.box.root, "late", "---\ndescription: A late skill\n---\nLATE BODY\n");
    await s.turn("again");
    const reqs = s.sim.requests.filter((r) => r.path.endsWith("/chat/completions"));
    expect(reqs[1].json.tools).toEqual(first.tools);
    expect(systemOf(1)).toBe(systemOf(0));
    const tail = lastUser(1);
    expect(tail).toContain("New tools are available. Call them through UseTool");
    expect(tail).toContain("- Skill (from skills)");
    expect(tail).toContain("- late: A late skill");
    expect(reqs[2].json.messages.at(-1).content).toContain("LATE BODY");
  });

  it("tell the model when a skill it loaded changed on disk since", async () => {
    s = await openSession({
      script: planScript({ main: { load: [call("Skill", { skill: "style" }), { content: "loaded" }], later: [{ content: "ok" }] } }),
      prepare: (box) => skill(box.root, "style", "---\ndescription: House style\n---\nUse tabs.\n"),
    });
    await s.turn("load");
    skill(s.box.root, "style", "---\ndescription: House style\n---\nUse spaces.\n");
    await s.turn("later");
    expect(lastUser(2)).toContain('The skill "style" you loaded changed on disk since; load it again with the Skill tool');
    expect(lastUser(2)).not.toContain('The instructions "skills" changed'); // its index line did not change
  });
});
