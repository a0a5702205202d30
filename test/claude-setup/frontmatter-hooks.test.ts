// `hooks:` in a command's or an agent's header (Claude Code runs them while that command or agent
// is active; disler's hooks-mastery agents carry them): the file loads and runs, its nested YAML
// is no "YAML error", and deepcode says in one line that it does not run those hooks.
import { describe, expect, it } from "vitest";
import { chats, deepcode, isSubagent, projects, task } from "../agents/helpers.js";

const p = projects();

const HOOKS = "hooks:\n  PreToolUse:\n    - matcher: \"Bash\"\n      hooks:\n        - type: command\n          command: \"./scripts/check.sh\"\n";
const DEPLOY = `---\ndescription: Deploy the site\n${HOOKS}---\nDEPLOY-BODY: deploy $ARGUMENTS.\n`;
const GUARD = `---\nname: guard\ndescription: Works behind a guard\ntools: Read, Bash\n${HOOKS}---\nYou are the GUARD-AGENT.\n`;

describe("hooks: in a header", () => {
  it("runs a command with hooks: in its header, and says once that those hooks do not run", async () => {
    await p.open({ main: [{ content: "deployed" }], agents: [] }, { ".claude/commands/deploy.md": DEPLOY });
    const r = await deepcode(p.env, ["-p", "/deploy staging"]);
    expect(r.code).toBe(0);
    expect(String(chats(p.sim.requests)[0].json.messages.at(-1).content)).toContain("DEPLOY-BODY: deploy staging.");
    const said = r.stderr.split("\n").filter((l) => l.includes("hooks"));
    expect(said).toEqual([expect.stringMatching(/deploy\.md:3: hooks: in a command's header are not run by deepcode; \/deploy runs without them/)]);
    expect(r.stderr).not.toMatch(/expected a '- item' line/);
  });

  it("runs an agent with hooks: in its header, and says once that those hooks do not run", async () => {
    await p.open(
      { main: [{ tool_calls: [task("guard", "guard", "Look around.")] }, { content: "done" }], agents: [{ marker: "GUARD-AGENT", steps: [{ content: "all quiet" }] }] },
      { ".claude/agents/guard.md": GUARD },
    );
    const r = await deepcode(p.env, ["-p", "look around"]);
    expect(r.code).toBe(0);
    expect(chats(p.sim.requests).some((c) => isSubagent(c.json) && String(c.json.messages[0].content).includes("GUARD-AGENT"))).toBe(true);
    const said = r.stderr.split("\n").filter((l) => l.includes("hooks"));
    expect(said).toEqual([expect.stringMatching(/guard\.md: hooks: in an agent's header are not run by deepcode; this agent works without them/)]);
  });
});
