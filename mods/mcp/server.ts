// One configured MCP server through its life: not started (and why), waiting for the person's
// approval, connecting, connected (its tools registered as `mcp__<server>__<tool>`, its
// prompts as slash commands, its resources listed for @-mentions), failed, or reconnecting
// after it went away — with backoff, reported once. A call while it is not connected is an
// error result that says why; the tools stay registered, so the model's view does not flap.

import type { CommandSpec, ProcessLaunch, ProcessLaunchRequest, ToolContext, ToolOutput, ToolSpec, Unsubscribe } from "../../src/contract/index.js";
import { McpClient, type ClientHandlers, type McpPrompt, type McpResource, type McpTemplate, type McpTool } from "./client.js";
import type { McpOptions, ServerConfig } from "./config.js";
import { reasonOf, type JsonObject, type Transport } from "./jsonrpc.js";
import { LegacySseTransport } from "./legacy-sse.js";
import { nameAll, safePart } from "./names.js";
import { toolOutput } from "./results.js";
import { mcpToolSpec, usable } from "./tool-spec.js";
import { headerParams, paramHeaders } from "./headers.js";
import { stdioTransport } from "./stdio.js";
import { StreamableHttpTransport } from "./streamable.js";
import { promptCommand } from "./prompts.js";
import type { Connector } from "./http.js";
import { isSignInNeeded, OAuth, type Person } from "./oauth/auth.js";
import type { SignInStore } from "./oauth/store.js";
import type { PinAnswer, PinQuestion } from "./oauth/pin.js";
import { sleep } from "../../src/lib/sleep.js";

export type State = "off" | "needs-approval" | "declined" | "connecting" | "connected" | "failed" | "reconnecting" | "needs-sign-in";

/** What a server needs of the mod around it. */
export interface ServerDeps {
  options: McpOptions;
  tool(spec: ToolSpec): Unsubscribe;
  command(spec: CommandSpec): Unsubscribe;
  /** Client features: built per server (they say who asks). */
  handlers(server: Server): Omit<ClientHandlers, "changed" | "closed">;
  /** Something the person should hear about (delivered at the next turn's start). */
  news(text: string): void;
  /** A line for the server's log (beside the session transcript). */
  log(server: string, line: string): void;
  connect?: Connector;
  /** A registered tool's definition changed or it was taken back (a list_changed after the
   *  first listing): the model hears it at the tail. */
  toolChanged?(name: string, now: ToolSpec | undefined): void;
  /** The server is connected for the first time (its tools registered). */
  connected?(server: Server): void;
  /** Where remote servers' sign-ins are kept (oauth/store.ts). */
  signIns: SignInStore;
  /** How a stdio server is started: the chain's process.launch (the sandbox wraps it there). */
  launch?(req: ProcessLaunchRequest): Promise<ProcessLaunch>;
  /** Ask the person whether the server's configured credential may go to a new authorization
   *  server (oauth/pin.ts); without it, nobody can answer. `signingIn`: within `login`. */
  askPin?(server: Server, q: PinQuestion, signingIn: boolean): Promise<PinAnswer>;
}

const BACKOFF_MS = [1000, 2000, 4000, 8000, 16000];
/** A first connection that fails is tried again after these waits (a server still installing,
 *  a port not yet open); one that cannot work (no such command, a protocol deepcode does not
 *  speak, no authorization, a damaged sign-in file — oauth/store.ts says "start it afresh")
 *  is not. */
const FIRST_BACKOFF_MS = [1000, 2000, 4000];
const HOPELESS = /command not found|speaks MCP protocol|\b40[13]\b|authoriz|start it afresh/;
const STDERR_LINES = 40;

export class Server {
  state: State;
  reason?: string;
  client?: McpClient;
  readonly stderr: string[] = [];
  tools: Array<{ name: string; tool: McpTool; renamed?: string }> = [];
  prompts: Array<{ name: string; prompt: McpPrompt }> = [];
  resources: McpResource[] = [];
  templates: McpTemplate[] = [];
  /** Its part of tool and prompt names, `mcp__<part>__…` (names.ts serverParts). */
  part: string;
  /** Settles when the current connection attempt ends (connected or not). */
  ready: Promise<void> = Promise.resolve();
  private readonly registered = new Map<string, { off: Unsubscribe; def: string }>();
  private readonly commands = new Map<string, Unsubscribe>();
  /** Tools left out for malformed x-mcp-header annotations, already told (headers.ts). */
  private readonly leftOut = new Set<string>();
  private attempt = 0;
  private firstTries = 0;
  /** When connecting began (its first attempt). */
  private since?: number;
  private stopped = false;
  /** Aborts the connection attempt under way (stop() never waits for a server still connecting). */
  private attemptCtl?: AbortController;
  private timer?: ReturnType<typeof setTimeout>;
  /** OAuth for a remote server, unless its configuration sends an Authorization header. */
  readonly oauth?: OAuth;
  private signInWaitMs?: number;

  constructor(readonly cfg: ServerConfig, private readonly d: ServerDeps) {
    this.part = safePart(cfg.name);
    this.state = cfg.start ? "connecting" : "off";
    this.reason = cfg.start ? undefined : cfg.why;
    const own = Object.keys(cfg.headers ?? {}).some((k) => k.toLowerCase() === "authorization");
    if (cfg.transport !== "stdio" && cfg.url && !own) {
      this.oauth = new OAuth({ name: cfg.name, url: cfg.url, config: cfg.oauth, store: d.signIns, connect: d.connect, log: (line) => d.log(cfg.name, `oauth: ${line}`), ask: (q, signingIn) => d.askPin?.(this, q, signingIn) ?? Promise.resolve("nobody") });
    }
  }

  /** Sign in now (`mcp login`): reconnect with a person at hand to authorize. */
  async login(person: Person): Promise<string> {
    if (!this.cfg.start) return `${this.name} is not started: ${this.reason}`;
    if (!this.oauth) return this.cfg.transport === "stdio" ? `${this.name} is a local (stdio) server: it has no sign-in` : `${this.name} sends its own Authorization header (its "headers"): deepcode does not sign in for it`;
    if (this.state === "needs-approval" || this.state === "declined") return `${this.name} needs your approval first: /mcp approve ${this.name}`;
    await this.stop("connecting");
    this.oauth.begin(person);
    // The person's sign-in happens inside the connection's first requests: they get its time.
    this.signInWaitMs = person.timeoutMs;
    try {
      await this.start();
    } finally {
      this.oauth.end();
      this.signInWaitMs = undefined;
    }
    if (this.state === "connected") return this.oauth.asked ? `Signed in to ${this.name}: ${this.describe()}` : `${this.name} did not ask for sign-in: ${this.describe()}`;
    return `Sign-in to ${this.name} did not complete: ${this.describe()}`;
  }

  /** Forget the sign-in (`mcp logout`) and disconnect. */
  async logout(): Promise<string> {
    if (!this.oauth) return `${this.name} has no sign-in to forget`;
    const had = this.oauth.logout();
    if (this.state === "connected" || this.state === "connecting" || this.state === "reconnecting") await this.stop("needs-sign-in", "signed out");
    return had ? `Signed out of ${this.name}: its tokens and registration are removed from ${this.d.signIns.file}` : `${this.name} had no stored sign-in`;
  }

  get name(): string {
    return this.cfg.name;
  }

  /** Connect now (a first start, `/mcp reconnect`, an approval). */
  start(): Promise<void> {
    this.stopped = false;
    if (this.timer) clearTimeout(this.timer);
    this.attemptCtl?.abort(); // an attempt still under way (or waiting to try again) gives way
    this.firstTries = 0;
    this.since = Date.now();
    this.ready = this.connect(false);
    return this.ready;
  }

  async stop(state: State = "off", reason?: string): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.attemptCtl?.abort();
    this.state = state;
    this.reason = reason;
    const c = this.client;
    this.client = undefined;
    await c?.close().catch(() => undefined); // ending it: a failure to close changes nothing
  }

  /** Take back the tools it registered: a server that leaves for good (mod.ts adopt). */
  release(): void {
    for (const r of this.registered.values()) r.off();
    this.registered.clear();
  }

  /** One line for `/mcp`. */
  describe(): string {
    switch (this.state) {
      case "connected": {
        const t = this.templates.length ? ` (+${this.templates.length} template${this.templates.length === 1 ? "" : "s"})` : "";
        return `connected · ${plural(this.tools.length, "tool")}, ${plural(this.prompts.length, "prompt")}, ${plural(this.resources.length, "resource")}${t}`;
      }
      case "connecting": {
        // How long it has been trying (every attempt): a server that hangs shows it.
        const secs = this.since === undefined ? 0 : Math.floor((Date.now() - this.since) / 1000);
        const took = secs >= 1 ? ` for ${secs} s` : "";
        return this.firstTries ? `connecting…${took} (attempt ${this.firstTries + 1} of ${FIRST_BACKOFF_MS.length + 1}; the last one failed: ${this.reason})` : `connecting…${took}`;
      }
      case "reconnecting":
        return `reconnecting (attempt ${this.attempt} of ${BACKOFF_MS.length}) after: ${this.reason}`;
      case "failed":
        return `failed: ${this.reason}`;
      case "needs-approval":
        return `needs your approval (/mcp approve ${this.name})`;
      case "needs-sign-in":
        return `needs sign-in (deepcode mcp login ${this.name}${this.reason && this.reason !== "signed out" ? `; ${this.reason}` : ""})`;
      case "declined":
        return `not started: you declined it for this project (/mcp approve ${this.name} asks again)`;
      default:
        return `not started: ${this.reason ?? "off"}`;
    }
  }

  /** What the person approves: the command line or the URL. */
  target(): string {
    const c = this.cfg;
    if (c.transport !== "stdio") return `${c.transport === "sse" ? "SSE" : "HTTP"} ${String(c.raw.url ?? c.url)}`;
    const args = Array.isArray(c.raw.args) ? c.raw.args.map(String) : (c.args ?? []);
    return [String(c.raw.command ?? c.command), ...args].join(" ");
  }

  private async connect(again: boolean): Promise<void> {
    this.state = again ? "reconnecting" : "connecting";
    this.d.log(this.name, again ? `reconnecting (attempt ${this.attempt} of ${BACKOFF_MS.length})` : `connecting (attempt ${this.firstTries + 1})`);
    const ctl = new AbortController();
    this.attemptCtl = ctl;
    let client: McpClient;
    try {
      client = await McpClient.connect(this.transport(), {
        signal: ctl.signal,
        clientInfo: { name: "deepcode", version: this.d.options.clientVersion },
        handlers: { ...this.d.handlers(this), changed: (what) => void this.refresh(what), closed: (why) => this.lost(why) },
        timeoutMs: this.signInWaitMs ?? this.d.options.startupTimeoutMs,
        requestTimeoutMs: this.signInWaitMs ?? this.d.options.startupTimeoutMs,
      });
      if (this.stopped || ctl.signal.aborted) {
        await client.close();
        return;
      }
      this.client = client;
      await this.refresh("tools");
      await this.refresh("prompts");
      await this.refresh("resources");
    } catch (err) {
      const why = reasonOf(err, this.d.options.startupTimeoutMs);
      this.d.log(this.name, `connection failed: ${why}`);
      if (this.stopped || ctl.signal.aborted) return;
      const c = this.client;
      this.client = undefined;
      await c?.close().catch(() => undefined); // it failed half-way: nothing more to end
      if (isSignInNeeded(err)) {
        // Not a failure: the person signs in when they choose to (nothing waits for a browser).
        this.state = "needs-sign-in";
        this.reason = err.message === "it needs sign-in" ? undefined : err.message;
        this.d.news(`MCP server ${this.name} needs sign-in: run deepcode mcp login ${this.name} (in the REPL: /mcp login ${this.name})`);
        return;
      }
      if (again) return this.retry(why);
      // A sign-in the person is waiting on (`mcp login`) that fails has failed: it is said at
      // once, not tried again behind their back.
      if (this.signInWaitMs === undefined && this.firstTries < FIRST_BACKOFF_MS.length && !HOPELESS.test(why)) {
        const wait = FIRST_BACKOFF_MS[this.firstTries++];
        this.reason = why;
        this.d.log(this.name, `trying again in ${wait / 1000} s (attempt ${this.firstTries + 1} of ${FIRST_BACKOFF_MS.length + 1})`);
        await sleep(wait, ctl.signal);
        if (this.stopped || ctl.signal.aborted) return;
        return this.connect(false);
      }
      this.state = "failed";
      this.reason = why;
      this.d.news(`MCP server ${this.name} failed to start: ${why}${this.stderr.length ? ` (its last words: ${this.stderr[this.stderr.length - 1].slice(0, 160)})` : ""}; /mcp shows more`);
      return;
    }
    const was = this.state;
    this.state = "connected";
    this.reason = undefined;
    this.d.log(this.name, `connected: ${client.info.name} ${client.info.version}, protocol ${client.info.protocolVersion}`);
    if (was === "reconnecting") this.d.news(`MCP server ${this.name} is connected again`);
    if (was === "connecting") this.d.connected?.(this); // a first connection (a reconnection's tools are known)
    this.attempt = 0;
    this.firstTries = 0;
  }

  /** The connection went away on its own: reconnect with backoff, said once. */
  private lost(why: string): void {
    // While connecting, the failed attempt itself reports (connect's catch).
    if (this.stopped || this.state !== "connected") return;
    this.client = undefined;
    this.d.log(this.name, `connection lost: ${why}`);
    this.d.news(`MCP server ${this.name} stopped (${why}); reconnecting in the background — its calls fail until it is back`);
    this.retry(why);
  }

  private retry(why: string): void {
    if (this.attempt >= BACKOFF_MS.length) {
      this.state = "failed";
      this.reason = `${why} (gave up after ${BACKOFF_MS.length} reconnection attempts; /mcp reconnect ${this.name} tries again)`;
      this.d.news(`MCP server ${this.name}: ${this.reason}`);
      return;
    }
    this.state = "reconnecting";
    this.reason = why;
    const wait = BACKOFF_MS[this.attempt++];
    this.timer = setTimeout(() => {
      this.ready = this.connect(true);
    }, wait);
    this.timer.unref();
  }

  private transport(): Transport {
    const c = this.cfg;
    const headers = c.headers ?? {};
    if (c.transport === "http") return new StreamableHttpTransport({ url: c.url!, headers, connect: this.d.connect, auth: this.oauth });
    if (c.transport === "sse") return new LegacySseTransport({ url: c.url!, headers, connect: this.d.connect, auth: this.oauth, timeoutMs: this.d.options.startupTimeoutMs });
    return stdioTransport(c, {
      root: this.d.options.roots[0] ?? process.cwd(),
      launch: this.d.launch,
      stderr: (line) => {
        this.stderr.push(line);
        if (this.stderr.length > STDERR_LINES) this.stderr.shift();
        this.d.log(this.name, `stderr: ${line}`);
      },
    });
  }

  /** Re-list what the server offers (at connect, and on its `list_changed`). */
  private async refresh(what: "tools" | "prompts" | "resources"): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      if (what === "tools" && client.has("tools")) this.setTools(await client.listTools());
      if (what === "prompts" && client.has("prompts")) this.setPrompts(await client.listPrompts());
      if (what === "resources" && client.has("resources")) {
        this.resources = await client.listResources();
        this.templates = await client.listTemplates().catch(() => []); // a server without templates may not know the method
      }
    } catch (err) {
      if (this.state !== "connected") throw err; // at connect time: the connection failed
      this.d.log(this.name, `re-listing ${what} failed: ${reasonOf(err, this.d.options.startupTimeoutMs)}`);
    }
  }

  private setTools(list: McpTool[]): void {
    const byName = new Map(list.filter((t) => typeof t.name === "string" && usable(this.name, t, this.leftOut, (l) => this.d.news(l))).map((t) => [t.name, t]));
    const named = nameAll(this.name, [...byName.keys()], this.part);
    const keep = new Set<string>();
    this.tools = [];
    for (const n of named) {
      const tool = byName.get(n.original)!;
      const spec = this.toolSpec(n.name, tool);
      const def = JSON.stringify([spec.description, spec.inputSchema, spec.concurrent]);
      keep.add(n.name);
      const had = this.registered.get(n.name);
      if (had?.def === def) {
        this.tools.push({ name: n.name, tool, renamed: n.renamed });
        continue;
      }
      had?.off();
      if (had) this.d.toolChanged?.(n.name, spec);
      try {
        this.registered.set(n.name, { off: this.d.tool(spec), def });
        this.tools.push({ name: n.name, tool, renamed: n.renamed });
        if (n.renamed) this.d.log(this.name, `tool ${n.original} is ${n.name}: ${n.renamed}`);
      } catch (err) {
        this.registered.delete(n.name);
        this.d.news(`MCP server ${this.name}: tool ${n.original} left out (${(err as Error).message})`);
      }
    }
    for (const [name, r] of this.registered) {
      if (keep.has(name)) continue;
      r.off();
      this.d.toolChanged?.(name, undefined);
      this.registered.delete(name);
    }
  }

  private setPrompts(list: McpPrompt[]): void {
    const byName = new Map(list.filter((p) => typeof p.name === "string").map((p) => [p.name, p]));
    for (const off of this.commands.values()) off();
    this.commands.clear();
    this.prompts = [];
    for (const n of nameAll(this.name, [...byName.keys()], this.part)) {
      const prompt = byName.get(n.original)!;
      try {
        this.commands.set(n.name, this.d.command(promptCommand(this, n.name, prompt)));
        this.prompts.push({ name: n.name, prompt });
      } catch (err) {
        this.d.news(`MCP server ${this.name}: prompt ${n.original} is not a command (${(err as Error).message})`);
      }
    }
  }

  private toolSpec(name: string, t: McpTool): ToolSpec {
    const h = headerParams(t.inputSchema);
    return mcpToolSpec(this.name, name, t, (input, ctx) => this.call(t.name, input, ctx, h.ok ? paramHeaders(h.params, input) : undefined));
  }

  async call(tool: string, input: JsonObject, ctx: ToolContext, headers?: Record<string, string>): Promise<ToolOutput> {
    const client = this.client;
    if (this.state !== "connected" || !client) {
      return { content: `MCP server ${this.name} is not connected (${this.describe()}), so ${tool} cannot run now. Tell the user, or go on without it.`, isError: true, summary: `${this.name} ${tool}: server not connected` };
    }
    try {
      const r = await client.callTool(tool, input, { timeoutMs: this.d.options.toolTimeoutMs, signal: ctx.signal, onProgress: (p) => ctx.progress?.(p), headers });
      return toolOutput(this.name, tool, r, this.d.options.maxOutputTokens);
    } catch (err) {
      if (ctx.signal.aborted) return { content: "Interrupted: the user stopped this call (the server was told to cancel it).", isError: true, summary: `${this.name} ${tool}: interrupted` };
      if (isSignInNeeded(err)) {
        return { content: `${tool} (MCP server ${this.name}) did not run: the server needs the user to sign in (${err.message}). Tell the user to run: deepcode mcp login ${this.name} (in the REPL: /mcp login ${this.name}).`, isError: true, summary: `${this.name} ${tool}: needs sign-in` };
      }
      const why = reasonOf(err, this.d.options.toolTimeoutMs);
      return { content: `${tool} (MCP server ${this.name}) failed: ${why}`, isError: true, summary: `${this.name} ${tool}: failed` };
    }
  }
}

function plural(n: number, w: string): string {
  return `${n} ${w}${n === 1 ? "" : "s"}`;
}
