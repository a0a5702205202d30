// The REPL in a real terminal (tmux) with the real everything server in .mcp.json: the person
// approves a project server once (remembered per project, asked again when its command
// changes), answers a server's elicitation form with defaults, sees `/mcp`, runs a server's
// prompt as a slash command and attaches a resource with @server:uri.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Script } from "../sim/server.mjs";
import { TMUX_AVAILABLE, type Tmux } from "../helpers/tmux.js";
import { useRepl } from "../repl/helpers.js";
import { chatBodies } from "../helpers/extension.js";
import { everythingStdio, mcpJson } from "./helpers.js";

const repl = useRepl();

const open = (script: Script, files: Record<string, string>, settings: object = {}): Promise<Tmux> => repl.open(script, files, { settings: { estimate: "show", ...settings }, width: 300 });
const start = (): Promise<Tmux> => repl.start("", { width: 300 });

const tools = () => chatBodies(repl.sim.requests).map((b) => (b.tools as Array<{ function: { name: string } }>).map((t) => t.function.name));

describe.skipIf(!TMUX_AVAILABLE)("MCP in the REPL (tmux, the everything server)", () => {
  it("asks once to start a project's server, showing its command; the answer is remembered until the command changes", async () => {
    const t = await open({ default: { content: "ok" } }, { ".mcp.json": mcpJson({ everything: everythingStdio() }) });
    t.type("hello");
    t.press("Enter");
    await t.waitFor(/Start the MCP server "everything" from this project's \.mcp\.json\?[\s\S]*\[y\] yes/);
    expect(t.screen()).toMatch(/runs: .*server-everything\/dist\/index\.js stdio/);
    t.type("y");
    await t.waitFor(/^ok$/m);
    expect(tools()[0]).toContain("mcp__everything__echo");
    const approvals = JSON.parse(readFileSync(join(repl.env.home, "mcp-approvals.json"), "utf8"));
    expect(Object.values(approvals.projects)[0]).toHaveProperty("everything.allowed", true);

    // A new REPL: not asked again, the tools are there from the first request.
    t.press("C-d");
    await t.waitFor(/\[exit 0\]/);
    const t2 = await start();
    t2.type("again");
    t2.press("Enter");
    await t2.waitFor(/^ok$/m);
    expect(t2.screen()).not.toMatch(/Start the MCP server/);
    expect(tools().at(-1)).toContain("mcp__everything__echo");

    // The command changes: asked again.
    const changed = everythingStdio();
    repl.env.write(".mcp.json", mcpJson({ everything: { ...changed, args: [...changed.args, "--extra"] } }));
    t2.press("C-d");
    await t2.waitFor(/\[exit 0\]/);
    const t3 = await start();
    t3.type("third");
    t3.press("Enter");
    await t3.waitFor(/Start the MCP server "everything"[\s\S]*\[y\] yes/);
    t3.type("n");
    await t3.waitFor(/^ok$/m);
  });

  // mcpElicitation "defaults" answers forms only where nobody can: here the person is asked.
  it("answers a server's elicitation form in the terminal (asked even under mcpElicitation \"defaults\"); Enter keeps a field's default", async () => {
    const call = { tool_calls: [{ name: "mcp__everything__trigger-elicitation-request", arguments: {} }] };
    const t = await open({ replies: [call, { content: "form done" }] }, { ".mcp.json": mcpJson({ everything: everythingStdio() }) }, { enableAllProjectMcpServers: true, mcpElicitation: "defaults", permissions: { allow: ["mcp__everything"] } });
    t.type("fill the form");
    t.press("Enter");
    await t.waitFor(/The MCP server "everything" asks you:/);
    // One step: the form's first field is the question (no "y to answer" first).
    await t.waitFor(/String\* \(string\)|String \(string\)/);
    t.type("Ada Lovelace");
    t.press("Enter");
    // Every other field: Enter (its default, or left out when it may be), each once its prompt
    // is on screen (a field's prompt ends in ":").
    const prompts = (s: string): number => (s.match(/^ {2}\S[^\n]*\((string|integer|number|y\/n|one or more|1\))[^\n]*:( |$)/gm) ?? []).length;
    for (let seen = prompts(t.screen()); !/form done/.test(t.screen()); ) {
      t.press("Enter");
      const s = await t.waitFor((x) => /form done/.test(x) || prompts(x) > seen);
      seen = prompts(s);
    }
    const last = chatBodies(repl.sim.requests).at(-1)!.messages.filter((m) => m.role === "tool").map((m) => String(m.content)).join("\n");
    expect(last).toMatch(/Ada Lovelace/);
  });

  it("shows /mcp, runs a prompt as a slash command, and attaches a resource with @server:uri", async () => {
    const t = await open({ default: { content: "seen" } }, { ".mcp.json": mcpJson({ everything: everythingStdio() }) }, { enableAllProjectMcpServers: true });
    await t.waitFor(/^›\s*$/m);
    // The server connects in the background: ask /mcp until it says so (a limit, not a speed).
    for (const deadline = Date.now() + 120_000; !/connected ·/.test(t.screen()) && Date.now() < deadline; ) {
      t.type("/mcp");
      t.press("Enter");
      await t.waitFor(/^›\s*$/m);
      await new Promise((r) => setTimeout(r, 250));
    }
    await t.waitFor(/● everything\s+connected · \d+ tools, 4 prompts, \d+ resources/);
    t.type("/mcp__everything__args-prompt Paris Texas");
    t.press("Enter");
    await t.waitFor(/^seen$/m);
    expect(String(chatBodies(repl.sim.requests).at(-1)!.messages.at(-1)!.content)).toMatch(/Paris/);
    t.type("read @everything:demo://resource/static/document/architecture.md please");
    t.press("Enter");
    await t.waitFor(/seen[\s\S]*seen/);
    const text = String(chatBodies(repl.sim.requests).at(-1)!.messages.at(-1)!.content);
    expect(text).toMatch(/<resource server="everything" uri="demo:\/\/resource\/static\/document\/architecture\.md"/);
    // The file mentions leave `@server:uri` to the mcp mod: no "no such file" note for it.
    expect(JSON.stringify(chatBodies(repl.sim.requests).at(-1)!.messages)).not.toMatch(/no such file or folder/);
    // Tab: the servers with resources, then a server's resources.
    t.type("@every");
    t.press("Tab");
    await t.waitFor(/› @everything:$/m);
    t.type("demo://resource/static/document/arch");
    t.press("Tab");
    await t.waitFor(/› @everything:demo:\/\/resource\/static\/document\/architecture\.md\s*$/m);

  });
});
