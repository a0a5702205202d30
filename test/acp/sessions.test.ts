// `deepcode acp` with an editor's several threads on one connection: any number of sessions
// open at once, each with its own folder, mode and cancellation, their prompts side by side.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionNotification } from "@agentclientprotocol/sdk";
import { acpRig, call, withAgent, type AcpRig, type Msg } from "./helpers.js";

let rig: AcpRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Req = { messages: Msg[] };
const chats = (r: AcpRig): Req[] => r.sim.requests.filter((q) => q.path.endsWith("/chat/completions")).map((q) => q.json as Req);
const lastUser = (q: Req): string => String(q.messages.filter((m) => m.role === "user").at(-1)?.content ?? "");
/** The text of one session's message chunks, in order. */
const said = (updates: SessionNotification[], sessionId: string): string =>
  updates.filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === "agent_message_chunk").map((n) => (n.update as { content: { text?: string } }).content.text ?? "").join("");
const until = async (what: () => boolean, label: string): Promise<void> => {
  const end = Date.now() + 60_000;
  while (!what()) {
    if (Date.now() > end) throw new Error(`still waiting for ${label}`);
    await new Promise((res) => setTimeout(res, 20));
  }
};

describe("deepcode acp: several sessions on one connection", () => {
  it("keeps the first session open after a second one starts: both answer, each with its own conversation", async () => {
    rig = await acpRig({ respond: (q: Req) => ({ content: `answer to ${lastUser(q).match(/\b(alpha|beta|gamma)\b/)?.[0] ?? "?"}` }) });
    const r = rig;
    const { result, editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const a = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      await ctx.request("session/prompt", { sessionId: a.sessionId, prompt: [{ type: "text", text: "alpha" }] });
      const b = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      await ctx.request("session/prompt", { sessionId: b.sessionId, prompt: [{ type: "text", text: "beta" }] });
      const again = await ctx.request("session/prompt", { sessionId: a.sessionId, prompt: [{ type: "text", text: "gamma" }] });
      return { a: a.sessionId, b: b.sessionId, again };
    });
    expect(result.again.stopReason).toBe("end_turn");
    expect(said(editor.updates, result.a)).toBe("answer to alphaanswer to gamma");
    expect(said(editor.updates, result.b)).toBe("answer to beta");
    const [, beta, gamma] = chats(r).map((q) => JSON.stringify(q.messages));
    // A's second request continues A's conversation, and never saw B's.
    expect(gamma).toContain("answer to alpha");
    expect(gamma).not.toContain("beta");
    expect(beta).not.toContain("alpha");
  });

  it("opens a session while another's prompt runs, runs both prompts side by side, and a cancel of one leaves the other running", async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((res) => (release = res));
    rig = await acpRig({
      respond: async (q: Req) => {
        // A's answer streams a little and then hangs until cancelled; B's waits for the test.
        if (lastUser(q).includes("first thread")) return { content: "A is working on it ".repeat(20), chunkSize: 4, fault: { stallAfterChunks: 14 } };
        await released;
        return { content: "B finished its answer" };
      },
    });
    const r = rig;
    const { result, editor } = await withAgent(r, async (ctx, ed) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const a = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      const pa = ctx.request("session/prompt", { sessionId: a.sessionId, prompt: [{ type: "text", text: "first thread" }] });
      await until(() => said(ed.updates, a.sessionId).length > 0, "A's first chunk");
      const b = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      const pb = ctx.request("session/prompt", { sessionId: b.sessionId, prompt: [{ type: "text", text: "second thread" }] });
      await until(() => chats(r).some((q) => lastUser(q).includes("second thread")), "B's request");
      await ctx.notify("session/cancel", { sessionId: a.sessionId });
      const ra = await pa;
      // B is still waiting for its answer after A's prompt ended.
      const bStillRunning = await Promise.race([pb.then(() => false), new Promise<boolean>((res) => setTimeout(() => res(true), 300))]);
      release();
      const rb = await pb;
      return { a: a.sessionId, b: b.sessionId, ra, rb, bStillRunning };
    });
    expect(result.ra.stopReason).toBe("cancelled");
    expect(result.bStillRunning).toBe(true);
    expect(result.rb.stopReason).toBe("end_turn");
    expect(said(editor.updates, result.b)).toBe("B finished its answer");
    expect(said(editor.updates, result.a)).toMatch(/^A is working/);
    expect(said(editor.updates, result.a)).not.toContain("B finished");
    // Each request holds its own session's prompt only.
    const sent = chats(r).map((q) => JSON.stringify(q.messages));
    expect(sent.filter((s) => s.includes("first thread") && s.includes("second thread"))).toHaveLength(0);
  });

  it("runs a session's commands in the folder the editor opened it in, and tells the model once", async () => {
    rig = await acpRig({ replies: [call("Bash", { command: "pwd" }), { content: "there" }, call("Bash", { command: "pwd" }), { content: "here" }] }, { "pkg/README.md": "a package\n" });
    const r = rig;
    const pkg = join(r.env.root, "pkg");
    mkdirSync(pkg, { recursive: true });
    const { result } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const inPkg = await ctx.request("session/new", { cwd: pkg, mcpServers: [] });
      const atRoot = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      await ctx.request("session/prompt", { sessionId: inPkg.sessionId, prompt: [{ type: "text", text: "where am I" }] });
      await ctx.request("session/prompt", { sessionId: atRoot.sessionId, prompt: [{ type: "text", text: "and here" }] });
      return ctx.request("session/new", { cwd: "/tmp", mcpServers: [] }).then(() => "opened", (e: Error) => e.message);
    });
    const [pkgCall, pkgAfter, rootCall, rootAfter] = chats(r).map((q) => q.messages);
    const toolText = (ms: Msg[]): string => ms.filter((m) => m.role === "tool").map((m) => m.content).join("\n");
    expect(toolText(pkgAfter).split("\n")[0]).toBe(pkg);
    expect(toolText(rootAfter.slice(rootCall.length)).split("\n")[0]).toBe(r.env.root);
    expect(JSON.stringify(pkgCall)).toContain("opened this session in pkg/");
    expect(JSON.stringify(rootCall)).not.toContain("opened this session in");
    expect(result).toContain(`serves the project it started in (${r.env.root}), not /tmp`);
  });

  it("keeps plan mode to its own session: another session's edit goes through while the plan runs", async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((res) => (release = res));
    rig = await acpRig({
      respond: async (q: Req) => {
        const text = lastUser(q);
        if (text.includes("plan the thing")) {
          await released;
          return { content: "## Plan\n1. nothing yet" };
        }
        if (q.messages.some((m) => m.role === "tool")) return { content: "written" };
        return call("Write", { file_path: "b.txt", content: "from B\n" });
      },
    });
    const r = rig;
    const { result, editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const a = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      const b = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      await ctx.request("session/set_mode", { sessionId: a.sessionId, modeId: "plan" });
      const pa = ctx.request("session/prompt", { sessionId: a.sessionId, prompt: [{ type: "text", text: "plan the thing" }] });
      await until(() => chats(r).some((q) => lastUser(q).includes("plan the thing")), "A's planning request");
      const rb = await ctx.request("session/prompt", { sessionId: b.sessionId, prompt: [{ type: "text", text: "write b.txt" }] });
      release();
      const ra = await pa;
      return { a: a.sessionId, b: b.sessionId, ra, rb };
    });
    expect(result.rb.stopReason).toBe("end_turn");
    expect(readFileSync(join(r.env.root, "b.txt"), "utf8")).toBe("from B\n");
    expect(editor.permissions.map((q) => q.sessionId)).toEqual([result.b]);
    expect(result.ra.stopReason).toBe("end_turn");
    expect(existsSync(join(r.env.root, "a.txt"))).toBe(false);
    // Only A changed mode.
    expect(editor.updates.filter((n) => n.update.sessionUpdate === "current_mode_update").map((n) => n.sessionId)).toEqual([result.a]);
  });
});
