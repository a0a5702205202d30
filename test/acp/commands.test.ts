// `deepcode acp`: the slash commands the editor offers (available_commands_update) and a prompt
// `/name args` expanded as in the REPL; plan mode as the REPL's /plan (session/set_mode plan).
import { afterEach, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { acpRig, call, chunks, withAgent, type AcpRig, messagesOf } from "./helpers.js";

let rig: AcpRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const updates = <T>(e: { updates: Array<{ update: unknown }> }, kind: string): T[] => e.updates.map((n) => n.update as { sessionUpdate: string }).filter((u) => u.sessionUpdate === kind) as T[];

describe("deepcode acp: slash commands", () => {
  it("lists the project's custom commands and the mods' commands, and expands `/name args` as the REPL does", async () => {
    rig = await acpRig({ replies: [{ content: "reviewed" }] }, { ".claude/commands/review.md": "---\ndescription: Review a file carefully\nargument-hint: FILE\n---\nReview $ARGUMENTS for bugs, line by line.\n" });
    const r = rig;
    const { result, editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "/review src/a.ts" }] });
    });
    expect(result.stopReason).toBe("end_turn");
    const lists = updates<{ availableCommands: Array<{ name: string; description: string; input?: { hint: string } }> }>(editor, "available_commands_update");
    expect(lists.length).toBeGreaterThanOrEqual(1);
    const names = lists[0].availableCommands.map((c) => c.name);
    expect(lists[0].availableCommands.find((c) => c.name === "review")).toEqual({ name: "review", description: "Review a file carefully", input: { hint: "FILE" } });
    expect(names).toEqual(expect.arrayContaining(["plan", "mcp"]));
    // The model got the expanded body, not the slash line.
    const last = messagesOf(r, 0).filter((m) => m.role === "user").map((m) => m.content).join("\n");
    expect(last).toContain("Review src/a.ts for bugs, line by line.");
    expect(last).not.toContain("/review");
  });

  it("shows what a command prints as the agent's message, with no model turn", async () => {
    rig = await acpRig({ replies: [] });
    const r = rig;
    const { result, editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "/mcp" }] });
    });
    expect(result.stopReason).toBe("end_turn");
    expect(chunks(editor, "agent_message_chunk")).toMatch(/MCP|server/i);
    expect(r.sim.requests.filter((q) => q.path.endsWith("/chat/completions"))).toHaveLength(0);
  });
});

describe("deepcode acp: plan mode", () => {
  it("plans read-only in plan mode, waits for /plan go, then carries the plan out and says the mode is default again", async () => {
    rig = await acpRig({ replies: [call("Write", { file_path: "x.txt", content: "too early\n" }), { content: "## Steps\n1. write x.txt" }, { content: "carried out" }] });
    const r = rig;
    const { result, editor } = await withAgent(r, async (ctx, ed) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      expect(s.modes?.availableModes.map((m) => m.id)).toEqual(["default", "acceptEdits", "plan"]);
      await ctx.request("session/set_mode", { sessionId: s.sessionId, modeId: "plan" });
      const planned = await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "make x.txt" }] });
      const waiting = chunks(ed, "agent_message_chunk");
      const go = await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "/plan go" }] });
      return { planned, go, waiting };
    }, { answer: () => ({ outcome: { outcome: "selected", optionId: "deny" } }) });
    expect(result.planned.stopReason).toBe("end_turn");
    // The write was denied by plan mode before any question: nothing was written, nobody asked.
    expect(existsSync(join(r.env.root, "x.txt"))).toBe(false);
    expect(editor.permissions).toHaveLength(0);
    expect(JSON.stringify(messagesOf(r, 0))).toContain("You are in plan mode");
    expect(result.waiting).toContain("/plan go");
    expect(JSON.stringify(messagesOf(r, 2))).toContain("## Steps");
    expect(updates<{ currentModeId: string }>(editor, "current_mode_update").map((u) => u.currentModeId)).toEqual(["plan", "default"]);
  });
});

describe("deepcode acp: model and tier as config options", () => {
  it("offers the model and the tier, switches the model for the next request, pins a tier, and names a bad value", async () => {
    rig = await acpRig({ replies: [{ content: "one" }, { content: "two" }] });
    const r = rig;
    const { result } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      type Select = { id: string; currentValue: string; options: Array<{ value: string; description?: string }> };
      const opts = (s.configOptions ?? []) as unknown as Select[];
      const model = opts.find((o) => o.id === "model")!;
      const other = model.options.map((o) => o.value).find((v) => v !== model.currentValue)!;
      const switched = (await ctx.request("session/set_config_option", { sessionId: s.sessionId, configId: "model", value: other })).configOptions as unknown as Select[];
      await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "first" }] });
      const pinned = (await ctx.request("session/set_config_option", { sessionId: s.sessionId, configId: "tier", value: "chat-fast" })).configOptions as unknown as Select[];
      await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "second" }] });
      const bad = await ctx.request("session/set_config_option", { sessionId: s.sessionId, configId: "tier", value: "turbo" }).then(() => "set", (e: Error) => e.message);
      return { opts, other, switched, pinned, bad };
    });
    expect(result.opts.map((o) => o.id)).toEqual(["model", "tier"]);
    expect(result.opts[1].currentValue).toBe("default");
    expect(result.opts[1].options.map((o) => o.value)).toEqual(expect.arrayContaining(["default", "auto", "chat-fast", "reasoner"]));
    expect(result.switched[0].currentValue).toBe(result.other);
    expect(result.pinned[1].currentValue).toBe("chat-fast");
    const models = r.sim.requests.filter((q) => q.path.endsWith("/chat/completions")).map((q) => (q.json as { model: string }).model);
    expect(models[0]).toBe(result.other);
    const fast = result.opts[1].options.find((o) => o.value === "chat-fast")?.description?.split(",")[0];
    expect(models[1]).toBe(fast);
    expect(result.bad).toContain('unknown tier "turbo"');
  });
});
