// Frontmatter read as leniently as Claude Code reads it: a plain value may continue on lines
// that are not indented; inside such a continuation only a key of the file's format starts the
// next key, so an example's `user: "…"` line stays text. One note per file says so.
import { describe, expect, it } from "vitest";
import { parseAgentFile, parseSkillFile } from "../../src/lib/claude-files.js";
import { parseFrontmatter } from "../../src/lib/frontmatter.js";

const AGENT = `---
name: code-simplifier
description: Use this agent when code was just written or changed.
It simplifies without changing behaviour. Examples:

<example>
Context: The user finished a feature
user: "Please simplify what I wrote"
assistant: "I'll use the code-simplifier agent."
</example>
model: opus
tools: Read, Edit
---

You simplify code.
`;

describe("frontmatter whose value continues on unindented lines", () => {
  it("reads the whole description of an agent file, up to the next key of the format", () => {
    const r = parseAgentFile(AGENT, "code-simplifier");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.description).toBe(
      'Use this agent when code was just written or changed. It simplifies without changing behaviour. Examples:\n<example> Context: The user finished a feature user: "Please simplify what I wrote" assistant: "I\'ll use the code-simplifier agent." </example>',
    );
    expect(r.value.model).toBe("opus");
    expect(r.value.tools).toEqual(["Read", "Edit"]);
    expect(r.value.body).toBe("You simplify code.\n");
    expect(r.notes).toEqual([{ line: 3, message: expect.stringMatching(/^description continues on unindented lines; read as Claude Code reads it/) }]);
  });

  it("without the format's keys, ends the continuation at any key line", () => {
    const fm = parseFrontmatter("---\ndescription: one\ntwo\nthree: 3\n---\n");
    expect(fm.fields.get("description")?.value).toBe("one two");
    expect(fm.fields.get("three")?.value).toBe("3");
    expect(fm.problems).toEqual([]);
    expect(fm.lenient).toEqual([{ key: "description", line: 2, lines: 1 }]);
  });

  it("leaves plain YAML as it was: indented continuations, block scalars and lists are not lenient", () => {
    const fm = parseFrontmatter("---\ndescription: |-\n  a\n  b\ntools:\n- Read\n- Grep\nname: x\n  y\n---\n");
    expect(fm.fields.get("description")?.value).toBe("a\nb");
    expect(fm.fields.get("tools")?.value).toEqual(["Read", "Grep"]);
    expect(fm.fields.get("name")?.value).toBe("x y");
    expect(fm.lenient).toEqual([]);
  });

  it("still refuses a header whose first line is not key: value", () => {
    expect(parseSkillFile("---\njust words\nname: x\n---\n", "x")).toMatchObject({ ok: false, problems: [{ line: 2 }] });
  });
});
