// The mcp mod configures itself (no configuration computed by assembly): its servers come from
// what every plugin reads — the settings layers (api.settings), the run's flags and facts
// (api.host), workspace trust (api.trusted) — and the managed lists of those layers hold.
import { afterEach, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import mcp from "../../mods/mcp/index.js";
import { startHarness, type Harness } from "../helpers/harness.js";

const SERVER = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));
const node = { command: process.execPath, args: [SERVER] };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function mcpList(harness: Harness): Promise<string> {
  let out = "";
  await harness.commands.get("mcp")!.spec.run({ args: "list", sessionId: "", signal: new AbortController().signal, interactive: false, print: (t) => (out += t), submit: async () => undefined });
  await harness.chain.dispatch({ type: "session.end", sessionId: "", reason: "exit" }).catch(() => undefined);
  return out;
}

describe("the mcp mod's own configuration", () => {
  it("starts the person's settings server, and not an untrusted project's", async () => {
    h = await startHarness({
      script: { replies: [{ content: "ok" }] },
      mods: [mcp],
      trusted: false,
      settings: { user: { mcpServers: { mine: node } }, project: { mcpServers: { theirs: node } } },
    });
    const out = await mcpList(h);
    expect(out).toMatch(/● mine\s+connected · 1 tool/);
    expect(out).toMatch(/○ theirs\s+not started: the project is not trusted/);
  });

  it("reads --mcp-config from the run's flags, and a managed deny list from the settings layers", async () => {
    h = await startHarness({
      script: { replies: [{ content: "ok" }] },
      mods: [mcp],
      settings: { user: { mcpServers: { blocked: node } }, managed: { deniedMcpServers: [{ serverName: "blocked" }] } },
      facts: { flags: { planMode: false, mcpConfig: [JSON.stringify({ mcpServers: { flagged: node } })], strictMcpConfig: false } },
    });
    const out = await mcpList(h);
    expect(out).toMatch(/● flagged\s+connected · 1 tool/);
    expect(out).toMatch(/○ blocked\s+not started: the managed policy does not allow it: the deny list blocks it/);
  });
});
