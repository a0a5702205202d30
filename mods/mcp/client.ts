// An MCP client over one connection: the lifecycle (`initialize` offering the current protocol
// version, accepting the older ones servers still answer with, then `initialized`), the
// server's features (tools, prompts, resources, completion — lists paginated), and the client
// features it offers back (roots, sampling, elicitation, logging) through handlers.

import { Connection, METHOD_NOT_FOUND, RpcError, type Json, type JsonObject, type RequestOptions, type Transport } from "./jsonrpc.js";
import { multiRound, type Answer } from "./mrtr.js";

/** Newest first; the first is what we offer. */
export const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
/** The stateless revision (SEP-2575): no handshake; `server/discover`, and on every request the
 *  version, capabilities and client info in `_meta` and the version header. Spoken when a
 *  server refuses `initialize` for want of them. */
export const STATELESS_VERSION = "2026-07-28";
/** The errors a stateless server answers `initialize` with: no version header, unsupported
 *  version, missing `_meta`, or no such method (a server that has dropped the handshake). */
const STATELESS_REFUSALS = new Set([-32020, -32022, -32602, METHOD_NOT_FOUND]);

export interface ClientHandlers {
  /** `roots/list`: the folders the person works in. */
  roots?(): Array<{ uri: string; name?: string }>;
  /** `sampling/createMessage`: answer with the session's model (when the person allows). */
  sampling?(params: JsonObject, signal: AbortSignal): Promise<JsonObject>;
  /** `elicitation/create`: ask the person (a form). */
  elicitation?(params: JsonObject, signal: AbortSignal): Promise<JsonObject>;
  /** `notifications/message`: the server's log lines. */
  log?(params: JsonObject): void;
  /** A `…/list_changed` notification. */
  changed?(what: "tools" | "prompts" | "resources"): void;
  /** The connection ended on its own (crash, dropped stream). */
  closed?(why: string): void;
}

export interface ServerInfo {
  protocolVersion: string;
  name: string;
  version: string;
  title?: string;
  capabilities: JsonObject;
  instructions?: string;
}

export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  annotations?: JsonObject;
  /** MCP 2025-11-25: `taskSupport` "required" means the tool runs only as a task. */
  execution?: Json;
}

export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
}

export interface McpResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface McpTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

const MAX_PAGES = 100;

export class McpClient {
  info!: ServerInfo;
  private constructor(private readonly conn: Connection, private readonly timeoutMs: number, private readonly answer: Answer) {}

  /** Open the transport and run the handshake within `timeoutMs`. */
  static async connect(transport: Transport, o: { clientInfo: { name: string; version: string }; handlers: ClientHandlers; timeoutMs: number; requestTimeoutMs: number; signal?: AbortSignal }): Promise<McpClient> {
    const h = o.handlers;
    const answer = async (method: string, params: JsonObject, signal: AbortSignal): Promise<JsonObject> => {
      if (method === "roots/list" && h.roots) return { roots: h.roots() as unknown as Json };
      if (method === "sampling/createMessage" && h.sampling) return h.sampling(params, signal);
      if (method === "elicitation/create" && h.elicitation) return h.elicitation(params, signal);
      throw new RpcError(METHOD_NOT_FOUND, `deepcode does not offer ${method}`);
    };
    const conn = new Connection(transport, {
      request: (method, params, ctx) => answer(method, params, ctx.signal),
      notification: (method, params) => {
        if (method === "notifications/message") h.log?.(params);
        else if (method === "notifications/tools/list_changed") h.changed?.("tools");
        else if (method === "notifications/prompts/list_changed") h.changed?.("prompts");
        else if (method === "notifications/resources/list_changed") h.changed?.("resources");
      },
      closed: (why) => h.closed?.(why),
    });
    const client = new McpClient(conn, o.requestTimeoutMs, answer);
    try {
      await conn.start();
      const capabilities: JsonObject = {};
      if (h.roots) capabilities.roots = { listChanged: false };
      if (h.sampling) capabilities.sampling = {};
      if (h.elicitation) capabilities.elicitation = { form: {} };
      let r: JsonObject;
      try {
        // The version header and `_meta` go on this first request too: a 2026-07-28 server
        // reads them on every request (SEP-2575); older servers ignore them.
        transport.setProtocolVersion?.(PROTOCOL_VERSIONS[0]);
        const _meta = requestMeta(PROTOCOL_VERSIONS[0], capabilities, o.clientInfo);
        r = await conn.request("initialize", { protocolVersion: PROTOCOL_VERSIONS[0], capabilities, clientInfo: o.clientInfo, _meta }, { timeoutMs: o.timeoutMs, signal: o.signal });
      } catch (err) {
        if (!(err instanceof RpcError) || !STATELESS_REFUSALS.has(err.code)) throw err;
        client.info = await discover(conn, transport, { ...o, capabilities });
        return client;
      }
      const version = String(r.protocolVersion ?? "");
      if (version === STATELESS_VERSION) {
        // A server that answers the handshake with the stateless revision: speak it from here.
        conn.requestMeta = requestMeta(STATELESS_VERSION, capabilities, o.clientInfo);
      } else if (!(PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
        throw new Error(`the server speaks MCP protocol ${version || "(none given)"}; deepcode speaks ${PROTOCOL_VERSIONS.join(", ")}, ${STATELESS_VERSION}`);
      }
      transport.setProtocolVersion?.(version);
      const si = (r.serverInfo ?? {}) as JsonObject;
      client.info = {
        protocolVersion: version,
        name: String(si.name ?? "?"),
        version: String(si.version ?? "?"),
        title: typeof si.title === "string" ? si.title : undefined,
        capabilities: (r.capabilities ?? {}) as JsonObject,
        instructions: typeof r.instructions === "string" ? r.instructions : undefined,
      };
      await conn.notify("notifications/initialized");
      return client;
    } catch (err) {
      await conn.close().catch(() => undefined); // closing a half-open connection: nothing to report
      throw err;
    }
  }

  get closedReason(): string | undefined {
    return this.conn.closedReason;
  }

  has(capability: "tools" | "prompts" | "resources" | "completions" | "logging"): boolean {
    return this.info.capabilities[capability] !== undefined && this.info.capabilities[capability] !== null;
  }

  close(): Promise<void> {
    return this.conn.close();
  }

  ping(timeoutMs = this.timeoutMs): Promise<JsonObject> {
    return this.conn.request("ping", undefined, { timeoutMs });
  }

  async listTools(): Promise<McpTool[]> {
    return (await this.paginate("tools/list", "tools")) as unknown as McpTool[];
  }

  async listPrompts(): Promise<McpPrompt[]> {
    return (await this.paginate("prompts/list", "prompts")) as unknown as McpPrompt[];
  }

  async listResources(): Promise<McpResource[]> {
    return (await this.paginate("resources/list", "resources")) as unknown as McpResource[];
  }

  async listTemplates(): Promise<McpTemplate[]> {
    return (await this.paginate("resources/templates/list", "resourceTemplates")) as unknown as McpTemplate[];
  }

  /** `headers`: the call's `Mcp-Param-*` headers (headers.ts). */
  callTool(name: string, args: JsonObject, o: { timeoutMs: number; signal?: AbortSignal; onProgress?: (p: { progress: number; total?: number; message?: string }) => void; headers?: Record<string, string> }): Promise<JsonObject> {
    return this.rounds("tools/call", { name, arguments: args }, o);
  }

  getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<JsonObject> {
    return this.rounds("prompts/get", { name, arguments: args }, { timeoutMs: this.timeoutMs, signal });
  }

  readResource(uri: string, signal?: AbortSignal): Promise<JsonObject> {
    return this.rounds("resources/read", { uri }, { timeoutMs: this.timeoutMs, signal });
  }

  /** A request the server may answer with `resultType: "input_required"` (SEP-2322, mrtr.ts). */
  private rounds(method: string, params: JsonObject, o: RequestOptions): Promise<JsonObject> {
    return multiRound((p) => this.conn.request(method, p, o), params, this.answer, o.signal);
  }

  /** `completion/complete` for a prompt's or a resource template's argument. */
  async complete(ref: JsonObject, argument: { name: string; value: string }, context?: Record<string, string>): Promise<string[]> {
    if (!this.has("completions")) return [];
    const params: JsonObject = { ref, argument };
    if (context && Object.keys(context).length) params.context = { arguments: context };
    const r = await this.conn.request("completion/complete", params, { timeoutMs: Math.min(this.timeoutMs, 5000) });
    const c = (r.completion ?? {}) as JsonObject;
    return Array.isArray(c.values) ? c.values.filter((v): v is string => typeof v === "string") : [];
  }

  private async paginate(method: string, key: string): Promise<JsonObject[]> {
    const out: JsonObject[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await this.conn.request(method, cursor === undefined ? {} : { cursor }, { timeoutMs: this.timeoutMs });
      const items = r[key];
      if (Array.isArray(items)) for (const it of items) if (it && typeof it === "object" && !Array.isArray(it)) out.push(it);
      const next = typeof r.nextCursor === "string" && r.nextCursor !== "" ? r.nextCursor : undefined;
      if (next === undefined || seen.has(next)) return out; // the last page, or a server going round in circles
      seen.add(next);
      cursor = next;
    }
    return out;
  }
}

/** The per-request `_meta` of SEP-2575: version, capabilities, client info. */
function requestMeta(version: string, capabilities: JsonObject, clientInfo: { name: string; version: string }): JsonObject {
  return {
    "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": clientInfo,
  };
}

/** The 2026-07-28 lifecycle: `server/discover` instead of the handshake. The server asks back
 *  (roots, sampling, elicitation) through multi-round-trip results (mrtr.ts), so the client
 *  features are declared as at `initialize`. */
async function discover(conn: Connection, transport: Transport, o: { clientInfo: { name: string; version: string }; capabilities: JsonObject; timeoutMs: number; signal?: AbortSignal }): Promise<ServerInfo> {
  transport.setProtocolVersion?.(STATELESS_VERSION);
  conn.requestMeta = requestMeta(STATELESS_VERSION, o.capabilities, o.clientInfo);
  const r = await conn.request("server/discover", {}, { timeoutMs: o.timeoutMs, signal: o.signal });
  const versions = Array.isArray(r.supportedVersions) ? r.supportedVersions.map(String) : [];
  if (!versions.includes(STATELESS_VERSION)) throw new Error(`the server refuses initialize and speaks ${versions.join(", ") || "no version it names"}; deepcode speaks ${[STATELESS_VERSION, ...PROTOCOL_VERSIONS].join(", ")}`);
  const meta = (r._meta ?? {}) as JsonObject;
  const si = (meta["io.modelcontextprotocol/serverInfo"] ?? r.serverInfo ?? {}) as JsonObject;
  return {
    protocolVersion: STATELESS_VERSION,
    name: String(si.name ?? "?"),
    version: String(si.version ?? "?"),
    title: typeof si.title === "string" ? si.title : undefined,
    capabilities: (r.capabilities ?? {}) as JsonObject,
    instructions: typeof r.instructions === "string" ? r.instructions : undefined,
  };
}
