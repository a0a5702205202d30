// Where MCP servers come from and whether they start: every source in Claude Code's format, the
// narrowest scope winning; ${VAR} expansion (never of an API key variable); a stdio server's
// minimal environment; workspace trust; enable/disable settings; the managed allow and deny lists
// that a person cannot loosen.
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSettings } from "../../src/cli/settings/load.js";
import { mcpModConfig } from "../../mods/mcp/configure/index.js";
import { settingsView } from "../../src/cli/settings/view.js";
import type { JsonValue } from "../../src/contract/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Setup {
  mcpJson?: object;
  userMcp?: object;
  user?: object;
  project?: object;
  managed?: object;
  env?: Record<string, string>;
  trusted?: boolean;
  mcpConfig?: string[];
  strict?: boolean;
}

function servers(s: Setup): Array<Record<string, JsonValue>> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-mcp-cfg-")));
  const home = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-mcp-cfgh-")));
  dirs.push(root, home);
  mkdirSync(join(root, ".deepcode"));
  if (s.mcpJson) writeFileSync(join(root, ".mcp.json"), JSON.stringify(s.mcpJson));
  if (s.userMcp) writeFileSync(join(home, "mcp.json"), JSON.stringify(typeof s.userMcp === "function" ? (s.userMcp as (r: string) => object)(root) : s.userMcp));
  if (s.user) writeFileSync(join(home, "settings.json"), JSON.stringify(s.user));
  if (s.project) writeFileSync(join(root, ".deepcode", "settings.json"), JSON.stringify(s.project));
  if (s.managed) writeFileSync(join(home, "managed.json"), JSON.stringify(s.managed));
  const settings = settingsView(loadSettings({ root, home, managedPath: join(home, "managed.json") }));
  const { config, problems } = mcpModConfig({ root, home, env: s.env ?? { PATH: "/usr/bin", HOME: "/home/x" }, settings, trusted: s.trusted ?? true, mcpConfig: s.mcpConfig, strict: s.strict, secretEnv: ["DEEPSEEK_API_KEY", "ANTHROPIC_API_KEY"], additionalDirectories: [], logDir: home, version: "0" });
  lastProblems = problems;
  return config.servers as Array<Record<string, JsonValue>>;
}
/** What the last `servers` call said was wrong. */
let lastProblems: string[] = [];

const one = (s: Setup) => servers(s)[0];

describe("MCP server configuration", () => {
  it("decides what becomes of a server's forms where nobody can answer: its entry's elicitation, else mcpElicitation; the managed policy's is final; a bad value is named", () => {
    const entry = (extra: object = {}) => ({ mcpServers: { a: { command: "x", ...extra } } });
    expect(one({ userMcp: entry() }).elicitation).toBe("ask");
    expect(one({ userMcp: entry({ elicitation: "defaults" }) }).elicitation).toBe("defaults");
    expect(one({ userMcp: entry(), user: { mcpElicitation: "defaults" } }).elicitation).toBe("defaults");
    expect(one({ userMcp: entry({ elicitation: "ask" }), user: { mcpElicitation: "defaults" } }).elicitation).toBe("ask");
    expect(one({ userMcp: entry({ elicitation: "defaults" }), managed: { mcpElicitation: "ask" } }).elicitation).toBe("ask");
    expect(one({ userMcp: entry({ elicitation: "yes" }) }).elicitation).toBe("ask");
    expect(lastProblems).toEqual([expect.stringMatching(/^MCP server a \(.*mcp\.json\): "elicitation" must be "ask" or "defaults", not "yes"/)]);
  });

  it("reads .mcp.json in Claude Code's shape: stdio, http and sse servers", () => {
    const list = servers({ mcpJson: { mcpServers: { a: { command: "npx", args: ["-y", "x"] }, b: { type: "http", url: "https://h.example/mcp" }, c: { type: "sse", url: "https://h.example/sse" } } } });
    expect(list.map((s) => [s.name, s.transport, s.scope, s.approval])).toEqual([
      ["a", "stdio", "project", "ask"],
      ["b", "http", "project", "ask"],
      ["c", "sse", "project", "ask"],
    ]);
  });

  it("expands ${VAR} and ${VAR:-default} in command, args, env, url and headers", () => {
    const s = one({
      env: { PATH: "/bin", TOKEN: "t0k", BIN: "/opt/tool" },
      mcpJson: { mcpServers: { a: { command: "${BIN}/run", args: ["--port", "${PORT:-8080}"], env: { T: "${TOKEN}" } } } },
    });
    expect([s.command, s.args, (s.env as Record<string, string>).T]).toEqual(["/opt/tool/run", ["--port", "8080"], "t0k"]);
    const h = one({ env: { TOKEN: "abc", HOST: "h.example" }, mcpJson: { mcpServers: { b: { type: "http", url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } } } } });
    expect([h.url, (h.headers as Record<string, string>).Authorization]).toEqual(["https://h.example/mcp", "Bearer abc"]);
  });

  it("never expands an API key variable, and does not start a server that names one", () => {
    const s = one({ env: { DEEPSEEK_API_KEY: "sk-secret" }, mcpJson: { mcpServers: { a: { command: "x", env: { K: "${DEEPSEEK_API_KEY}" } } } } });
    expect(JSON.stringify(s)).not.toContain("sk-secret");
    expect(s.start).toBe(false);
    expect(s.why).toMatch(/never hands its API key/);
  });

  it("does not start a server whose variable is not set and has no default", () => {
    const s = one({ mcpJson: { mcpServers: { a: { command: "x", args: ["${NOPE}"] } } } });
    expect([s.start, s.why]).toEqual([false, "${NOPE} is not set in the environment (and has no :-default)"]);
  });

  it("gives a stdio server its own env plus a minimal inherited set, never deepcode's key", () => {
    const s = one({ env: { PATH: "/bin", HOME: "/h", LANG: "C.UTF-8", LC_ALL: "C", HTTPS_PROXY: "http://p:1", DEEPSEEK_API_KEY: "sk-secret", AWS_SECRET_ACCESS_KEY: "aws", RANDOM_THING: "r" }, mcpJson: { mcpServers: { a: { command: "x", env: { OWN: "1" } } } } });
    expect(s.env).toEqual({ PATH: "/bin", HOME: "/h", LANG: "C.UTF-8", LC_ALL: "C", HTTPS_PROXY: "http://p:1", OWN: "1" });
  });

  it("starts nothing from .mcp.json in an untrusted project, and says why", () => {
    const s = one({ trusted: false, mcpJson: { mcpServers: { a: { command: "x" } } } });
    expect([s.start, s.why]).toEqual([false, expect.stringMatching(/not trusted/)]);
  });

  it("approves project servers by enabledMcpjsonServers or enableAllProjectMcpServers, and skips disabledMcpjsonServers", () => {
    const mcpJson = { mcpServers: { a: { command: "x" }, b: { command: "y" }, c: { command: "z" } } };
    const list = servers({ mcpJson, user: { enabledMcpjsonServers: ["a"], disabledMcpjsonServers: ["c"] } });
    expect(list.map((s) => [s.name, s.start, s.approval])).toEqual([
      ["a", true, "settings"],
      ["b", true, "ask"],
      ["c", false, "none"],
    ]);
    expect(servers({ mcpJson, user: { enableAllProjectMcpServers: true } }).every((s) => s.approval === "settings")).toBe(true);
  });

  it("lets the narrowest scope win: flag over local over project over user", () => {
    const list = servers({
      mcpJson: { mcpServers: { same: { command: "project" } } },
      userMcp: { mcpServers: { same: { command: "user" }, mine: { command: "u" } } },
      mcpConfig: [JSON.stringify({ mcpServers: { same: { command: "flag" } } })],
    });
    expect(list.map((s) => [s.name, s.command, s.scope])).toEqual([
      ["mine", "u", "user"],
      ["same", "flag", "flag"],
    ]);
  });

  it("uses only --mcp-config servers with --strict-mcp-config", () => {
    const list = servers({ mcpJson: { mcpServers: { p: { command: "x" } } }, userMcp: { mcpServers: { u: { command: "y" } } }, mcpConfig: [JSON.stringify({ mcpServers: { f: { command: "z" } } })], strict: true });
    expect(list.map((s) => s.name)).toEqual(["f"]);
  });

  it("blocks what the managed deny list names, by name, exact command or URL pattern", () => {
    const managed = { deniedMcpServers: [{ serverName: "bad" }, { serverCommand: ["npx", "-y", "evil"] }, { serverUrl: "https://*.untrusted.example/*" }] };
    const list = servers({ managed, userMcp: { mcpServers: { bad: { command: "ok" }, cmd: { command: "npx", args: ["-y", "evil"] }, cmd2: { command: "npx", args: ["-y", "evil", "--x"] }, web: { type: "http", url: "https://a.untrusted.example/mcp" } } } });
    expect(list.map((s) => [s.name, s.start])).toEqual([
      ["bad", false],
      ["cmd", false],
      ["cmd2", true],
      ["web", false],
    ]);
  });

  it("holds the managed allowlist: commands for stdio, URLs for remote servers; a person's own allowlist cannot add to it", () => {
    const managed = { allowedMcpServers: [{ serverCommand: ["npx", "good"] }, { serverUrl: "https://mcp.corp.example/*" }, { serverName: "named" }] };
    const userMcp = { mcpServers: { good: { command: "npx", args: ["good"] }, named: { command: "npx", args: ["named"] }, other: { command: "npx", args: ["other"] }, corp: { type: "http", url: "https://mcp.corp.example/x" } } };
    expect(servers({ managed, userMcp }).map((s) => [s.name, s.start])).toEqual([
      ["corp", true],
      ["good", true],
      ["named", false], // a stdio server must match a serverCommand entry once the list has any
      ["other", false],
    ]);
    const mine = servers({ managed, userMcp, user: { allowedMcpServers: [{ serverCommand: ["npx", "other"] }, { serverCommand: ["npx", "good"] }] } });
    expect(mine.map((s) => [s.name, s.start])).toEqual([
      ["corp", false], // the person's list narrows: it names no URL, so corp must match by name
      ["good", true],
      ["named", false],
      ["other", false], // on the person's list, not on the administrator's: still blocked
    ]);
    expect(mine.find((s) => s.name === "other")!.why).toMatch(/allowedMcpServers in .*managed\.json/);
  });

  it("starts nothing when the managed deny list cannot be read (fail closed)", () => {
    const s = one({ managed: { deniedMcpServers: [{ serverName: "x", serverUrl: "y" }] }, userMcp: { mcpServers: { a: { command: "x" } } } });
    expect([s.start, s.why]).toEqual([false, expect.stringMatching(/deniedMcpServers cannot be read/)]);
  });

  it("reads local-scope servers of this project from ~/.deepcode/mcp.json", () => {
    const list = servers({ userMcp: ((root: string) => ({ projects: { [root]: { mcpServers: { here: { command: "x" } } }, "/elsewhere": { mcpServers: { there: { command: "y" } } } } })) as unknown as object });
    expect(list.map((s) => [s.name, s.scope, s.approval])).toEqual([["here", "local", "none"]]);
  });
});
