import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { acpRig, call, withAgent, type AcpRig } from "./helpers.js";

let rig: AcpRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("deepcode acp: modes, plans, limits and errors", () => {
  it("in acceptEdits mode edits the project without asking, and says the mode changed", async () => {
    rig = await acpRig({ replies: [call("Read", { file_path: "a.txt" }), call("Edit", { file_path: "a.txt", old_string: "one", new_string: "uno" }), { content: "edited" }] }, { "a.txt": "one\n" });
    const r = rig;
    const { result, editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      expect(s.modes?.availableModes.map((m) => m.id)).toEqual(["default", "acceptEdits", "plan"]);
      await ctx.request("session/set_mode", { sessionId: s.sessionId, modeId: "acceptEdits" });
      const bad = await ctx.request("session/set_mode", { sessionId: s.sessionId, modeId: "yolo" }).then(() => "set", (e: Error) => e.message);
      const p = await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "edit a.txt" }] });
      return { bad, p };
    });
    expect(result.p.stopReason).toBe("end_turn");
    expect(result.bad).toContain("no mode 'yolo'");
    expect(editor.permissions).toHaveLength(0);
    expect(readFileSync(join(r.env.root, "a.txt"), "utf8")).toBe("uno\n");
    expect(editor.updates.map((n) => n.update).filter((u) => u.sessionUpdate === "current_mode_update")).toEqual([{ sessionUpdate: "current_mode_update", currentModeId: "acceptEdits" }]);
    const edit = editor.updates.map((n) => n.update as { sessionUpdate: string; content?: Array<{ type: string }> }).find((u) => u.sessionUpdate === "tool_call_update" && u.content?.[0]?.type === "diff");
    expect(edit?.content).toEqual([{ type: "diff", path: join(r.env.root, "a.txt"), oldText: "one", newText: "uno" }]);
  });

  it("shows TodoWrite's list as the plan", async () => {
    const todos = [
      { content: "read the code", status: "completed", activeForm: "reading" },
      { content: "fix the bug", status: "in_progress", activeForm: "fixing" },
      { content: "run the tests", status: "pending", activeForm: "running" },
    ];
    rig = await acpRig({ replies: [call("TodoWrite", { todos }), { content: "planned" }] });
    const r = rig;
    const { editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "plan it" }] });
    });
    const plan = editor.updates.map((n) => n.update).find((u) => u.sessionUpdate === "plan") as { entries: Array<{ content: string; status: string }> } | undefined;
    expect(plan?.entries.map((e) => [e.content, e.status])).toEqual([["read the code", "completed"], ["fix the bug", "in_progress"], ["run the tests", "pending"]]);
  });

  it("ends with max_turn_requests at --max-turns", async () => {
    rig = await acpRig({ replies: [], default: call("Read", { file_path: "a.txt" }) }, { "a.txt": "x\n" });
    const r = rig;
    const { result } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "loop" }] });
    }, { args: ["--max-turns", "2"] });
    expect(result.stopReason).toBe("max_turn_requests");
  });

  it("answers a failed turn with a JSON-RPC error naming it, not a hung prompt", async () => {
    rig = await acpRig({ replies: [], default: { fault: { status: 400, message: "the simulated request is invalid" } } });
    const r = rig;
    const { result } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "fail" }] }).then((p) => `resolved ${p.stopReason}`, (e: Error) => e.message);
    });
    expect(result).toContain("the simulated request is invalid");
  });
});

describe("deepcode acp: cancel while a tool waits or runs", () => {
  it("cancels while the permission question is open: the call is denied, the prompt ends cancelled", async () => {
    rig = await acpRig({ replies: [call("Bash", { command: "touch made" }), { content: "not reached" }] });
    const r = rig;
    let cancel: (() => Promise<void>) | undefined;
    const { result, editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      cancel = () => ctx.notify("session/cancel", { sessionId: s.sessionId });
      return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "touch it" }] });
    }, { answer: async () => {
      await cancel?.();
      return { outcome: { outcome: "cancelled" } };
    } });
    expect(result.stopReason).toBe("cancelled");
    expect(editor.permissions).toHaveLength(1);
    expect(existsSync(join(r.env.root, "made"))).toBe(false);
    expect(editor.stderr()).not.toContain("a reply to no request");
  });

  it("cancels a running command as Ctrl-C does", async () => {
    rig = await acpRig({ replies: [call("Bash", { command: "sleep 30" }), { content: "not reached" }] });
    const r = rig;
    const started = Date.now();
    const { result } = await withAgent(r, async (ctx, ed) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      const p = ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "wait" }] });
      while (!ed.updates.some((n) => (n.update as { status?: string }).status === "in_progress")) await new Promise((res) => setTimeout(res, 20));
      await new Promise((res) => setTimeout(res, 300));
      await ctx.notify("session/cancel", { sessionId: s.sessionId });
      return p;
    });
    expect(result.stopReason).toBe("cancelled");
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe("deepcode acp: a call that needs no question", () => {
  it("goes pending, in_progress, completed with the file as its location", async () => {
    rig = await acpRig({ replies: [call("Read", { file_path: "a.txt" }), { content: "read" }] }, { "a.txt": "alpha\n" });
    const r = rig;
    const { editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "read a.txt" }] });
    });
    const calls = editor.updates.map((n) => n.update as { sessionUpdate: string; status?: string; kind?: string; locations?: unknown }).filter((u) => u.sessionUpdate.startsWith("tool_call"));
    expect(calls.map((u) => u.status)).toEqual(["pending", "in_progress", "completed"]);
    expect(calls[0]).toMatchObject({ kind: "read", locations: [{ path: join(r.env.root, "a.txt") }] });
    expect(editor.permissions).toHaveLength(0);
  });
});

describe("deepcode acp: bad requests get clear errors", () => {
  it("names an unknown session to load, a prompt block it does not take, and an editor MCP server it cannot start", async () => {
    rig = await acpRig({ replies: [] });
    const r = rig;
    const { result } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const fail = (p: Promise<unknown>): Promise<string> => p.then(() => "ok", (e: Error) => e.message);
      const load = await fail(ctx.request("session/load", { sessionId: "no-such-session", cwd: r.env.root, mcpServers: [] }));
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      const image = await fail(ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "image", data: "AAAA", mimeType: "image/png" }] }));
      const mcp = await fail(ctx.request("session/new", { cwd: r.env.root, mcpServers: [{ name: "x", command: "", args: [], env: [] }] }));
      return { load, image, mcp };
    });
    expect(result.load).toContain("no session 'no-such-session'");
    expect(result.image).toContain("'image' blocks");
    expect(result.mcp).toContain(`mcpServers[0] ("x"): needs a 'command'`);
  });
});
