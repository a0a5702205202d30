// A file deepcode replaces whole keeps the permissions its owner gave it: a project's committed
// `.mcp.json` at 0664 (a group-shared checkout) stays 0664 after `mcp add`, while your own MCP
// file, which may hold tokens, is always private.
import { describe, expect, it } from "vitest";
import { readFileSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { mcpSubcommand } from "../../mods/mcp/command.js";
import { scratch } from "./scratch.js";

const t = scratch();
const ctx = { out: () => undefined, err: () => undefined, signal: new AbortController().signal, confirm: async () => false } as never;
const mode = (f: string): number => statSync(f).mode & 0o777;

describe("a file replaced whole keeps its mode", () => {
  it("a project's .mcp.json shared with the group stays group-writable after mcp add", async () => {
    const root = t.dir();
    const file = join(root, ".mcp.json");
    writeFileSync(file, `${JSON.stringify({ mcpServers: { old: { command: "old-server" } } }, null, 2)}\n`);
    chmodSync(file, 0o664);
    await mcpSubcommand({ root, home: t.dir(), viaMod: async () => 0 }).run(["add", "--scope", "project", "docs", "--", "node", "docs.js"], ctx);
    expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).mcpServers)).toEqual(["old", "docs"]);
    expect(mode(file).toString(8)).toBe("664");
  });

  it("your own MCP file is private whatever mode it had", async () => {
    const home = t.dir();
    const file = join(home, "mcp.json");
    writeFileSync(file, "{}\n");
    chmodSync(file, 0o644);
    await mcpSubcommand({ root: t.dir(), home, viaMod: async () => 0 }).run(["add", "--scope", "user", "docs", "--", "node", "docs.js"], ctx);
    expect(mode(file).toString(8)).toBe("600");
  });
});
