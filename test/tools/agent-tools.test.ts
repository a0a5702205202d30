// Claude Code's agent files name tools deepcode has under other names (LS, NotebookRead) and
// tools it has not (WebSearch): the first map to Glob and Read instead of vanishing, a tool
// that exists nowhere is warned about once, and a plugin can provide WebSearch under that exact
// name — callable by the model, and given to an agent file that lists it.
import { afterEach, describe, expect, it } from "vitest";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";

const AGENT = `---
name: researcher
description: Looks things up
tools: Read, LS, NotebookRead, WebSearch, Frobnicate
---
You are the RESEARCHER-AGENT. Look things up.
`;

const SEARCH_PLUGIN = `export default {
  id: "search",
  register(api) {
    api.tool({
      name: "WebSearch",
      description: "Search the web",
      inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
      readOnly: true,
      run: async (input) => ({ content: "RESULTS FOR " + input.query }),
    });
  },
};
`;

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const task = { tool_calls: [{ name: "Task", arguments: { description: "look up", prompt: "Find the docs", subagent_type: "researcher" } }] };

async function run(files: Record<string, string>, replies: object[]) {
  rig = await cliRig({ replies }, { ".deepcode/agents/researcher.md": AGENT, ...files });
  const r = await rig.run(["-p", "research it", "--trust-project"]);
  const bodies = chatBodies(rig.sim.requests);
  const sub = bodies.find((b) => b.messages.some((m) => m.role === "system" && String(m.content).includes("RESEARCHER-AGENT")));
  return { r, bodies, subTools: ((sub?.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name) };
}

describe("tools named in an agent file", () => {
  it("gives LS as Glob and NotebookRead as Read, and warns once about a tool that exists nowhere", async () => {
    const { r, subTools } = await run({}, [task, { content: "found nothing" }, { content: "done" }]);
    expect(r.code).toBe(0);
    expect(subTools).toEqual(["Read", "Glob", "UseTool"]);
    expect(r.stderr.match(/tools deepcode does not have; each runs without them: .*researcher \([^)]*Frobnicate/g)?.length).toBe(1);
    expect(r.stderr).toMatch(/researcher \([^)]*WebSearch[^)]*\).*\(WebSearch: deepcode has no search provider; a plugin or an MCP server can provide a tool by that name\)/);
  });

  it("gives WebSearch to the agent when a plugin provides a tool by that name, and the model can call it", async () => {
    const search = { tool_calls: [{ name: "WebSearch", arguments: { query: "widget docs" } }] };
    const { r, bodies, subTools } = await run(
      { "search.mjs": SEARCH_PLUGIN, ".deepcode/settings.json": JSON.stringify({ plugins: ["../search.mjs"] }) },
      [task, search, { content: "found them" }, { content: "done" }],
    );
    expect(r.code).toBe(0);
    expect(subTools).toEqual(["Read", "Glob", "WebSearch", "UseTool"]);
    expect(r.stderr).not.toMatch(/does not have; each runs without them: .*WebSearch/);
    const tool = bodies.flatMap((b) => b.messages).find((m) => m.role === "tool" && String(m.content).startsWith("RESULTS FOR"));
    expect(String(tool?.content)).toBe("RESULTS FOR widget docs");
  });
});
