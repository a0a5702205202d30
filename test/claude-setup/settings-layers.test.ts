// A Claude Code user's own settings files, read by the real CLI as the layers they are in
// Claude Code: ~/.claude/settings.json (user), .claude/settings.json (project),
// .claude/settings.local.json (local), and the MCP servers Claude Code keeps in ~/.claude.json.
// The fixtures are written in exactly the shapes Claude Code writes them.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Simulator } from "../sim/server.mjs";
import { API_KEY, CLI_HOOK_TIMEOUT_MS, REPO, bashCall, makeBox, runCli, startSim, toolResults, writeJson, type Box } from "../permissions-e2e/helpers.js";
import { EVERYTHING } from "../mcp/helpers.js";
import { loadSettings } from "../../src/cli/settings/load.js";
import { configuredServers } from "../../mods/mcp/configure/sources.js";

let box: Box;
let sim: Simulator | undefined;

beforeEach(() => {
  box = makeBox();
  // deepcode's own user settings: the sandbox's auto-allow off, so Bash asks as the rules say.
  writeJson(join(box.deepcodeHome, "settings.json"), { sandbox: { autoAllowBashIfSandboxed: false } });
});

afterEach(async () => {
  await sim?.close();
  sim = undefined;
  box.cleanup();
});

const userClaude = (b: Box): string => join(b.home, ".claude", "settings.json");
const projectClaude = (b: Box): string => join(b.root, ".claude", "settings.json");
const localClaude = (b: Box): string => join(b.root, ".claude", "settings.local.json");

/** `deepcode <args>` (a subcommand) in the project. */
function sub(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO, "bin", "deepcode.js"), ...args], {
      cwd: box.root,
      env: { PATH: process.env.PATH, HOME: box.home, DEEPCODE_HOME: box.deepcodeHome, DEEPSEEK_API_KEY: API_KEY, NO_COLOR: "1", MCP_TIMEOUT: "20000" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("~/.claude/settings.json (the person's Claude Code settings)", () => {
  it("applies its allow rules and runs its hooks in -p, where Bash would otherwise be denied", async () => {
    writeJson(userClaude(box), {
      $schema: "https://json.schemastore.org/claude-code-settings.json",
      permissions: { allow: ["Bash(touch made-by-allow.txt)"], deny: [] },
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "touch claude-hook-ran" }] }] },
    });
    sim = await startSim({ replies: [{ tool_calls: [bashCall("call_touch", "touch made-by-allow.txt")] }, { content: "done" }] });
    const r = await runCli({ box, sim, prompt: "make the file" });
    expect(r.code).toBe(0);
    expect(existsSync(join(box.root, "made-by-allow.txt"))).toBe(true);
    expect(existsSync(join(box.root, "claude-hook-ran"))).toBe(true); // (in the project: hooks run in the sandbox)
  }, CLI_HOOK_TIMEOUT_MS);

  it("keeps Claude Code's own keys (model, env, statusLine, apiKeyHelper…) out quietly: no warning, and no Claude model reaches the API", async () => {
    writeJson(userClaude(box), {
      model: "opus",
      env: { ANTHROPIC_MODEL: "claude-opus-4", BASH_DEFAULT_TIMEOUT_MS: "1000" },
      statusLine: { type: "command", command: "echo hi" },
      apiKeyHelper: "/bin/echo sk-nothing",
      spinnerTipsEnabled: false,
      feedbackSurveyState: { lastShownTime: 1 },
      permissions: { allow: ["Read"] },
    });
    sim = await startSim({ replies: [{ content: "hello" }] });
    const r = await runCli({ box, sim, prompt: "hi" });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/unknown setting|Claude Code setting|opus|statusLine|apiKeyHelper/);
    for (const req of sim.requests) expect(String((req.json as { model?: unknown } | undefined)?.model)).not.toMatch(/opus|claude/);
  }, CLI_HOOK_TIMEOUT_MS);
});

describe(".claude/settings.json in a project nobody trusted", () => {
  it("applies its deny rules over the person's allow, and leaves out its allow rules and hooks, naming them", async () => {
    writeJson(join(box.deepcodeHome, "settings.json"), { sandbox: { autoAllowBashIfSandboxed: false }, permissions: { allow: ["Bash(rm kept-by-deny.txt)"] } });
    writeJson(projectClaude(box), {
      permissions: { allow: ["Bash(rm victim.txt)"], deny: ["Bash(rm kept-by-deny.txt)"] },
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: `touch '${join(box.outside, "project-hook-ran")}'` }] }] },
    });
    writeFileSync(join(box.root, "victim.txt"), "mine\n");
    writeFileSync(join(box.root, "kept-by-deny.txt"), "mine\n");
    sim = await startSim({ replies: [{ tool_calls: [bashCall("call_rm", "rm victim.txt"), bashCall("call_rm_denied", "rm kept-by-deny.txt")] }, { content: "done" }] });
    const r = await runCli({ box, sim, prompt: "clean up", untrusted: true });
    expect(existsSync(join(box.root, "kept-by-deny.txt"))).toBe(true);
    expect(toolResults(sim).get("call_rm_denied")).toMatch(/Bash\(rm kept-by-deny\.txt\)/);
    expect(existsSync(join(box.root, "victim.txt"))).toBe(true);
    expect(existsSync(join(box.outside, "project-hook-ran"))).toBe(false);
    expect(r.stderr).toMatch(/not trusted, so deepcode ignored: .*allow rule Bash\(rm victim\.txt\) {2}\(\.claude\/settings\.json\)/s);
  }, CLI_HOOK_TIMEOUT_MS);

  it("applies its allow rules and the local file's once the project is trusted", async () => {
    writeJson(projectClaude(box), { permissions: { allow: ["Bash(touch from-project.txt)"] } });
    writeJson(localClaude(box), { permissions: { allow: ["Bash(touch from-local.txt)"] } });
    sim = await startSim({ replies: [{ tool_calls: [bashCall("c1", "touch from-project.txt"), bashCall("c2", "touch from-local.txt")] }, { content: "done" }] });
    const r = await runCli({ box, sim, prompt: "make both" });
    expect(r.code).toBe(0);
    expect(existsSync(join(box.root, "from-project.txt"))).toBe(true);
    expect(existsSync(join(box.root, "from-local.txt"))).toBe(true);
  }, CLI_HOOK_TIMEOUT_MS);
});

describe("a malformed Claude Code file", () => {
  it("is named with its line and column, and everything else still loads", async () => {
    writeJson(userClaude(box), { permissions: { allow: ["Bash(touch still-allowed.txt)"] } });
    mkdirSync(join(box.root, ".claude"), { recursive: true });
    writeFileSync(localClaude(box), '{\n  "permissions": {\n    "allow": ["Bash(ls)",]\n  }\n}\n');
    sim = await startSim({ replies: [{ tool_calls: [bashCall("c1", "touch still-allowed.txt")] }, { content: "done" }] });
    const r = await runCli({ box, sim, prompt: "touch it" });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${localClaude(box)}:3:`);
    expect(r.stderr).toMatch(/Claude Code's settings file: left out/);
    expect(existsSync(join(box.root, "still-allowed.txt"))).toBe(true);
  }, CLI_HOOK_TIMEOUT_MS);
});

describe("deepcode permissions", () => {
  it("names the Claude Code file and line each rule came from, defaultMode acceptEdits included", async () => {
    mkdirSync(join(box.home, ".claude"), { recursive: true });
    writeFileSync(userClaude(box), '{\n  "permissions": {\n    "deny": ["Read(./.env)"]\n  }\n}\n');
    mkdirSync(join(box.root, ".claude"), { recursive: true });
    writeFileSync(projectClaude(box), '{\n  "permissions": {\n    "defaultMode": "acceptEdits",\n    "ask": ["Bash(git push:*)"]\n  }\n}\n');
    const r = await sub(["--trust-project", "permissions"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`deny\\s+Read\\(\\./\\.env\\)\\s+user\\s+${userClaude(box)}:3`));
    expect(r.stdout).toMatch(new RegExp(`ask\\s+Bash\\(git push:\\*\\)\\s+project\\s+${projectClaude(box)}:4`));
    expect(r.stdout).toMatch(new RegExp(`allow\\s+Edit\\(/\\*\\*\\)\\s+project\\s+${projectClaude(box)}:3`));
  }, CLI_HOOK_TIMEOUT_MS);
});

describe("precedence at one scope", () => {
  it("gives deepcode's own file the last word over Claude Code's for a key both set", () => {
    writeJson(userClaude(box), { enabledPlugins: { "linter@market": false } });
    writeJson(projectClaude(box), { enabledPlugins: { "formatter@market": true, "linter@market": true } });
    writeJson(join(box.root, ".deepcode", "settings.json"), { enabledPlugins: { "formatter@market": false } });
    const s = loadSettings({ root: box.root, home: box.deepcodeHome, userHome: box.home, managedPath: join(box.base, "no-managed.json") });
    expect(s.merged.enabledPlugins).toEqual({ "formatter@market": false, "linter@market": true });
    expect(s.layers.map((l) => `${l.name} ${l.file.replace(box.base, "")}`).slice(0, 4)).toEqual([
      "user /home/.claude/settings.json",
      "user /deepcode-home/settings.json",
      "project /box/ws/.claude/settings.json",
      "project /box/ws/.deepcode/settings.json",
    ]);
  });
});

describe("a Claude Code key of the wrong type", () => {
  it("is named with its line and left out, and the rest of that file applies (its disableAllHooks too)", () => {
    mkdirSync(join(box.root, ".claude"), { recursive: true });
    writeFileSync(projectClaude(box), '{\n  "permissions": {\n    "allow": "Bash",\n    "deny": ["Bash(rm:*)"]\n  },\n  "disableAllHooks": true,\n  "hooks": { "Stop": [{ "hooks": [{ "type": "command", "command": "true" }] }] }\n}\n');
    const s = loadSettings({ root: box.root, home: box.deepcodeHome, userHome: box.home, managedPath: join(box.base, "no-managed.json") });
    expect(s.warnings.join("\n")).toContain(`${projectClaude(box)}:3:`);
    expect(s.warnings.join("\n")).toMatch(/'permissions\.allow' must be an array of strings.*left out; the rest of this Claude Code file applies/);
    expect(s.rules.map((r) => `${r.kind} ${r.text} ${r.line}`)).toEqual(["deny Bash(rm:*) 4"]);
    expect(s.merged.hooks).toBeUndefined(); // the file's own disableAllHooks
    expect(s.warnings.join("\n")).not.toContain("disableAllHooks");
  });
});

describe("~/.claude.json (Claude Code's MCP servers)", () => {
  it("gives the person's top-level servers the user scope, after ~/.deepcode/mcp.json's of the same name", () => {
    writeJson(join(box.home, ".claude.json"), { mcpServers: { shared: { command: "claude-one" }, mine: { type: "http", url: "http://127.0.0.1:9/mcp" } } });
    writeJson(join(box.deepcodeHome, "mcp.json"), { mcpServers: { shared: { command: "deepcode-one" } } });
    const settings = loadSettings({ root: box.root, home: box.deepcodeHome, userHome: box.home, managedPath: join(box.base, "no-managed.json") });
    const { servers, problems } = configuredServers({ root: box.root, home: box.deepcodeHome, userHome: box.home, settings });
    expect(problems).toEqual([]);
    expect(servers.map((c) => `${c.name} ${c.scope} ${c.file.replace(box.base, "")} ${JSON.stringify(c.raw)}`)).toEqual([
      `mine user /home/.claude.json {"type":"http","url":"http://127.0.0.1:9/mcp"}`,
      `shared user /deepcode-home/mcp.json {"command":"deepcode-one"}`,
    ]);
  });

  it("names a ~/.claude.json that does not parse, and leaves only its servers out", () => {
    writeFileSync(join(box.home, ".claude.json"), '{ "mcpServers": { "x": } }');
    writeJson(join(box.deepcodeHome, "mcp.json"), { mcpServers: { kept: { command: "kept" } } });
    const settings = loadSettings({ root: box.root, home: box.deepcodeHome, userHome: box.home, managedPath: join(box.base, "no-managed.json") });
    const { servers, problems } = configuredServers({ root: box.root, home: box.deepcodeHome, userHome: box.home, settings });
    expect(servers.map((c) => c.name)).toEqual(["kept"]);
    expect(problems.join("\n")).toMatch(new RegExp(`${join(box.home, ".claude.json")}:1:\\d+: .*Claude Code's file: its MCP servers are left out`));
  });

  it("starts the person's server kept for this project under projects[<path>].mcpServers", async () => {
    writeJson(join(box.home, ".claude.json"), {
      numStartups: 12,
      projects: { [box.root]: { allowedTools: [], mcpServers: { everything: { type: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"], env: {} } } } },
    });
    const list = await sub(["mcp", "list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/● everything\s+connected .*· local: /);
    const get = await sub(["mcp", "get", "everything"]);
    expect(get.stdout).toContain(join(box.home, ".claude.json"));
  }, CLI_HOOK_TIMEOUT_MS);
});
