import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { acpRig, call, chunks, withAgent, type AcpRig, type Msg, messagesOf } from "./helpers.js";

let rig: AcpRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});


describe("deepcode acp", () => {
  it("initializes honestly, opens a session in its project, streams the answer in chunks and ends the turn", async () => {
    rig = await acpRig({ replies: [{ reasoning: "thinking it over", content: "Hello from deepcode, in several chunks.", chunkSize: 5 }] });
    const r = rig;
    const { result, editor } = await withAgent(r, async (ctx) => {
      const init = await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const auth = await ctx.request("authenticate", { methodId: "deepcode-setup" });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      const p = await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "say hello" }] });
      return { init, auth, s, p };
    });
    expect(result.init.protocolVersion).toBe(1);
    expect(result.p._meta?.deepcode).toMatchObject({ stopReason: "completed" });
    expect(result.init.agentCapabilities?.loadSession).toBe(true);
    expect(result.init.agentCapabilities?.promptCapabilities?.embeddedContext).toBe(true);
    expect(result.init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
    expect(result.init.authMethods?.map((m) => (m as { id: string }).id)).toEqual(["deepcode-setup"]);
    expect(result.s.modes?.currentModeId).toBe("default");
    expect(result.p.stopReason).toBe("end_turn");
    const messageChunks = editor.updates.filter((n) => n.update.sessionUpdate === "agent_message_chunk");
    expect(messageChunks.length).toBeGreaterThan(1);
    expect(chunks(editor, "agent_message_chunk")).toBe("Hello from deepcode, in several chunks.");
    expect(chunks(editor, "agent_thought_chunk")).toContain("thinking it over");
    expect(editor.updates.every((n) => n.sessionId === result.s.sessionId)).toBe(true);
    expect(messagesOf(r, 0).at(-1)?.content).toContain("say hello");
  });

  it("refuses a session in another folder than its project, naming both", async () => {
    rig = await acpRig({ replies: [] });
    const r = rig;
    const { result } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      return ctx.request("session/new", { cwd: "/tmp", mcpServers: [] }).then(() => "opened", (e: Error) => e.message);
    });
    expect(result).toContain(`serves the project it started in (${r.env.root}), not /tmp`);
  });

  it("says to run deepcode setup when there is no key", async () => {
    rig = await acpRig({ replies: [] });
    const r = rig;
    const { result } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      return ctx.request("authenticate", { methodId: "deepcode-setup" }).then(() => "ok", (e: Error) => e.message);
    }, { env: { DEEPSEEK_API_KEY: undefined } });
    expect(result).toContain("run `deepcode setup`");
  });

  it("reports a Write as a tool call with its kind, location, status and diff once the editor allows it", async () => {
    rig = await acpRig({ replies: [call("Write", { file_path: "made.txt", content: "new text\n" }), { content: "written" }] });
    const r = rig;
    const { result, editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "make a file" }] });
    });
    expect(result.stopReason).toBe("end_turn");
    expect(readFileSync(join(r.env.root, "made.txt"), "utf8")).toBe("new text\n");
    expect(editor.permissions).toHaveLength(1);
    expect(editor.permissions[0].options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
    const path = join(r.env.root, "made.txt");
    const call0 = editor.updates.map((n) => n.update).find((u) => u.sessionUpdate === "tool_call") as { toolCallId: string; kind: string; status: string; locations: Array<{ path: string }> };
    expect(call0).toMatchObject({ kind: "edit", status: "pending", locations: [{ path }] });
    expect(editor.permissions[0].toolCall.toolCallId).toBe(call0.toolCallId);
    const later = editor.updates.map((n) => n.update).filter((u) => u.sessionUpdate === "tool_call_update") as Array<{ status?: string; content?: Array<Record<string, unknown>> }>;
    expect(later.map((u) => u.status)).toEqual(["in_progress", "completed"]);
    expect(later[1].content).toEqual([{ type: "diff", path, oldText: null, newText: "new text\n" }]);
  });

  it("denies when the editor says no, and when it cancels the question; the model hears it", async () => {
    for (const answer of ["deny", "cancelled"] as const) {
      rig = await acpRig({ replies: [call("Bash", { command: "touch made" }), { content: "could not" }] });
      const r = rig;
      const { result, editor } = await withAgent(r, async (ctx) => {
        await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
        const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
        return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "touch it" }] });
      }, { answer: () => (answer === "deny" ? { outcome: { outcome: "selected", optionId: "deny" } } : { outcome: { outcome: "cancelled" } }) });
      expect(result.stopReason).toBe("end_turn");
      expect(editor.permissions).toHaveLength(1);
      expect(existsSync(join(r.env.root, "made"))).toBe(false);
      const statuses = editor.updates.map((n) => n.update as { sessionUpdate: string; status?: string }).filter((u) => u.sessionUpdate === "tool_call_update").map((u) => u.status);
      expect(statuses).toEqual(["failed"]);
      expect(JSON.stringify(messagesOf(r, 1))).toContain(answer === "deny" ? "denied it in the editor" : "nobody answered");
      await r.close();
      rig = undefined;
    }
  });

  it("remembers an 'always' answer for the rest of the session", async () => {
    rig = await acpRig({ replies: [call("Bash", { command: "touch one" }), call("Bash", { command: "touch two" }), { content: "both" }] });
    const r = rig;
    const { editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "touch both" }] });
    }, { answer: (q) => ({ outcome: { outcome: "selected", optionId: q.options.find((o) => o.kind === "allow_always")!.optionId } }) });
    expect(editor.permissions).toHaveLength(1);
    expect(editor.permissions[0].options[1].name).toContain("Bash(touch:*)");
    expect(existsSync(join(r.env.root, "one")) && existsSync(join(r.env.root, "two"))).toBe(true);
  });

  it("stops a streaming turn on session/cancel with stopReason cancelled", async () => {
    rig = await acpRig({ replies: [{ content: "a long answer ".repeat(200), chunkSize: 4, chunkDelayMs: 20 }] });
    const r = rig;
    const { result, editor } = await withAgent(r, async (ctx, ed) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      const p = ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "go on" }] });
      while (!ed.updates.some((n) => n.update.sessionUpdate === "agent_message_chunk")) await new Promise((res) => setTimeout(res, 20));
      await ctx.notify("session/cancel", { sessionId: s.sessionId });
      return p;
    });
    expect(result.stopReason).toBe("cancelled");
    expect(chunks(editor, "agent_message_chunk").length).toBeLessThan("a long answer ".repeat(200).length);
  });

  it("maps a truncated answer to max_tokens and a filtered one to refusal", async () => {
    // A reply cut at the output limit is continued a few times before the turn gives up.
    const last = (q: { messages: Msg[] }): string => String(q.messages.filter((m) => m.role === "user").at(-1)?.content ?? "");
    rig = await acpRig({ respond: (q: { messages: Msg[] }) => (last(q).includes("two") ? { content: "no", finish_reason: "content_filter" } : { content: "cut off here", finish_reason: "length" }) });
    const r = rig;
    const { result } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      const a = await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "one" }] });
      const b = await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "two" }] });
      return [a.stopReason, b.stopReason];
    });
    expect(result).toEqual(["max_tokens", "refusal"]);
  });

  it("attaches a linked project file as an @-mention and embedded text inline", async () => {
    rig = await acpRig({ replies: [{ content: "seen" }] }, { "notes.md": "the linked file's words\n" });
    const r = rig;
    await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      return ctx.request("session/prompt", {
        sessionId: s.sessionId,
        prompt: [
          { type: "text", text: "look at" },
          { type: "resource_link", name: "notes.md", uri: pathToFileURL(join(r.env.root, "notes.md")).href },
          { type: "resource", resource: { uri: "untitled:buffer-1", text: "unsaved buffer words" } },
        ],
      });
    });
    const sent = JSON.stringify(messagesOf(r, 0));
    expect(sent).toContain("the linked file's words");
    expect(sent).toContain("unsaved buffer words");
  });

  it("loads a stored session: replays it to the editor, then continues it as a byte extension on the cache", async () => {
    rig = await acpRig({ replies: [{ content: "first answer" }, { content: "second answer" }] });
    const r = rig;
    const first = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "first question" }] });
      return s.sessionId;
    });
    const id = first.result;
    const { result, editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      await ctx.request("session/load", { sessionId: id, cwd: r.env.root, mcpServers: [] });
      return ctx.request("session/prompt", { sessionId: id, prompt: [{ type: "text", text: "second question" }] });
    });
    expect(result.stopReason).toBe("end_turn");
    const replayed = editor.updates.map((n) => n.update as { sessionUpdate: string; content?: { text?: string } });
    expect(replayed.find((u) => u.sessionUpdate === "user_message_chunk")?.content?.text).toContain("first question");
    expect(replayed.find((u) => u.sessionUpdate === "agent_message_chunk")?.content?.text).toBe("first answer");
    const [before, after] = [messagesOf(r, 0), messagesOf(r, 1)];
    expect(JSON.stringify(after.slice(0, before.length))).toBe(JSON.stringify(before));
    const chat = r.sim.requests.filter((q) => q.path.endsWith("/chat/completions"));
    // The whole earlier request is a hit, up to the cache's storage unit (64 tokens).
    expect(chat[1].usage?.prompt_cache_hit_tokens ?? 0).toBeGreaterThanOrEqual((chat[0].usage?.prompt_tokens ?? Infinity) - 64);
  });
});
