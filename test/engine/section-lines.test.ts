// An instructions section edited mid-session reaches the model as a tail note: lines added at
// its end as those lines alone ("gained these lines"), anything else as the whole new text —
// a line that only grew at its end is a changed line, not an added one.
import { describe, expect, it } from "vitest";
import { sectionChanges } from "../../src/core/engine/tail.js";

const section = (text: string) => [{ id: "instructions:AGENTS.md", text }];

describe("an instructions section changed mid-session", () => {
  it("sends lines added at the end as those lines alone", () => {
    const [n] = sectionChanges(section("# Project\n\nRun npm test\nWrite tests first."), section("# Project\n\nRun npm test\nWrite tests first.\n- use tabs"));
    expect(n.text).toMatch(/gained these lines/);
    expect(n.text.endsWith("\n\n- use tabs")).toBe(true);
  });

  it("sends the whole new text when the last line only grew: Run npm test → Run npm test -- --run", () => {
    const [n] = sectionChanges(section("# Project\n\nWrite tests first.\nRun npm test"), section("# Project\n\nWrite tests first.\nRun npm test -- --run"));
    expect(n.text).toMatch(/changed since this session began\. They now read/);
    expect(n.text).toContain("Run npm test -- --run");
  });
});
