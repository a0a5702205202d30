import { describe, expect, it } from "vitest";
import { parseAgentFile, parseSkillFile } from "../../src/lib/claude-files.js";
import { protectedProjectEntry } from "../../src/contract/protected.js";

describe("SKILL.md as Claude Code writes it", () => {
  it("names the skill by its folder (as Claude Code does), keeps a differing name: as its display name, and reads description, allowed-tools (a list or a comma string), the invocation flags and the body", () => {
    const r = parseSkillFile("---\nname: PDF forms\ndescription: Fill PDF forms\nallowed-tools: Read, Bash(python scripts/*:*)\nargument-hint: [form]\nuser-invocable: false\n---\n\n# PDF\nSteps.\n", "pdf");
    expect(r).toEqual({
      ok: true,
      notes: [],
      value: { name: "pdf", displayName: "PDF forms", description: "Fill PDF forms", allowedTools: ["Read", "Bash(python scripts/*:*)"], argumentHint: "[form]", modelInvocable: true, userInvocable: false, body: "# PDF\nSteps.\n" },
    });
    const list = parseSkillFile("---\nallowed-tools:\n  - Read\n  - Grep\n---\nx\n", "f");
    expect(list.ok && list.value.allowedTools).toEqual(["Read", "Grep"]);
  });

  it("takes the folder's name and the first paragraph when name and description are absent", () => {
    const r = parseSkillFile("Summarise changes for the changelog,\nin one line each.\n\nMore detail.\n", "changelog");
    expect(r.ok && [r.value.name, r.value.description]).toEqual(["changelog", "Summarise changes for the changelog, in one line each."]);
  });

  it("refuses a header it cannot read where it matters, with the line", () => {
    expect(parseSkillFile("---\nname: x\n  oops\n", "x")).toMatchObject({ ok: false, problems: [{ line: 1, message: expect.stringMatching(/never closed/) }] });
    expect(parseSkillFile("---\nname: x\n---\n", "bad name")).toMatchObject({ ok: false, problems: [{ line: 1, message: expect.stringMatching(/folder name 'bad name' is not a skill name/) }] });
    expect(parseSkillFile("---\nname: x\ndisable-model-invocation: maybe\n---\n", "x")).toMatchObject({ ok: false, problems: [{ line: 3 }] });
    expect(parseSkillFile("---\njust words\nname: x\n---\n", "x")).toMatchObject({ ok: false, problems: [{ line: 2, message: expect.stringMatching(/expected 'key: value'/) }] });
  });

  it("keeps a skill whose unused keys hold a nested mapping (metadata:, hooks:), without a word", () => {
    const r = parseSkillFile("---\nname: x\nmetadata:\n  author: me\n---\nbody\n", "x");
    expect(r.ok).toBe(true);
    expect(r.ok && r.notes).toEqual([]);
  });
});

describe("agent files as Claude Code writes them", () => {
  it("reads name, description, tools, disallowedTools, model and maxTurns; the body is the prompt", () => {
    const r = parseAgentFile("---\nname: reviewer\ndescription: Reviews diffs\ntools: Read, Grep, Agent(explore)\ndisallowedTools: [Bash]\nmodel: sonnet\nmaxTurns: 12\ncolor: blue\n---\nYou review.\n", "file");
    expect(r).toEqual({
      ok: true,
      notes: [],
      value: { name: "reviewer", description: "Reviews diffs", tools: ["Read", "Grep", "Agent(explore)"], disallowedTools: ["Bash"], model: "sonnet", maxTurns: 12, body: "You review.\n" },
    });
  });

  it("gives a file without tools every tool of its caller, and without model the caller's model", () => {
    const r = parseAgentFile("---\nname: helper\ndescription: Helps\n---\nHelp.\n", "helper");
    expect(r.ok && [r.value.tools, r.value.model]).toEqual([undefined, "inherit"]);
  });

  it("refuses a bad maxTurns, with its line", () => {
    expect(parseAgentFile("---\nname: a\nmaxTurns: lots\n---\n", "a")).toMatchObject({ ok: false, problems: [{ line: 3 }] });
  });
});

describe("Claude Code's skills and agents folders are protected project paths", () => {
  it("makes a write into .claude/skills or .claude/agents a change to protected project content", () => {
    expect(protectedProjectEntry(".claude/skills/pdf/SKILL.md")?.entry).toBe(".claude/skills");
    expect(protectedProjectEntry(".claude/agents/reviewer.md")?.entry).toBe(".claude/agents");
    expect(protectedProjectEntry(".claude/notes.md")).toBeNull();
  });
});
