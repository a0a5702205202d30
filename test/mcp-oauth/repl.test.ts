// `/mcp login NAME` in the REPL (tmux): `/mcp` shows a protected server as needing sign-in, and
// the login prints the URL, opens the "browser" ($BROWSER: fixtures/browser.mjs, which follows
// the authorization server's redirect to the loopback callback) and connects.
import { afterEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TMUX_AVAILABLE } from "../helpers/tmux.js";
import { useRepl } from "../repl/helpers.js";
import { mcpJson, mcpLogs } from "../mcp/helpers.js";
import { startFake, type Fake } from "./fake-oauth.js";

const BROWSER = `${process.execPath} ${fileURLToPath(new URL("./fixtures/browser.mjs", import.meta.url))}`;
const repl = useRepl();
let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe.skipIf(!TMUX_AVAILABLE)("signing in to a remote MCP server from the REPL", () => {
  it("/mcp shows the server as needing sign-in; /mcp login prints the URL, signs in and connects", async () => {
    const f = (fake = await startFake());
    const t = await repl.open({ default: { content: "ok" } }, {}, {
      width: 300,
      before: (env) => {
        writeFileSync(join(env.home, "mcp.json"), mcpJson({ remote: { type: "http", url: f.url } }));
        env.env.BROWSER = BROWSER;
      },
    });
    // The server connects in the background: ask /mcp until it has been challenged (each ask
    // waits for its answer; a loaded machine may take many asks, so the bound is time, generous).
    const end = Date.now() + 150_000;
    for (let i = 0; Date.now() < end && !/needs sign-in \(deepcode mcp login remote\)/.test(t.screen()); i++) {
      t.type("/mcp");
      t.press("Enter");
      await t.waitFor((s) => (s.match(/MCP servers \(1\)/g) ?? []).length > i);
    }
    // Failing, it says what the server's connection did (the mcp log) and what the fake saw.
    const said = `the MCP log:\n${mcpLogs(repl.env.home)}\nthe server saw: ${f.requests.map((r) => `${r.method} ${r.path}`).join(", ") || "nothing"}`;
    expect(t.screen(), said).toMatch(/remote\s+needs sign-in \(deepcode mcp login remote\)/);
    expect(f.authorizations).toEqual([]);
    t.type("/mcp login remote");
    t.press("Enter");
    await t.waitFor(/Signed in to remote: connected · 1 tool/);
    expect(t.screen()).toMatch(/open this URL:/);
    expect(f.authorizations).toHaveLength(1);
    expect(f.refused).toEqual([]);
  });
});
