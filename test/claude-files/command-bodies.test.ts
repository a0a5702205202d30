// A plugin command written as ralph-wiggum's /ralph-loop is: a fenced ```! block runs like a
// !`cmd` line (through the same gate), `${CLAUDE_PLUGIN_ROOT}` is expanded in the body, in
// `allowed-tools` (so the rule allows the script it names) and in `@` references (the plugin's
// file is attached), and `${CLAUDE_PLUGIN_DATA}` names a folder that exists. A plugin's MCP
// server whose configuration names that folder finds it on its first write.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bodies, filesRig, userMessages, type FilesRig } from "./helpers.js";

let rig: FilesRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("a plugin command's body", () => {
  it("runs its ```! block with the plugin's root expanded, allowed by its own allowed-tools", async () => {
    rig = await filesRig(["loop-kit"], { default: { content: "looping" } });
    const r = await rig.run(["-p", "/loop-kit:loop fix the failing tests"]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/denied|did not succeed/);
    // The script ran in the project, with the arguments.
    expect(readFileSync(join(rig.env.root, "loop-state.txt"), "utf8")).toBe("fix the failing tests\n");
    const prompt = userMessages(bodies(rig.sim)[0]).at(-1)!;
    expect(prompt).toContain("LOOP STARTED: fix the failing tests");
    expect(prompt).not.toContain("```!");
    expect(prompt).not.toContain("${CLAUDE_PLUGIN_ROOT}");
  });

  it("attaches the plugin's file an @${CLAUDE_PLUGIN_ROOT}/… reference names, and gives ${CLAUDE_PLUGIN_DATA} a folder", async () => {
    rig = await filesRig(["loop-kit"], { default: { content: "looping" } });
    const r = await rig.run(["-p", "/loop-kit:loop go"]);
    expect(r.code).toBe(0);
    const prompt = userMessages(bodies(rig.sim)[0]).at(-1)!;
    const rules = join(rig.installed("loop-kit"), "docs", "rules.md");
    expect(prompt).toContain(`Follow the rules in ${rules} while you work.`);
    expect(prompt).toContain(`<file path="${rules}" lines="3">\n# Loop rules\n\nLOOP-RULES-TEXT: stop when the tests pass.\n</file>`);
    const data = join(rig.env.home, "plugins", "data", "loop-kit@cc-files");
    expect(prompt).toContain(`Keep notes between iterations in ${data}/notes.md.`);
    expect(statSync(data).isDirectory()).toBe(true);
  });
});

describe("a plugin's MCP server configuration and hooks", () => {
  it("gets ${CLAUDE_PLUGIN_DATA} as a folder that exists before the server starts", async () => {
    rig = await filesRig(["memory-kit"], { default: { content: "ok" } });
    const data = join(rig.env.home, "plugins", "data", "memory-kit@cc-files");
    expect(existsSync(data)).toBe(false);
    const r = await rig.run(["-p", "remember that the build uses make"]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/ENOENT/);
    expect(JSON.parse(readFileSync(join(data, "memory.json"), "utf8"))).toEqual({ entities: [] });
  });

  it("and its hooks write to the same folder", async () => {
    rig = await filesRig(["memory-kit"], { default: { content: "ok" } });
    const r = await rig.run(["-p", "hello"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(rig.env.home, "plugins", "data", "memory-kit@cc-files", "sessions.log"), "utf8")).toBe("started\n");
  });
});
