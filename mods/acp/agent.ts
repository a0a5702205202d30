// The ACP agent side of `deepcode acp`: initialize, authenticate, session/new, session/load,
// session/prompt, session/cancel and session/set_mode, over the engine sessions the plugin API
// opens (PluginApi.sessions) — the same chain, gate, sandbox and session files as the REPL.
// An editor keeps several threads on one connection: any number of sessions stay open, each
// with its own folder, MCP servers, mode, rules and cancellation, and their prompts run side by
// side (a permission question names the session it is for).

import { realpathSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import type { AskAnswer, EventOf, TailNote, JsonValue, PluginApi, SessionHandle, StreamEvent, Unsubscribe } from "../../src/contract/index.js";
import { editorEffects, offersOf, type ClientOffers, type EditorCall } from "./editor.js";
import type { EditorEffects } from "./link.js";
import { AUTH_REQUIRED, INVALID_PARAMS, METHOD_NOT_FOUND, RpcError, type Params, type Peer } from "./rpc.js";
import { mcpServersOf } from "./mcp.js";
import { configOptions, setConfigOption } from "./config.js";
import { acpStopReason, replay, toolTitle, toolKind, updatesOf, type Update } from "./updates.js";
import { promptText } from "./prompt.js";

export const PROTOCOL_VERSION = 1;
const AUTH_METHOD = "deepcode-setup";
const MODES = [
  { id: "default", name: "Default", description: "edits and commands ask, as your rules say" },
  { id: "acceptEdits", name: "Accept edits", description: "file edits inside the project go through without asking" },
  { id: "plan", name: "Plan", description: "read-only planning turns on the planner; the answer is a plan: /plan go, /plan edit NOTES or /plan drop" },
];

interface AcpSession {
  handle: SessionHandle;
  turn?: AbortController;
  /** The running prompt, settled when its turn has ended. */
  running?: Promise<unknown>;
  mode: string;
  /** Where its Bash starts, relative to the project ("" for the project itself): said to the
   *  model once, at its first turn's tail, when it is not the project (folderNote). */
  folder: string;
  /** The command list the editor has (available_commands_update), as JSON. */
  commandsSent?: string;
  acceptEdits?: Unsubscribe;
  /** What "always" answers allowed for the session (api.allow), taken back when it closes. */
  remembered: Unsubscribe[];
  /** Calls running now (callId → tool and input), to name the call a permission question is about. */
  calls: Map<string, { tool: string; input: JsonValue }>;
}

export class AcpAgent {
  private readonly sessions = new Map<string, AcpSession>();
  private peer?: Peer;
  /** What the editor offers (initialize): files and terminals through it. */
  private offers: ClientOffers = { readTextFile: false, writeTextFile: false, terminal: false };
  /** Calls of our sessions running now (callId → session and tool), for editor-io's routing. */
  private readonly live = new Map<string, EditorCall>();

  constructor(private readonly api: PluginApi) {}

  attach(peer: Peer): void {
    this.peer = peer;
  }

  async closeAll(): Promise<void> {
    for (const [id, s] of this.sessions) await this.closeSession(id, s);
  }

  /** Stop its prompt (and wait for the turn to end, nothing lost), take back its rules, close it. */
  private async closeSession(id: string, s: AcpSession): Promise<void> {
    this.sessions.delete(id);
    s.turn?.abort();
    await s.running?.catch(() => undefined); // its outcome went to the prompt's own reply
    for (const u of [...s.remembered, ...(s.acceptEdits ? [s.acceptEdits] : [])]) u();
    await s.handle.close("exit");
  }

  async handle(method: string, p: Params): Promise<unknown> {
    switch (method) {
      case "initialize":
        this.offers = offersOf(p.clientCapabilities);
        return this.initialize();
      case "authenticate":
        if (p.methodId !== AUTH_METHOD) throw new RpcError(INVALID_PARAMS, `unknown auth method '${String(p.methodId)}' (deepcode offers '${AUTH_METHOD}')`);
        this.needKey();
        return {};
      case "session/new":
        return this.open(p, undefined);
      case "session/load":
        return this.open(p, stringParam(p, "sessionId"));
      case "session/prompt": {
        const s = this.session(p);
        if (s.turn) throw new RpcError(INVALID_PARAMS, "a prompt is already running in this session (session/cancel stops it)");
        const running = this.prompt(s, p);
        s.running = running;
        return running;
      }
      case "session/cancel":
        this.sessions.get(String(p.sessionId))?.turn?.abort();
        return undefined;
      case "session/set_mode":
        return this.setMode(p);
      case "session/set_config_option":
        return setConfigOption(this.api, this.session(p).handle, p);
      default:
        throw new RpcError(METHOD_NOT_FOUND, `deepcode acp has no method '${method}'`);
    }
  }

  private initialize(): unknown {
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
      },
      authMethods: [{ id: AUTH_METHOD, name: "DeepSeek API key from deepcode setup", description: "the key `deepcode setup` stored (or DEEPSEEK_API_KEY); run `deepcode setup` in a terminal first" }],
      agentInfo: { name: "deepcode", title: "deepcode", version: this.api.host.version },
    };
  }

  private needKey(): void {
    if (this.api.host.hasKey === false) throw new RpcError(AUTH_REQUIRED, "no DeepSeek API key: run `deepcode setup` in a terminal (or set DEEPSEEK_API_KEY), then start the agent again");
  }

  private async open(p: Params, resume: string | undefined): Promise<unknown> {
    this.needKey();
    const cwd = stringParam(p, "cwd");
    if (!isAbsolute(cwd)) throw new RpcError(INVALID_PARAMS, `cwd must be an absolute path, not '${cwd}'`);
    const mcpServers = mcpServersOf(p.mcpServers);
    // Loading a session this connection has open starts it again (with the servers named now).
    const open = resume === undefined ? undefined : this.sessions.get(resume);
    if (open?.turn) throw new RpcError(INVALID_PARAMS, `session ${resume} is running a prompt: session/cancel it before loading it again`);
    if (open && resume !== undefined) await this.closeSession(resume, open);
    let handle: SessionHandle;
    try {
      handle = await this.api.sessions.start({ cwd, ...(resume === undefined ? {} : { resume }), ...(mcpServers ? { mcpServers } : {}) });
    } catch (err) {
      throw new RpcError(INVALID_PARAMS, err instanceof Error ? err.message : String(err));
    }
    const s: AcpSession = { handle, mode: "default", folder: folderOf(this.api.root, cwd), calls: new Map(), remembered: [] };
    this.sessions.set(handle.id, s);
    if (resume !== undefined) for (const u of replay(handle.history(), this.api.root)) this.update(handle.id, u);
    // After the reply (session/new's names the session the update is for): the list now, and
    // again once names that come late (the MCP servers' prompts) have come, before any prompt.
    setImmediate(() => {
      if (this.sessions.get(handle.id) !== s) return;
      this.commands(s);
      void handle.commandsSettled().then(() => this.sessions.get(handle.id) === s && this.commands(s));
    });
    const modes = { currentModeId: s.mode, availableModes: MODES };
    const configs = configOptions(this.api, handle);
    return resume === undefined ? { sessionId: handle.id, modes, configOptions: configs } : { modes, configOptions: configs };
  }

  private session(p: Params): AcpSession {
    const id = stringParam(p, "sessionId");
    const s = this.sessions.get(id);
    if (!s) throw new RpcError(INVALID_PARAMS, `no open session '${id}' (session/new or session/load first)`);
    return s;
  }

  private async prompt(s: AcpSession, p: Params): Promise<unknown> {
    const typed = promptText(p.prompt, this.api.root);
    // Nothing to ask: answered here, never sent as a billed request.
    if (!typed.trim()) {
      this.update(s.handle.id, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "(the prompt is empty: nothing was sent to the model)\n" } });
      return { stopReason: "end_turn", _meta: { deepcode: { stopReason: "empty_prompt", costUsd: 0 } } };
    }
    // `/name` no command has yet may be one that comes late (an MCP prompt whose server is
    // still connecting): waited for as `-p` waits (each command's own bound), not sent as text.
    const named = /^\/(\S+)/.exec(typed.trimStart())?.[1];
    if (named !== undefined && !s.handle.commands().some((c) => c.name === named)) await s.handle.commandsSettled();
    // Plan mode as the REPL's: a prompt that is not a command is planned (`/plan -- …`).
    const text = s.mode === "plan" && !typed.trimStart().startsWith("/") ? `/plan -- ${typed}` : typed;
    const controller = new AbortController();
    s.turn = controller;
    let final: Extract<StreamEvent, { type: "turn.complete" }> | undefined;
    // What a command shows (`/mcp`, "the plan waits: …") is the agent's message.
    const print = (t: string): void => this.update(s.handle.id, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t.endsWith("\n") ? t : `${t}\n` } });
    try {
      for await (const ev of s.handle.submit(text, { signal: controller.signal, print })) {
        for (const u of updatesOf(ev, this.api.root, s.calls)) this.update(s.handle.id, u);
        if (ev.type === "turn.complete") final = ev;
      }
    } finally {
      s.turn = undefined;
      s.calls.clear();
      this.afterPrompt(s);
    }
    if (controller.signal.aborted) return { stopReason: "cancelled" };
    if (!final) return { stopReason: "end_turn" }; // a command that only showed something
    if (final.stopReason === "error") throw new RpcError(-32603, final.error ?? "the turn failed", { sessionId: s.handle.id });
    return { stopReason: acpStopReason(final.stopReason), _meta: { deepcode: { stopReason: final.stopReason, costUsd: final.costUsd, usage: final.usage } } };
  }

  /** After a prompt: plan mode left (`/plan go`, `/plan drop`) is the default mode again; a
   *  changed command list (an MCP server's prompts arrived) is sent. */
  private afterPrompt(s: AcpSession): void {
    if (s.mode === "plan" && !planningIn(this.api, s.handle.id)) {
      s.mode = "default";
      this.update(s.handle.id, { sessionUpdate: "current_mode_update", currentModeId: "default" });
    }
    this.commands(s);
  }

  /** available_commands_update, when the list differs from the one the editor has. */
  private commands(s: AcpSession): void {
    const list = s.handle.commands().map((c) => ({ name: c.name, description: c.description, ...(c.hint ? { input: { hint: c.hint } } : {}) }));
    const text = JSON.stringify(list);
    if (text === s.commandsSent) return;
    s.commandsSent = text;
    this.update(s.handle.id, { sessionUpdate: "available_commands_update", availableCommands: list });
  }

  private async setMode(p: Params): Promise<unknown> {
    const s = this.session(p);
    const mode = stringParam(p, "modeId");
    if (!MODES.some((m) => m.id === mode)) throw new RpcError(INVALID_PARAMS, `no mode '${mode}' (deepcode offers ${MODES.map((m) => m.id).join(", ")})`);
    if (mode === "plan" && this.api.statusOf("plan") === undefined) throw new RpcError(INVALID_PARAMS, "plan mode is not available: the plan mod did not load");
    if (s.turn) throw new RpcError(INVALID_PARAMS, "a prompt is running in this session: change the mode after it ends (or session/cancel it)");
    if (s.mode === "plan" && mode !== "plan") for await (const ev of s.handle.submit("/plan off")) void ev; // leaves plan mode (prints only)
    s.acceptEdits?.();
    s.acceptEdits = mode === "acceptEdits" ? this.api.allow(["Edit(/**)", "Write(/**)"], { sessionId: s.handle.id }) : undefined;
    s.mode = mode;
    this.update(s.handle.id, { sessionUpdate: "current_mode_update", currentModeId: mode });
    return {};
  }

  /** The tail note of a session opened in a folder inside the project (once: then it is known). */
  folderNote(sessionId: string): TailNote | undefined {
    const s = this.sessions.get(sessionId);
    if (!s?.folder) return undefined;
    const text = `The editor opened this session in ${s.folder}/ of the project: Bash starts there; file paths in tool calls are still relative to the project root.`;
    s.folder = "";
    return { id: "acp-folder", text };
  }

  private update(sessionId: string, update: Update): void {
    this.peer?.notify("session/update", { sessionId, update });
  }

  /** A call of one of our sessions starts running (past the gate): pending → in_progress, and
   *  its effects may go through the editor until the returned function says it ended. */
  running(sessionId: string, callId: string, tool: string): (() => void) | undefined {
    if (!this.sessions.has(sessionId)) return undefined;
    if (this.sessions.get(sessionId)?.calls.has(callId)) this.update(sessionId, { sessionUpdate: "tool_call_update", toolCallId: callId, status: "in_progress" });
    this.live.set(callId, { sessionId, tool });
    return () => void this.live.delete(callId);
  }

  /** Files and commands through the editor, for editor-io (link.ts). */
  effects(sandboxed: () => boolean): EditorEffects {
    return editorEffects({
      peer: () => this.peer,
      offers: () => this.offers,
      call: (callId) => (callId === undefined ? undefined : this.live.get(callId)),
      pending: (callId) => {
        if (callId === undefined) return undefined;
        for (const [sessionId, s] of this.sessions) {
          const c = s.calls.get(callId);
          if (c) return { sessionId, tool: c.tool };
        }
        return undefined;
      },
      sandboxed,
      secretEnv: this.api.host.secretEnv,
      terminal: (c, callId, terminalId) => this.update(c.sessionId, { sessionUpdate: "tool_call_update", toolCallId: callId, status: "in_progress", content: [{ type: "terminal", terminalId }] }),
      warn: (sessionId, message) => this.update(sessionId, { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: `[warning] ${message}\n` } }),
    });
  }

  /** A permission question for one of our sessions (or a subagent working for one): the
   *  editor's person answers with session/request_permission. No answer, an error, or a cancel
   *  is a deny. Undefined: not ours. */
  ask(e: EventOf<"permission.ask">): Promise<AskAnswer> | undefined {
    const id = this.sessions.has(e.sessionId) ? e.sessionId : e.agent && this.sessions.has(e.agent.rootSessionId) ? e.agent.rootSessionId : undefined;
    const s = id === undefined ? undefined : this.sessions.get(id);
    const peer = this.peer;
    if (!s || !peer || id === undefined) return undefined;
    return this.askEditor(peer, id, s, e);
  }

  private async askEditor(peer: Peer, id: string, s: AcpSession, e: EventOf<"permission.ask">): Promise<AskAnswer> {
    const callId = [...s.calls].find(([, c]) => c.tool === e.tool && JSON.stringify(c.input) === JSON.stringify(e.input))?.[0] ?? `ask-${Date.now()}`;
    const options = [
      { optionId: "allow", name: "Allow once", kind: "allow_once" },
      { optionId: "always", name: `Always allow ${e.remember} in this session`, kind: "allow_always" },
      { optionId: "deny", name: "Deny", kind: "reject_once" },
    ];
    const toolCall = { toolCallId: callId, title: toolTitle(e.tool, e.input), kind: toolKind(e.tool), status: "pending", rawInput: e.input, content: e.preview ? [{ type: "content", content: { type: "text", text: e.preview } }] : [] };
    let chosen: string | undefined;
    try {
      const r = (await peer.request("session/request_permission", { sessionId: id, toolCall, options }, s.turn?.signal)) as { outcome?: { outcome?: string; optionId?: string } } | null;
      chosen = r?.outcome?.outcome === "selected" ? r.outcome.optionId : undefined;
    } catch {
      // The editor answered with an error, the prompt was cancelled, or the pipe closed: deny.
      chosen = undefined;
    }
    if (chosen === "always") {
      // As the REPL's `a`: an allow rule for this session that never beats a deny or ask rule.
      try {
        s.remembered.push(this.api.allow([e.remember], { sessionId: e.sessionId }));
      } catch (err) {
        this.update(id, { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: `(could not remember ${e.remember}: ${(err as Error).message})\n` } });
      }
    }
    if (chosen === "allow" || chosen === "always") {
      return { decision: "allow", by: "editor" };
    }
    return { decision: "deny", reason: chosen === "deny" ? "the person denied it in the editor" : "nobody answered in the editor (cancelled)", by: "editor" };
  }
}

function stringParam(p: Params, key: string): string {
  const v = p[key];
  if (typeof v !== "string" || !v) throw new RpcError(INVALID_PARAMS, `'${key}' must be a non-empty string`);
  return v;
}

/** Whether the plan mod plans in this session (its status names each session that plans). */
function planningIn(api: PluginApi, sessionId: string): boolean {
  const plan = api.statusOf("plan");
  return plan?.planningIn?.includes(sessionId) ?? plan?.planning === true;
}

/** `cwd` relative to the project, through links ("" for the project itself; the host checked it is inside). */
function folderOf(root: string, cwd: string): string {
  try {
    return relative(realpathSync(root), realpathSync(cwd));
  } catch {
    // A folder that vanished since the host opened the session there: nothing to say about it.
    return "";
  }
}
