import { describe, expect, it } from "vitest";
import { call, deepcode, task, projects } from "./helpers.js";

const p = projects();

const READER = "---\nname: reader\ndescription: Reads files\ntools: Read, Glob\n---\nYou are the READER-AGENT.\n";

describe("a subagent's warnings", () => {
  it("reach the person, named for the agent and its task, as the main agent's do", async () => {
    const again = call("Glob", { pattern: "*.txt" });
    await p.open(
      {
        main: [{ tool_calls: [task("reader", "list the text files", "Which text files are there?")] }, { content: "done" }],
        agents: [{ marker: "READER-AGENT", steps: [again, again, again, again, { content: "a.txt" }] }],
      },
      { ".claude/agents/reader.md": READER, "a.txt": "hello\n" },
    );
    const r = await deepcode(p.env, ["-p", "which text files? use the reader", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/subagent reader \(list the text files\): the model repeated a suppressed call in 2 requests, costing <?\$/);
  });
});
