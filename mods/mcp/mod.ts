// The mcp mod's state over one run: its servers, the hooks that start them, wait for them,
// ask about project servers and tell the model what changed (index.ts registers it; the
// header there says what each hook does).

import type { Socket } from "node:net";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type { CommandSpec, PluginApi, SubcommandContext, ToolSpec } from "../../src/contract/index.js";
import { ApprovalStore, configDigest } from "./approvals.js";
import { BroughtServers } from "./brought.js";
import type { ClientHandlers } from "./client.js";
import type { McpOptions, ServerConfig } from "./config.js";
import { deferTools } from "./defer.js";
import { McpLog } from "./log.js";
import { indexLine, PROXY_TOOL } from "../../src/lib/tool-index.js";
import { contentOf, fieldsOf, unattendedAnswer } from "./forms.js";
import { RpcError, type JsonObject } from "./jsonrpc.js";
import { serverParts } from "./names.js";
import { registerResourceMentions } from "./resources.js";
import { sampleWithModel } from "./sampling.js";
import { Server } from "./server.js";
import { SignInStore } from "./oauth/store.js";
import type { PinAnswer, PinQuestion } from "./oauth/pin.js";
import { statusCommand, statusWord } from "./status.js";
import { unavailable } from "./unavailable.js";

export class McpMod {
  private servers: Server[] = [];
  private readonly brought = new BroughtServers<Server>();
  /** Main sessions open now: the servers end with the last of them. */
  private readonly open = new Set<string>();
  private readonly store: ApprovalStore;
  private readonly session = { id: "", model: "", turn: 0 };
  private readonly news: string[] = [];
  private waited = false;
  private indexTold = false;
  /** A main-session turn is past its first request's wait: a server connecting now is told to
   *  the model with the next tool result of this turn (midTurn), not only at the next turn. */
  private inTurn = false;
  private readonly midTurn: Server[] = [];
  /** Tools whose definition changed (or that went away) since the model last heard: told at
   *  the next turn's tail. */
  private readonly changedTools = new Map<string, ToolSpec | undefined>();
  private readonly log = new McpLog(() => this.o.logDir);

  private readonly signIns: SignInStore;
  private statusSpec?: CommandSpec;

  constructor(private readonly api: PluginApi, private o: McpOptions) {
    this.store = new ApprovalStore(api.home, api.root);
    this.signIns = new SignInStore(api.home);
    this.build(o);
  }

  private build(o: McpOptions): void {
    this.o = o;
    this.servers = o.servers.map((cfg) => this.server(cfg));
  }

  private server(cfg: ServerConfig): Server {
    const api = this.api;
    const signIns = this.signIns;
    const o = this.o;
    return new Server(cfg, {
      options: o,
      tool: (spec) => api.tool(spec),
      command: (spec) => api.command(spec),
      handlers: (s) => this.handlers(s),
      news: (text) => this.tell(text),
      log: (server, line) => this.log.line(server, line),
      connected: (s) => {
        if (this.inTurn && s.tools.length && !this.midTurn.includes(s)) this.midTurn.push(s);
      },
      toolChanged: (name, now) => {
        // Before the session's first turn the prefix is still to be built: it will hold the new list.
        if (this.session.turn > 0) this.changedTools.set(name, now);
      },
      // deepcode's own way to the network (its proxy settings); sockets are node:net's.
      connect: (url, signal) => api.connect(url, signal) as Promise<Socket>,
      signIns,
      askPin: (s, q, signingIn) => this.askPin(s, q, signingIn),
      launch: (req) => api.dispatch({ type: "process.launch", ...req }),
    });
  }

  /** `deepcode mcp login`'s terminal, while it runs (fromShell): its question about a server's
   *  new authorization server is asked there, since a subcommand's person.ask is denied. */
  private terminal?: SubcommandContext;

  /** May the server's configured credential go to a new authorization server (oauth/pin.ts)?
   *  In a session, person.ask (the REPL answers; -p denies: nobody); in `deepcode mcp login`,
   *  the terminal's yes/no for the server signing in (not for the connections `mcp` starts of
   *  its own accord before it: the sign-in would ask again); in the other verbs, nobody. */
  private async askPin(s: Server, q: PinQuestion, signingIn: boolean): Promise<PinAnswer> {
    const t = this.terminal;
    if (t) {
      if (!signingIn || !process.stdin.isTTY) return "nobody";
      t.err(`${q.detail.join("\n")}\n`);
      return (await t.confirm(q.title)) ? "yes" : "no";
    }
    const answer = await this.api.dispatch({ type: "person.ask", sessionId: this.session.id, kind: "mcp.oauth-pin", from: `mcp:${s.name}`, title: q.title, detail: q.detail });
    if (answer.decision === "allow") return "yes";
    // Only the person's own no is a no; -p, and the REPL between turns ("asked while no turn or
    // command was running"), or a hook's deny, mean nobody answered.
    return answer.by === "user" ? "no" : "nobody";
  }

  /** Servers the front end that opened a session brought for it (session.start's mcpServers,
   *  the editor's under `deepcode acp`; brought.ts reads them): the person's own, so they start
   *  at once, and the first turn waits for them. They are that session's (BroughtServers): one
   *  another open session brought with the same configuration is shared, and each ends with
   *  the last session that brought it (forget). */
  adopt(sessionId: string, cfgs: readonly ServerConfig[]): void {
    const fresh: Server[] = [];
    for (const c of cfgs) {
      const same = this.servers.find((s) => s.name === c.name);
      if (same && !this.brought.has(same)) this.api.log.warn(`MCP server "${c.name}" the editor brings has the name of a configured one: the configured one is kept`);
      else if (same && configDigest(same.cfg.raw) !== configDigest(c.raw)) this.api.log.warn(`MCP server "${c.name}" the editor brings for this session is not started: another open session brought a different server of that name (its tools would have the same names)`);
      else if (same) this.brought.add(same, sessionId);
      else fresh.push(this.server(c));
    }
    for (const s of fresh) this.brought.add(s, sessionId);
    this.servers = [...this.servers, ...fresh];
    this.partNames();
    this.waited = false;
    if (this.started) for (const s of fresh) if (s.cfg.start) void s.start();
  }

  /** A session ended: the servers only it brought go (their tool names are free again). */
  private async forget(sessionId: string): Promise<void> {
    const gone = this.brought.drop(sessionId);
    this.servers = this.servers.filter((s) => !gone.includes(s));
    for (const s of gone) s.release();
    await Promise.all(gone.map((s) => s.stop("off", "its session ended")));
  }

  private started = false;

  /** Servers whose names come out the same in tool names get distinct parts, said loudly. */
  private partNames(): void {
    const parts = serverParts(this.servers.map((s) => s.name));
    for (const s of this.servers) {
      const p = parts.get(s.name);
      if (!p) continue;
      s.part = p.part;
      if (p.clash) {
        const msg = `MCP server "${s.name}" and ${p.clash.map((c) => `"${c}"`).join(", ")} come out the same in tool names: "${s.name}"'s tools are mcp__${p.part}__… (write permission rules with that name)`;
        this.api.log.warn(msg);
        this.log.line(s.name, msg);
      }
    }
  }

  /** Start the servers (once): approved ones connect in the background, project servers that
   *  need the person's approval wait for the next turn's start. */
  private startAll(): void {
    if (this.started) return;
    this.started = true;
    for (const s of this.servers) {
      if (!s.cfg.start) continue;
      if (s.cfg.approval === "ask") {
        const a = this.store.get(s.name, configDigest(s.cfg.raw));
        if (!a) {
          s.state = "needs-approval";
          continue;
        }
        if (!a.allowed) {
          s.state = "declined";
          continue;
        }
      }
      void s.start();
    }
    if (this.store.problem) this.tell(`${this.store.file} ${this.store.problem}: project MCP servers ask again`);
  }

  install(): void {
    const api = this.api;
    this.partNames();
    api.on("session.start", (e, next) => {
      // Right after the session is up (the REPL's banner is printed first): spawning a server
      // costs the process a few ms, which the start-up need not pay.
      setImmediate(() => this.startAll());
      this.session.id = e.sessionId;
      this.session.model = e.model;
      this.open.add(e.sessionId);
      this.log.open(e.sessionId);
      return next();
    });
    api.on("session.end", async (e, next) => {
      try {
        return await next();
      } finally {
        // A new session in the same REPL (/new, /resume) keeps the servers; so does another
        // session still open (an editor's other thread), which loses only what this one brought.
        this.open.delete(e.sessionId);
        await this.forget(e.sessionId);
        if (e.reason !== "new" && e.reason !== "switch" && this.open.size === 0) await this.closeAll();
      }
    });
    api.on(
      "turn.start",
      async (e, next) => {
        if (e.agent) this.brought.agent(e.sessionId, e.agent.rootSessionId);
        if (e.agent) return next(); // a subagent's turn: the main session's state and notices stay its own
        this.session.turn = e.turn;
        this.startAll();
        for (const s of this.servers.filter((x) => x.state === "needs-approval")) await this.ask(s, e.sessionId);
        if (!this.waited) {
          this.waited = true;
          await this.settle(this.o.firstRequestWaitMs);
          for (const s of this.servers.filter((x) => x.state === "connecting")) {
            this.tell(`MCP server ${s.name} is still connecting after ${Math.round(this.o.firstRequestWaitMs / 100) / 10} s: going on without it; its tools come through UseTool once it is ready`);
          }
        }
        this.inTurn = true;
        const r = await next();
        const notices = this.news.splice(0);
        return notices.length ? { ...(r ?? {}), notices: [...(r?.notices ?? []), ...notices] } : r;
      },
      { timeoutMs: Infinity },
    );
    api.on("context.tail", async (e, next) => {
      const r = await next();
      if (e.sessionId !== this.session.id || this.changedTools.size === 0) return r;
      const lines = [...this.changedTools].map(([name, spec]) =>
        spec ? `- ${name} changed. It now reads: ${spec.description}\n  parameters: ${JSON.stringify(spec.inputSchema)}` : `- ${name} is no longer offered by its MCP server.`,
      );
      this.changedTools.clear();
      return { notes: [...r.notes, { id: "mcp-tools-changed", text: `MCP tools changed since you last heard (this replaces what you knew of them):\n${lines.join("\n")}` }] };
    });
    api.on("turn.complete", (e, next) => {
      if (e.agent) this.brought.agent(e.sessionId, undefined);
      if (!e.agent) {
        this.inTurn = false;
        this.midTurn.length = 0;
      }
      return next();
    });
    api.on("tool.result", async (e, next) => {
      const out = await next();
      if (e.sessionId !== this.session.id || this.midTurn.length === 0) return out;
      const told = this.midTurn.splice(0).filter((s) => this.brought.sees(s, e.sessionId));
      if (told.length === 0) return out;
      const lines = told.flatMap((s) => s.tools.map((t) => indexLine({ name: t.name, description: t.tool.description ?? t.tool.title ?? "" })));
      const names = told.map((s) => s.name).join(", ");
      return { ...out, content: `${out.content}\n\n[deepcode] MCP server ${names} connected during this turn. Its tools can be called now through UseTool with {"name": "<tool>", "input": {…}} ({"name"} alone gives a tool's parameters):\n${lines.join("\n")}` };
    });
    // A tool that cannot run now says why, called by name or through UseTool (unavailable.ts).
    api.on("tool.input", async (e, next) => {
      const owners = { servers: this.servers, sees: (s: Server, sid: string) => this.brought.sees(s, sid) };
      const direct = unavailable(e.tool, e.sessionId, owners);
      if (direct) return { error: direct };
      const r = await next();
      const inner = e.tool === PROXY_TOOL && "input" in r && typeof r.input.name === "string" ? unavailable(r.input.name, e.sessionId, owners) : undefined;
      return inner ? { error: inner } : r;
    });
    // Many MCP tools: their definitions go into UseTool's on-demand index (defer.ts).
    api.on("tool.list", async (e, next) => {
      const others = new Set(this.servers.filter((s) => !this.brought.sees(s, e.sessionId)).flatMap((s) => s.tools.map((t) => t.name)));
      const defs = (await next()).filter((d) => !others.has(d.function.name));
      const mine = new Set(this.servers.flatMap((s) => s.tools.map((t) => t.name)));
      const r = deferTools(defs, (n) => mine.has(n), this.o.toolIndexTokens);
      if (r.indexed && !this.indexTold) {
        this.indexTold = true;
        this.log.line("deepcode", `${r.indexed} tools (≈${r.tokens} tokens of definitions, over mcpToolIndexTokens ${this.o.toolIndexTokens}) load on demand through UseTool`);
      }
      return r.tools;
    });
    registerResourceMentions(api, () => this.servers);
    this.statusSpec = statusCommand({ servers: () => (this.startAll(), this.servers), approve: (s, sid) => this.ask(s, sid, true), logFile: () => this.log.file, settle: () => (this.startAll(), this.settle(this.o.startupTimeoutMs)) });
    api.command(this.statusSpec);
    api.status(() => ({
      servers: this.servers.map((s) => ({ name: s.name, status: statusWord(s), tools: s.tools.length, scope: s.cfg.scope })),
    }));
  }

  /** `deepcode mcp list|get|approve|login|logout` (command.ts): `/mcp` run once, before any
   *  session, over `options` when flags after the verb changed the servers. */
  async fromShell(verb: string, rest: readonly string[], options: McpOptions | undefined, ctx: SubcommandContext): Promise<number> {
    if (options && !this.started) {
      this.build(options);
      this.partNames();
    }
    const line = [verb, ...rest].join(" ");
    let last = "";
    this.terminal = verb === "login" ? ctx : undefined;
    await this.statusSpec?.run({
      args: verb === "get" ? (rest[0] ?? "") : line,
      sessionId: "",
      signal: ctx.signal,
      interactive: false,
      print: (t) => {
        last = t;
        ctx.out(`${t}\n`);
      },
      submit: () => Promise.reject(new Error("deepcode mcp runs no model turns")),
    });
    this.terminal = undefined;
    // The servers it connected end as at a session's end (an HTTP server's session is deleted).
    await this.closeAll();
    // A sign-in that did not complete fails the command, so a script can tell.
    return verb === "login" && !/^(Signed in to|\S+ did not ask for sign-in)/.test(last) ? 1 : 0;
  }

  /** Wait until no server is connecting, at most `ms`. */
  private async settle(ms: number): Promise<void> {
    const connecting = this.servers.filter((s) => s.state === "connecting").map((s) => s.ready);
    if (connecting.length === 0 || ms <= 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.allSettled(connecting), new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }

  /** The person approves (or not) starting a project's server; the answer is remembered for
   *  this configuration when they say so. `again`: asked on purpose (/mcp approve). */
  private async ask(s: Server, sessionId: string, again = false): Promise<string> {
    if (!s.cfg.start) return `${s.name} is not started: ${s.reason}`;
    if (s.cfg.approval !== "ask") return `${s.name} needs no approval (${s.cfg.scope} configuration)`;
    if (!again && s.state !== "needs-approval") return s.describe();
    const env = Object.keys((s.cfg.raw.env as Record<string, unknown> | undefined) ?? {});
    const answer = await this.api.dispatch({
      type: "person.ask",
      sessionId,
      kind: "mcp.server",
      from: `mcp:${s.name}`,
      title: `Start the MCP server "${s.name}" from this project's ${basename(s.cfg.source)}?`,
      detail: [
        `${s.cfg.transport === "stdio" ? "runs" : "connects to"}: ${s.target()}`,
        ...(env.length ? [`with environment variables: ${env.join(", ")}`] : []),
        s.cfg.transport === "stdio" ? "It runs as you, outside the sandbox; each of its tools still asks before it runs." : "Each of its tools still asks before it runs.",
        ...(s.cfg.raw.elicitation === "defaults" ? ["Its entry answers its forms with their defaults where nobody can answer them (\"elicitation\": \"defaults\", -p)."] : []),
        "Your answer is remembered for this project until the server's configuration changes.",
      ],
      rememberable: true,
    });
    const digest = configDigest(s.cfg.raw);
    if (answer.remember) {
      try {
        this.store.set(s.name, digest, answer.decision === "allow");
      } catch (err) {
        this.tell(`could not remember the answer for ${s.name}: ${(err as Error).message}`);
      }
    }
    if (answer.decision !== "allow") {
      if (answer.remember) {
        s.state = "declined";
        return `${s.name} will not be started in this project (/mcp approve ${s.name} asks again)`;
      }
      s.state = "needs-approval";
      const why = answer.by === "non-interactive" ? "nobody can approve it here (-p): answer once in the REPL (deepcode, then /mcp approve), or list it in enabledMcpjsonServers" : (answer.reason ?? "not approved");
      this.tell(`MCP server ${s.name} (from ${basename(s.cfg.source)}) was not started: ${why}`);
      return `${s.name} not started: ${why}`;
    }
    if (s.state === "connected" || s.state === "connecting" || s.state === "reconnecting") return `${s.name}: ${s.describe()}`;
    await s.start();
    return `${s.name}: ${s.describe()}`;
  }

  private handlers(s: Server): Omit<ClientHandlers, "changed" | "closed"> {
    return {
      roots: () => this.o.roots.map((p) => ({ uri: pathToFileURL(p).href, name: basename(p) || p })),
      log: (p) => this.log.line(s.name, `[${String(p.level ?? "info")}]${p.logger ? ` ${String(p.logger)}:` : ""} ${typeof p.data === "string" ? p.data : JSON.stringify(p.data)}`),
      elicitation: (params, signal) => this.elicit(s, params, signal),
      sampling: (params, signal) => sampleWithModel(this.api, { server: s.name, policy: this.o.sampling, session: this.session }, params, signal),
    };
  }

  private async elicit(s: Server, params: JsonObject, signal: AbortSignal): Promise<JsonObject> {
    if (params.mode === "url") return { action: "decline" }; // not offered (the capability says form only)
    const fields = fieldsOf((params.requestedSchema ?? {}) as JsonObject);
    if (signal.aborted) return { action: "cancel" };
    const answer = await this.api.dispatch({
      type: "person.ask",
      sessionId: this.session.id,
      kind: "mcp.elicitation",
      from: `mcp:${s.name}`,
      title: `The MCP server "${s.name}" asks you:`,
      detail: [String(params.message ?? "")],
      fields,
    });
    if (signal.aborted) return { action: "cancel" };
    if (answer.decision !== "allow" && answer.by === "non-interactive") return unattendedAnswer(s.name, s.cfg.elicitation === "defaults", fields, { warn: (m) => this.api.log.warn(m), line: (m) => this.log.line(s.name, m) });
    if (answer.decision !== "allow") return { action: answer.reason === "cancel" ? "cancel" : "decline" };
    const { content, problems } = contentOf(fields, answer.values ?? {});
    if (problems.length) throw new RpcError(-32602, `the answer is not complete: ${problems.join("; ")}`);
    return { action: "accept", content: content as JsonObject };
  }

  private tell(text: string): void {
    if (!this.news.includes(text)) this.news.push(text);
  }

  private async closeAll(): Promise<void> {
    await Promise.all(this.servers.map((s) => (s.state === "off" || s.state === "needs-approval" || s.state === "declined" ? undefined : s.stop("off", "the session ended"))));
    await this.log.end();
  }
}
