// Ctrl-D in the REPL never waits for an MCP server still connecting (issue 28: 21–61 s, the
// server's start-up limit). The server here never answers `initialize`; its limit is 60 s.
import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { TMUX_AVAILABLE } from "../helpers/tmux.js";
import { useRepl } from "../repl/helpers.js";
import { mcpJson, mcpLogs } from "./helpers.js";

const FAULTY = fileURLToPath(new URL("./fixtures/faulty-server.mjs", import.meta.url));
const repl = useRepl();

describe.skipIf(!TMUX_AVAILABLE)("leaving the REPL with an MCP server still connecting (tmux)", () => {
  it("Ctrl-D exits at once, not at the server's start-up limit", async () => {
    const t = await repl.open({ default: { content: "ok" } }, { ".mcp.json": mcpJson({ hung: { command: process.execPath, args: [FAULTY], env: { HANG_INIT: "1" } } }) }, { settings: { enableAllProjectMcpServers: true, mcpStartupTimeoutMs: 60_000 } });
    await t.waitFor(/^›\s*$/m);
    t.type("/mcp");
    t.press("Enter");
    await t.waitFor(/hung\s+connecting…/);
    // It says how long it has been trying (a hang shows), and its log has the attempt.
    for (let i = 1; !/hung\s+connecting… for \d+ s/.test(t.screen()); i++) {
      await new Promise((r) => setTimeout(r, 300));
      t.type("/mcp");
      t.press("Enter");
      await t.waitFor((s) => (s.match(/MCP servers \(1\)/g) ?? []).length > i);
    }
    expect(mcpLogs(repl.env.home)).toMatch(/ hung connecting \(attempt 1\)\n/);
    const pressed = Date.now();
    t.press("C-d");
    await t.waitFor(/\[exit 0\]/);
    expect(Date.now() - pressed).toBeLessThan(20_000);
  });
});
