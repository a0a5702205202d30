import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Script, type Simulator } from "../sim/server.mjs";
import { cliEnv, type CliEnv } from "../helpers/cli-env.js";
import { chatBodies } from "../helpers/extension.js";
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { copyFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { processesRunning } from "../helpers/processes.js";
import { deepcode, everythingStdio, EVERYTHING, FILESYSTEM, mcpJson, toolResults } from "./helpers.js";

let sim: Simulator | undefined;
let env: CliEnv | undefined;
afterEach(async () => {
  await sim?.close();
  env?.cleanup();
  sim = undefined;
  env = undefined;
});

async function setup(script: Script, files: Record<string, string>): Promise<CliEnv> {
  sim = await startSimulator({ script, apiKey: "sk-test-cli" });
  env = cliEnv(sim.url, files);
  return env;
}

const call = (name: string, args: object) => ({ tool_calls: [{ name, arguments: args }] });

describe("deepcode -p with a Claude Code .mcp.json (the real everything server over stdio)", () => {
  it("offers the server's tools in the first request's prefix and runs a call an allow rule permits", async () => {
    const e = await setup(
      { replies: [call("mcp__everything__echo", { message: "hello from the model" }), { content: "The server echoed it." }] },
      {
        ".mcp.json": mcpJson({ everything: everythingStdio() }),
        ".deepcode/settings.json": JSON.stringify({ enableAllProjectMcpServers: true, permissions: { allow: ["mcp__everything__echo"] } }),
      },
    );
    const r = await deepcode(e, ["-p", "--trust-project", "echo something"]);
    expect(r.stderr).not.toMatch(/still connecting/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("The server echoed it.");
    const bodies = chatBodies(sim!.requests);
    const names = (bodies[0].tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(names).toContain("mcp__everything__echo");
    expect(names).toContain("mcp__everything__get-sum");
    expect(toolResults(bodies)).toEqual([expect.stringContaining("hello from the model")]);
  });

  it("denies an MCP tool by default in -p (MCP tools ask, and nobody can answer), even one the server calls read-only", async () => {
    const e = await setup(
      { replies: [call("mcp__everything__get-sum", { a: 1, b: 2 }), { content: "denied, as expected" }] },
      { ".mcp.json": mcpJson({ everything: everythingStdio() }), ".deepcode/settings.json": JSON.stringify({ enableAllProjectMcpServers: true }) },
    );
    const r = await deepcode(e, ["-p", "--trust-project", "add"]);
    expect(r.code).toBe(0);
    expect(toolResults(chatBodies(sim!.requests))).toEqual([expect.stringMatching(/Permission denied for mcp__everything__get-sum/)]);
  });

  it("does not start the servers of an untrusted project, and says why", async () => {
    const e = await setup({ default: { content: "no tools" } }, { ".mcp.json": mcpJson({ everything: everythingStdio() }) });
    const r = await deepcode(e, ["-p", "hi"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/not trusted/);
    const names = (chatBodies(sim!.requests)[0].tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(names.filter((n) => n.startsWith("mcp__"))).toEqual([]);
  });

  it("leaves a project server that needs approval unstarted in -p and says how to approve it", async () => {
    const e = await setup({ default: { content: "ok" } }, { ".mcp.json": mcpJson({ everything: everythingStdio() }) });
    const r = await deepcode(e, ["-p", "--trust-project", "--output-format", "stream-json", "hi"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/MCP server everything \(from \.mcp\.json\) was not started: nobody can approve it here/);
    const names = (chatBodies(sim!.requests)[0].tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(names.some((n) => n.startsWith("mcp__"))).toBe(false);
  });

  it("lets a Claude Code PreToolUse hook matching mcp__everything__.* see and deny the call", async () => {
    const hooks = { PreToolUse: [{ matcher: "mcp__everything__.*", hooks: [{ type: "command", command: "echo 'no MCP calls today' >&2; exit 2" }] }] };
    const e = await setup(
      { replies: [call("mcp__everything__echo", { message: "hi" }), { content: "the hook said no" }] },
      { ".mcp.json": mcpJson({ everything: everythingStdio() }), ".deepcode/settings.json": JSON.stringify({ enableAllProjectMcpServers: true, hooks, permissions: { allow: ["mcp__everything"] } }) },
    );
    const r = await deepcode(e, ["-p", "--trust-project", "echo"]);
    expect(r.code).toBe(0);
    expect(toolResults(chatBodies(sim!.requests))[0]).toMatch(/Permission denied for mcp__everything__echo: no MCP calls today/);
  });

  it("ends a stdio server's process with the session, and keeps its stderr in a 0600 log beside the transcript", async () => {
    const e = await setup({ default: { content: "ok" } }, {});
    // A copy of its own, so no other test's server is mistaken for this one (the pid it prints
    // is its sandbox's, when the sandbox is active: the host's processes are looked through).
    const server = join(e.home, "scripted-server.mjs");
    copyFileSync(fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url)), server);
    const r = await deepcode(e, ["-p", "hi", "--mcp-config", JSON.stringify({ mcpServers: { s: { command: process.execPath, args: [server] } } })]);
    expect(r.code).toBe(0);
    const dir = join(e.home, "sessions", readdirSync(join(e.home, "sessions"))[0]);
    const log = readdirSync(dir).find((f) => f.endsWith(".mcp.log"))!;
    expect(statSync(join(dir, log)).mode & 0o777).toBe(0o600);
    const text = readFileSync(join(dir, log), "utf8");
    expect(text).toMatch(/scripted server \d+ up/);
    expect(processesRunning(server)).toEqual([]); // gone
  });

  it("leaves no MCP log beside the transcript of a session without MCP servers", async () => {
    const e = await setup({ default: { content: "ok" } }, {});
    const r = await deepcode(e, ["-p", "hi"]);
    expect(r.code).toBe(0);
    const dir = join(e.home, "sessions", readdirSync(join(e.home, "sessions"))[0]);
    expect(readdirSync(dir).filter((f) => f.endsWith(".jsonl"))).toHaveLength(1);
    expect(readdirSync(dir).filter((f) => f.endsWith(".mcp.log"))).toEqual([]);
  });

  it("never hands deepcode's API key to a server (the everything server's get-env shows its whole environment)", async () => {
    const e = await setup(
      { replies: [call("mcp__everything__get-env", {}), { content: "done" }] },
      { ".mcp.json": mcpJson({ everything: everythingStdio() }), ".deepcode/settings.json": JSON.stringify({ enableAllProjectMcpServers: true, permissions: { allow: ["mcp__everything__get-env"] } }) },
    );
    const r = await deepcode(e, ["-p", "--trust-project", "env"], { extraEnv: { ANTHROPIC_API_KEY: "sk-ant-secret", SOME_OTHER_SECRET: "s3cret" } });
    expect(r.code).toBe(0);
    const [env] = toolResults(chatBodies(sim!.requests));
    expect(env).toMatch(/"PATH"/);
    expect(env).not.toContain("sk-test-cli");
    expect(env).not.toContain("sk-ant-secret");
    expect(env).not.toContain("s3cret");
  });
});

describe("deepcode -p with the real filesystem server", () => {
  it("lists the project through the server, which is given the project as its root", async () => {
    const e = await setup(
      { replies: [call("mcp__fs__list_allowed_directories", {}), call("mcp__fs__read_text_file", { path: "notes.txt" }), { content: "read it" }] },
      {
        "notes.txt": "the filesystem server read this\n",
        ".mcp.json": mcpJson({ fs: { command: process.execPath, args: [FILESYSTEM] } }),
        ".deepcode/settings.json": JSON.stringify({ enabledMcpjsonServers: ["fs"], permissions: { allow: ["mcp__fs__*"] } }),
      },
    );
    const r = await deepcode(e, ["-p", "--trust-project", "read notes"]);
    expect(r.code).toBe(0);
    const results = toolResults(chatBodies(sim!.requests));
    expect(results[0]).toContain(e.root);
    expect(results[1]).toContain("the filesystem server read this");
  });
});

describe("deepcode -p with a remote server and the client features", () => {
  let server: ChildProcess | undefined;
  afterEach(() => {
    server?.kill();
    server = undefined;
  });

  it("reaches a Streamable HTTP server (the everything server on 127.0.0.1) and calls its tool", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    server = spawn(process.execPath, [EVERYTHING, "streamableHttp"], { env: { PATH: process.env.PATH ?? "", PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
    await new Promise<void>((resolve) => server!.stderr!.on("data", (d: Buffer) => /listening/i.test(d.toString()) && resolve()));
    const e = await setup(
      { replies: [call("mcp__web__get-sum", { a: 20, b: 22 }), { content: "summed" }] },
      { ".mcp.json": mcpJson({ web: { type: "http", url: `http://127.0.0.1:${port}/mcp` } }), ".deepcode/settings.json": JSON.stringify({ enableAllProjectMcpServers: true, permissions: { allow: ["mcp__web"] } }) },
    );
    const r = await deepcode(e, ["-p", "--trust-project", "sum"]);
    expect(r.code).toBe(0);
    expect(toolResults(chatBodies(sim!.requests))[0]).toMatch(/42/);
  });

  it("answers a server's sampling request with the session's model when settings allow it, and records what it cost", async () => {
    const e = await setup(
      { replies: [call("mcp__everything__trigger-sampling-request", { prompt: "Name a colour", maxTokens: 20 }), { content: "a colour from the model" }, { content: "the model sampled" }] },
      { ".mcp.json": mcpJson({ everything: everythingStdio() }), ".deepcode/settings.json": JSON.stringify({ enableAllProjectMcpServers: true, mcpSampling: "allow", permissions: { allow: ["mcp__everything"] } }) },
    );
    const r = await deepcode(e, ["-p", "--trust-project", "sample"]);
    expect(r.code).toBe(0);
    const bodies = chatBodies(sim!.requests);
    expect(bodies).toHaveLength(3);
    expect(JSON.stringify(bodies[1].messages)).toContain("Name a colour");
    expect(toolResults([bodies[2]])[0]).toContain("a colour from the model");
    const ledger = readFileSync(join(e.home, "usage.jsonl"), "utf8").trim().split("\n");
    expect(ledger).toHaveLength(3);
  });

  it("declines a server's sampling request and elicitation form in -p by default", async () => {
    const e = await setup(
      { replies: [call("mcp__everything__trigger-sampling-request", { prompt: "x" }), call("mcp__everything__trigger-elicitation-request", {}), { content: "both declined" }] },
      { ".mcp.json": mcpJson({ everything: everythingStdio() }), ".deepcode/settings.json": JSON.stringify({ enableAllProjectMcpServers: true, permissions: { allow: ["mcp__everything"] } }) },
    );
    const r = await deepcode(e, ["-p", "--trust-project", "ask me"]);
    expect(r.code).toBe(0);
    const [sampling, elicitation] = toolResults(chatBodies(sim!.requests));
    expect(sampling).toMatch(/nobody can approve sampling here/);
    expect(elicitation).toMatch(/decline/);
    // No sampling request reached the model: every request was one of the turn's (with tools).
    expect(chatBodies(sim!.requests).every((b) => Array.isArray(b.tools) && b.tools.length > 0)).toBe(true);
  });
});

