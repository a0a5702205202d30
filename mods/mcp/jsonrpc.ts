// JSON-RPC 2.0 in both directions over one transport: our requests with their time limits,
// cancellation (`notifications/cancelled`) and progress tokens; the server's requests (ping,
// roots, sampling, elicitation) answered by handlers, which a `notifications/cancelled` from
// the server aborts. Transports only move messages; everything about ids lives here.
//
// Keep-alive: an outstanding request (ours or the server's) holds the process open
// (transport.ref); an idle connection never does, so a server cannot keep deepcode running.

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export interface TransportHandlers {
  message(m: unknown): void;
  closed(reason: string): void;
  /** What arrived cannot be read as a message (a line that starts like JSON but is not): the
   *  requests waiting for an answer fail at once instead of waiting for their time limit. */
  garbled?(what: string): void;
}

export interface Transport {
  /** Start; `message` for each message that arrives, `closed` once when the transport ends
   *  on its own (a crashed process, a dropped stream) with why. */
  start(h: TransportHandlers): Promise<void>;
  /** `headers`: extra HTTP headers for this message (a tool's `Mcp-Param-*`); the HTTP
   *  transports send them, stdio ignores them. */
  send(m: JsonObject, o?: { headers?: Record<string, string> }): Promise<void>;
  /** End it on purpose (no `closed` call follows). */
  close(): Promise<void>;
  /** Hold the process open while work is outstanding; let it go when idle. */
  ref(): void;
  unref(): void;
  /** The protocol version agreed at initialize (both HTTP transports send it as a header). */
  setProtocolVersion?(version: string): void;
}

/** An error answer, ours or the server's: `code` as JSON-RPC and MCP define them. */
export class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: Json) {
    super(message);
    this.name = "RpcError";
  }
}

export const REQUEST_TIMEOUT = -32001;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

export interface RequestOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Asks the server for progress (a progress token); each notification also restarts the
   *  time limit, as the spec allows — but never past `maxTotalMs` from the start (default
   *  PROGRESS_CAP × timeoutMs), so a server that reports progress forever still ends. */
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
  maxTotalMs?: number;
  /** Extra HTTP headers for this request (Transport.send). */
  headers?: Record<string, string>;
}

/** A call that reports progress may run at most this many times its time limit in all. */
export const PROGRESS_CAP = 3;

export interface IncomingContext {
  signal: AbortSignal;
}

export interface Handlers {
  request(method: string, params: JsonObject, ctx: IncomingContext): Promise<JsonObject>;
  notification(method: string, params: JsonObject): void;
  /** The transport ended on its own. */
  closed(reason: string): void;
}

interface Pending {
  resolve(v: JsonObject): void;
  reject(e: Error): void;
  onProgress?: RequestOptions["onProgress"];
  restart(): void;
  done(): void;
}

export class Connection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly incoming = new Map<string | number, AbortController>();
  private open = false;
  private ended?: string;
  /** `_meta` every request carries (the 2026-07-28 revision's per-request protocol version,
   *  capabilities and client info: client.ts). */
  requestMeta?: JsonObject;

  constructor(private readonly transport: Transport, private readonly h: Handlers) {}

  async start(): Promise<void> {
    await this.transport.start({ message: (m) => this.receive(m), closed: (why) => this.lost(why), garbled: (what) => this.garbled(`the server sent something that is not a JSON-RPC message: ${what.slice(0, 120)}`) });
    this.open = true;
  }

  get closedReason(): string | undefined {
    return this.ended;
  }

  request(method: string, params: JsonObject | undefined, o: RequestOptions): Promise<JsonObject> {
    if (this.ended) return Promise.reject(new Error(`the connection is closed (${this.ended})`));
    const id = this.nextId++;
    const p: JsonObject = { ...(params ?? {}) };
    if (this.requestMeta) p._meta = { ...this.requestMeta, ...((p._meta as JsonObject | undefined) ?? {}) };
    if (o.onProgress) p._meta = { ...((p._meta as JsonObject | undefined) ?? {}), progressToken: id };
    return new Promise<JsonObject>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = Date.now() + (o.maxTotalMs ?? o.timeoutMs * PROGRESS_CAP);
      const onAbort = (): void => {
        this.cancel(id, "the user cancelled the call");
        entry.done();
        reject(new Error("cancelled"));
      };
      const entry: Pending = {
        resolve: (v) => {
          entry.done();
          resolve(v);
        },
        reject: (e) => {
          entry.done();
          reject(e);
        },
        onProgress: o.onProgress,
        restart: () => {
          if (timer) clearTimeout(timer);
          const left = deadline - Date.now();
          const capped = left < o.timeoutMs;
          timer = setTimeout(() => {
            this.cancel(id, capped ? "still running at the time limit (progress does not extend it further)" : `no answer within ${o.timeoutMs} ms`);
            entry.done();
            const most = Math.round((o.maxTotalMs ?? o.timeoutMs * PROGRESS_CAP) / 1000);
            const limit = Math.round(o.timeoutMs / 1000);
            const why = `still reporting progress after ${most} s, the most a call may run (progress extends the ${limit} s limit at most that far)`;
            reject(capped ? new RpcError(REQUEST_TIMEOUT, `${method} was ${why}`, { capped: why }) : new RpcError(REQUEST_TIMEOUT, `${method} timed out after ${limit} s`));
          }, Math.max(0, Math.min(o.timeoutMs, left)));
          timer.unref?.();
        },
        done: () => {
          if (timer) clearTimeout(timer);
          o.signal?.removeEventListener("abort", onAbort);
          if (this.pending.delete(id)) this.idle();
        },
      };
      if (o.signal?.aborted) return reject(new Error("cancelled"));
      o.signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, entry);
      this.transport.ref();
      entry.restart();
      this.transport.send({ jsonrpc: "2.0", id, method, params: p }, o.headers ? { headers: o.headers } : undefined).catch((err: unknown) => entry.reject(err instanceof Error ? err : new Error(String(err))));
    });
  }

  notify(method: string, params?: JsonObject): Promise<void> {
    if (this.ended) return Promise.resolve();
    const m: JsonObject = { jsonrpc: "2.0", method };
    if (params) m.params = params;
    return this.transport.send(m);
  }

  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = "closed by deepcode";
    this.failAll(new Error("the connection was closed"));
    if (this.open) await this.transport.close();
  }

  private cancel(id: number, reason: string): void {
    // The server may still be working on it: tell it to stop (it must not answer after this).
    this.notify("notifications/cancelled", { requestId: id, reason }).catch(() => undefined); // a dead transport: nothing to cancel
  }

  private lost(why: string): void {
    if (this.ended) return;
    this.ended = why;
    this.failAll(new Error(`the server connection ended: ${why}`));
    this.h.closed(why);
  }

  /** A reply deepcode cannot match to a request: every waiting request fails now (its answer
   *  may have been that one), rather than at its time limit. */
  private garbled(why: string): void {
    for (const p of [...this.pending.values()]) p.reject(new Error(why));
  }

  private failAll(err: Error): void {
    for (const p of [...this.pending.values()]) p.reject(err);
    for (const c of this.incoming.values()) c.abort();
    this.incoming.clear();
  }

  private idle(): void {
    if (this.pending.size === 0 && this.incoming.size === 0) this.transport.unref();
  }

  private receive(raw: unknown): void {
    if (Array.isArray(raw)) {
      for (const m of raw) this.receive(m);
      return;
    }
    if (typeof raw !== "object" || raw === null) return; // not a message: nothing to answer
    const m = raw as JsonObject;
    const method = typeof m.method === "string" ? m.method : undefined;
    const hasId = typeof m.id === "number" || typeof m.id === "string";
    if (method && hasId) return void this.answer(m.id as string | number, method, (m.params as JsonObject) ?? {});
    if (method) return this.notification(method, (m.params as JsonObject) ?? {});
    if (!hasId) {
      // A reply without an id (`"id": null`: the server could not read a request of ours).
      if ("id" in m && (m.error !== undefined || m.result !== undefined)) this.garbled(`the server could not read a request (${errorText(m.error)})`);
      return;
    }
    const id = typeof m.id === "number" ? m.id : /^\d+$/.test(String(m.id)) ? Number(m.id) : NaN;
    const p = this.pending.get(id);
    if (!p) {
      // An answer to a request we gave up on (timed out, cancelled) is dropped; one to an id
      // deepcode never sent means the replies cannot be matched.
      if (!(Number.isInteger(id) && id > 0 && id < this.nextId)) this.garbled(`the server answered a request deepcode never sent (id ${JSON.stringify(m.id)})`);
      return;
    }
    if (m.error !== undefined && m.error !== null) {
      const e = isObj(m.error) ? m.error : { message: m.error };
      p.reject(new RpcError(typeof e.code === "number" ? e.code : INTERNAL_ERROR, errorText(m.error), e.data));
    } else if (isObj(m.result)) p.resolve(m.result);
    else p.reject(new Error(m.result === undefined ? "the server's reply has neither a result nor an error" : `the server's result is not an object: ${JSON.stringify(m.result).slice(0, 80)}`));
  }

  private notification(method: string, params: JsonObject): void {
    if (method === "notifications/progress") {
      const p = this.pending.get(Number(params.progressToken));
      if (p?.onProgress && typeof params.progress === "number") {
        p.restart();
        p.onProgress({ progress: params.progress, total: typeof params.total === "number" ? params.total : undefined, message: typeof params.message === "string" ? params.message : undefined });
      }
      return;
    }
    if (method === "notifications/cancelled") {
      const id = params.requestId;
      if (typeof id === "string" || typeof id === "number") this.incoming.get(id)?.abort();
      return;
    }
    try {
      this.h.notification(method, params);
    } catch {
      // A handler that fails on a notification has nobody to answer; the client logs its own errors.
    }
  }

  private async answer(id: string | number, method: string, params: JsonObject): Promise<void> {
    const ctl = new AbortController();
    this.incoming.set(id, ctl);
    this.transport.ref();
    let reply: JsonObject;
    try {
      const result = method === "ping" ? {} : await this.h.request(method, params, { signal: ctl.signal });
      reply = { jsonrpc: "2.0", id, result };
    } catch (err) {
      const e = err instanceof RpcError ? err : new RpcError(INTERNAL_ERROR, err instanceof Error ? err.message : String(err));
      reply = { jsonrpc: "2.0", id, error: { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) } };
    } finally {
      this.incoming.delete(id);
      this.idle();
    }
    // A request the server cancelled gets no answer (the spec: the receiver should not reply).
    if (ctl.signal.aborted) return;
    await this.transport.send(reply).catch(() => undefined); // the transport ended meanwhile: nobody to answer
  }
}

function isObj(v: Json | undefined): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A JSON-RPC error's message, whatever shape the server gave it (an object, or a bare string). */
function errorText(e: Json | undefined): string {
  if (typeof e === "string") return e || "error";
  if (isObj(e) && typeof e.message === "string" && e.message) return e.message;
  return e === undefined || e === null ? "error" : JSON.stringify(e).slice(0, 200);
}

/** Why a request failed, in words for the model and the log (`timeoutMs`: the limit it ran under). */
export function reasonOf(err: unknown, timeoutMs: number): string {
  // A call stopped at the progress cap did answer (with progress): it is named as such.
  if (err instanceof RpcError && err.code === REQUEST_TIMEOUT && isObj(err.data) && typeof err.data.capped === "string") return err.data.capped;
  if (err instanceof RpcError && err.code === REQUEST_TIMEOUT) return `no answer within ${Math.round(timeoutMs / 1000)} s`;
  if (err instanceof RpcError) return `the server answered with an error: ${err.message} (${err.code})`;
  return err instanceof Error ? err.message : String(err);
}
