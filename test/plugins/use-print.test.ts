// An installed Claude Code plugin, unchanged, in `deepcode -p`: its command runs namespaced
// (/review-kit:review), its PreToolUse hook stops a force push with its own words, and its
// stdio MCP server's tools are there (plugin_review-kit_notes) with ${CLAUDE_PLUGIN_ROOT} and
// ${CLAUDE_PLUGIN_DATA} expanded. Its skills and agents: skills-agents.test.ts.
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chatBodies } from "../helpers/extension.js";
import { GIT_AVAILABLE, PLUGIN_ID, pluginRig, type Rig } from "./helpers.js";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const call = (name: string, args: object) => ({ tool_calls: [{ name, arguments: args }] });
const lastUser = (body: { messages: Array<Record<string, unknown>> }): string => String([...body.messages].reverse().find((m) => m.role === "user")?.content ?? "");
const toolResults = (body: { messages: Array<Record<string, unknown>> }): string[] => body.messages.filter((m) => m.role === "tool").map((m) => String(m.content));

describe.skipIf(!GIT_AVAILABLE)("an installed plugin's parts in -p", () => {
  it("runs the plugin's command as /review-kit:review with its arguments", async () => {
    rig = await pluginRig({ default: { content: "reviewed" } }, { "src/a.ts": "export const x = 1;\n" });
    await rig.installKit();
    const r = await rig.run(["-p", "/review-kit:review src/a.ts"]);
    expect(r.stderr).not.toMatch(/NOT loaded|did not load/);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("reviewed");
    const prompt = lastUser(chatBodies(rig.sim.requests)[0]);
    expect(prompt).toContain("Review src/a.ts as a careful senior engineer would.");
    expect(prompt).not.toContain("argument-hint");
  });

  it("lists the plugin's command among the slash commands of stream-json's init line", async () => {
    rig = await pluginRig();
    await rig.installKit();
    const r = await rig.run(["-p", "hi", "--output-format", "stream-json"]);
    const init = JSON.parse(r.stdout.split("\n")[0]);
    expect(init.slash_commands).toContain("review-kit:review");
    expect(init.mcp_servers).toEqual(expect.arrayContaining([expect.objectContaining({ name: "plugin_review-kit_notes" })]));
  });

  it("stops a force push through the plugin's PreToolUse hook, with the hook's message, and lets other commands run", async () => {
    rig = await pluginRig({ replies: [call("Bash", { command: "git push --force origin main" }), call("Bash", { command: "echo pushed-safely" }), { content: "done" }] });
    await rig.installKit();
    const r = await rig.run(["-p", "push it", "--allowedTools", "Bash(git push:*),Bash(echo:*)"]);
    expect(r.code).toBe(0);
    const results = toolResults(chatBodies(rig.sim.requests).at(-1)!);
    expect(results[0]).toContain("review-kit: force pushes are not allowed here; push a new commit instead");
    expect(results[1]).toContain("pushed-safely");
  });

  it("starts the plugin's MCP server with its root and data folders expanded, and calls its tools", async () => {
    rig = await pluginRig({ replies: [call("mcp__plugin_review-kit_notes__add_note", { note: "rename x" }), call("mcp__plugin_review-kit_notes__list_notes", {}), { content: "noted" }] });
    await rig.installKit();
    const r = await rig.run(["-p", "keep a note", "--allowedTools", "mcp__plugin_review-kit_notes"]);
    expect(r.stderr).not.toContain("failed");
    expect(r.code).toBe(0);
    const first = chatBodies(rig.sim.requests)[0] as { tools: Array<{ function: { name: string } }> };
    expect(first.tools.map((t) => t.function.name)).toEqual(expect.arrayContaining(["mcp__plugin_review-kit_notes__add_note", "mcp__plugin_review-kit_notes__list_notes"]));
    const results = toolResults(chatBodies(rig.sim.requests).at(-1)!);
    expect(results).toEqual(["noted: rename x", "rename x"]);
    expect(readFileSync(join(rig.env.home, "plugins", "data", PLUGIN_ID, "notes.txt"), "utf8")).toBe("rename x\n");
  });

  it("loads nothing of a plugin that is disabled", async () => {
    rig = await pluginRig({ replies: [call("Bash", { command: "git push --force origin main" }), { content: "done" }] });
    await rig.installKit();
    await rig.run(["plugin", "disable", PLUGIN_ID]);
    const r = await rig.run(["-p", "push it", "--allowedTools", "Bash(git push:*)", "--output-format", "stream-json"]);
    const init = JSON.parse(r.stdout.split("\n")[0]);
    expect(init.slash_commands).not.toContain("review-kit:review");
    const results = toolResults(chatBodies(rig.sim.requests).at(-1)!);
    expect(results[0]).not.toContain("force pushes are not allowed");
  });
});
