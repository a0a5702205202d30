// Subagent names a project cannot take (issue 22: a project's `explore.md` replaced the read-only
// built-in explore agent, which then wrote a file; `reviewer.md` replaced the person's own
// reviewer). The Task tool resolves a name with findAgent over loadAgents, as tested here.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findAgent, loadAgents } from "../../mods/agents/load.js";
import { readOwnFile } from "../../src/lib/own-file.js";

let base: string;
let root: string;
let home: string;
let userHome: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "deepcode-agent-names-"));
  root = join(base, "proj");
  home = join(base, "dhome");
  userHome = join(base, "uhome");
  for (const d of [root, home, userHome]) mkdirSync(d, { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function agentFile(dir: string, file: string, name: string, extra = ""): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, `---\nname: ${name}\ndescription: ${name} from ${dir}\n${extra}---\nYou are ${name} from ${dir}.\n`);
  return path;
}

const load = (trusted = true) => loadAgents({ root, home, userHome, plugins: [], trusted, read: readOwnFile });

describe("a project's agent file never replaces a built-in or personal one", () => {
  const PROJECT_DIRS = () => [join(root, ".deepcode", "agents"), join(root, ".claude", "agents")];
  const PERSONAL_DIRS = () => [join(home, "agents"), join(userHome, ".claude", "agents")];

  it("keeps the read-only built-in explore agent under its name; the project's is project:explore (corpus of spellings and folders)", () => {
    let tried = 0;
    let stopped = 0;
    for (const dir of PROJECT_DIRS()) {
      for (const [file, name] of [["explore.md", "explore"], ["Explore.md", "Explore"], ["x.md", "explore"], ["gp.md", "general-purpose"], ["GP.md", "General-Purpose"]] as const) {
        rmSync(join(root, ".deepcode"), { recursive: true, force: true });
        rmSync(join(root, ".claude"), { recursive: true, force: true });
        const path = agentFile(dir, file, name, "tools: Write, Bash\n");
        const { agents, problems } = load();
        const got = findAgent(agents, name)!;
        tried++;
        if (got.scope === "builtin") stopped++;
        expect({ dir, name, scope: got.scope }).toEqual({ dir, name, scope: "builtin" });
        const theirs = findAgent(agents, `project:${name}`)!;
        expect(theirs.file).toBe(path);
        expect(problems.join("\n")).toContain(`${path}: the agent name '${name}' is the built-in`);
      }
    }
    expect(stopped).toBe(tried);
    expect(findAgent(load().agents, "explore")!.readOnly).toBe(true);
  });

  it("keeps the person's own reviewer (~/.deepcode/agents or ~/.claude/agents) and names both files", () => {
    for (const mine of PERSONAL_DIRS()) {
      for (const dir of PROJECT_DIRS()) {
        rmSync(join(root, ".deepcode"), { recursive: true, force: true });
        rmSync(join(root, ".claude"), { recursive: true, force: true });
        rmSync(join(home, "agents"), { recursive: true, force: true });
        rmSync(join(userHome, ".claude"), { recursive: true, force: true });
        const own = agentFile(mine, "reviewer.md", "reviewer");
        const planted = agentFile(dir, "reviewer.md", "reviewer", "tools: Bash\n");
        const { agents, problems } = load();
        expect(findAgent(agents, "reviewer")!.file).toBe(own);
        expect(findAgent(agents, "project:reviewer")!.file).toBe(planted);
        expect(problems).toContainEqual(expect.stringContaining(`${planted}: the agent name 'reviewer' is your own (${own})`));
      }
    }
  });

  it("lets the person's own file replace a built-in, and a project's new name load as it is", () => {
    agentFile(join(home, "agents"), "explore.md", "explore");
    agentFile(join(root, ".claude", "agents"), "tester.md", "tester");
    const { agents, problems } = load();
    expect(findAgent(agents, "explore")!.scope).toBe("user");
    expect(findAgent(agents, "tester")!.scope).toBe("project");
    expect(problems).toEqual([]);
  });

  it("runs an untrusted project's agent on the caller's model, whatever its model says", () => {
    agentFile(join(root, ".claude", "agents"), "deep.md", "deep", "model: reasoner\n");
    agentFile(join(home, "agents"), "mine.md", "mine", "model: reasoner\n");
    expect(findAgent(load(false).agents, "deep")!.model).toBe("inherit");
    expect(findAgent(load(false).agents, "mine")!.model).toBe("reasoner");
    expect(findAgent(load(true).agents, "deep")!.model).toBe("reasoner");
  });

  it("runs an agent whose model deepcode does not serve (Claude's opus) on the session's model, and says so once", () => {
    agentFile(join(root, ".claude", "agents"), "deep.md", "deep", "model: opus\n");
    const served = new Set(["deepseek-flash", "reasoner"]);
    const r = loadAgents({ root, home, userHome, plugins: [], trusted: true, models: served, read: readOwnFile });
    expect(findAgent(r.agents, "deep")!.model).toBe("inherit");
    expect(r.problems.filter((p) => p.includes("'opus' is Claude's model"))).toHaveLength(1);
  });
});
