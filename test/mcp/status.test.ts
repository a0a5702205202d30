// What stream-json's init line lists (mcpServerList): each configured server with its state,
// from the mcp mod's own report — connected once it is, disabled with a reason for one that
// does not start (here: an untrusted project's).
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assemble } from "../../src/cli/assemble.js";
import { mcpServerList } from "../../src/cli/print-stream.js";
import { mcpJson } from "./helpers.js";

const SERVER = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("the MCP servers listed for stream-json's init line", () => {
  it("names each server with connected, pending or disabled", async () => {
    const root = mkdtempSync(join(tmpdir(), "deepcode-mcp-status-"));
    const home = mkdtempSync(join(tmpdir(), "deepcode-mcp-statush-"));
    dirs.push(root, home);
    writeFileSync(join(home, "mcp.json"), mcpJson({ mine: { command: process.execPath, args: [SERVER] } }));
    writeFileSync(join(root, ".mcp.json"), mcpJson({ theirs: { command: "x" } }));
    const app = await assemble({ root, home, env: { DEEPSEEK_API_KEY: "sk-test", PATH: process.env.PATH }, managedPath: join(home, "none.json"), warn: () => undefined });
    expect(mcpServerList(app)).toEqual([
      { name: "mine", status: "pending" },
      { name: "theirs", status: "disabled" },
    ]);
    let out = "";
    await app.commands.get("mcp")!.spec.run({ args: "list", sessionId: "", signal: new AbortController().signal, interactive: false, print: (t) => (out += t), submit: async () => undefined });
    expect(out).toMatch(/● mine\s+connected · 1 tool/);
    expect(out).toMatch(/○ theirs\s+not started: the project is not trusted/);
    expect(mcpServerList(app)).toEqual([
      { name: "mine", status: "connected" },
      { name: "theirs", status: "disabled" },
    ]);
    await app.chain.dispatch({ type: "session.end", sessionId: "", reason: "exit" }).catch(() => undefined);
  });
});
