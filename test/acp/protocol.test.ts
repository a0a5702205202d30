// `deepcode acp`'s answers at the edges: a message that is no request, an empty prompt, `/rewind`
// without arguments, the task list of a loaded session, the MCP prompts in the command list.
import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { acpRig, call, chunks, withAgent, type AcpRig } from "./helpers.js";
import { BIN } from "../helpers/cli-env.js";

const EVERYTHING = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));

let rig: AcpRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const chatCount = (r: AcpRig): number => r.sim.requests.filter((q) => q.path.endsWith("/chat/completions")).length;

describe("deepcode acp: answers at the edges", () => {
  it("answers a message with an id and no method with -32600 Invalid Request, and goes on serving", async () => {
    rig = await acpRig({ replies: [] });
    const child = spawn(process.execPath, [BIN, "acp"], { cwd: rig.env.root, env: rig.env.env });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async (): Promise<Record<string, unknown>> => JSON.parse(String((await lines.next()).value)) as Record<string, unknown>;
    try {
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 7 })}\n`);
      const bad = await next();
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 8, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } })}\n`);
      const good = await next();
      expect(bad).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32600 } });
      expect(good).toMatchObject({ id: 8, result: { protocolVersion: 1 } });
    } finally {
      child.stdin.end();
      child.kill();
    }
  });

  it("answers an empty prompt itself, saying nothing was sent, without a billed request", async () => {
    rig = await acpRig({ replies: [{ content: "should not be asked" }] });
    const r = rig;
    const { result, editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      const blank = await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "  \n " }] });
      const none = await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [] });
      return [blank, none];
    });
    expect(result.map((p) => p.stopReason)).toEqual(["end_turn", "end_turn"]);
    expect(chunks(editor, "agent_message_chunk")).toContain("the prompt is empty: nothing was sent to the model");
    expect(chatCount(r)).toBe(0);
  });

  it("lists the turns for `/rewind` without arguments, as the REPL does, and rewinds with a number", async () => {
    rig = await acpRig({ replies: [{ content: "first answer" }, { content: "second answer" }, { content: "after the rewind" }] });
    const r = rig;
    const { result, editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "first question" }] });
      await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "second question" }] });
      const list = await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "/rewind" }] });
      const back = await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "/rewind 1 conversation" }] });
      await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "third question" }] });
      return { list, back };
    });
    expect(result.list.stopReason).toBe("end_turn");
    expect(result.back.stopReason).toBe("end_turn");
    const shown = chunks(editor, "agent_message_chunk");
    expect(shown).toContain("turns of this conversation");
    expect(shown).toMatch(/1 +first question/);
    expect(shown).toMatch(/2 +second question/);
    expect(shown).toContain("conversation rewound to the end of turn 1");
    const last = JSON.stringify(r.sim.requests.filter((q) => q.path.endsWith("/chat/completions")).at(-1)?.json);
    expect(last).toContain("first question");
    expect(last).not.toContain("second question");
  });

  it("replays the task list of a loaded session as a plan", async () => {
    const todos = [
      { content: "read the code", status: "completed", activeForm: "Reading the code" },
      { content: "fix the bug", status: "in_progress", activeForm: "Fixing the bug" },
      { content: "run the tests", status: "pending", activeForm: "Running the tests" },
    ];
    rig = await acpRig({ replies: [call("TodoWrite", { todos }), { content: "on it" }] });
    const r = rig;
    const first = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "plan your work" }] });
      return s.sessionId;
    });
    const { editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      await ctx.request("session/load", { sessionId: first.result, cwd: r.env.root, mcpServers: [] });
    });
    const plans = editor.updates.map((n) => n.update as { sessionUpdate: string; entries?: unknown }).filter((u) => u.sessionUpdate === "plan");
    expect(plans.at(-1)?.entries).toEqual([
      { content: "read the code", priority: "medium", status: "completed" },
      { content: "fix the bug", priority: "medium", status: "in_progress" },
      { content: "run the tests", priority: "medium", status: "pending" },
    ]);
  });

  it("lists the editor's MCP servers' prompts right after session/new, before any prompt", async () => {
    rig = await acpRig({ replies: [] });
    const r = rig;
    const { result } = await withAgent(r, async (ctx, ed) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      await ctx.request("session/new", { cwd: r.env.root, mcpServers: [{ name: "ev", command: process.execPath, args: [EVERYTHING, "stdio"], env: [] }] });
      const names = (): string[] => ed.updates.flatMap((n) => (n.update.sessionUpdate === "available_commands_update" ? n.update.availableCommands.map((c) => c.name) : []));
      const end = Date.now() + 60_000;
      while (!names().some((n) => n.startsWith("mcp__ev__")) && Date.now() < end) await new Promise((res) => setTimeout(res, 50));
      return names();
    });
    expect(result).toEqual(expect.arrayContaining(["mcp__ev__simple-prompt"]));
    expect(chatCount(r)).toBe(0);
  });
});
