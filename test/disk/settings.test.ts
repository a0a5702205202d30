// A full disk at every small file deepcode replaces when a person answers or configures:
// trust.json (trusting a project), mcp-approvals.json (approving a server), a settings file
// (`deepcode plugin enable`), your MCP file (`deepcode mcp add`, the user scope), the credentials file (setup),
// the sandbox's journal. Each: the old file stays whole, no temporary file is left beside it,
// and the error names the file.
import { describe, expect, it, vi } from "vitest";
vi.mock("node:fs", async (orig) => (await import("../helpers/full-disk.js")).mockFs(await orig()));
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { disk } from "../helpers/full-disk.js";
import { TrustStore } from "../../src/cli/trust/store.js";
import { ApprovalStore } from "../../mods/mcp/approvals.js";
import { setEnabled } from "../../mods/marketplace/scope.js";
import { mcpSubcommand } from "../../mods/mcp/command.js";
import { saveApiKey } from "../../src/cli/credentials.js";
import { writeWholeSync } from "../../src/lib/whole-file.js";
import { scratch } from "./scratch.js";

const t = scratch();
/** Room for the lock file beside the store (a few dozen bytes), not for the store's new text. */
const ROOM_FOR_THE_LOCK = 120;

/** Runs `change` on a full disk and checks what a person would find afterwards. */
function onFullDisk(dir: string, file: string, before: string, change: () => unknown, left = ROOM_FOR_THE_LOCK): void {
  writeFileSync(file, before);
  disk.left = left;
  let error: unknown;
  try {
    change();
  } catch (err) {
    error = err;
  }
  disk.free();
  expect(String(error)).toContain(`could not write ${file}: no space left on device`);
  expect(readFileSync(file, "utf8")).toBe(before);
  expect(readdirSync(dir).filter((f) => f.includes(".tmp") || f.endsWith(".lock"))).toEqual([]);
}

const project = (n: number): string => `/projects/${"p".repeat(60)}-${n}`;

describe("settings and answers on a full disk", () => {
  it("trusting a project leaves trust.json as it was and names it", () => {
    const home = t.dir();
    const before = `${JSON.stringify({ version: 1, projects: { [project(0)]: { trusted: true, digest: "d0", at: "2026-01-01T00:00:00.000Z" } } }, null, 2)}\n`;
    onFullDisk(home, join(home, "trust.json"), before, () => new TrustStore(home).set(project(1), true, "d1"));
  });

  it("approving an MCP server leaves mcp-approvals.json as it was and names it", () => {
    const home = t.dir();
    const before = `${JSON.stringify({ version: 1, projects: { [project(0)]: { s: { allowed: true, digest: "d", at: "x" } } } }, null, 2)}\n`;
    onFullDisk(home, join(home, "mcp-approvals.json"), before, () => new ApprovalStore(home, t.dir()).set("server-with-a-long-name", "digest".repeat(10), true));
  });

  it("enabling a plugin leaves the settings file as it was and names it", () => {
    const dir = t.dir();
    const before = `${JSON.stringify({ model: "deepseek-chat", enabledPlugins: { "a@m": true } }, null, 2)}\n`;
    onFullDisk(dir, join(dir, "settings.json"), before, () => setEnabled(join(dir, "settings.json"), `${"b".repeat(80)}@market`, true));
  });

  it("adding an MCP server leaves your MCP file as it was and names it", async () => {
    const home = t.dir();
    const root = t.dir();
    const file = join(home, "mcp.json");
    const before = `${JSON.stringify({ mcpServers: { old: { command: "old-server" } } }, null, 2)}\n`;
    writeFileSync(file, before);
    const cmd = mcpSubcommand({ root, home, viaMod: async () => 0 });
    const said: string[] = [];
    const ctx = { out: (s: string) => said.push(s), err: (s: string) => said.push(s), signal: new AbortController().signal, confirm: async () => false } as never;
    disk.left = ROOM_FOR_THE_LOCK;
    const error = await Promise.resolve()
      .then(() => cmd.run(["add", "--scope", "user", "new-server", "--", "node", "server.js", "--a-long-argument"], ctx))
      .then(() => undefined, (err: unknown) => err);
    disk.free();
    expect(String(error), said.join("")).toContain(`could not write ${file}: no space left on device`);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(readdirSync(home).filter((f) => f.includes(".tmp") || f.endsWith(".lock"))).toEqual([]);
  });

  it("saving an API key keeps the keys the credentials file held, and names it", () => {
    const home = t.dir();
    const before = "OTHER_API_KEY=sk-other-0123456789\nDEEPSEEK_API_KEY=sk-old-0123456789\n";
    onFullDisk(home, join(home, "credentials"), before, () => saveApiKey(home, `sk-new-${"0123456789".repeat(8)}`));
  });

  it("a file replaced whole (the sandbox's journal, plugin state) is never left half-written", () => {
    const dir = t.dir();
    onFullDisk(dir, join(dir, "journal.json"), '{"old":true}', () => writeWholeSync(join(dir, "journal.json"), JSON.stringify({ guarded: "x".repeat(500) }), { mode: 0o600 }), 10);
  });
});
