// `deepcode acp` with MCP servers the editor brings in session/new and session/load: they are
// the session's servers, the person's own (no project approval), behind the permission gate.
import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServer } from "@agentclientprotocol/sdk";
import { acpRig, call, withAgent, type AcpRig } from "./helpers.js";
import { freePort } from "../helpers/free-port.js";

const SCRIPTED = fileURLToPath(new URL("../mcp/fixtures/scripted-server.mjs", import.meta.url));

const EVERYTHING = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));


let rig: AcpRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Req = { messages: Array<{ role: string; content: string | null }>; tools?: Array<{ function: { name: string } }> };
const requestsOf = (r: AcpRig): Req[] => r.sim.requests.filter((q) => q.path.endsWith("/chat/completions")).map((q) => q.json as Req);

describe("deepcode acp: the editor's MCP servers", () => {
  it("starts a stdio server the editor brings, offers its tools from the first request, and asks before a call", async () => {
    rig = await acpRig({ replies: [call("mcp__editor-echo__echo", { text: "from the editor's server" }), { content: "done" }] });
    const r = rig;
    const { result, editor } = await withAgent(r, async (ctx) => {
      const init = await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [{ name: "editor-echo", command: process.execPath, args: [SCRIPTED], env: [{ name: "PROTOCOL", value: "2025-06-18" }] }] });
      const p = await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "echo it" }] });
      return { init, p };
    });
    expect(result.init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
    expect(result.p.stopReason).toBe("end_turn");
    const [first, second] = requestsOf(r);
    expect(first.tools?.map((t) => t.function.name)).toContain("mcp__editor-echo__echo");
    // The gate asked the editor's person about the call (MCP tools ask), and no approval question came first.
    expect(editor.permissions.map((q) => q.toolCall.title)).toEqual([expect.stringContaining("mcp__editor-echo__echo")]);
    expect(second.messages.filter((m) => m.role === "tool").map((m) => m.content).join("\n")).toContain(`echo: {"text":"from the editor's server"}`);
  });

  it("starts the editor's servers again for session/load, and the loaded session calls them", async () => {
    rig = await acpRig({ replies: [call("mcp__editor-echo__echo", { text: "one" }), { content: "first" }, call("mcp__editor-echo__echo", { text: "two" }), { content: "second" }] });
    const r = rig;
    const server: McpServer = { name: "editor-echo", command: process.execPath, args: [SCRIPTED], env: [] };
    const { result } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [server] });
      await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "echo one" }] });
      // Loading a session that is open starts it again, with the servers the editor names now.
      await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      await ctx.request("session/load", { sessionId: s.sessionId, cwd: r.env.root, mcpServers: [server] });
      return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "echo two" }] });
    });
    expect(result.stopReason).toBe("end_turn");
    const last = requestsOf(r).at(-1)!;
    expect(last.messages.filter((m) => m.role === "tool").map((m) => m.content).join("\n")).toContain(`echo: {"text":"two"}`);
  });

  it("connects to an HTTP server the editor brings (mcpCapabilities.http)", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [EVERYTHING, "streamableHttp"], { env: { PATH: process.env.PATH ?? "", PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
    try {
      await new Promise<void>((resolve, reject) => {
        let err = "";
        const t = setTimeout(() => reject(new Error(`the everything server did not start: ${err}`)), 20_000);
        child.stderr!.on("data", (d: Buffer) => {
          err += d.toString();
          if (!/listening|running on port/i.test(err)) return;
          clearTimeout(t);
          resolve();
        });
      });
      rig = await acpRig({ replies: [call("mcp__ev__echo", { message: "over http" }), { content: "done" }] });
      const r = rig;
      const { result } = await withAgent(r, async (ctx) => {
        await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
        const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [{ type: "http", name: "ev", url: `http://127.0.0.1:${port}/mcp`, headers: [] }] });
        return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "echo over http" }] });
      });
      expect(result.stopReason).toBe("end_turn");
      const [first, second] = requestsOf(r);
      expect(first.tools?.map((t) => t.function.name)).toContain("mcp__ev__echo");
      expect(second.messages.filter((m) => m.role === "tool").map((m) => m.content).join("\n")).toContain("over http");
    } finally {
      child.kill();
    }
  });

  it("gives each session the servers it brought: another session's are neither offered nor callable, and stay up while it runs", async () => {
    rig = await acpRig({ replies: [{ content: "B here" }, call("mcp__a-echo__echo", { text: "still A's" }), { content: "A done" }, call("mcp__a-echo__echo", { text: "from B" }), { content: "B done" }] });
    const r = rig;
    const server = (name: string): McpServer => ({ name, command: process.execPath, args: [SCRIPTED], env: [] });
    const { result } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const a = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [server("a-echo")] });
      const b = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [server("b-echo")] });
      await ctx.request("session/prompt", { sessionId: b.sessionId, prompt: [{ type: "text", text: "hello B" }] });
      const ra = await ctx.request("session/prompt", { sessionId: a.sessionId, prompt: [{ type: "text", text: "echo in A" }] });
      const rb = await ctx.request("session/prompt", { sessionId: b.sessionId, prompt: [{ type: "text", text: "echo A's in B" }] });
      return { ra, rb };
    });
    expect([result.ra.stopReason, result.rb.stopReason]).toEqual(["end_turn", "end_turn"]);
    const [bFirst, aFirst, aAfter, , bAfter] = requestsOf(r);
    const names = (q: Req): string[] => q.tools?.map((t) => t.function.name) ?? [];
    expect(names(bFirst)).toContain("mcp__b-echo__echo");
    expect(names(bFirst)).not.toContain("mcp__a-echo__echo");
    expect(names(aFirst)).toContain("mcp__a-echo__echo");
    expect(names(aFirst)).not.toContain("mcp__b-echo__echo");
    const toolText = (q: Req): string => q.messages.filter((m) => m.role === "tool").map((m) => m.content).join("\n");
    expect(toolText(aAfter)).toContain(`echo: {"text":"still A's"}`);
    expect(toolText(bAfter)).toContain("is not this session's");
    expect(toolText(bAfter)).not.toContain("from B\"}");
  });

  it("refuses a server a deny list names, saying so, and goes on without it", async () => {
    rig = await acpRig({ replies: [{ content: "no tools" }] });
    const r = rig;
    writeFileSync(join(r.env.home, "settings.json"), JSON.stringify({ deniedMcpServers: [{ serverName: "blocked" }] }));
    const { editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [{ name: "blocked", command: process.execPath, args: [SCRIPTED], env: [] }] });
      return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "hi" }] });
    });
    expect(requestsOf(r)[0].tools?.map((t) => t.function.name) ?? []).not.toContain("mcp__blocked__echo");
    expect(editor.stderr()).toContain(`"blocked" does not start`);
  });
});
