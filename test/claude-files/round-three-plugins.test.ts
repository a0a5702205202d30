// Round three's plugin shapes (test/fixtures/cc-round3): a plugin.json that lists its agents
// file by file beside a README (VoltAgent's marketplace), and agents whose description runs on
// over example dialogues that start with `Context:` lines (pr-review-toolkit's code-simplifier),
// with commands whose `argument-hint` is Claude Code's `[a] [b]`. Everything loads, and nothing
// is said about it at start or in `deepcode plugin list`.
import { afterEach, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { isSubagent, planScript, task, toolNamesOf } from "../agents/helpers.js";
import { bodies, filesRig, systemOf, toolResults, type FilesRig } from "./helpers.js";

const ROUND3 = fileURLToPath(new URL("../fixtures/cc-round3", import.meta.url));

let rig: FilesRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("a plugin whose plugin.json lists its agent files", () => {
  it("loads each listed file as an agent, leaves the README beside them alone, and runs one by its name", async () => {
    rig = await filesRig(
      ["core-dev"],
      planScript({
        main: [{ tool_calls: [task("core-dev:api-designer", "design the API", "Design a /users API")] }, { content: "designed" }],
        agents: [{ marker: "You are API-DESIGNER.", steps: [{ content: "GET /users, POST /users" }] }],
      }),
      {},
      ROUND3,
    );
    const r = await rig.run(["-p", "design a users API"]);
    expect(r.code).toBe(0);
    const all = bodies(rig.sim);
    const main = systemOf(all[0]);
    expect(main).toMatch(/^- core-dev:api-designer: Use this agent to shape an HTTP API/m);
    expect(main).toMatch(/^- core-dev:backend-developer: Use this agent for server-side work/m);
    expect(main).not.toMatch(/core-dev:README/);
    const sub = all.find((b) => isSubagent(b));
    expect(systemOf(sub)).toContain("You are API-DESIGNER.");
    expect(toolNamesOf(sub)).toContain("Write");
    expect(toolResults(all.at(-1)).join("\n")).toContain("GET /users, POST /users");
    // An installed plugin's agents naming Claude's models print nothing at start (/agents says it).
    expect(r.stderr).not.toMatch(/sonnet|opus|README/);
  });

  it("names the listed agents in deepcode plugin list", async () => {
    rig = await filesRig(["core-dev"], undefined, {}, ROUND3);
    const r = await rig.run(["plugin", "list"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("agents api-designer, backend-developer");
  });
});

describe("an agent whose description carries example dialogues, and Claude Code's argument hints", () => {
  it("loads the agent and the commands without a word at start", async () => {
    rig = await filesRig(
      ["review-toolkit"],
      planScript({
        main: [{ tool_calls: [task("review-toolkit:code-tidier", "tidy", "Tidy src/a.ts")] }, { content: "tidied" }],
        agents: [{ marker: "You are CODE-TIDIER.", steps: [{ content: "nothing to tidy" }] }],
      }),
      {},
      ROUND3,
    );
    const r = await rig.run(["-p", "tidy my change"]);
    expect(r.code).toBe(0);
    // Only the subagent's own progress line: no warning about the plugin's files.
    expect(r.stderr.split("\n").filter((l) => l.trim() && !l.startsWith("● Task"))).toEqual([]);
    const all = bodies(rig.sim);
    expect(systemOf(all[0])).toMatch(/^- review-toolkit:code-tidier: Use this agent after code was written or changed/m);
    expect(systemOf(all.find((b) => isSubagent(b)))).toContain("You are CODE-TIDIER.");
  });

  it("lists the agent and the commands in deepcode plugin list, with no warning", async () => {
    rig = await filesRig(["review-toolkit"], undefined, {}, ROUND3);
    const r = await rig.run(["plugin", "list"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("agents code-tidier");
    expect(r.stdout).toMatch(/\/review-toolkit:tidy/);
  });
});
