// A Claude Code plugin in the REPL, in a real terminal (tmux): /plugin installs it from a
// marketplace after showing what it brings and asking; after a restart its command is listed
// and runs, its PreToolUse hook stops a force push, and its MCP server's tool is called.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { Tmux, TMUX_AVAILABLE } from "../helpers/tmux.js";
import { BIN } from "../helpers/cli-env.js";
import { chatBodies } from "../helpers/extension.js";
import { GIT_AVAILABLE, installedDir, PLUGIN_ID, pluginRig, type Rig } from "./helpers.js";

let rig: Rig | undefined;
let term: Tmux | undefined;
afterEach(async () => {
  term?.kill();
  await rig?.close();
  term = undefined;
  rig = undefined;
});

async function start(r: Rig): Promise<Tmux> {
  term?.kill();
  term = new Tmux(`node ${BIN} --trust-project`, { cwd: r.env.root, env: r.env.env, width: 220 });
  await term.waitFor(/· session \d{8}-\d{6}-[0-9a-f]{6}/);
  await term.waitFor(/^›\s*$/m);
  return term;
}

const call = (name: string, args: object) => ({ tool_calls: [{ name, arguments: args }] });
const toolText = (r: Rig): string[] => chatBodies(r.sim.requests).at(-1)!.messages.filter((m) => m.role === "tool").map((m) => String(m.content));

describe.skipIf(!TMUX_AVAILABLE || !GIT_AVAILABLE)("a plugin in the REPL (tmux)", () => {
  it("installs with /plugin after showing what it brings and asking, then uses its command, hook and server after a restart", async () => {
    rig = await pluginRig(
      {
        rules: [
          { when: { lastContains: "Review src/a.ts" }, reply: { content: "looks fine" } },
          { when: { lastContains: "push now" }, reply: call("Bash", { command: "git push --force origin main" }) },
          { when: { lastContains: "note it" }, reply: call("mcp__plugin_review-kit_notes__add_note", { note: "check names" }) },
          { when: { lastRole: "tool" }, reply: { content: "done" } },
        ],
        default: { content: "ok" },
      },
      { "src/a.ts": "export const a = 1;\n", ".deepcode/settings.json": JSON.stringify({ estimate: "show" }) },
    );
    expect((await rig.run(["plugin", "marketplace", "add", rig.market.bare])).code).toBe(0);
    const t = await start(rig);
    t.type(`/plugin install ${PLUGIN_ID}`);
    t.press("Enter");
    await t.waitFor(`? Install ${PLUGIN_ID} — it can run code on your machine (the lines marked !)?`);
    await t.waitFor("[y] yes"); // answers count once they are shown
    expect(t.screen()).toContain("! runs a PreToolUse (Bash) hook:");
    t.press("y");
    await t.waitFor(`Installed ${PLUGIN_ID} and enabled it`);
    expect(existsSync(installedDir(rig.env))).toBe(true);

    t.press("C-d");
    await t.waitFor(/\[exit 0\]/);
    const t2 = await start(rig);
    t2.type("/help");
    t2.press("Enter");
    await t2.waitFor(/\/review-kit:review <file> +Review a file for bugs, unclear names and missing tests \(plugin review-kit@acme-tools\)/);

    t2.type("/review-kit:review src/a.ts");
    t2.press("Enter");
    await t2.waitFor(/^looks fine$/m);

    t2.type("push now");
    t2.press("Enter");
    await t2.waitFor(/✗ Bash [^\n]*: denied — review-kit: force pushes are not allowed here/); // the hook answers before anyone is asked
    await t2.waitFor(/push now[\s\S]*^done$/m);
    expect(toolText(rig)[0]).toContain("review-kit: force pushes are not allowed here");

    t2.type("note it");
    t2.press("Enter");
    await t2.waitFor(/note it[\s\S]*\[y\]/); // an MCP tool asks before it runs
    t2.press("y");
    await t2.waitFor(/note it[\s\S]*^done$/m);
    expect(toolText(rig).at(-1)).toBe("noted: check names");
  });

  it("lists installed plugins with /plugin list", async () => {
    rig = await pluginRig(undefined, { ".deepcode/settings.json": JSON.stringify({ estimate: "show" }) });
    await rig.installKit();
    const t = await start(rig);
    t.type("/plugin list");
    t.press("Enter");
    await t.waitFor(/✓ review-kit@acme-tools 1\.0\.0/);
    expect(t.screen()).toMatch(/enabled \(user\); 9 files as installed/);
  });
});
