// `deepcode acp` with an editor that offers its files and terminals (clientCapabilities fs,
// terminal): Read, Write and Edit see and change the editor's buffers, Bash runs in the
// editor's terminal unless the sandbox is active — always behind the same gate.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CreateTerminalRequest } from "@agentclientprotocol/sdk";
import { acpRig, call, withAgent, type AcpRig, messagesOf } from "./helpers.js";

let rig: AcpRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const toolResults = (r: AcpRig, i: number): string => messagesOf(r, i).filter((m) => m.role === "tool").map((m) => m.content).join("\n");

describe("deepcode acp: files through the editor", () => {
  it("reads the editor's unsaved buffer and edits it there, not on disk, still asking first", async () => {
    rig = await acpRig({
      replies: [call("Read", { file_path: "a.txt" }), call("Edit", { file_path: "a.txt", old_string: "unsaved", new_string: "edited" }), { content: "done" }],
    }, { "a.txt": "saved text on disk\n" });
    const r = rig;
    const path = join(r.env.root, "a.txt");
    const buffers = new Map([[path, "unsaved text in the editor\n"]]);
    const reads: string[] = [];
    const { result, editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "edit a.txt" }] });
    }, {
      client: (app) => app
        .onRequest("fs/read_text_file", ({ params }) => {
          reads.push(params.path);
          const content = buffers.get(params.path);
          if (content === undefined) throw new Error(`no buffer for ${params.path}`);
          return { content };
        })
        .onRequest("fs/write_text_file", ({ params }) => {
          buffers.set(params.path, params.content);
          return {};
        }),
    });
    expect(result.stopReason).toBe("end_turn");
    // The model saw the buffer, not the disk.
    expect(toolResults(r, 1)).toContain("unsaved text in the editor");
    expect(toolResults(r, 1)).not.toContain("saved text on disk");
    expect(reads).toContain(path);
    // The edit landed in the editor's buffer; the disk is the editor's to save.
    expect(buffers.get(path)).toBe("edited text in the editor\n");
    expect(readFileSync(path, "utf8")).toBe("saved text on disk\n");
    // The gate still asked for the edit.
    expect(editor.permissions.map((p) => p.toolCall.kind)).toEqual(["edit"]);
  });

  it("keeps reading and writing the disk when the editor does not offer its files", async () => {
    rig = await acpRig({ replies: [call("Read", { file_path: "a.txt" }), call("Write", { file_path: "b.txt", content: "new\n" }), { content: "done" }] }, { "a.txt": "on disk\n" });
    const r = rig;
    let asked = 0;
    await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "read and write" }] });
    }, { client: (app) => app.onRequest("fs/read_text_file", () => ((asked++), { content: "never" })).onRequest("fs/write_text_file", () => ((asked++), {})) });
    expect(asked).toBe(0);
    expect(toolResults(r, 1)).toContain("on disk");
    expect(readFileSync(join(r.env.root, "b.txt"), "utf8")).toBe("new\n");
  });

  it("does not let the editor's file route past the path fence", async () => {
    rig = await acpRig({ replies: [call("Write", { file_path: "/etc/deepcode-acp-test.txt", content: "x\n" }), { content: "done" }] });
    const r = rig;
    const written: string[] = [];
    await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "write outside" }] });
    }, { client: (app) => app.onRequest("fs/read_text_file", () => ({ content: "" })).onRequest("fs/write_text_file", ({ params }) => ((written.push(params.path)), {})) });
    expect(written).toEqual([]);
  });
});

describe("deepcode acp: commands in the editor's terminal", () => {
  const terminalClient = (created: CreateTerminalRequest[], calls: string[]) => (app: import("@agentclientprotocol/sdk").ClientApp) => app
    .onRequest("terminal/create", ({ params }) => ((created.push(params), calls.push("create")), { terminalId: "term-1" }))
    .onRequest("terminal/wait_for_exit", () => ((calls.push("wait_for_exit")), { exitCode: 3, signal: null }))
    .onRequest("terminal/output", () => ((calls.push("output")), { output: "ran in the editor's terminal\n", truncated: false, exitStatus: { exitCode: 3 } }))
    .onRequest("terminal/release", () => ((calls.push("release")), {}))
    .onRequest("terminal/kill", () => ((calls.push("kill")), {}));

  it("runs Bash in the editor's terminal when the sandbox is off, keys emptied, after asking", async () => {
    rig = await acpRig({ replies: [call("Bash", { command: "touch made" }), { content: "done" }] });
    const r = rig;
    writeFileSync(join(r.env.home, "settings.json"), JSON.stringify({ sandbox: { enabled: false } }));
    const created: CreateTerminalRequest[] = [];
    const calls: string[] = [];
    const { editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: { terminal: true } });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "touch it" }] });
    }, { client: terminalClient(created, calls) });
    expect(editor.permissions).toHaveLength(1);
    expect(calls).toEqual(["create", "wait_for_exit", "output", "release"]);
    expect(created[0]).toMatchObject({ command: "bash", cwd: r.env.root });
    expect(created[0].args?.[1]).toContain("touch made");
    expect(created[0].env).toContainEqual({ name: "DEEPSEEK_API_KEY", value: "" });
    // The editor ran it (here: pretended to), not deepcode.
    expect(existsSync(join(r.env.root, "made"))).toBe(false);
    expect(toolResults(r, 1)).toContain("ran in the editor's terminal");
    expect(toolResults(r, 1)).toContain("3");
    const shown = editor.updates.map((n) => n.update as { sessionUpdate: string; content?: Array<{ type: string; terminalId?: string }> }).find((u) => u.content?.[0]?.type === "terminal");
    expect(shown?.content?.[0]).toEqual({ type: "terminal", terminalId: "term-1" });
  });

  it("kills and releases the editor's terminal when the prompt is cancelled, and ends cancelled", async () => {
    rig = await acpRig({ replies: [call("Bash", { command: "sleep 100" }), { content: "not reached" }] });
    const r = rig;
    writeFileSync(join(r.env.home, "settings.json"), JSON.stringify({ sandbox: { enabled: false } }));
    const calls: string[] = [];
    let exited: (() => void) | undefined;
    let killed = false;
    const gone = { exitCode: null, signal: "SIGTERM" };
    let created: (() => void) | undefined;
    const running = new Promise<void>((resolve) => (created = resolve));
    const { result } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: { terminal: true } });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      const p = ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "wait" }] });
      await running;
      await ctx.notify("session/cancel", { sessionId: s.sessionId });
      return p;
    }, {
      client: (app) => app
        .onRequest("terminal/create", () => ((calls.push("create"), created?.()), { terminalId: "term-2" }))
        // As a real terminal: waiting ends when the command is killed, also if it was killed first.
        .onRequest("terminal/wait_for_exit", () => ((calls.push("wait_for_exit")), new Promise((resolve) => (killed ? resolve(gone) : (exited = () => resolve(gone))))))
        .onRequest("terminal/kill", () => ((calls.push("kill"), (killed = true), exited?.()), {}))
        .onRequest("terminal/output", () => ((calls.push("output")), { output: "", truncated: false }))
        .onRequest("terminal/release", () => ((calls.push("release")), {})),
    });
    expect(result.stopReason).toBe("cancelled");
    expect(calls).toContain("kill");
    expect(calls.at(-1)).toBe("release");
    expect(calls.filter((c) => c === "create")).toHaveLength(1);
  });

  it("keeps a sandboxed command here, under the sandbox, even when the editor offers a terminal", async () => {
    rig = await acpRig({ replies: [call("Bash", { command: "touch made" }), { content: "done" }] });
    const r = rig;
    writeFileSync(join(r.env.home, "settings.json"), JSON.stringify({ sandbox: { enabled: true, autoAllowBashIfSandboxed: false } }));
    const created: CreateTerminalRequest[] = [];
    const calls: string[] = [];
    const { editor } = await withAgent(r, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: { terminal: true } });
      const s = await ctx.request("session/new", { cwd: r.env.root, mcpServers: [] });
      return ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "touch it" }] });
    }, { client: terminalClient(created, calls) });
    const sandboxActive = !editor.stderr().includes("sandbox is not active");
    if (!sandboxActive) return; // no working bubblewrap on this machine: nothing to keep contained
    expect(calls).toEqual([]);
    expect(existsSync(join(r.env.root, "made"))).toBe(true);
  });
});
