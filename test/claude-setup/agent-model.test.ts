// An agent file whose `model:` deepcode does not serve — a typo like `fable`, or Claude's own
// names (`sonnet`) — is said once when the agent loads, and the subagent runs on the session's
// model: the name never reaches the API as a model id (it would answer the Task with a 400).
import { describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chats, deepcode, isSubagent, projects, task } from "../agents/helpers.js";

const p = projects();

const STORYTELLER = "---\nname: storyteller\ndescription: Tells a short story about the code\nmodel: fable\ncolor: purple\n---\nYou are the STORYTELLER-AGENT.\n";
const REVIEWER = "---\nname: reviewer\ndescription: Reviews a change\ntools: Read, Grep\nmodel: sonnet\n---\nYou are the REVIEWER-AGENT.\n";

describe("an agent's model deepcode does not know", () => {
  it("is said once at load, and the subagent runs on the session's model, never on the name as written", async () => {
    await p.open(
      {
        main: [{ tool_calls: [task("storyteller", "tell a story", "Tell one."), task("reviewer", "review", "Review it.")] }, { content: "done" }],
        agents: [
          { marker: "STORYTELLER-AGENT", steps: [{ content: "Once upon a time." }] },
          { marker: "REVIEWER-AGENT", steps: [{ content: "Looks fine." }] },
        ],
      },
      { ".claude/agents/reviewer.md": REVIEWER },
    );
    mkdirSync(join(p.env.home, ".claude", "agents"), { recursive: true });
    writeFileSync(join(p.env.home, ".claude", "agents", "storyteller.md"), STORYTELLER);
    const r = await deepcode(p.env, ["-p", "tell a story and review", "--trust-project", "-m", "deepseek-v4-pro", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const sent = chats(p.sim.requests);
    const subagents = sent.filter((c) => isSubagent(c.json));
    expect(subagents.length).toBeGreaterThanOrEqual(2);
    for (const c of sent) expect(c.json.model).toBe("deepseek-v4-pro");
    expect(r.stdout).toContain('"is_error":false');
    expect(r.stderr.match(/storyteller\.md: model: 'fable' is not a model deepcode knows; this agent runs on the session's model/g)).toHaveLength(1);
    expect(r.stderr.match(/reviewer\.md: model: 'sonnet' is Claude's model, which deepcode does not serve; this agent runs on the session's model/g)).toHaveLength(1);
  });
});
