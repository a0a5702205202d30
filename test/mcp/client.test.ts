// The client's lifecycle and lists against a server the test steers: a paginated tools/list is
// read to its end, an unknown protocol version is refused with a reason, an older one is spoken.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { McpClient } from "../../mods/mcp/client.js";
import { StdioTransport } from "../../mods/mcp/stdio.js";

const SERVER = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));
const open: McpClient[] = [];
let dir: string | undefined;
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function connect(env: Record<string, string>): Promise<McpClient> {
  const t = new StdioTransport({ command: process.execPath, args: [SERVER], env: { PATH: process.env.PATH ?? "", ...env }, cwd: process.cwd(), stderr: () => undefined });
  return McpClient.connect(t, { clientInfo: { name: "t", version: "0" }, handlers: {}, timeoutMs: 60_000, requestTimeoutMs: 60_000 }).then((c) => (open.push(c), c));
}

describe("the MCP client's handshake and lists", () => {
  it("reads a paginated tools/list to its end", async () => {
    dir = mkdtempSync(join(tmpdir(), "deepcode-mcp-pages-"));
    const file = join(dir, "tools.json");
    writeFileSync(file, JSON.stringify(Array.from({ length: 7 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: "object" } }))));
    const c = await connect({ TOOLS_FILE: file, PAGE: "3" });
    expect((await c.listTools()).map((t) => t.name)).toEqual(["t0", "t1", "t2", "t3", "t4", "t5", "t6"]);
  });

  it("speaks an older protocol version a server answers with", async () => {
    expect((await connect({ PROTOCOL: "2024-11-05" })).info.protocolVersion).toBe("2024-11-05");
  });

  it("refuses a protocol version it does not speak, naming both sides", async () => {
    await expect(connect({ PROTOCOL: "1999-01-01" })).rejects.toThrow(/the server speaks MCP protocol 1999-01-01; deepcode speaks 2025-11-25, 2025-06-18/);
  });
});
